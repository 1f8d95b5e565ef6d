/* cudx check (the default command): collect the inventory, run every rule, report them all. The
 * other commands run the same flow about a subject (cli/focus_run.h) and keep what is about it. */
#include "cli/command.h"
#include "collect/inventory.h"
#include "diag/rule.h"
#include "report/report.h"

static int check_run(struct cudx_ctx *ctx, int argc, char **argv)
{
	if (argc > 0)
		return command_usage(&cmd_check, argv[0][0] == '-' ? "unknown option" : "unexpected argument");
	struct inventory inv;
	inventory_collect(ctx, &inv);
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
	.usage = "check",
	.summary = "diagnose this machine (or --root/--env/--pid): the default",
	.run = check_run,
};
