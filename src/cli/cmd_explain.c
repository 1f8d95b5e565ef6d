/* cudx explain [MESSAGE...|-|--file F]: recognise the error messages in the text, extract their
 * facts, and rank their causes against this machine (or --root/--env/--pid). Unrecognised text
 * falls back to the full check. */
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/command.h"
#include "collect/inventory.h"
#include "diag/rule.h"
#include "explain/explain_loader.h"
#include "explain/explain_rank.h"
#include "explain/explain_render.h"
#include "report/report.h"

/* Read at most EXPLAIN_MAX_INPUT bytes; *truncated when there was more. The buffer grows by
 * doubling up to EXPLAIN_MAX_INPUT + 1 (the extra byte tells that more was there), so a huge
 * input costs at most twice the limit while it is copied into the arena. */
static char *read_bounded(struct arena *a, FILE *f, size_t *len, bool *truncated)
{
	const size_t limit = (size_t)EXPLAIN_MAX_INPUT + 1;
	size_t cap = 1 << 16, n = 0;
	char *buf = malloc(cap);
	if (!buf)
		return NULL;
	for (;;) {
		if (n == cap) {
			if (cap == limit)
				break;
			size_t ncap = cap * 2 > limit ? limit : cap * 2;
			char *nb = realloc(buf, ncap);
			if (!nb) {
				free(buf);
				return NULL;
			}
			buf = nb, cap = ncap;
		}
		size_t got = fread(buf + n, 1, cap - n, f);
		n += got;
		if (got == 0)
			break;
	}
	*truncated = n > EXPLAIN_MAX_INPUT;
	if (*truncated)
		n = EXPLAIN_MAX_INPUT;
	char *out = arena_alloc(a, n + 1);
	memcpy(out, buf, n);
	out[n] = 0;
	free(buf);
	*len = n;
	return out;
}

static int explain_run(struct cudx_ctx *ctx, int argc, char **argv)
{
	const char *file = NULL;
	bool use_stdin = false;
	char *words = NULL;
	for (int i = 0; i < argc; i++) {
		if (strcmp(argv[i], "--file") == 0 || strcmp(argv[i], "-f") == 0) {
			if (++i == argc)
				return command_usage(&cmd_explain, "--file needs a file name");
			file = argv[i];
		} else if (strncmp(argv[i], "--file=", 7) == 0) {
			file = argv[i] + 7;
		} else if (strcmp(argv[i], "-") == 0) {
			use_stdin = true;
		} else if (strcmp(argv[i], "--") == 0) {
			for (i++; i < argc; i++)
				words = words ? arena_printf(ctx->arena, "%s %s", words, argv[i])
					      : arena_strdup(ctx->arena, argv[i]);
		} else if (argv[i][0] == '-' && argv[i][1]) {
			return command_usage(&cmd_explain,
					     arena_printf(ctx->arena, "unknown option '%s'", argv[i]));
		} else {
			words = words ? arena_printf(ctx->arena, "%s %s", words, argv[i])
				      : arena_strdup(ctx->arena, argv[i]);
		}
	}
	if (!words && !file && !use_stdin) {
		if (isatty(STDIN_FILENO))
			return command_usage(&cmd_explain, "give the message, --file FILE, or pipe it in");
		use_stdin = true;
	}
	if ((words != NULL) + (file != NULL) + use_stdin > 1)
		return command_usage(&cmd_explain, "give the message one way: words, --file or -");

	size_t len = 0;
	bool truncated = false;
	char *text = words;
	if (words) {
		len = strlen(words);
	} else {
		/* the message file is read on the host, like --env: it describes the target */
		FILE *f = file ? fopen(file, "rb") : stdin;
		if (!f) {
			fprintf(stderr, "cudx explain: cannot open %s: %s\n", file, strerror(errno));
			return 2;
		}
		text = read_bounded(ctx->arena, f, &len, &truncated);
		if (file)
			fclose(f);
		if (!text) {
			fprintf(stderr, "cudx explain: out of memory reading the input\n");
			return 2;
		}
	}

	const struct explain_catalog *cat = explain_catalog_builtin(ctx->arena);
	for (size_t i = 0; i < cat->n_errors; i++)
		fprintf(stderr, "cudx explain: catalogue: %s\n", cat->errors[i]);
	struct explain_scan scan;
	explain_scan_text(ctx->arena, cat, span_make(text, len), &scan);

	/* the machine: inventory and every rule family, exactly what check sees */
	struct inventory *inv = arena_calloc(ctx->arena, 1, sizeof *inv);
	struct findings *fs = arena_calloc(ctx->arena, 1, sizeof *fs);
	findings_init(fs, ctx->arena);
	inventory_collect(ctx, inv);
	struct diag_ctx d = { ctx, inv, fs };
	diag_run(&d);
	findings_sort(fs);

	struct explain_machine m = { inv, fs, ctx->os, ctx->env.origin, NULL, NULL };
	explain_machine_loader(&m, ctx);
	struct explain_report rep = {
		.scan = &scan,
		.truncated = truncated,
		.machine = true,
		.machine_desc = ctx->opt->root ? arena_printf(ctx->arena, "the tree %s", ctx->opt->root)
					       : "this machine",
		.check = fs,
	};
	rep.results = arena_calloc(ctx->arena, scan.n_hits ? scan.n_hits : 1, sizeof *rep.results);
	rep.n_results = scan.n_hits;
	for (size_t i = 0; i < scan.n_hits; i++)
		explain_rank(ctx->arena, &m, &scan.hits[i], &rep.results[i]);

	if (ctx->opt->format == OUT_JSON) {
		struct json_t *j = explain_render_json(&rep);
		report_json_dump(ctx->out, j);
		json_decref((json_t *)j);
	} else
		explain_render_text(ctx->out, ctx, &rep);

	if (scan.n_hits == 0)
		return findings_exit_status(fs);
	for (size_t i = 0; i < scan.n_hits; i++)
		if (strcmp(rep.results[i].causes[0].def->finding, "harmless-warning") != 0)
			return 1;
	return 0;
}

const struct command cmd_explain = {
	.name = "explain",
	.usage = "explain [MESSAGE...|-|--file FILE]",
	.summary = "read an error message or a log and diagnose it against this machine",
	.run = explain_run,
};
