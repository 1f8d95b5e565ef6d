/* cudx tree FILE: the dependency tree as ld.so would load it, how each library was found,
 * missing ones and symbol-version failures marked, and the run-time (dlopen) loads the knowledge
 * base knows of. FILE is the focus of the inventory (collect/focus.h): the loader builds the tree
 * (src/loader/loader_tree.c), every rule judges it with the rest of the system (each failed edge
 * by the loader rules, a stub or damaged library in it by the driver and library rules), and
 * this command keeps the findings about the tree's files and the libraries it misses. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/command.h"
#include "cli/focus_run.h"
#include "cli/win_why.h"
#include "loader/loader_present.h"
#include "report/report.h"
#include "sys/context.h"
#include "report/json_parts.h"

extern const struct command cmd_tree;

#define TREE_TEXT_MAX_DEPTH 256

static bool edge_version_error(const struct loader_result *r)
{
	for (size_t i = 0; i < r->n_missing_versions; i++)
		if (!r->missing_weak[i])
			return true;
	return false;
}

static json_t *tree_json(struct cudx_ctx *ctx, const struct inventory *inv, const struct loader *L,
			 const struct loader_tree *t, const struct findings *fs)
{
	json_t *o = report_envelope_json(ctx, inv, "tree", fs);
	json_object_set_new(o, "file", report_json_str(t->root->path));
	json_t *objs = json_array();
	for (size_t i = 0; i < L->n_objects; i++) {
		const struct loader_object *ob = L->objects[i];
		json_t *j = json_object();
		json_object_set_new(j, "id", json_integer((json_int_t)ob->id));
		json_object_set_new(j, "path", report_json_str(ob->path));
		json_object_set_new(j, "real_path", report_json_str(ob->real_path));
		json_object_set_new(j, "soname", report_json_str(ob->elf.soname));
		json_object_set_new(j, "loaded_by", ob->loaded_by ? json_integer((json_int_t)ob->loaded_by->id) : json_null());
		json_object_set_new(j, "runtime", json_boolean(ob->runtime));
		json_object_set_new(j, "rpath", report_json_str(ob->elf.rpath));
		json_object_set_new(j, "runpath", report_json_str(ob->elf.runpath));
		json_object_set_new(j, "problem", report_json_str(ob->problem));
		json_array_append_new(objs, j);
	}
	json_object_set_new(o, "objects", objs);
	json_t *edges = json_array();
	for (size_t i = 0; i < t->n_edges; i++) {
		const struct loader_edge *e = &t->edges[i];
		const struct loader_result *r = e->result;
		json_t *j = json_object();
		json_object_set_new(j, "from", json_integer((json_int_t)e->from->id));
		json_object_set_new(j, "name", json_string(r->name));
		json_object_set_new(j, "to", r->object ? json_integer((json_int_t)r->object->id) : json_null());
		json_object_set_new(j, "resolved", report_json_str(r->path));
		json_object_set_new(j, "how", r->object ? json_string(loader_how_name(r->how)) : json_null());
		json_object_set_new(j, "runtime", json_boolean(e->runtime));
		json_object_set_new(j, "first", json_boolean(e->first));
		json_object_set_new(j, "error", r->object ? json_null() : json_string(r->error ? r->error : "not found"));
		json_t *mv = json_array();
		for (size_t k = 0; k < r->n_missing_versions; k++)
			json_array_append_new(mv, json_string(r->missing_versions[k]));
		json_object_set_new(j, "missing_versions", mv);
		if (!r->object) /* the full trace only where it explains a failure */
			json_object_set_new(j, "candidates", loader_present_candidates_json(r));
		json_array_append_new(edges, j);
	}
	json_object_set_new(o, "edges", edges);
	json_object_set_new(o, "missing", json_integer((json_int_t)t->n_missing));
	json_object_set_new(o, "version_errors", json_integer((json_int_t)t->n_version_errors));
	return o;
}

/* Depth-first print with an explicit stack (chains can be 10 000 deep): an object's children are
 * shown under the edge that loaded it; later edges to it say "already loaded". */
static void tree_text(struct cudx_ctx *ctx, const struct loader *L, const struct loader_tree *t)
{
	FILE *out = ctx->out;
	/* children lists: edge indices per object, in edge order */
	size_t n = L->n_objects;
	size_t *first_child = arena_calloc(ctx->arena, n + 1, sizeof *first_child);
	size_t *count = arena_calloc(ctx->arena, n + 1, sizeof *count);
	size_t *order = arena_calloc(ctx->arena, t->n_edges + 1, sizeof *order);
	for (size_t i = 0; i < t->n_edges; i++)
		count[t->edges[i].from->id]++;
	for (size_t i = 0, s = 0; i < n; i++)
		first_child[i] = s, s += count[i];
	size_t *fill = arena_calloc(ctx->arena, n + 1, sizeof *fill);
	for (size_t i = 0; i < t->n_edges; i++) {
		size_t f = t->edges[i].from->id;
		order[first_child[f] + fill[f]++] = i;
	}
	fprintf(out, "%s%s%s\n", style_bold(ctx), t->root->path, style_reset(ctx));
	struct frame {
		size_t obj, next;
	};
	struct frame *stack = arena_calloc(ctx->arena, n + 1, sizeof *stack);
	bool *last = arena_calloc(ctx->arena, n + 2, sizeof *last); /* per depth: was the edge the last child */
	size_t sp = 0;
	stack[sp++] = (struct frame){ t->root->id, 0 };
	while (sp) {
		struct frame *f = &stack[sp - 1];
		if (f->next >= count[f->obj]) {
			sp--;
			continue;
		}
		const struct loader_edge *e = &t->edges[order[first_child[f->obj] + f->next++]];
		const struct loader_result *r = e->result;
		size_t depth = sp; /* 1 for the root's children */
		last[depth] = f->next == count[f->obj];
		if (depth > TREE_TEXT_MAX_DEPTH) {
			if (f->next == 1)
				fprintf(out, "%*s... deeper levels not shown (--json has them all)\n", 4 * TREE_TEXT_MAX_DEPTH, "");
			continue;
		}
		for (size_t d = 1; d < depth; d++)
			fputs(last[d] ? "    " : "│   ", out);
		fputs(last[depth] ? "└── " : "├── ", out);
		if (!r->object) {
			if (r->base_absent) /* the tree's one no-libc note covers it */
				fprintf(out, "%s%s not found (no C library in the tree)%s", style_dim(ctx), r->name, style_reset(ctx));
			else
				fprintf(out, "%s%s not found%s", style_red(ctx), r->name, style_reset(ctx));
			fprintf(out, "%s%s%s\n", style_dim(ctx), e->runtime ? "  [dlopen at run time]" : "", style_reset(ctx));
			continue;
		}
		bool verr = edge_version_error(r);
		fprintf(out, "%s%s%s %s[%s%s]%s %s", verr ? style_red(ctx) : "", r->name, verr ? style_reset(ctx) : "",
			style_dim(ctx), e->runtime ? "dlopen, " : "", loader_how_name(r->how), style_reset(ctx),
			r->path);
		if (verr)
			fprintf(out, "  %sversion '%s' not found%s", style_red(ctx), r->missing_versions[0], style_reset(ctx));
		if (!e->first && r->how != LOADER_HOW_ALREADY_LOADED)
			fprintf(out, "  (same file as already loaded)");
		fputc('\n', out);
		if (e->first && sp < n + 1)
			stack[sp++] = (struct frame){ r->object->id, 0 };
	}
	if (L->problem)
		fprintf(out, "note: %s\n", L->problem);
}

static int tree_run(struct cudx_ctx *ctx, int argc, char **argv)
{
	/* a Windows tree (--root with Windows/System32, or --os windows) follows the DLL rules */
	if (ctx->os == OS_WINDOWS)
		return win_tree_run(ctx, argc, argv);
	const char *file = NULL;
	bool no_dlopen = false;
	for (int i = 0; i < argc; i++) {
		if (strcmp(argv[i], "--no-dlopen") == 0)
			no_dlopen = true;
		else if (argv[i][0] == '-' && argv[i][1])
			return command_usage(&cmd_tree, "unknown option");
		else if (!file)
			file = argv[i];
		else
			return command_usage(&cmd_tree, "one FILE only");
	}
	if (!file)
		return command_usage(&cmd_tree, "FILE is missing");
	struct focus fo = { 0 };
	struct focus_item *it = focus_add(ctx->arena, &fo, FOCUS_OBJECT, file);
	it->no_dlopen = no_dlopen;
	struct inventory inv;
	struct findings fs;
	focus_run(ctx, &inv, &fo, &fs);
	if (it->error || !it->tree) {
		fprintf(stderr, "cudx tree: %s\n", it->error ? it->error : "cannot read the file");
		return 2;
	}
	if (ctx->opt->format == OUT_JSON) {
		json_t *j = tree_json(ctx, &inv, it->loader, it->tree, &fs);
		report_json_dump(ctx->out, j);
		json_decref(j);
	} else {
		tree_text(ctx, it->loader, it->tree);
		if (fs.n) {
			fputc('\n', ctx->out);
			report_findings_text(ctx->out, ctx, &fs);
		}
	}
	/* 1 when a finding about the tree is an error: a missing library, a missing symbol version,
	 * a stub or damaged file in it, no driver for the libcuda it loads */
	return findings_exit_status(&fs);
}

const struct command cmd_tree = {
	.name = "tree",
	.usage = "tree FILE [--no-dlopen]",
	.summary = "dependency tree with how each library is found, including run-time (dlopen) loads",
	.run = tree_run,
};
