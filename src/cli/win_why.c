/* `cudx why` and `cudx tree` on a Windows tree (--root of a copied C: drive, --os windows).
 * cmd_why.c / cmd_tree.c hand over with `if (ctx->os == OS_WINDOWS) return win_why_run(...)`.
 * The DLL asked about is the focus of the inventory (collect/focus.h): collect_windows simulates
 * its load beside check's, the rules judge them all, and the command keeps the findings about the
 * DLLs its load reaches or misses (cli/focus_run.h). Then show (text or JSON). */
#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "cli/focus_run.h"
#include "cli/win_why.h"
#include "collect/windows.h"
#include "report/json_parts.h"
#include "report/report.h"

struct win_args {
	const char *name;
	const char *exe;
	const char *from;
	const char *cwd;
	const char *dll_dirs[64];
	size_t n_dll_dirs;
	bool set_dll_dir_given;
	const char *set_dll_dir;
};

static const char win_why_usage[] =
	"why NAME [--exe HOST.EXE] [--from MODULE] [--dll-dir DIR]... [--set-dll-directory DIR] [--cwd DIR]";
static const char win_tree_usage[] = "tree NAME|C:\\PATH\\FILE.dll [--exe HOST.EXE] [--dll-dir DIR]... [--cwd DIR]";

static int usage(const char *cmd, const char *u, const char *problem)
{
	if (problem)
		fprintf(stderr, "cudx %s: %s\n", cmd, problem);
	fprintf(stderr, "usage: cudx %s\n", u);
	fprintf(stderr,
		"  NAME                    a DLL name (cudnn_cnn_infer64_8.dll) or a Windows path (C:\\...\\x.dll)\n"
		"  --exe HOST.EXE          the program that loads it (its folder is searched first; python.exe\n"
		"                          3.8+ switches to the LOAD_LIBRARY_SEARCH_DEFAULT_DIRS rules)\n"
		"  --from MODULE           the DLL or .pyd that imports NAME\n"
		"  --dll-dir DIR           a directory added with os.add_dll_directory / AddDllDirectory\n"
		"  --set-dll-directory DIR SetDllDirectory(DIR) in effect\n"
		"  --cwd DIR               the process's current directory\n");
	return 2;
}

static int parse_args(const char *cmd, const char *u, int argc, char **argv, struct win_args *wa)
{
	memset(wa, 0, sizeof *wa);
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i];
		const char **slot = NULL;
		if (strcmp(a, "--exe") == 0)
			slot = &wa->exe;
		else if (strcmp(a, "--from") == 0)
			slot = &wa->from;
		else if (strcmp(a, "--cwd") == 0)
			slot = &wa->cwd;
		else if (strcmp(a, "--set-dll-directory") == 0)
			slot = &wa->set_dll_dir;
		else if (strcmp(a, "--dll-dir") == 0) {
			if (wa->n_dll_dirs == sizeof wa->dll_dirs / sizeof wa->dll_dirs[0])
				return usage(cmd, u, "too many --dll-dir");
			slot = &wa->dll_dirs[wa->n_dll_dirs++];
		} else if (a[0] == '-' && a[1])
			return usage(cmd, u, "unknown option");
		else if (!wa->name) {
			wa->name = a;
			continue;
		} else
			return usage(cmd, u, "more than one NAME");
		if (i + 1 >= argc)
			return usage(cmd, u, "option needs a value");
		*slot = argv[++i];
	}
	if (!wa->name)
		return usage(cmd, u, "NAME missing");
	return 0;
}

static const char *dir_of(struct arena *a, const char *winpath)
{
	const char *bs = strrchr(winpath, '\\'), *fs = strrchr(winpath, '/');
	const char *s = bs > fs ? bs : fs;
	return s ? arena_strndup(a, winpath, (size_t)(s - winpath)) : NULL;
}

/* An in-root path ("/Program Files/...") given where a Windows path is expected. */
static const char *as_win(struct cudx_ctx *ctx, const char *p)
{
	return p && p[0] == '/' ? win_path_from_root(ctx->arena, p) : p;
}

/* The focus of why/tree: the DLL and the host settings the load is simulated with. */
static struct focus_item *focus_of(struct cudx_ctx *ctx, struct focus *fo, const struct win_args *wa,
				   enum focus_kind kind, const char *reason)
{
	memset(fo, 0, sizeof *fo);
	fo->win.exe = as_win(ctx, wa->exe);
	fo->win.cwd = as_win(ctx, wa->cwd);
	for (size_t i = 0; i < wa->n_dll_dirs; i++)
		fo->win.dll_dirs[fo->win.n_dll_dirs++] = as_win(ctx, wa->dll_dirs[i]);
	fo->win.set_dll_dir = wa->set_dll_dir ? as_win(ctx, wa->set_dll_dir) : NULL;
	fo->win.reason = reason;
	return focus_add(ctx->arena, fo, kind, as_win(ctx, wa->name));
}

/* --- show ------------------------------------------------------------------------------------ */

static json_t *cand_json(struct cudx_ctx *ctx, const struct win_candidate *c)
{
	json_t *o = json_object();
	json_object_set_new(o, "dir", report_json_str(c->dir));
	json_object_set_new(o, "origin", report_json_str(c->origin));
	json_object_set_new(o, "result", json_string(win_cand_result_name(c->result)));
	json_object_set_new(o, "path", report_json_str(c->path ? win_path_from_root(ctx->arena, c->path) : NULL));
	json_object_set_new(o, "machine", c->path ? json_string(pe_machine_name(c->machine)) : json_null());
	json_object_set_new(o, "detail", report_json_str(c->detail));
	return o;
}

static json_t *res_json(struct cudx_ctx *ctx, const struct win_resolution *r)
{
	json_t *o = json_object(), *tried = json_array(), *else_ = json_array(), *om = json_array();
	const struct win_candidate *c = win_chosen(r);
	json_object_set_new(o, "name", json_string(r->name));
	json_object_set_new(o, "found", report_json_str(c ? win_path_from_root(ctx->arena, c->path) : NULL));
	json_object_set_new(o, "system", report_json_str(r->system));
	json_object_set_new(o, "error", r->error ? json_integer(r->error) : json_null());
	for (size_t i = 0; i < r->n_cands; i++)
		json_array_append_new(tried, cand_json(ctx, &r->cands[i]));
	for (size_t i = 0; i < r->n_elsewhere; i++)
		json_array_append_new(else_, cand_json(ctx, &r->elsewhere[i]));
	for (size_t i = 0; i < r->n_other_major; i++)
		json_array_append_new(om, cand_json(ctx, &r->other_major[i]));
	json_object_set_new(o, "search", tried);
	json_object_set_new(o, "elsewhere", else_);
	json_object_set_new(o, "other_major", om);
	return o;
}

static json_t *host_json(const struct win_target *t)
{
	json_t *o = json_object();
	json_object_set_new(o, "exe", report_json_str(t->exe));
	json_object_set_new(o, "machine", json_string(pe_machine_name(t->machine)));
	json_object_set_new(o, "machine_source", report_json_str(t->machine_source));
	json_object_set_new(o, "search_mode", json_string(t->mode == WIN_SEARCH_DEFAULT_DIRS ? "LOAD_LIBRARY_SEARCH_DEFAULT_DIRS"
											       : "standard"));
	json_object_set_new(o, "python", report_json_str(t->python_version));
	json_object_set_new(o, "system_root", report_json_str(t->system_root));
	return o;
}

static json_t *tree_json(struct cudx_ctx *ctx, const struct win_tree *t)
{
	json_t *arr = json_array();
	for (size_t i = 0; i < t->n; i++) {
		const struct win_node *nd = &t->nodes[i];
		json_t *o = res_json(ctx, &nd->res);
		json_object_set_new(o, "parent", nd->parent >= 0 ? json_integer(nd->parent) : json_null());
		json_object_set_new(o, "depth", json_integer(nd->depth));
		json_object_set_new(o, "delay_load", json_boolean(nd->delay));
		json_object_set_new(o, "already_loaded", json_boolean(nd->repeat));
		json_object_set_new(o, "version", report_json_str(nd->version));
		json_object_set_new(o, "pe_error", report_json_str(nd->pe_error));
		if (nd->n_missing_procs) {
			json_t *mp = json_array();
			for (size_t k = 0; k < nd->n_missing_procs && k < WIN_MAX_MISSING_PROCS; k++)
				json_array_append_new(mp, report_json_str(nd->missing_procs[k]));
			json_object_set_new(o, "missing_procs", mp);
			json_object_set_new(o, "n_missing_procs", json_integer((json_int_t)nd->n_missing_procs));
		}
		if (nd->pe) {
			json_object_set_new(o, "pe_machine", json_string(pe_machine_name(nd->pe->machine)));
			json_object_set_new(o, "n_exports", json_integer((json_int_t)nd->pe->n_exports));
		}
		json_array_append_new(arr, o);
	}
	return arr;
}

static void print_host(struct cudx_ctx *ctx, const struct windows_inventory *w)
{
	const struct win_target *t = &w->loader.t;
	FILE *out = ctx->out;
	fprintf(out, "%shost:%s %s, %s process (%s)\n", style_dim(ctx), style_reset(ctx),
		t->exe ? t->exe : "unknown program (give --exe; its folder is searched first)", pe_machine_name(t->machine),
		t->machine_source);
	fprintf(out, "%ssearch:%s %s\n", style_dim(ctx), style_reset(ctx),
		t->mode == WIN_SEARCH_DEFAULT_DIRS
			? arena_printf(ctx->arena, "LOAD_LIBRARY_SEARCH_DEFAULT_DIRS (Python %s: PATH is not searched)",
				       t->python_version)
			: "standard order (SafeDllSearchMode): application dir, System32, Windows dir, current dir, PATH");
	if (w->driver_version)
		fprintf(out, "%sdriver:%s nvcuda.dll %s (driver %s)\n", style_dim(ctx), style_reset(ctx), w->nvcuda_version,
			w->driver_version);
	if (w->env_truncated)
		fprintf(out, "%snote:%s %zu value(s) of the PowerShell table were cut at the console width (\"...\")\n",
			style_yellow(ctx), style_reset(ctx), w->env_truncated);
}

static void print_resolution(struct cudx_ctx *ctx, const struct win_resolution *r, const char *indent)
{
	FILE *out = ctx->out;
	if (r->system) {
		fprintf(out, "%s%s: provided by Windows (%s)\n", indent, r->name, r->system);
		return;
	}
	for (size_t i = 0; i < r->n_cands; i++) {
		const struct win_candidate *c = &r->cands[i];
		const char *col = c->result == WIN_CAND_FOUND ? style_green(ctx)
				  : c->result == WIN_CAND_WRONG_MACHINE || c->result == WIN_CAND_BAD_PE ? style_red(ctx)
													  : style_dim(ctx);
		fprintf(out, "%s%2zu. %-45s %s%s%s%s%s  (%s)\n", indent, i + 1, c->dir, col, win_cand_result_name(c->result),
			c->detail ? ": " : "", c->detail ? c->detail : "", style_reset(ctx), c->origin);
	}
	for (size_t i = 0; i < r->n_elsewhere; i++)
		fprintf(out, "%s    %snot searched:%s %s (%s)\n", indent, style_yellow(ctx), style_reset(ctx),
			win_path_from_root(ctx->arena, r->elsewhere[i].path), r->elsewhere[i].origin);
	for (size_t i = 0; i < r->n_other_major; i++)
		fprintf(out, "%s    %sother version:%s %s (%s)\n", indent, style_yellow(ctx), style_reset(ctx),
			win_path_from_root(ctx->arena, r->other_major[i].path), r->other_major[i].origin);
}

static void print_tree(struct cudx_ctx *ctx, const struct win_tree *t, bool show_system)
{
	FILE *out = ctx->out;
	for (size_t i = 0; i < t->n; i++) {
		const struct win_node *nd = &t->nodes[i];
		if (!show_system && nd->res.system)
			continue;
		const struct win_candidate *c = win_chosen(&nd->res);
		bool sys = c && (win_is_known_dll(nd->name));
		if (!show_system && sys && i > 0)
			continue;
		if (!show_system && nd->repeat)
			continue; /* the first occurrence shows it; -v lists every edge */
		fprintf(out, "%*s%s%s", nd->depth * 2, "", nd->name, nd->delay ? " [delay-load]" : "");
		if (nd->repeat)
			fprintf(out, " %s(already loaded)%s\n", style_dim(ctx), style_reset(ctx));
		else if (nd->res.system)
			fprintf(out, " %s[Windows: %s]%s\n", style_dim(ctx), nd->res.system, style_reset(ctx));
		else if (c && nd->n_missing_procs)
			fprintf(out, " => %s%s%s%s %s(error 127: lacks %s%s)%s\n", win_path_from_root(ctx->arena, c->path),
				nd->version ? " [" : "", nd->version ? nd->version : "", nd->version ? "]" : "", style_red(ctx),
				nd->missing_procs[0], nd->n_missing_procs > 1 ? arena_printf(ctx->arena, " and %zu more", nd->n_missing_procs - 1) : "",
				style_reset(ctx));
		else if (c)
			fprintf(out, " => %s%s%s%s\n", win_path_from_root(ctx->arena, c->path),
				nd->version ? " [" : "", nd->version ? nd->version : "", nd->version ? "]" : "");
		else if (nd->res.error == WIN_ERROR_BAD_EXE_FORMAT)
			fprintf(out, " %s=> error 193: %s%s\n", style_red(ctx), nd->res.cands[nd->res.n_cands - 1].detail,
				style_reset(ctx));
		else
			fprintf(out, " %s=> not found (error 126)%s\n", style_red(ctx), style_reset(ctx));
	}
	if (t->truncated)
		fprintf(out, "... (tree cut at %d DLLs)\n", WIN_TREE_MAX_NODES);
}

/* --- commands -------------------------------------------------------------------------------- */

int win_why_run(struct cudx_ctx *ctx, int argc, char **argv)
{
	struct win_args wa;
	if (parse_args("why", win_why_usage, argc, argv, &wa))
		return 2;
	const char *from = as_win(ctx, wa.from);
	struct focus fo;
	struct focus_item *it = focus_of(ctx, &fo, &wa, FOCUS_LIBRARY,
					 from ? arena_printf(ctx->arena, "imported by %s", from) : "asked for (cudx why)");
	fo.win.from_dir = from ? dir_of(ctx->arena, from) : NULL;
	struct inventory inv;
	struct findings fs;
	focus_run(ctx, &inv, &fo, &fs);
	const struct windows_inventory *w = inv.windows;
	const struct win_query *q = it->query;
	const struct win_resolution *r = &q->tree.nodes[0].res;
	const struct win_candidate *c = win_chosen(r);
	/* 0: it loads and nothing about it is wrong; 1: it does not load, or an error finding */
	int status = (c || r->system) && !findings_exit_status(&fs) ? 0 : 1;
	if (ctx->opt->format == OUT_JSON) {
		json_t *o = report_envelope_json(ctx, &inv, "why", &fs);
		json_object_set_new(o, "os", json_string("windows"));
		json_object_set_new(o, "host", host_json(&w->loader.t));
		json_object_set_new(o, "resolution", res_json(ctx, r));
		json_object_set_new(o, "dependencies", tree_json(ctx, &q->tree));
		report_json_dump(ctx->out, o);
		json_decref(o);
		return status;
	}
	FILE *out = ctx->out;
	fprintf(out, "%s%s%s (Windows loader rules)\n", style_bold(ctx), r->name, style_reset(ctx));
	print_host(ctx, w);
	fputc('\n', out);
	print_resolution(ctx, r, "  ");
	fputc('\n', out);
	if (r->system)
		fprintf(out, "=> provided by Windows\n");
	else if (c)
		fprintf(out, "=> %s%s%s\n", style_green(ctx), win_path_from_root(ctx->arena, c->path), style_reset(ctx));
	else
		fprintf(out, "=> %sfails with error %d%s\n", style_red(ctx), r->error, style_reset(ctx));
	if (c && q->tree.n > 1) {
		fprintf(out, "\n%sdependencies:%s\n", style_dim(ctx), style_reset(ctx));
		print_tree(ctx, &q->tree, false);
	}
	fputc('\n', out);
	if (fs.n)
		report_findings_text(out, ctx, &fs);
	else if (c)
		fprintf(out, "%s%s and everything it imports load from this environment.%s\n", style_green(ctx), r->name,
			style_reset(ctx));
	return status;
}

int win_tree_run(struct cudx_ctx *ctx, int argc, char **argv)
{
	struct win_args wa;
	if (parse_args("tree", win_tree_usage, argc, argv, &wa))
		return 2;
	struct focus fo;
	struct focus_item *it = focus_of(ctx, &fo, &wa, FOCUS_OBJECT, "asked for (cudx tree)");
	struct inventory inv;
	struct findings fs;
	focus_run(ctx, &inv, &fo, &fs);
	const struct win_query *q = it->query;
	int status = findings_exit_status(&fs);
	if (ctx->opt->format == OUT_JSON) {
		json_t *o = report_envelope_json(ctx, &inv, "tree", &fs);
		json_object_set_new(o, "os", json_string("windows"));
		json_object_set_new(o, "host", host_json(&inv.windows->loader.t));
		json_object_set_new(o, "nodes", tree_json(ctx, &q->tree));
		report_json_dump(ctx->out, o);
		json_decref(o);
		return status;
	}
	print_host(ctx, inv.windows);
	fputc('\n', ctx->out);
	print_tree(ctx, &q->tree, ctx->opt->verbose > 0);
	fputc('\n', ctx->out);
	if (fs.n)
		report_findings_text(ctx->out, ctx, &fs);
	return status;
}
