/* `cudx explain`: recognise error messages in text (an argument, a file, a whole log), extract the
 * facts in them, and rank the causes that message can have against this machine's findings.
 *
 * The catalogue is data (data/explain_patterns.tsv, data/explain_causes.tsv, embedded at build
 * time and parsed at start-up): a pattern row names a category and the cause keys it can have;
 * a cause row ties a key to a finding id of the other commands (check, why, arch, probe, ...),
 * with the fix and the check that rules it out. */
#ifndef CUDX_EXPLAIN_H
#define CUDX_EXPLAIN_H

#include <stdbool.h>
#include <stddef.h>

#include "explain/explain_match.h"
#include "util/arena.h"
#include "util/span.h"

#define EXPLAIN_MAX_INPUT (16u << 20)  /* bytes read from a file or stdin */
#define EXPLAIN_MAX_LINE (64u << 10)   /* longer lines are cut here */
#define EXPLAIN_MAX_HITS 64            /* distinct recognised messages kept */
#define EXPLAIN_MAX_CAUSES 6           /* causes one pattern may name */
#define EXPLAIN_MAX_TSV (1u << 20)     /* a catalogue file larger than this is refused */

struct explain_cause_def {
	const char *key;      /* "cudnn-zlibwapi-missing", unique */
	const char *finding;  /* finding id shown to users ("dll-dependency-missing") */
	const char *category; /* "WIN_ZLIBWAPI" (the research categories) */
	const char *summary;  /* one line; {key} placeholders take captured facts */
	const char *fix;      /* steps separated by "\n" (two characters in the TSV) */
	const char *check;    /* what to run where the message happened */
	const char *rule_out; /* name of a machine check that contradicts it, or "" */
	const char *source;
};

struct explain_pattern_def {
	const char *id;       /* "win-loadlibrary-126-cudnn8" */
	int weight;           /* relevance when a log holds several messages (higher first) */
	const char *category;
	const char *text;     /* the pattern as written */
	struct explain_pattern pat;
	const char *when_key; /* guard: capture key ... */
	const char *when_glob;/* ... must match this glob; NULL = no guard */
	const struct explain_cause_def *causes[EXPLAIN_MAX_CAUSES];
	size_t n_causes;
	const char *source;
};

struct explain_catalog {
	struct explain_pattern_def *patterns;
	size_t n_patterns, cap_patterns;
	struct explain_cause_def *causes;
	size_t n_causes, cap_causes;
	const char **errors; /* "explain_patterns.tsv:12: unknown cause key 'x'" */
	size_t n_errors, cap_errors;
};

/* Parse the two TSV files (header row names the columns; '#' lines and blank lines skipped). Bad
 * rows are recorded in cat->errors and skipped. Inputs larger than EXPLAIN_MAX_TSV are refused. */
void explain_catalog_parse(struct arena *a, struct span causes_tsv, struct span patterns_tsv,
			   struct explain_catalog *cat);
/* The catalogue compiled into the binary. */
const struct explain_catalog *explain_catalog_builtin(struct arena *a);
const struct explain_cause_def *explain_cause_lookup(const struct explain_catalog *cat,
						     const char *key);

/* One distinct recognised message. */
struct explain_hit {
	const struct explain_pattern_def *def;
	const char *line;     /* the first line it was seen on (normalised, at most 1 KiB shown) */
	size_t line_no;       /* 1-based */
	size_t count;         /* how many lines said the same */
	struct explain_capture caps[EXPLAIN_MAX_CAPS];
	size_t n_caps;
};

struct explain_scan {
	struct explain_hit *hits; /* sorted: weight, then first appearance */
	size_t n_hits, cap_hits;
	size_t lines, bytes;
	size_t long_lines;     /* lines cut at EXPLAIN_MAX_LINE */
	size_t binary_lines;   /* lines that were mostly not text */
	size_t dropped_hits;   /* distinct messages beyond EXPLAIN_MAX_HITS */
};

/* Scan text line by line (at most EXPLAIN_MAX_INPUT bytes of it are looked at). */
void explain_scan_text(struct arena *a, const struct explain_catalog *cat, struct span text,
		       struct explain_scan *out);
/* The value of a capture by key, or NULL. */
const char *explain_hit_get(const struct explain_hit *h, const char *key);

#endif
