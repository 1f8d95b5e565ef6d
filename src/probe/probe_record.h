/* The records a probe child sends its parent over a pipe. The parent treats them as untrusted
 * input (vendor code shares the child's address space and may have scribbled on anything):
 * every length is checked, every count bounded, every string copied and cleaned.
 *
 * Stream: records back to back. Record: u32le payload length L (1 <= L <= PROBE_RECORD_MAX), then
 * L bytes of payload: u8 type, then fields, each u8 tag, u16le length n, n bytes (a string, no
 * NUL). Numbers travel as decimal strings. */
#ifndef CUDX_PROBE_RECORD_H
#define CUDX_PROBE_RECORD_H

#include <stddef.h>
#include <stdint.h>

#include "probe/probe.h"
#include "util/span.h"

#define PROBE_RECORD_MAX 4096      /* bytes of one record's payload */
#define PROBE_RECORDS_MAX 4096     /* records accepted from one child */
#define PROBE_OUTPUT_MAX (1u << 20) /* bytes read from one child */
#define PROBE_FIELD_MAX 1024       /* bytes of one string kept (longer ones are cut) */

enum probe_rec_type {
	PROBE_REC_BEGIN = 1, /* a step is about to call into vendor code: name */
	PROBE_REC_STEP = 2,  /* a step ended: name, outcome, [code, api, lib_name, lib_text], library, value, ms */
	PROBE_REC_FACT = 3,  /* key, value */
	PROBE_REC_END = 4,   /* the stage finished normally */
};

enum probe_rec_field {
	PROBE_F_NAME = 1,
	PROBE_F_OUTCOME,
	PROBE_F_CODE,
	PROBE_F_API,
	PROBE_F_LIB_NAME,
	PROBE_F_LIB_TEXT,
	PROBE_F_LIBRARY,
	PROBE_F_VALUE,
	PROBE_F_MS,
	PROBE_F_KEY,
	PROBE_F_TARGET, /* locate stage: which candidate a fact is about */
	PROBE_F_MAX_
};

/* Writer (child side): a fixed buffer, no allocation. */
struct probe_rec_buf {
	uint8_t b[4 + PROBE_RECORD_MAX];
	size_t n;
	int overflow;
};
void probe_rec_start(struct probe_rec_buf *r, enum probe_rec_type type);
/* Adds a field; a string too long for the record is cut. s NULL adds nothing. */
void probe_rec_str(struct probe_rec_buf *r, enum probe_rec_field tag, const char *s);
/* Fills in the length prefix and writes the record; returns 0 or -1. */
int probe_rec_send(struct probe_rec_buf *r, int fd);

/* Reader (parent side). What one child said, applied to the report: steps and facts are appended
 * with the given stage/target (the parent's own labels, never the child's). */
struct probe_rec_result {
	const char *last_begun; /* name of a BEGIN with no STEP after it, or NULL */
	int ended;              /* an END record was seen */
	size_t n_records;
	const char *problem;    /* first thing wrong with the stream, or NULL (the rest is dropped) */
};
void probe_records_apply(struct span in, struct arena *a, const char *stage, const char *target,
			 struct probe_report *rep, struct probe_rec_result *res);

#endif
