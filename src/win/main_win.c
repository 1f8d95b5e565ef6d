/* cudx.exe: the native Windows build. Diagnoses the machine it runs on (or --root/--env like the
 * Linux build): the environment (PATH, CUDA_PATH*), nvcuda.dll and the driver version it carries,
 * the CUDA toolkits and cuDNN installed, whether each of their DLLs and everything they import
 * loads from this environment (simulated with the Windows loader rules), and, live, what
 * LoadLibrary really does with nvcuda.dll in a child process. `why` and `tree` are the same as on
 * Linux for Windows trees (src/cli/win_why.c). */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <windows.h>

#include "cli/win_why.h"
#include "collect/windows.h"
#include "diag/rule.h"
#include "loader/win_env.h"
#include "report/json_parts.h"
#include "report/report.h"
#include "win/native.h"

static const char help[] =
	"usage: cudx [check|why NAME|tree NAME] [OPTIONS]\n\n"
	"Finds out why the NVIDIA GPU software stack does not work on this Windows machine, and says\n"
	"what to do (native Windows build).\n\n"
	"commands:\n"
	"  check                diagnose this machine: the default\n"
	"  why NAME             how Windows looks for a DLL, every place tried, the fix\n"
	"                       (--exe HOST.EXE, --from MODULE, --dll-dir DIR, --cwd DIR)\n"
	"  tree NAME|PATH       dependency tree of a DLL with every import resolved\n"
	"  probe NAME|PATH      LoadLibraryExW it for real, in a child process: the loader's own answer\n\n"
	"options:\n"
	"  --json               JSON instead of text\n"
	"  --root DIR           analyse a copied C: drive instead of this machine\n"
	"  --env FILE           the target's environment (`set` output or PowerShell's\n"
	"                       `Get-ChildItem env:` table)\n"
	"  --no-probe           do not load nvcuda.dll in a child process\n"
	"  --color, --no-color  force colour on or off\n"
	"  -v                   more detail\n"
	"  --version            print the version\n";

struct live {
	bool probed;
	struct win_probe_result nvcuda;
};

static void print_check(struct cudx_ctx *ctx, const struct windows_inventory *w, const struct live *lv,
			const struct findings *fs)
{
	FILE *out = ctx->out;
	const struct win_loader *L = &w->loader;
	fprintf(out, "%scudx %s%s (native Windows build)\n", style_bold(ctx), CUDX_VERSION, style_reset(ctx));
	fprintf(out, "root: %s   environment: %s\n", ctx->root.live ? "this machine" : ctx->opt->root, ctx->env.origin);
	fprintf(out, "Windows directory: %s\n\n", L->t.system_root);
	fprintf(out, "%sdriver%s\n", style_bold(ctx), style_reset(ctx));
	if (w->nvcuda_path)
		fprintf(out, "  nvcuda.dll  %s  file version %s%s%s%s\n", win_path_from_root(ctx->arena, w->nvcuda_path),
			w->nvcuda_version ? w->nvcuda_version : "?", w->driver_version ? " (driver " : "",
			w->driver_version ? w->driver_version : "", w->driver_version ? ")" : "");
	else
		fprintf(out, "  nvcuda.dll  %snot in System32%s: no NVIDIA driver installed\n", style_red(ctx), style_reset(ctx));
	if (lv->probed) {
		const struct win_probe_result *p = &lv->nvcuda;
		if (p->loaded)
			fprintf(out, "  live load   %sok%s: %s\n", style_green(ctx), style_reset(ctx), p->path);
		else if (p->ran)
			fprintf(out, "  live load   %serror %lu%s\n", style_red(ctx), p->error, style_reset(ctx));
		else
			fprintf(out, "  live load   %s\n", p->problem);
	}
	fprintf(out, "\n%senvironment%s\n", style_bold(ctx), style_reset(ctx));
	for (size_t i = 0; i < ctx->env.n; i++)
		if (strncasecmp(ctx->env.vars[i].name, "CUDA_PATH", 9) == 0 || strncasecmp(ctx->env.vars[i].name, "CUDNN", 5) == 0)
			fprintf(out, "  %s=%s\n", ctx->env.vars[i].name, ctx->env.vars[i].value);
	fprintf(out, "  PATH: %zu entries\n", L->n_path_dirs);
	for (size_t i = 0; i < L->n_path_dirs; i++) {
		bool there = win_fs_find_win((struct win_fs *)&L->fs, L->path_dirs[i]) != NULL;
		if (there && !ctx->opt->verbose)
			continue;
		fprintf(out, "    %2zu. %s%s%s%s\n", i + 1, L->path_dirs[i], there ? "" : style_yellow(ctx),
			there ? "" : "  (missing)", style_reset(ctx));
	}
	fprintf(out, "\n%sinstalled%s\n", style_bold(ctx), style_reset(ctx));
	if (!w->n_installs)
		fprintf(out, "  no CUDA toolkit or cuDNN under C:\\Program Files\\NVIDIA*\n");
	for (size_t i = 0; i < w->n_installs; i++) {
		const struct win_install *in = &w->installs[i];
		fprintf(out, "  %-12s %-8s %s  %s%s%s\n", in->what, in->version ? in->version : "?", in->dll_dir,
			in->on_path ? style_green(ctx) : style_yellow(ctx), in->on_path ? "on PATH" : "not on PATH",
			style_reset(ctx));
	}
	fputc('\n', out);
	if (fs->n)
		report_findings_text(out, ctx, fs);
	else
		fprintf(out, "%sno problems found with DLL loading%s\n", style_green(ctx), style_reset(ctx));
}

static void json_check(struct cudx_ctx *ctx, const struct inventory *inv, const struct live *lv,
		       const struct findings *fs)
{
	const struct windows_inventory *w = inv->windows;
	json_t *o = report_envelope_json(ctx, inv, "check", fs), *env = json_object(), *path = json_array();
	json_object_set_new(o, "os", json_string("windows"));
	json_object_set_new(o, "native", json_true());
	json_object_set_new(o, "version", json_string(CUDX_VERSION));
	json_object_set_new(o, "system_root", report_json_str(w->loader.t.system_root));
	json_object_set_new(o, "nvcuda", report_json_str(w->nvcuda_path ? win_path_from_root(ctx->arena, w->nvcuda_path) : NULL));
	json_object_set_new(o, "nvcuda_version", report_json_str(w->nvcuda_version));
	json_object_set_new(o, "driver_version", report_json_str(w->driver_version));
	if (lv->probed) {
		json_t *p = json_object();
		json_object_set_new(p, "loaded", json_boolean(lv->nvcuda.loaded));
		json_object_set_new(p, "path", report_json_str(lv->nvcuda.path));
		json_object_set_new(p, "error", lv->nvcuda.ran && !lv->nvcuda.loaded ? json_integer((json_int_t)lv->nvcuda.error)
										 : json_null());
		json_object_set_new(p, "problem", report_json_str(lv->nvcuda.problem));
		json_object_set_new(o, "probe_nvcuda", p);
	}
	for (size_t i = 0; i < ctx->env.n; i++)
		if (strncasecmp(ctx->env.vars[i].name, "CUDA_PATH", 9) == 0)
			json_object_set_new(env, ctx->env.vars[i].name, json_string(ctx->env.vars[i].value));
	for (size_t i = 0; i < w->loader.n_path_dirs; i++) {
		json_t *e = json_object();
		json_object_set_new(e, "dir", json_string(w->loader.path_dirs[i]));
		json_object_set_new(e, "exists",
				    json_boolean(win_fs_find_win((struct win_fs *)&w->loader.fs, w->loader.path_dirs[i]) != NULL));
		json_array_append_new(path, e);
	}
	json_object_set_new(env, "PATH", path);
	json_object_set_new(o, "environment", env);
	json_object_set_new(o, "installed", win_installs_json(w));
	report_json_dump(ctx->out, o);
	json_decref(o);
}

static int check_run(struct cudx_ctx *ctx)
{
	struct inventory inv;
	memset(&inv, 0, sizeof inv);
	collect_windows(ctx, &inv);
	struct live lv = { 0 };
	if (ctx->root.live && !ctx->opt->no_probe) {
		lv.probed = true;
		win_probe_load(ctx->arena, "nvcuda.dll", ctx->opt->probe_timeout, &lv.nvcuda);
	}
	struct findings fs;
	findings_init(&fs, ctx->arena);
	struct diag_ctx d = { .ctx = ctx, .inv = &inv, .out = &fs };
	diag_run_family(&d, &rules_windows, 1u);
	diag_finish(&d);
	if (ctx->opt->format == OUT_JSON)
		json_check(ctx, &inv, &lv, &fs);
	else
		print_check(ctx, inv.windows, &lv, &fs);
	return findings_exit_status(&fs);
}

/* The real loader's verdict, to set next to `why`'s simulation. */
static int probe_run(struct cudx_ctx *ctx, const char *name)
{
	if (!ctx->root.live) {
		fprintf(stderr, "cudx probe: only on this machine (never loads anything from a --root tree)\n");
		return 2;
	}
	struct win_probe_result p;
	win_probe_load(ctx->arena, name, ctx->opt->probe_timeout, &p);
	if (ctx->opt->format == OUT_JSON) {
		json_t *o = report_envelope_json(ctx, NULL, "probe", NULL);
		json_object_set_new(o, "name", json_string(name));
		json_object_set_new(o, "loaded", json_boolean(p.loaded));
		json_object_set_new(o, "path", report_json_str(p.path));
		json_object_set_new(o, "error", p.ran && !p.loaded ? json_integer((json_int_t)p.error) : json_null());
		json_object_set_new(o, "problem", report_json_str(p.problem));
		report_json_dump(ctx->out, o);
		json_decref(o);
	} else if (p.loaded)
		fprintf(ctx->out, "%s: loaded from %s\n", name, p.path);
	else if (p.ran)
		fprintf(ctx->out, "%s: LoadLibrary failed with error %lu%s\n", name, p.error,
			p.error == 126 ? " (the DLL or one of its dependencies was not found: see `cudx why`)"
			: p.error == 193 ? " (a DLL on the way is for another machine or not a valid PE file)" : "");
	else
		fprintf(ctx->out, "%s: probe failed: %s\n", name, p.problem);
	return p.loaded ? 0 : 1;
}

int main(int argc, char **argv)
{
	if (argc == 3 && strcmp(argv[1], "--probe-child") == 0)
		return win_probe_child(argv[2]);
	/* UTF-8 output for paths with non-ASCII names */
	SetConsoleOutputCP(CP_UTF8);
	struct arena arena;
	arena_init(&arena);
	struct options opt;
	memset(&opt, 0, sizeof opt);
	opt.probe_timeout = 20;
	opt.os = OS_WINDOWS;
	const char *no_color = getenv("NO_COLOR");
	/* colour only on a console that understands escape sequences is too fiddly to detect on
	 * old consoles: off unless asked for */
	opt.color = false;
	char **rest = arena_calloc(&arena, (size_t)argc + 1, sizeof *rest);
	int n_rest = 0;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (strcmp(a, "--json") == 0)
			opt.format = OUT_JSON;
		else if (strcmp(a, "--no-probe") == 0)
			opt.no_probe = true;
		else if (strcmp(a, "--color") == 0)
			opt.color = !(no_color && *no_color);
		else if (strcmp(a, "--no-color") == 0)
			opt.color = false;
		else if (strcmp(a, "-v") == 0)
			opt.verbose++;
		else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
			fputs(help, stdout);
			return 0;
		} else if (strcmp(a, "--version") == 0) {
			printf("cudx %s (native Windows build)\n", CUDX_VERSION);
			return 0;
		} else if ((strcmp(a, "--root") == 0 || strcmp(a, "--env") == 0) && i + 1 < argc) {
			if (a[2] == 'r')
				opt.root = argv[++i];
			else
				opt.env_file = argv[++i];
		} else
			rest[n_rest++] = argv[i];
	}
	struct cudx_ctx ctx;
	memset(&ctx, 0, sizeof ctx);
	ctx.arena = &arena;
	ctx.opt = &opt;
	ctx.out = stdout;
	ctx.os = OS_WINDOWS;
	int err = sysroot_init(&ctx.root, &arena, opt.root);
	if (err) {
		fprintf(stderr, "cudx: --root %s: %s\n", opt.root, strerror(err));
		return 2;
	}
	if (opt.env_file) {
		if (win_env_load(&ctx.env, &arena, opt.env_file, NULL) != 0) {
			fprintf(stderr, "cudx: --env %s: cannot read it\n", opt.env_file);
			return 2;
		}
	} else
		win_env_live(&ctx.env, &arena);
	int status;
	if (n_rest == 0 || strcmp(rest[0], "check") == 0) {
		if (n_rest > 1) {
			fprintf(stderr, "cudx check: unexpected argument '%s'\n", rest[1]);
			return 2;
		}
		status = check_run(&ctx);
	} else if (strcmp(rest[0], "why") == 0)
		status = win_why_run(&ctx, n_rest - 1, rest + 1);
	else if (strcmp(rest[0], "tree") == 0)
		status = win_tree_run(&ctx, n_rest - 1, rest + 1);
	else if (strcmp(rest[0], "probe") == 0 && n_rest == 2)
		status = probe_run(&ctx, rest[1]);
	else {
		fprintf(stderr, "cudx: unknown command '%s'\n\n%s", rest[0], help);
		status = 2;
	}
	fflush(stdout);
	arena_free(&arena);
	return status;
}
