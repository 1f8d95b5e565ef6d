/* cudx explain [MESSAGE...|-|--file F]: recognise the error messages in the text, extract their
 * facts, and rank their causes against this machine (or --root/--env/--pid). Unrecognised text
 * falls back to the full check. */
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/app_option.h"
#include "cli/command.h"
#include "collect/inventory.h"
#include "diag/rule.h"
#include "explain/explain_loader.h"
#include "explain/explain_message.h"
#include "explain/explain_rank.h"
#include "explain/explain_render.h"
#include "report/report.h"

/* What the messages say, for the message rules (src/diag/rules_message.c): each message's causes
 * on its text alone, summaries and fixes filled from its facts. */
static struct message_inventory *message_inventory(struct arena *a, const struct explain_scan *scan)
{
	struct message_inventory *mi = arena_calloc(a, 1, sizeof *mi);
	mi->v = arena_calloc(a, scan->n_msgs ? scan->n_msgs : 1, sizeof *mi->v);
	for (size_t i = 0; i < scan->n_msgs; i++) {
		struct explain_result r;
		explain_rank(a, NULL, &scan->msgs[i], &r);
		struct message_entry *e = &mi->v[mi->n++];
		e->line = scan->msgs[i].line;
		e->line_no = scan->msgs[i].line_no;
		e->count = scan->msgs[i].count;
		for (size_t c = 0; c < r.n_causes && c < MESSAGE_MAX_CAUSES; c++)
			e->causes[e->n_causes++] = (struct message_cause){
				r.causes[c].def->key, r.causes[c].def->finding, r.causes[c].summary, r.causes[c].because,
				r.causes[c].fix, r.causes[c].n_fix, r.causes[c].score,
			};
	}
	return mi;
}

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
	struct focus apps = { 0 };
	for (int i = 0; i < argc; i++) {
		enum app_option ao = app_option(ctx->arena, &apps, argc, argv, &i);
		if (ao == APP_OPTION_BAD)
			return command_usage(&cmd_explain, "--app wants a file");
		if (ao == APP_OPTION_TAKEN)
			continue;
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
		} else if (argv[i][0] == '-' && argv[i][1] && !strpbrk(argv[i], " \t\n")) {
			/* an argument with a space is a message, even one that starts with a dash (CMake's
			 * "-- Could not find nvcc", a bullet) */
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

	/* the machine: inventory and every rule family, exactly what check sees, plus the rules that
	 * judge what the messages say with it */
	struct inventory *inv = arena_calloc(ctx->arena, 1, sizeof *inv);
	struct findings *fs = arena_calloc(ctx->arena, 1, sizeof *fs);
	findings_init(fs, ctx->arena);
	inventory_collect_about(ctx, inv, apps.n_items ? &apps : NULL);
	if (!app_option_ok(&apps, "explain"))
		return 2;
	inv->message = message_inventory(ctx->arena, &scan);
	struct diag_ctx d = { ctx, inv, fs };
	diag_run(&d);
	findings_sort(fs);

	struct explain_machine m = { inv, fs, ctx->os, ctx->env.origin, NULL, NULL, cat, ctx->env.unknown };
	explain_machine_loader(&m, ctx);
	struct explain_report rep = {
		.scan = &scan,
		.truncated = truncated,
		.machine_desc = ctx->opt->root ? arena_printf(ctx->arena, "the tree %s", ctx->opt->root)
					       : "this machine",
		.inv = inv,
		.check = fs,
	};
	/* no known message: what the target shows first, else the input's words (weak) */
	if (scan.n_msgs == 0) {
		struct explain_result *u = arena_calloc(ctx->arena, 1, sizeof *u);
		explain_rank_unrecognised(ctx->arena, &m, cat, text, u);
		if (u->n_causes || !explain_scan_cues(ctx->arena, cat, &scan))
			rep.unrecognised = u;
	}
	rep.results = arena_calloc(ctx->arena, scan.n_msgs ? scan.n_msgs : 1, sizeof *rep.results);
	rep.n_results = scan.n_msgs;
	for (size_t i = 0; i < scan.n_msgs; i++)
		explain_rank(ctx->arena, &m, &scan.msgs[i], &rep.results[i]);
	explain_rank_order(rep.results, rep.n_results);

	if (ctx->opt->format == OUT_JSON) {
		struct json_t *j = explain_render_json(ctx, &rep);
		report_json_dump(ctx->out, j);
		json_decref((json_t *)j);
	} else
		explain_render_text(ctx->out, ctx, &rep);

	if (scan.n_msgs == 0)
		return findings_exit_status(fs);
	for (size_t i = 0; i < scan.n_msgs; i++)
		if (rep.results[i].n_causes == 0 || strcmp(rep.results[i].causes[0].def->finding, "harmless-warning") != 0)
			return 1;
	return 0;
}

const struct command cmd_explain = {
	.name = "explain",
	.usage = "explain [--app APP]... [MESSAGE...|-|--file FILE]",
	.summary = "read an error message or a log and diagnose it against this machine",
	.run = explain_run,
};
