/* cudx run: the pieces of the command (cmd_run.c runs the program and drives the rest,
 * run_judge.c decides which findings are about what it loaded and reads its output, run_render.c
 * prints). */
#ifndef CUDX_CLI_RUN_H
#define CUDX_CLI_RUN_H

#include <stdbool.h>
#include <stdio.h>

#include "collect/inventory.h"
#include "collect/observed_inventory.h"
#include "collect/runproc.h"
#include "diag/finding.h"
#include "explain/explain.h"

/* One message explain recognised in the command's output. */
struct run_message {
	const struct explain_message *msg;  /* its causes: msg->cands, best first */
	const char *stream;                 /* "stdout" or "stderr" */
	bool confirmed[EXPLAIN_MAX_CAUSES]; /* a finding of this run has the cause's id */
};

struct run_report {
	char *const *argv;
	int argc;
	const char *audit_lib;
	double timeout;
	bool sandbox; /* --sandbox: the command ran with the probe's least privilege */
	struct runproc_result proc;
	struct run_observation *ro;
	struct inventory *inv;
	struct findings findings; /* about what the command loaded and searched for (the focus) */
	struct findings other;    /* the rest of this machine's findings (cudx check shows them) */
	struct run_message *messages;
	size_t n_messages, cap_messages;
	size_t dropped_messages;
};

/* Judge: every rule (the process family judges what each watched process loaded), then keep the
 * findings about the run's focus (the program, what it loaded, what it never found) with the
 * run's evidence added, and read the output as explain reads a log. */
void run_judge(struct cudx_ctx *ctx, struct run_report *rep);

void run_render_text(FILE *out, struct cudx_ctx *ctx, const struct run_report *rep);
void run_render_json(FILE *out, struct cudx_ctx *ctx, const struct run_report *rep);

#endif
