/* Reader of the record cudx-audit.so writes while `cudx run` watches a program (the line format
 * is in src/audit/audit_proto.h). Pure: a bounds-checked span in, events out; unescaped text is
 * copied into the arena. Bad lines are counted and the first one is described; the rest of the
 * record is still read. */
#ifndef CUDX_AUDITREC_H
#define CUDX_AUDITREC_H

#include <stdbool.h>
#include <stddef.h>

#include "util/arena.h"
#include "util/span.h"

#define AUDITREC_MAX_EVENTS 500000u   /* more are counted in `dropped`, not kept */
#define AUDITREC_MAX_LINE (64u << 10) /* a longer line is bad (the writer never makes one) */

struct auditrec_event {
	char type; /* 'V' 'G' 'E' 'F' 'S' 'O' 'C' 'A' 'P' 'T' (audit_proto.h) */
	long long pid;
	long long a, b;   /* V: ppid, format; F: parent pid; S: requester id, flag; O: object id, lmid;
			   * C: object id; A: flag; otherwise 0 */
	const char *text; /* V: exe; G: arguments; E: NAME=value; S: name; O: path; otherwise NULL */
	size_t line;      /* 1-based line number, for messages */
};

struct auditrec {
	struct auditrec_event *ev;
	size_t n, cap;
	size_t bad_lines;
	size_t first_bad_line; /* 0 when none */
	const char *first_bad; /* what was wrong with it */
	size_t dropped;        /* events past AUDITREC_MAX_EVENTS */
	bool incomplete_last;  /* the record ends inside a line (the program was killed mid-write) */
	bool full;             /* a T line: the writer stopped at its size limit */
};

/* Parse the whole record. Never fails; an empty span gives no events. */
void auditrec_parse(struct arena *a, struct span s, struct auditrec *out);

#endif
