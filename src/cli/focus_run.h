/* The flow of every command that is about something (why, tree, arch, probe): the same
 * inventory and the same rules as `check`, then only the findings about the subject. */
#ifndef CUDX_FOCUS_RUN_H
#define CUDX_FOCUS_RUN_H

#include "collect/focus.h"
#include "diag/finding.h"

/* Collect the inventory about fo. The live probe does not run here (only `check` and `probe` run
 * it): it executes vendor code, which a question about files must not. */
void focus_collect(struct cudx_ctx *ctx, struct inventory *inv, struct focus *fo);
/* Run every rule over inv and put the findings about inv->focus into kept (sorted). */
void focus_judge(struct cudx_ctx *ctx, const struct inventory *inv, struct findings *kept);
/* Both. */
void focus_run(struct cudx_ctx *ctx, struct inventory *inv, struct focus *fo, struct findings *kept);

#endif
