/* cudx check (the default command): collect the inventory, run every rule, report them all. The
 * other commands run the same flow about a subject (cli/focus_run.h) and keep what is about it.
 * check --app APP (repeatable) makes each application a subject of the inventory as `tree APP`
 * does: its dependency tree is resolved (RUNPATH $ORIGIN/../lib included) and the GPU libraries
 * it reaches join the library survey, so the rules judge the runtime an app bundles against the
 * driver like any other; check still reports every finding. */
#include <stdio.h>
#include <string.h>

#include "cli/app_option.h"
#include "cli/command.h"
#include "diag/rule.h"
#include "report/report.h"

static int check_run(struct cudx_ctx *ctx, int argc, char **argv)
{
	struct focus fo = { .whole_system = true };
	for (int i = 0; i < argc; i++)
		switch (app_option(ctx->arena, &fo, argc, argv, &i)) {
		case APP_OPTION_TAKEN:
			break;
		case APP_OPTION_BAD:
			return command_usage(&cmd_check, "--app wants a file");
		case APP_OPTION_NOT:
			return command_usage(&cmd_check, argv[i][0] == '-' ? "unknown option" : "unexpected argument");
		}
	struct inventory inv;
	inventory_collect_about(ctx, &inv, fo.n_items ? &fo : NULL);
	if (!app_option_ok(&fo, "check"))
		return 2;
	struct findings fs;
	findings_init(&fs, ctx->arena);
	struct diag_ctx d = { .ctx = ctx, .inv = &inv, .out = &fs };
	diag_run(&d); /* every rule, findings sorted */
	switch (ctx->opt->format) {
	case OUT_JSON:
		report_check_json(ctx->out, ctx, &inv, &fs);
		break;
	case OUT_PROM:
		report_check_prom(ctx->out, ctx, &inv, &fs);
		break;
	default:
		report_check_text(ctx->out, ctx, &inv, &fs);
	}
	return findings_exit_status(&fs);
}

const struct command cmd_check = {
	.name = "check",
	.usage = "check [--app APP]...",
	.summary = "diagnose this machine (or --root/--env/--pid), with the runtimes APP bundles: the default",
	.run = check_run,
};
