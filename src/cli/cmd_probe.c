/* cudx probe: the live smoke test alone (src/probe/), with the findings it leads to (made by the
 * probe rules, or by another family and confirmed by the probe). */
#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "cli/command.h"
#include "cli/focus_run.h"
#include "collect/inventory.h"
#include "probe/probe.h"
#include "probe/probe_ctx.h"
#include "report/report.h"

static const struct {
	const char *name;
	unsigned bit;
} stage_names[] = {
	{ "driver", PROBE_STAGE_DRIVER }, { "nvml", PROBE_STAGE_NVML },   { "runtime", PROBE_STAGE_RUNTIME },
	{ "ptx", PROBE_STAGE_PTX },       { "cublas", PROBE_STAGE_CUBLAS }, { "cudnn", PROBE_STAGE_CUDNN },
};

/* "driver,runtime" -> bits; 0 on an unknown name */
static unsigned parse_stages(const char *list)
{
	unsigned bits = 0;
	while (*list) {
		size_t n = strcspn(list, ",");
		unsigned bit = 0;
		for (size_t i = 0; i < sizeof stage_names / sizeof stage_names[0]; i++)
			if (strlen(stage_names[i].name) == n && strncmp(stage_names[i].name, list, n) == 0)
				bit = stage_names[i].bit;
		if (!bit)
			return 0;
		bits |= bit;
		list += n + (list[n] == ',');
	}
	return bits;
}

/* "--name VALUE" or "--name=VALUE" */
static const char *opt_value(int argc, char **argv, int *i, const char *name)
{
	size_t len = strlen(name);
	if (strncmp(argv[*i], name, len) != 0)
		return NULL;
	if (argv[*i][len] == '=')
		return argv[*i] + len + 1;
	if (argv[*i][len] == '\0' && *i + 1 < argc)
		return argv[++*i];
	return NULL;
}

static int probe_cmd_run(struct cudx_ctx *ctx, int argc, char **argv)
{
	const char *cudarts[PROBE_MAX_TARGETS];
	size_t n_cudarts = 0;
	unsigned stages = 0;
	for (int i = 0; i < argc; i++) {
		const char *v;
		if ((v = opt_value(argc, argv, &i, "--cudart"))) {
			if (n_cudarts == PROBE_MAX_TARGETS)
				return command_usage(&cmd_probe, "too many --cudart");
			cudarts[n_cudarts++] = v;
		} else if ((v = opt_value(argc, argv, &i, "--stages"))) {
			stages = parse_stages(v);
			if (!stages)
				return command_usage(&cmd_probe, "--stages takes driver,nvml,runtime,ptx,cublas,cudnn");
		} else
			return command_usage(&cmd_probe, argv[i][0] == '-' ? "unknown option" : "unexpected argument");
	}
	if (!ctx->root.live) {
		fprintf(stderr, "cudx probe: the probe runs only on the live system, never on a --root tree\n");
		return 2;
	}

	/* The inventory check collects, with the probe's own stages and targets: every rule runs over
	 * it, and this command keeps the findings the probe made or added its evidence to. */
	struct focus fo = { 0 };
	focus_add(ctx->arena, &fo, FOCUS_PROBE, "probe");
	struct inventory inv;
	focus_collect(ctx, &inv, &fo);
	struct probe_options o;
	probe_options_from_ctx(ctx, &inv, &o);
	o.stages = stages;
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
	focus_judge(ctx, &inv, &fs);

	if (ctx->opt->format == OUT_JSON) {
		json_t *o_json = report_envelope_json(ctx, &inv, "probe", &fs);
		json_object_set_new(o_json, "probe", probe_report_json(inv.probe));
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
	.usage = "probe [--stages LIST] [--cudart FILE]...",
	.summary = "the live smoke test alone",
	.run = probe_cmd_run,
};
