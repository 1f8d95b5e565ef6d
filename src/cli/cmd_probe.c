/* cudx probe: the live smoke test alone (src/probe/), with the findings it leads to. */
#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "cli/command.h"
#include "collect/inventory.h"
#include "diag/rule.h"
#include "probe/probe.h"
#include "probe/probe_ctx.h"
#include "report/report.h"

static int probe_cmd_run(struct cudx_ctx *ctx, int argc, char **argv)
{
	const char *cudarts[PROBE_MAX_TARGETS];
	size_t n_cudarts = 0;
	for (int i = 0; i < argc; i++) {
		const char *v = NULL;
		if (strcmp(argv[i], "--cudart") == 0 && i + 1 < argc)
			v = argv[++i];
		else if (strncmp(argv[i], "--cudart=", 9) == 0)
			v = argv[i] + 9;
		else
			return command_usage(&cmd_probe, argv[i][0] == '-' ? "unknown option" : "unexpected argument");
		if (n_cudarts == PROBE_MAX_TARGETS)
			return command_usage(&cmd_probe, "too many --cudart");
		cudarts[n_cudarts++] = v;
	}
	if (!ctx->root.live) {
		fprintf(stderr, "cudx probe: the probe runs only on the live system, never on a --root tree\n");
		return 2;
	}

	/* What the probe's rules need beside the probe: the driver (device nodes, kernel module),
	 * the system (container?) and the libraries found (cudart copies to try). */
	struct inventory inv;
	memset(&inv, 0, sizeof inv);
	collect_system(ctx, &inv);
	collect_env(ctx, &inv);
	collect_toolkits(ctx, &inv);
	collect_libs(ctx, &inv);
	collect_driver(ctx, &inv);
	collect_gpus(ctx, &inv);

	struct probe_options o;
	probe_options_from_ctx(ctx, &inv, &o);
	if (n_cudarts) {
		memcpy(o.cudarts, cudarts, sizeof cudarts);
		o.n_cudarts = n_cudarts;
		o.n_found_cudarts = 0;
	}
	bool no_probe = ctx->opt->no_probe;
	ctx->opt->no_probe = false; /* asking for the probe by name overrides --no-probe */
	probe_collect(ctx, &inv, &o);
	ctx->opt->no_probe = no_probe;

	struct findings fs;
	findings_init(&fs, ctx->arena);
	struct diag_ctx d = { .ctx = ctx, .inv = &inv, .out = &fs };
	for (size_t r = 0; r < rules_probe.n_rules; r++)
		rules_probe.rules[r].check(&d, &rules_probe.rules[r]);
	findings_sort(&fs);

	if (ctx->opt->format == OUT_JSON) {
		json_t *o_json = json_object();
		json_object_set_new(o_json, "schema", json_string("cudx/1"));
		json_object_set_new(o_json, "command", json_string("probe"));
		json_object_set_new(o_json, "probe", probe_report_json(inv.probe));
		json_object_set_new(o_json, "findings", (json_t *)report_findings_json(&fs));
		report_json_dump(ctx->out, (struct json_t *)o_json);
		json_decref(o_json);
	} else {
		probe_report_text(ctx->out, ctx, inv.probe);
		report_findings_text(ctx->out, ctx, &fs);
		if (!fs.n)
			fprintf(ctx->out, "%sthe probe found no problem%s\n", style_green(ctx), style_reset(ctx));
	}
	return findings_exit_status(&fs);
}

const struct command cmd_probe = {
	.name = "probe",
	.usage = "probe [--cudart FILE]...",
	.summary = "the live smoke test alone",
	.run = probe_cmd_run,
};
