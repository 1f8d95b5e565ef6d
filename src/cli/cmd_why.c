/* cudx why NAME [--from OBJECT]: how dlopen(NAME) (or OBJECT's NEEDED edge) resolves, every
 * candidate in order with the reason it was taken or rejected, the other copies on disk when it
 * fails, and the fix. NAME is the focus of the inventory (collect/focus.h): the loader resolves it
 * (src/loader/loader_why.c), every rule judges it with the rest of the system, and this command
 * keeps the findings about it, the file it resolves to and that file's dependencies. */
#include <jansson.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli/command.h"
#include "cli/focus_run.h"
#include "cli/win_why.h"
#include "collect/focus.h"
#include "loader/loader_present.h"
#include "loader/loader_why.h"
#include "report/report.h"
#include "sys/context.h"
#include "report/json_parts.h"

extern const struct command cmd_why;

static json_t *why_json(struct cudx_ctx *ctx, const struct inventory *inv, const struct loader_why *w,
			const struct findings *fs)
{
	const struct loader_result *r = w->result;
	json_t *o = report_envelope_json(ctx, inv, "why", fs);
	json_object_set_new(o, "name", json_string(r->name));
	json_object_set_new(o, "from", report_json_str(r->from));
	json_object_set_new(o, "resolved", report_json_str(r->path));
	json_object_set_new(o, "real_path", report_json_str(r->real_path));
	json_object_set_new(o, "how", r->object ? json_string(loader_how_name(r->how)) : json_null());
	json_object_set_new(o, "error", r->error && !r->object ? json_string(r->error) : json_null());
	json_object_set_new(o, "candidates", loader_present_candidates_json(r));
	json_t *notes = json_array();
	for (size_t i = 0; i < r->n_notes; i++)
		json_array_append_new(notes, json_string(r->notes[i]));
	json_object_set_new(o, "notes", notes);
	json_t *mv = json_array();
	for (size_t i = 0; i < r->n_missing_versions; i++)
		json_array_append_new(mv, json_string(r->missing_versions[i]));
	json_object_set_new(o, "missing_versions", mv);
	json_t *copies = json_array();
	for (size_t i = 0; i < w->n_copies; i++) {
		const struct loader_copy *c = &w->copies[i];
		json_t *cj = json_object();
		json_object_set_new(cj, "path", report_json_str(c->path));
		json_object_set_new(cj, "real_path", report_json_str(c->real_path));
		json_object_set_new(cj, "soname", report_json_str(c->soname));
		json_object_set_new(cj, "relation", json_string(c->relation));
		json_object_set_new(cj, "right_arch", json_boolean(c->right_arch));
		json_object_set_new(cj, "in_ldcache", json_boolean(c->in_cache));
		json_array_append_new(copies, cj);
	}
	json_object_set_new(o, "other_copies", copies);
	return o;
}

static void why_text(struct cudx_ctx *ctx, const struct loader_why *w, const struct findings *fs)
{
	FILE *out = ctx->out;
	const struct loader_result *r = w->result;
	const char *b = style_bold(ctx), *z = style_reset(ctx);
	if (r->object)
		fprintf(out, "%s%s%s => %s%s%s  [%s]\n", b, r->name, z, style_green(ctx), r->path, z,
			loader_how_name(r->how));
	else
		fprintf(out, "%s%s%s => %snot found%s: %s\n", b, r->name, z, style_red(ctx), z,
			r->error ? r->error : "");
	if (r->real_path && r->path && strcmp(r->real_path, r->path) != 0)
		fprintf(out, "  real file: %s\n", r->real_path);
	fprintf(out, "  %s%s from %s%s\n", style_dim(ctx), r->dlopen ? "dlopen" : "DT_NEEDED",
		r->from ? r->from : "a program without RPATH/RUNPATH", z);
	fprintf(out, "\nSearched, in order:\n");
	loader_present_candidates_text(ctx, r, "  ");
	for (size_t i = 0; i < r->n_notes; i++)
		fprintf(out, "  note: %s\n", r->notes[i]);
	if (!r->object && w->n_copies) {
		fprintf(out, "\nOther copies on disk:\n");
		for (size_t i = 0; i < w->n_copies; i++) {
			const struct loader_copy *c = &w->copies[i];
			fprintf(out, "  %s", c->path);
			if (strcmp(c->real_path, c->path) != 0)
				fprintf(out, " -> %s", c->real_path);
			fprintf(out, "  (%s; SONAME %s%s%s)\n", c->relation, c->soname ? c->soname : "none",
				c->right_arch ? "" : "; wrong architecture", c->in_cache ? "; in ld.so.cache" : "");
		}
	} else if (!r->object)
		fprintf(out, "\nNo other copy of it was found on disk.\n");
	if (fs->n) {
		fprintf(out, "\n");
		report_findings_text(out, ctx, fs);
	}
}

static int why_run(struct cudx_ctx *ctx, int argc, char **argv)
{
	/* a Windows tree (--root with Windows/System32, or --os windows) follows the DLL rules */
	if (ctx->os == OS_WINDOWS)
		return win_why_run(ctx, argc, argv);
	const char *name = NULL, *from = NULL;
	for (int i = 0; i < argc; i++) {
		if (strcmp(argv[i], "--from") == 0 && i + 1 < argc)
			from = argv[++i];
		else if (strncmp(argv[i], "--from=", 7) == 0)
			from = argv[i] + 7;
		else if (argv[i][0] == '-' && argv[i][1])
			return command_usage(&cmd_why, "unknown option");
		else if (!name)
			name = argv[i];
		else
			return command_usage(&cmd_why, "one NAME only");
	}
	if (!name)
		return command_usage(&cmd_why, "NAME is missing");
	struct focus fo = { 0 };
	struct focus_item *it = focus_add(ctx->arena, &fo, FOCUS_LIBRARY, name);
	it->from = from;
	struct inventory inv;
	struct findings fs;
	focus_run(ctx, &inv, &fo, &fs);
	if (it->error || !it->why) {
		fprintf(stderr, "cudx why: %s\n", it->error ? it->error : "cannot read the object");
		return 2;
	}
	if (ctx->opt->format == OUT_JSON) {
		json_t *j = why_json(ctx, &inv, it->why, &fs);
		report_json_dump(ctx->out, j);
		json_decref(j);
	} else
		why_text(ctx, it->why, &fs);
	/* 0: found and nothing wrong with it; 1: not found, or an error finding about it */
	return it->why->result->object && !findings_exit_status(&fs) ? 0 : 1;
}

const struct command cmd_why = {
	.name = "why",
	.usage = "why NAME [--from OBJECT]",
	.summary = "how the loader looks for a library, every place tried, the fix",
	.run = why_run,
};
