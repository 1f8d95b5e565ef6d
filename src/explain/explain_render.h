/* Rendering explain results: text for people, JSON for programs. Kept next to explain because
 * its shape is explain's own; the shared pieces (styles, findings, JSON dump) come from report. */
#ifndef CUDX_EXPLAIN_RENDER_H
#define CUDX_EXPLAIN_RENDER_H

#include <stdio.h>

#include "explain/explain_rank.h"
#include "sys/context.h"

struct explain_report {
	const struct explain_scan *scan;
	struct explain_result *results; /* one per message, in the scan's order */
	size_t n_results;
	bool truncated;               /* the input was longer than EXPLAIN_MAX_INPUT */
	const char *machine_desc;     /* "this machine", "the tree /x" */
	const struct inventory *inv;  /* the target (for the envelope's system object) */
	const struct findings *check; /* the target's findings: the envelope's, and shown when nothing is recognised */
	const struct explain_result *unrecognised; /* no message recognised: the target's findings as causes */
};

/* One line for a fact: "cudaErrorNoDevice (cudart 100, by name)", "not-found libcudnn.so.8 (cudnn)". */
const char *explain_fact_describe(struct arena *a, const struct explain_fact *f);
void explain_render_text(FILE *out, const struct cudx_ctx *ctx, const struct explain_report *r);
struct json_t;
struct json_t *explain_render_json(const struct cudx_ctx *ctx, const struct explain_report *r);

#endif
