/* The Windows part of `cudx check`'s report (report_hooks.c calls these when inv->windows is set),
 * and the installs array the native build's own check report shares with it. Compiled by both
 * builds: only the jansson calls of src/win/shim/jansson.h are used. */
#include <jansson.h>
#include <stdio.h>

#include "collect/windows.h"
#include "report/json_parts.h"
#include "report/report.h"

json_t *win_installs_json(const struct windows_inventory *w)
{
	json_t *inst = json_array();
	for (size_t i = 0; i < w->n_installs; i++) {
		const struct win_install *in = &w->installs[i];
		json_t *e = json_object();
		json_object_set_new(e, "what", json_string(in->what));
		json_object_set_new(e, "version", report_json_str(in->version));
		json_object_set_new(e, "dir", report_json_str(in->dir));
		json_object_set_new(e, "dll_dir", report_json_str(in->dll_dir));
		json_object_set_new(e, "on_path", json_boolean(in->on_path));
		json_object_set_new(e, "env_var", report_json_str(in->env_var));
		json_array_append_new(inst, e);
	}
	return inst;
}

json_t *win_inventory_json(const struct windows_inventory *w)
{
	struct arena a;
	arena_init(&a);
	json_t *o = json_object(), *loads = json_array(), *path = json_array();
	json_object_set_new(o, "search_mode", json_string(w->loader.t.mode == WIN_SEARCH_DEFAULT_DIRS
								 ? "LOAD_LIBRARY_SEARCH_DEFAULT_DIRS" : "standard"));
	json_object_set_new(o, "system_root", report_json_str(w->loader.t.system_root));
	for (size_t i = 0; i < w->loader.n_path_dirs; i++)
		json_array_append_new(path, report_json_str(w->loader.path_dirs[i]));
	json_object_set_new(o, "path", path);
	json_object_set_new(o, "nvcuda",
			    report_json_str(w->nvcuda_path ? win_path_from_root(&a, w->nvcuda_path) : NULL));
	json_object_set_new(o, "nvcuda_version", report_json_str(w->nvcuda_version));
	json_object_set_new(o, "driver_version", report_json_str(w->driver_version));
	json_object_set_new(o, "installed", win_installs_json(w));
	for (size_t i = 0; i < w->n_queries; i++) {
		const struct win_query *q = &w->queries[i];
		const struct win_resolution *r = &q->tree.nodes[0].res;
		const struct win_candidate *c = win_chosen(r);
		size_t missing = 0;
		for (size_t k = 1; k < q->tree.n; k++)
			missing += !q->tree.nodes[k].repeat && !q->tree.nodes[k].delay && q->tree.nodes[k].res.error;
		json_t *e = json_object();
		json_object_set_new(e, "name", json_string(q->name));
		json_object_set_new(e, "reason", report_json_str(q->reason));
		json_object_set_new(e, "found", report_json_str(c ? win_path_from_root(&a, c->path) : NULL));
		json_object_set_new(e, "error", r->error ? json_integer(r->error) : json_null());
		json_object_set_new(e, "dependencies_failing", json_integer((json_int_t)missing));
		json_array_append_new(loads, e);
	}
	json_object_set_new(o, "loads", loads);
	arena_free(&a);
	return o;
}

void win_inventory_text(FILE *out, const struct cudx_ctx *ctx, const struct windows_inventory *w)
{
	struct arena a;
	arena_init(&a);
	fprintf(out, "%sWindows%s (%s search order)\n", style_bold(ctx), style_reset(ctx),
		w->loader.t.mode == WIN_SEARCH_DEFAULT_DIRS ? "LOAD_LIBRARY_SEARCH_DEFAULT_DIRS" : "standard");
	if (w->nvcuda_path)
		fprintf(out, "  nvcuda.dll    %s %s%s%s\n", win_path_from_root(&a, w->nvcuda_path),
			w->nvcuda_version ? w->nvcuda_version : "", w->driver_version ? " driver " : "",
			w->driver_version ? w->driver_version : "");
	else
		fprintf(out, "  nvcuda.dll    %snot in System32%s\n", style_red(ctx), style_reset(ctx));
	for (size_t i = 0; i < w->n_installs; i++)
		fprintf(out, "  %-13s %-6s %s (%s)\n", w->installs[i].what, w->installs[i].version ? w->installs[i].version : "?",
			w->installs[i].dll_dir, w->installs[i].on_path ? "on PATH" : "not on PATH");
	for (size_t i = 0; i < w->n_queries; i++) {
		const struct win_query *q = &w->queries[i];
		const struct win_candidate *c = win_chosen(&q->tree.nodes[0].res);
		fprintf(out, "  load %-24s %s\n", q->name,
			c ? win_path_from_root(&a, c->path)
			  : arena_printf(&a, "error %d", q->tree.nodes[0].res.error));
	}
	fputc('\n', out);
	arena_free(&a);
}
