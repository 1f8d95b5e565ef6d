/* Compiled by both builds: the native Windows build collects and judges only the Windows subject
 * (it has neither the Linux collectors nor the registry of every family). */
#include <string.h>

#include "cli/focus_run.h"
#include "diag/focus.h"
#include "diag/rule.h"

void focus_collect(struct cudx_ctx *ctx, struct inventory *inv, struct focus *fo)
{
#ifdef CUDX_WIN_NATIVE
	memset(inv, 0, sizeof *inv);
	inv->focus = fo;
	collect_windows(ctx, inv);
#else
	bool no_probe = ctx->opt->no_probe;
	ctx->opt->no_probe = true;
	inventory_collect_about(ctx, inv, fo);
	ctx->opt->no_probe = no_probe;
#endif
}

void focus_judge(struct cudx_ctx *ctx, const struct inventory *inv, struct findings *kept)
{
	struct findings all;
	findings_init(&all, ctx->arena);
	struct diag_ctx d = { .ctx = ctx, .inv = inv, .out = &all };
#ifdef CUDX_WIN_NATIVE
	diag_run_family(&d, &rules_windows, 1u);
	diag_finish(&d);
#else
	diag_run(&d);
#endif
	findings_init(kept, ctx->arena);
	diag_focus_keep(ctx, inv, &all, kept);
}

void focus_run(struct cudx_ctx *ctx, struct inventory *inv, struct focus *fo, struct findings *kept)
{
	focus_collect(ctx, inv, fo);
	focus_judge(ctx, inv, kept);
}
