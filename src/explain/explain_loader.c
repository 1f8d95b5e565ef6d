/* The loader behind explain's library checks: how ld.so would resolve the library a message
 * names, with every place tried (the `why` view). Uses the glibc loader simulator
 * (src/loader/loader.h) when this build has it; without it explain falls back to the inventory's
 * list of copies. */
#include <ctype.h>
#include <dirent.h>
#include <string.h>
#include <strings.h>

#include "explain/explain_loader.h"
#include "fmt/version.h"

#if defined(__has_include)
#if __has_include("loader/loader.h")
#define EXPLAIN_HAVE_LOADER 1
#include "loader/loader.h"
#endif
#endif

#if defined(__has_include)
#if __has_include("collect/windows.h")
#define EXPLAIN_HAVE_WIN_LOADER 1
#include "collect/python.h"
#include "collect/windows.h"
#include "loader/win_path.h"
#endif
#endif

#ifdef EXPLAIN_HAVE_WIN_LOADER
struct win_cookie {
	struct cudx_ctx *ctx;
	struct win_loader *L;
	const struct inventory *inv;
	const struct explain_catalog *cat; /* library classes (torch's DLLs), NULL when made up */
};

/* A DLL the message names by its path ("x64\\yolo_gpu.dll" next to the program, "C:\\...\\x.dll"):
 * LoadLibrary takes that file; when it is there, what fails is one of its imports. */
static void resolve_windows_path(struct win_cookie *c, struct arena *a, const char *name, struct explain_resolution *out)
{
	const char *full = name;
	bool absolute = (isalpha((unsigned char)name[0]) && name[1] == ':') || name[0] == '\\';
	if (!absolute && !c->L->t.app_dir)
		return; /* relative to a program folder that --app did not name */
	if (!absolute)
		full = arena_printf(a, "%s\\%s", c->L->t.app_dir, name);
	struct win_tree *t = arena_calloc(a, 1, sizeof *t);
	win_tree_build(c->L, full, NULL, t);
	const struct win_candidate *ch = t->n ? win_chosen(&t->nodes[0].res) : NULL;
	if (!ch || !ch->path)
		return; /* not in the tree (another drive) or not there: nothing to say of that load */
	out->available = true;
	out->system = true;
	out->loader = "Windows";
	out->path = win_path_from_root(a, ch->path);
	out->how = "the path the message names";
	for (size_t i = 1; i < t->n && !out->dep_missing; i++) {
		const struct win_node *nd = &t->nodes[i];
		if (nd->delay || nd->repeat || nd->res.system || win_chosen(&nd->res))
			continue;
		const char *importer = nd->parent > 0 ? t->nodes[nd->parent].name : out->path;
		out->dep_missing =
			arena_printf(a, "%s imports %s, which no directory Windows searches holds", importer, nd->name);
		out->dep_missing_name = nd->name;
		if (nd->res.n_other_major)
			out->dep_other_major = arena_printf(a, "%s imports %s, which is not installed here; another major is: "
							      "%s in %s (%s)",
							    importer, nd->name, nd->res.other_major[0].detail,
							    nd->res.other_major[0].dir, nd->res.other_major[0].origin);
	}
}

static void resolve_windows(void *cookie, struct arena *a, const char *name, struct explain_resolution *out);

/* Whether file is the extension module `module` (module.pyd, module.cp310-win_amd64.pyd). */
static bool extension_of(const char *file, const char *module)
{
	size_t n = strlen(module), f = strlen(file);
	return f >= n + 4 && strncasecmp(file, module, n) == 0 && file[n] == '.' && strcasecmp(file + f - 4, ".pyd") == 0;
}

/* Python's extension module `module` ("DLL load failed while importing tensorrt": tensorrt.cp310-
 * win_amd64.pyd) in a site-packages of the target's Python environments, at its top or one package
 * below it; NULL when there is none, or several in different places (an "_C" of torch and one of
 * torchvision: which one failed, the message does not say). */
static const char *find_extension(struct win_cookie *c, struct arena *a, const char *module,
				  const struct py_env **env)
{
	const struct python_inventory *py = c->inv ? c->inv->python : NULL;
	const char *found = NULL;
	for (size_t e = 0; py && e < py->n_envs; e++)
		for (size_t s = 0; s < py->envs[e].n_site_dirs; s++) {
			const char *site = py->envs[e].site_dirs[s];
			struct sysroot_dirent *ents;
			size_t n;
			if (sysroot_list_dir(&c->ctx->root, a, site, &ents, &n, PY_MAX_SITE_ENTRIES) != 0)
				continue;
			for (size_t i = 0; i < n; i++) {
				const char *hit = NULL;
				if (extension_of(ents[i].name, module))
					hit = path_join(a, site, ents[i].name);
				else if (ents[i].type == DT_DIR || ents[i].type == DT_UNKNOWN) {
					const char *pkg = path_join(a, site, ents[i].name);
					struct sysroot_dirent *in;
					size_t m;
					if (sysroot_list_dir(&c->ctx->root, a, pkg, &in, &m, 4096) != 0)
						continue;
					for (size_t k = 0; k < m && !hit; k++)
						if (extension_of(in[k].name, module))
							hit = path_join(a, pkg, in[k].name);
				}
				if (hit && found && strcmp(hit, found) != 0)
					return NULL;
				if (hit) {
					found = hit;
					*env = &py->envs[e];
				}
			}
		}
	return found;
}

/* Whether the extension module at in-root path file imports one of torch's own DLLs (c10.dll,
 * torch_cpu.dll ...: the class `torch` of data/explain_libclass.tsv): an extension of torch, whose
 * package imports torch first, so torch's os.add_dll_directory() folders are in effect when it loads. */
static bool imports_torch(struct win_cookie *c, const char *file)
{
	struct pe_info pe;
	if (!c->cat || !win_pe_read(c->L, file, &pe))
		return false;
	for (size_t i = 0; i < pe.n_imports; i++) {
		struct explain_lib lib;
		if (!pe.imports[i].dll)
			continue;
		explain_lib_classify(c->cat, pe.imports[i].dll, &lib);
		if (lib.klass && strcmp(lib.klass, "torch") == 0)
			return true;
	}
	return false;
}

/* The folders packages give os.add_dll_directory() before they import their extension (torch
 * adds torch\\lib and the nvidia-* wheels' bin folders; delvewheel-repaired wheels add
 * site-packages\\PKG.libs): the extension's package's lib and bin, its .libs, torch\\lib for an
 * extension of torch (one that imports torch's DLLs; tinycudann, mmcv), and every
 * site-packages\\nvidia\\*\\bin. Not modelled: what a package adds from elsewhere (CUDA_PATH). */
static void add_package_dirs(struct win_cookie *c, struct arena *a, const char *file)
{
	struct win_target *t = &c->L->t;
	const char **old = t->user_dirs;
	size_t n_old = t->n_user_dirs;
	t->user_dirs = NULL;
	t->n_user_dirs = t->cap_user_dirs = 0;
	for (size_t i = 0; i < n_old; i++)
		*ARENA_PUSH(a, t->user_dirs, t->n_user_dirs, t->cap_user_dirs) = old[i];
	const char *site = strstr(file, "/site-packages/") ? file : NULL;
	for (const char *p = strstr(file, "/site-packages/"); p; p = strstr(p + 1, "/site-packages/"))
		site = p;
	if (!site)
		return;
	const char *site_dir = arena_strndup(a, file, (size_t)(site - file) + 14);
	const char *rest = site + 15;
	const char *slash = strchr(rest, '/');
	const char *cand[4];
	size_t n = 0;
	const char *pkg = slash ? arena_strndup(a, rest, (size_t)(slash - rest)) : NULL;
	if (pkg) {
		const char *root = path_join(a, site_dir, pkg);
		cand[n++] = path_join(a, root, "lib");
		cand[n++] = path_join(a, root, "bin");
		cand[n++] = arena_printf(a, "%s/%s.libs", site_dir, pkg);
	}
	if ((!pkg || strcmp(pkg, "torch") != 0) && imports_torch(c, file))
		cand[n++] = path_join(a, site_dir, "torch/lib");
	for (size_t i = 0; i < n; i++)
		if (sysroot_is_dir(&c->ctx->root, cand[i]))
			*ARENA_PUSH(a, t->user_dirs, t->n_user_dirs, t->cap_user_dirs) = win_path_from_root(a, cand[i]);
	const char *nv = path_join(a, site_dir, "nvidia");
	struct sysroot_dirent *ents;
	size_t ne;
	if (sysroot_list_dir(&c->ctx->root, a, nv, &ents, &ne, 256) != 0)
		return;
	for (size_t i = 0; i < ne; i++) {
		const char *bin = path_join(a, path_join(a, nv, ents[i].name), "bin");
		if (sysroot_is_dir(&c->ctx->root, bin))
			*ARENA_PUSH(a, t->user_dirs, t->n_user_dirs, t->cap_user_dirs) = win_path_from_root(a, bin);
	}
}

/* The family a message named by a word ("cublas library not found", read as "libcublas.so"
 * on a Windows line), or NULL for a file name. */
static const char *family_word(struct arena *a, const char *name)
{
	size_t n = explain_family_word_len(name);
	return n ? arena_strndup(a, name + 3, n) : NULL;
}

/* A family named by a word, on Windows: its DLLs are named per CUDA release (cublas64_12.dll), so
 * the search is for the newest name the catalogue knows, and a copy of another release on the
 * search path is the family here under a name the program did not ask for. */
static void resolve_windows_family(struct win_cookie *c, struct arena *a, const char *family,
				   struct explain_resolution *out)
{
	const struct kb_lib *rows[32];
	size_t n = kb_lib_find(family, 0, OS_WINDOWS, rows, sizeof rows / sizeof rows[0]);
	const struct kb_lib *newest = NULL;
	for (size_t i = 0; i < n && i < sizeof rows / sizeof rows[0]; i++)
		if (strcasecmp(rows[i]->component, family) == 0 && (!newest || rows[i]->major > newest->major))
			newest = rows[i];
	if (!newest)
		return;
	resolve_windows(c, a, newest->name, out);
	out->family_only = true;
	/* a Python 3.8+ host searches no PATH: a copy there says nothing of the name it wanted */
	if (c->L->t.mode == WIN_SEARCH_DEFAULT_DIRS)
		out->other_major = NULL;
}

/* A DLL a message names, as the Windows loader of the analysed tree would search for it (the
 * environment's PATH, the program's folder when --app names one, System32). */
static void resolve_windows(void *cookie, struct arena *a, const char *name, struct explain_resolution *out)
{
	struct win_cookie *c = cookie;
	memset(out, 0, sizeof *out);
	const char *family = family_word(a, name);
	if (family) {
		resolve_windows_family(c, a, family, out);
		return;
	}
	/* "module.pyd": the extension module a Python import failed to load, by its file */
	size_t len = strlen(name);
	if (len > 4 && strcasecmp(name + len - 4, ".pyd") == 0 && !strchr(name, '\\') && !strchr(name, '/')) {
		const struct py_env *env = NULL;
		const char *file = find_extension(c, a, arena_strndup(a, name, len - 4), &env);
		if (!file)
			return;
		/* the application is the environment's Python, whose folder holds pythonXY.dll and the
		 * runtime DLLs it brings: a venv's base installation (the venv's python.exe is a launcher
		 * that runs the base one), else the environment's own folder */
		const char *app = c->L->t.app_dir;
		if (env->base && isalpha((unsigned char)env->base[0]) && env->base[1] == ':')
			c->L->t.app_dir = env->base;
		else if (!app)
			c->L->t.app_dir = win_path_from_root(a, env->prefix);
		/* Python 3.8+ loads it with LOAD_LIBRARY_SEARCH_DEFAULT_DIRS | DLL_LOAD_DIR: its own folder,
		 * the program's, os.add_dll_directory()'s and System32, not PATH (the wording "while
		 * importing" is 3.8's) */
		enum win_search_mode mode = c->L->t.mode;
		c->L->t.mode = WIN_SEARCH_DEFAULT_DIRS;
		const char **user = c->L->t.user_dirs;
		size_t n_user = c->L->t.n_user_dirs, cap_user = c->L->t.cap_user_dirs;
		add_package_dirs(c, a, file);
		/* conda's Python adds its environment's DLL folders (Library\\bin ...) to the search */
		bool conda = env->kind && strcmp(env->kind, "conda") == 0;
		static const char *const conda_dirs[] = { "Library/bin", "Library/mingw-w64/bin", "Library/usr/bin", "DLLs" };
		for (size_t i = 0; conda && i < sizeof conda_dirs / sizeof conda_dirs[0]; i++) {
			const char *d = path_join(a, env->prefix, conda_dirs[i]);
			if (sysroot_is_dir(&c->ctx->root, d))
				*ARENA_PUSH(a, c->L->t.user_dirs, c->L->t.n_user_dirs, c->L->t.cap_user_dirs) =
					win_path_from_root(a, d);
		}
		resolve_windows_path(c, a, win_path_from_root(a, file), out);
		out->python_ext = true;
		if (out->path)
			out->how = arena_printf(a, "the extension module of that import, in %s", win_path_from_root(a, env->prefix));
		c->L->t.mode = WIN_SEARCH_STANDARD;
		const char *missing = out->dep_missing_name;
		const char *which = missing ? strstr(out->dep_missing, ", which ") : NULL;
		if (which) /* say which search missed it */
			out->dep_missing = arena_printf(a, "%.*s, which no folder Python 3.8+ searches for it holds (the "
							   "module's own, the package's lib and bin, torch's lib for an extension "
							   "of torch, the nvidia-* wheels' bin, the Python installation's, System32)",
							(int)(which - out->dep_missing), out->dep_missing);
		struct win_resolution *r = missing ? arena_calloc(a, 1, sizeof *r) : NULL;
		if (r)
			win_resolve(c->L, missing, NULL, r);
		const struct win_candidate *ch = r ? win_chosen(r) : NULL;
		/* conda's Python before 3.10 still searches PATH (its CONDA_DLL_SEARCH_MODIFICATION patch):
		 * there an import PATH holds is found */
		bool conda_path = conda && (!env->python || version_strcmp(env->python, "3.10") < 0);
		if (ch && ch->path && conda_path)
			out->dep_missing = out->dep_missing_name = NULL;
		else if (ch && ch->path) {
			out->dep_path_only = arena_printf(a, "%s is on the standard search path (%s, %s), which Python 3.8+ "
							     "does not use for an extension module's imports",
							  missing, win_path_from_root(a, ch->path), ch->origin);
			out->dep_path_dir = ch->dir;
		}
		c->L->t.mode = mode;
		c->L->t.app_dir = app;
		c->L->t.user_dirs = user;
		c->L->t.n_user_dirs = n_user;
		c->L->t.cap_user_dirs = cap_user;
		return;
	}
	size_t n = strlen(name);
	if (n < 5 || strcasecmp(name + n - 4, ".dll") != 0)
		return;
	if (strchr(name, '\\') || strchr(name, '/')) {
		resolve_windows_path(c, a, name, out);
		return;
	}
	struct win_resolution *r = arena_calloc(a, 1, sizeof *r);
	win_resolve(c->L, name, NULL, r);
	out->available = true;
	out->system = true; /* a C: drive with System32 is a system a program runs on */
	out->loader = "Windows";
	const struct win_candidate *ch = win_chosen(r);
	if (ch && ch->path) {
		out->path = win_path_from_root(a, ch->path);
		out->how = ch->origin;
		return;
	}
	if (r->system) { /* an API set or KnownDLL: Windows provides it */
		out->path = name;
		out->how = r->system;
		return;
	}
	out->tried = arena_calloc(a, r->n_cands ? r->n_cands : 1, sizeof *out->tried);
	for (size_t i = 0; i < r->n_cands && out->n_tried < 16; i++)
		out->tried[out->n_tried++] = arena_printf(a, "tried %s (%s): %s", r->cands[i].dir, r->cands[i].origin,
							  win_cand_result_name(r->cands[i].result));
	/* another major in a directory the search went through, or on PATH (a toolkit installed and
	 * set up, even where Python 3.8+ ignores PATH): the program wants another CUDA than the one the
	 * machine has. One only elsewhere (%CUDA_PATH%\bin not on PATH) says as much about the search
	 * path as about the major, and is no evidence for either. */
	for (size_t k = 0; k < r->n_other_major && !out->other_major; k++) {
		bool searched = r->other_major[k].origin && strncmp(r->other_major[k].origin, "PATH", 4) == 0;
		for (size_t i = 0; i < r->n_cands && !searched; i++)
			searched = strcasecmp(r->cands[i].dir, r->other_major[k].dir) == 0;
		if (searched)
			out->other_major = arena_printf(a, "%s in %s (%s)", r->other_major[k].detail, r->other_major[k].dir,
							r->other_major[k].origin);
	}
}
#endif

#ifdef EXPLAIN_HAVE_LOADER
static void resolve(void *cookie, struct arena *a, const char *name, struct explain_resolution *out)
{
	struct cudx_ctx *ctx = cookie;
	memset(out, 0, sizeof *out);
	if (!strstr(name, ".so") || strchr(name, '/'))
		return;
	struct loader *L = arena_calloc(a, 1, sizeof *L);
	struct loader_config cfg;
	memset(&cfg, 0, sizeof cfg);
	cfg.root = &ctx->root;
	cfg.env = &ctx->env;
	loader_init(L, a, &cfg);
	/* a run-time load by a program without RPATH: what frameworks do for CUDA libraries */
	struct loader_result *r = loader_resolve(L, name, NULL, true);
	out->available = true;
	out->system = L->interp_path && !L->no_libc;
	if (!r)
		return;
	out->path = r->path;
	out->how = r->path ? loader_how_name(r->how) : NULL;
	out->tried = arena_calloc(a, r->n_cands ? r->n_cands : 1, sizeof *out->tried);
	for (size_t i = 0; i < r->n_cands && out->n_tried < 16; i++)
		out->tried[out->n_tried++] =
			arena_printf(a, "tried %s (%s): %s", r->cands[i].path,
				     r->cands[i].via ? r->cands[i].via : loader_how_name(r->cands[i].how),
				     r->cands[i].reason ? r->cands[i].reason : "");
	for (size_t i = 0; !r->path && i < r->n_cands && !out->dangling; i++)
		if (r->cands[i].dangling)
			out->dangling = arena_printf(a, "%s: %s", r->cands[i].path, r->cands[i].reason);
	for (size_t i = 0; !r->path && i < r->n_cands && !out->placeholder; i++)
		if (r->cands[i].empty)
			out->placeholder = r->cands[i].path;
	if (r->path && r->how == LOADER_HOW_LD_LIBRARY_PATH) {
		/* the same search without the environment: a directory LD_LIBRARY_PATH names may also
		 * be a default one or in ld.so.cache */
		static const struct envsnap none = { .origin = "no environment" };
		struct loader *bare = arena_calloc(a, 1, sizeof *bare);
		cfg.env = &none;
		loader_init(bare, a, &cfg);
		const struct loader_result *b = loader_resolve(bare, name, NULL, true);
		out->env_only = !b || !b->path;
	}
}
#endif

void explain_machine_loader(struct explain_machine *m, struct cudx_ctx *ctx)
{
#ifdef EXPLAIN_HAVE_WIN_LOADER
	if (ctx->os == OS_WINDOWS && m->inv && m->inv->windows) {
		struct win_cookie *c = arena_calloc(ctx->arena, 1, sizeof *c);
		c->ctx = ctx;
		c->L = &m->inv->windows->loader;
		c->inv = m->inv;
		c->cat = m->cat;
		m->resolve = resolve_windows;
		m->cookie = c;
		return;
	}
#endif
#ifdef EXPLAIN_HAVE_LOADER
	if (ctx->os != OS_WINDOWS) {
		m->resolve = resolve;
		m->cookie = ctx;
	}
#else
	(void)m, (void)ctx;
#endif
}
