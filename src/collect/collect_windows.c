/* Windows trees: environment, CUDA/cuDNN installs, the driver DLL, and the loads of every CUDA
 * DLL installed (can a program find it, and everything it imports, from this environment?). */
#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "collect/focus.h"
#include "collect/windows.h"
#include "fmt/pymeta.h"
#include "loader/win_env.h"
#include "loader/win_path.h"
#include "sys/sysroot.h"

#ifndef DT_DIR
#define DT_DIR 4
#endif

#define WIN_MAX_QUERIES 48

/* "home = C:\\Python311" of PREFIX\\pyvenv.cfg (a Windows path), or NULL. */
static const char *venv_home(struct cudx_ctx *ctx, struct win_fs *fs, const char *prefix)
{
	const char *cfg = win_fs_find_win(fs, arena_printf(ctx->arena, "%s\\pyvenv.cfg", prefix));
	/* mapped, not sysroot_read_text: the native Windows build has only the mapping reader */
	struct mapped_file m;
	if (!cfg || sysroot_map(&ctx->root, cfg, &m) != 0)
		return NULL;
	const char *home = pymeta_cfg_value(m.data, ctx->arena, "home");
	sysroot_unmap(&m);
	if (!home)
		return NULL;
	size_t n = strlen(home);
	while (n && home[n - 1] == '\\')
		n--;
	return n ? arena_strndup(ctx->arena, home, n) : NULL;
}

void win_inventory_init(struct cudx_ctx *ctx, struct windows_inventory *w, const char *exe, const char *cwd)
{
	memset(w, 0, sizeof *w);
	/* ctx_init read --env with the POSIX-minded parser; a PowerShell table or a UTF-16 file needs
	 * the Windows reader. */
	if (ctx->opt && ctx->opt->env_file) {
		struct envsnap e;
		if (win_env_load(&e, ctx->arena, ctx->opt->env_file, &w->env_truncated) == 0)
			ctx->env = e;
	}
	if (!ctx->env.case_insensitive)
		envsnap_fold_case(&ctx->env, ctx->arena); /* Path and PATH are one variable on Windows */
	bool from_python = !exe && ctx->opt && ctx->opt->n_python;
	if (from_python)
		exe = arena_printf(ctx->arena, "%s\\python.exe", ctx->opt->python[0]);
	win_loader_init(&w->loader, ctx, exe, cwd);
	if (from_python && !win_fs_find_win(&w->loader.fs, exe)) {
		/* a venv: its Scripts\python.exe only starts the base interpreter (pyvenv.cfg's home),
		 * whose folder and Python version the process has */
		const char *home = venv_home(ctx, &w->loader.fs, ctx->opt->python[0]);
		if (home)
			win_loader_init(&w->loader, ctx, arena_printf(ctx->arena, "%s\\python.exe", home), cwd);
	}
	w->path_raw = win_env_get(&ctx->env, "Path");
}

static bool on_path(struct win_loader *L, const char *dir_root)
{
	for (size_t i = 0; i < L->n_path_dirs; i++) {
		const char *d = win_fs_find_win(&L->fs, L->path_dirs[i]);
		if (d && strcmp(d, dir_root) == 0)
			return true;
	}
	return false;
}

static bool has_dlls(struct win_fs *fs, const char *dir)
{
	size_t n;
	const struct sysroot_dirent *e = win_fs_list(fs, dir, &n);
	for (size_t i = 0; i < n; i++) {
		size_t l = strlen(e[i].name);
		if (l > 4 && strcasecmp(e[i].name + l - 4, ".dll") == 0)
			return true;
	}
	return false;
}

static void add_install(struct cudx_ctx *ctx, struct windows_inventory *w, const char *what, const char *root_dir,
			const char *version, const char *dll_dir)
{
	struct win_loader *L = &w->loader;
	struct win_install *in = ARENA_PUSH(ctx->arena, w->installs, w->n_installs, w->cap_installs);
	in->what = what;
	in->dir = win_path_from_root(ctx->arena, root_dir);
	in->version = version;
	in->dll_dir = win_path_from_root(ctx->arena, dll_dir);
	in->on_path = on_path(L, dll_dir);
	for (size_t i = 0; i < ctx->env.n; i++)
		if (strncasecmp(ctx->env.vars[i].name, "CUDA_PATH", 9) == 0) {
			const char *d = win_fs_find_win(&L->fs, ctx->env.vars[i].value);
			if (d && strcmp(d, root_dir) == 0 && (!in->env_var || strlen(ctx->env.vars[i].name) > 9))
				in->env_var = ctx->env.vars[i].name;
		}
}

static void scan_installs(struct cudx_ctx *ctx, struct windows_inventory *w)
{
	struct win_fs *fs = &w->loader.fs;
	struct arena *a = ctx->arena;
	const char *cuda = win_fs_find(fs, "/Program Files/NVIDIA GPU Computing Toolkit/CUDA");
	size_t n;
	const struct sysroot_dirent *e = cuda ? win_fs_list(fs, cuda, &n) : NULL;
	for (size_t i = 0; e && i < n && i < 32; i++) {
		const char *root = path_join(a, cuda, e[i].name);
		const char *ver = (e[i].name[0] == 'v' || e[i].name[0] == 'V') ? e[i].name + 1 : e[i].name;
		/* CUDA 13 moved the DLLs to bin\x64 (formats.md §4.3) */
		const char *x64 = win_fs_find(fs, path_join(a, root, "bin/x64"));
		const char *bin = win_fs_find(fs, path_join(a, root, "bin"));
		if (x64 && has_dlls(fs, x64))
			add_install(ctx, w, "CUDA toolkit", root, ver, x64);
		else if (bin)
			add_install(ctx, w, "CUDA toolkit", root, ver, bin);
	}
	const char *cudnn = win_fs_find(fs, "/Program Files/NVIDIA/CUDNN");
	e = cudnn ? win_fs_list(fs, cudnn, &n) : NULL;
	for (size_t i = 0; e && i < n && i < 32; i++) {
		const char *root = path_join(a, cudnn, e[i].name);
		const char *ver = (e[i].name[0] == 'v' || e[i].name[0] == 'V') ? e[i].name + 1 : e[i].name;
		const char *bin = win_fs_find(fs, path_join(a, root, "bin"));
		if (!bin)
			continue;
		if (has_dlls(fs, bin))
			add_install(ctx, w, "cuDNN", root, ver, bin);
		/* cuDNN 9: bin\<cuda major.minor>\ */
		size_t nb;
		const struct sysroot_dirent *b = win_fs_list(fs, bin, &nb);
		for (size_t k = 0; k < nb && k < 16; k++)
			if (b[k].type == DT_DIR && isdigit((unsigned char)b[k].name[0]))
				add_install(ctx, w, "cuDNN", root, ver, path_join(a, bin, b[k].name));
	}
}

/* NVIDIA's Windows driver numbering: file version 32.0.15.6094 <-> driver 560.94, the last five
 * digits of the last two fields (formats.md §4.1, marked UNVERIFIED there). */
static const char *driver_from_file_version(struct arena *a, const uint16_t v[4])
{
	unsigned five = (unsigned)(v[2] % 10) * 10000 + v[3];
	if (v[3] > 9999)
		return NULL;
	return arena_printf(a, "%u.%02u", five / 100, five % 100);
}

void win_inventory_scan(struct cudx_ctx *ctx, struct windows_inventory *w)
{
	scan_installs(ctx, w);
	const char *s32 = win_system32(&w->loader, NULL);
	if (s32) {
		struct win_candidate c = { 0 };
		size_t n;
		const struct sysroot_dirent *e = win_fs_list(&w->loader.fs, s32, &n);
		for (size_t i = 0; i < n; i++)
			if (strcasecmp(e[i].name, "nvcuda.dll") == 0)
				c.path = path_join(ctx->arena, s32, e[i].name);
		struct mapped_file m;
		if (c.path && sysroot_map(&ctx->root, c.path, &m) == 0) {
			struct pe_info pe;
			if (pe_parse(m.data, ctx->arena, &pe, NULL) && pe.version.present) {
				w->nvcuda_version = pe_file_version(ctx->arena, &pe);
				w->driver_version = driver_from_file_version(ctx->arena, pe.version.file);
			}
			sysroot_unmap(&m);
		}
		w->nvcuda_path = c.path;
	}
}

struct win_query *win_inventory_query(struct cudx_ctx *ctx, struct windows_inventory *w, const char *name,
				      const char *from_dir, const char *reason, bool asked)
{
	struct win_query *q = ARENA_PUSH(ctx->arena, w->queries, w->n_queries, w->cap_queries);
	q->name = name;
	q->reason = reason;
	q->asked = asked;
	win_tree_build(&w->loader, name, from_dir, &q->tree);
	return q;
}

static bool cuda_dll(const char *name)
{
	static const char *const prefixes[] = { "cudart64_", "cublas64_", "cublasLt64_", "cudnn" };
	size_t l = strlen(name);
	if (l < 5 || strcasecmp(name + l - 4, ".dll") != 0)
		return false;
	for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++)
		if (strncasecmp(name, prefixes[i], strlen(prefixes[i])) == 0)
			return true;
	return false;
}

/* A program asked about (check --app X.exe, tree X.exe) with no --exe: started, it is its own
 * process, and its folder is the first the loader searches for its DLLs. NULL when none. */
static const char *program_asked_for(struct cudx_ctx *ctx, const struct focus *fo)
{
	for (size_t i = 0; fo && i < fo->n_items; i++) {
		const char *n = fo->items[i].name;
		size_t len = n ? strlen(n) : 0;
		if (fo->items[i].kind == FOCUS_OBJECT && len > 4 && strcasecmp(n + len - 4, ".exe") == 0)
			return n[0] == '/' ? win_path_from_root(ctx->arena, n) : n;
	}
	return NULL;
}

void collect_windows(struct cudx_ctx *ctx, struct inventory *inv)
{
	if (ctx->os != OS_WINDOWS)
		return;
	struct windows_inventory *w = arena_alloc(ctx->arena, sizeof *w);
	inv->windows = w;
	/* why/tree (collect/focus.h): their host settings set the simulated process up, and the DLL
	 * they ask about is loaded first */
	struct focus *fo = inv->focus;
	const struct focus_windows *fw = fo ? &fo->win : NULL;
	win_inventory_init(ctx, w, fw && fw->exe ? fw->exe : program_asked_for(ctx, fo), fw ? fw->cwd : NULL);
	for (size_t i = 0; fw && i < fw->n_dll_dirs; i++)
		win_loader_add_dll_dir(&w->loader, fw->dll_dirs[i]);
	if (fw && fw->set_dll_dir)
		w->loader.t.set_dll_directory = fw->set_dll_dir;
	win_inventory_scan(ctx, w);
	for (size_t i = 0; fo && i < fo->n_items; i++) {
		struct focus_item *it = &fo->items[i];
		if (it->kind == FOCUS_LIBRARY || it->kind == FOCUS_OBJECT)
			it->query = win_inventory_query(ctx, w, it->name, it->kind == FOCUS_LIBRARY ? fw->from_dir : NULL,
							fw->reason ? fw->reason : "asked for", true);
	}
	win_inventory_query(ctx, w, "nvcuda.dll", NULL, "the CUDA driver API (installed by the NVIDIA driver)", false);
	/* Every cudart, cuBLAS and cuDNN DLL installed: can a program started from this
	 * environment load it and everything it imports? */
	for (size_t i = 0; i < w->n_installs; i++) {
		const char *d = win_fs_find_win(&w->loader.fs, w->installs[i].dll_dir);
		size_t n;
		const struct sysroot_dirent *e = d ? win_fs_list(&w->loader.fs, d, &n) : NULL;
		for (size_t k = 0; e && k < n && w->n_queries < WIN_MAX_QUERIES; k++) {
			if (!cuda_dll(e[k].name))
				continue;
			bool dup = false;
			for (size_t j = 0; j < w->n_queries; j++)
				dup |= strcasecmp(w->queries[j].name, e[k].name) == 0;
			if (!dup)
				win_inventory_query(ctx, w, e[k].name, NULL,
						    arena_printf(ctx->arena, "installed in %s", w->installs[i].dll_dir),
						    false);
		}
	}
	if (w->env_truncated)
		inventory_note(ctx, inv, ctx->opt->env_file,
			       "%llu value(s) in the PowerShell table end in \"...\": PowerShell cut them at the console "
			       "width; save the environment with `Get-ChildItem env: | Format-Table -Wrap -AutoSize | "
			       "Out-String -Width 32767` or `cmd /c set` instead",
			       (unsigned long long)w->env_truncated);
}
