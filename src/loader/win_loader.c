#include "loader/win_loader.h"

#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "loader/win_env.h"

#ifdef _WIN32
#include <direct.h> /* _getcwd: the live current directory in the native build */
#endif

#ifndef DT_DIR /* mingw's dirent.h has no d_type; sysroot_win.c uses the glibc values */
#define DT_DIR 4
#endif

#define WIN_MAX_PATH_DIRS 1024
#define WIN_MAX_SCAN_DIRS 256

const char *win_cand_result_name(enum win_cand_result r)
{
	switch (r) {
	case WIN_CAND_ABSENT: return "absent";
	case WIN_CAND_DIR_MISSING: return "directory missing";
	case WIN_CAND_NOT_IN_TREE: return "not in the analysed tree";
	case WIN_CAND_FOUND: return "found";
	case WIN_CAND_WRONG_MACHINE: return "wrong machine";
	case WIN_CAND_BAD_PE: return "not a valid PE file";
	}
	return "?";
}

bool win_tree_detect(const struct sysroot *sr, struct arena *a)
{
	struct win_fs fs;
	win_fs_init(&fs, sr, a);
	return win_fs_find(&fs, "/Windows/System32") != NULL;
}

static const char *win_join(struct arena *a, const char *dir, const char *name)
{
	size_t n = strlen(dir);
	if (n && (dir[n - 1] == '\\' || dir[n - 1] == '/'))
		return arena_printf(a, "%s%s", dir, name);
	return arena_printf(a, "%s\\%s", dir, name);
}

static const char *win_dirname(struct arena *a, const char *p)
{
	const char *bs = strrchr(p, '\\'), *fs = strrchr(p, '/');
	const char *s = bs > fs ? bs : fs;
	if (!s)
		return NULL;
	if (s - p == 2 && p[1] == ':')
		return arena_strndup(a, p, 3); /* "C:\" */
	return arena_strndup(a, p, (size_t)(s - p));
}

static const char *win_basename(const char *p)
{
	const char *bs = strrchr(p, '\\'), *fs = strrchr(p, '/');
	const char *s = bs > fs ? bs : fs;
	return s ? s + 1 : p;
}

const char *win_system32(struct win_loader *L, const char **win_name)
{
	struct arena *a = L->ctx->arena;
	/* WOW64 file system redirection: a 32-bit process asking for System32 gets SysWOW64. */
	if (L->t.machine == PE_MACHINE_I386) {
		const char *w = win_join(a, L->t.system_root, "SysWOW64");
		if (win_fs_find_win(&L->fs, w)) {
			if (win_name)
				*win_name = w;
			return win_fs_find_win(&L->fs, w);
		}
	}
	const char *w = win_join(a, L->t.system_root, "System32");
	if (win_name)
		*win_name = w;
	return win_fs_find_win(&L->fs, w);
}

/* python.exe next to python3X.dll: the version that decides the DLL search mode. */
static void detect_python(struct win_loader *L)
{
	struct win_target *t = &L->t;
	const char *base = win_basename(t->exe);
	if (strncasecmp(base, "python", 6) != 0 || !t->app_dir)
		return;
	const char *dir = win_fs_find_win(&L->fs, t->app_dir);
	if (!dir)
		return;
	size_t n;
	const struct sysroot_dirent *e = win_fs_list(&L->fs, dir, &n);
	for (size_t i = 0; i < n; i++) {
		const char *nm = e[i].name;
		unsigned maj, min;
		char tail[8];
		/* python311.dll, python38.dll (not python3.dll, the stable-ABI forwarder) */
		if (strncasecmp(nm, "python", 6) == 0 && sscanf(nm + 6, "%1u%2u%7s", &maj, &min, tail) == 3 &&
		    strcasecmp(tail, ".dll") == 0)
			t->python_version = arena_printf(L->ctx->arena, "%u.%u", maj, min);
		if (strcasecmp(nm, "conda-meta") == 0)
			t->conda = true;
	}
	if (t->python_version) {
		unsigned maj = 0, min = 0;
		sscanf(t->python_version, "%u.%u", &maj, &min);
		if (maj > 3 || (maj == 3 && min >= 8))
			t->mode = WIN_SEARCH_DEFAULT_DIRS;
	}
}

void win_loader_init(struct win_loader *L, struct cudx_ctx *ctx, const char *exe, const char *cwd)
{
	struct arena *a = ctx->arena;
	memset(L, 0, sizeof *L);
	L->ctx = ctx;
	win_fs_init(&L->fs, &ctx->root, a);
	struct win_target *t = &L->t;
	const char *sr = win_env_get(&ctx->env, "SystemRoot");
	if (!sr)
		sr = win_env_get(&ctx->env, "windir");
	t->system_root = win_dir_clean(a, sr ? sr : "C:\\Windows");
#ifdef _WIN32
	/* on the live system the current directory is part of the standard search */
	char cwd_buf[4096];
	if (!cwd && ctx->root.live && _getcwd(cwd_buf, sizeof cwd_buf))
		cwd = arena_strdup(a, cwd_buf);
#endif
	t->cwd = cwd;
	t->machine = PE_MACHINE_AMD64;
	t->machine_source = "default (x64: CUDA on Windows is 64-bit only)";
	if (exe) {
		t->exe = exe;
		t->app_dir = win_dirname(a, exe);
		const char *rp = win_fs_find_win(&L->fs, exe);
		struct mapped_file m;
		if (rp && sysroot_map(&ctx->root, rp, &m) == 0) {
			uint16_t mach;
			if (pe_ident(m.data, &mach, NULL, NULL)) {
				t->machine = mach;
				t->machine_source = "the .exe's PE header";
			}
			sysroot_unmap(&m);
		}
		detect_python(L);
	}
	const char *path = win_env_get(&ctx->env, "Path");
	if (path) {
		size_t cap = 0;
		const char *p = path;
		while (*p && L->n_path_dirs < WIN_MAX_PATH_DIRS) {
			size_t len = strcspn(p, ";");
			const char *el = p;
			size_t elen = len;
			/* PATH entries may be quoted; empty entries are skipped by the loader */
			if (elen >= 2 && el[0] == '"' && el[elen - 1] == '"')
				el++, elen -= 2;
			if (elen)
				*(const char **)ARENA_PUSH(a, L->path_dirs, L->n_path_dirs, cap) =
					win_expand_vars(a, &ctx->env, arena_strndup(a, el, elen));
			p += len;
			if (*p == ';')
				p++;
		}
	}
}

void win_loader_add_dll_dir(struct win_loader *L, const char *dir)
{
	*(const char **)ARENA_PUSH(L->ctx->arena, L->t.user_dirs, L->t.n_user_dirs, L->t.cap_user_dirs) = dir;
}

const struct win_candidate *win_chosen(const struct win_resolution *r)
{
	return r->chosen >= 0 ? &r->cands[r->chosen] : NULL;
}

/* Look for name in one directory. Fills a candidate; returns its result. */
static enum win_cand_result probe_dir(struct win_loader *L, const char *dir, const char *name,
				      struct win_candidate *c)
{
	struct arena *a = L->ctx->arena;
	c->dir = dir;
	const char *why = NULL;
	const char *rp = win_path_to_root(a, dir, &why);
	if (!rp) {
		c->detail = why;
		return c->result = WIN_CAND_NOT_IN_TREE;
	}
	const char *d = win_fs_find(&L->fs, rp);
	if (!d)
		return c->result = WIN_CAND_DIR_MISSING;
	size_t n;
	const struct sysroot_dirent *e = win_fs_list(&L->fs, d, &n);
	const char *hit = NULL;
	for (size_t i = 0; i < n && !hit; i++)
		if (strcasecmp(e[i].name, name) == 0 && e[i].type != DT_DIR)
			hit = e[i].name;
	if (!hit)
		return c->result = WIN_CAND_ABSENT;
	c->path = path_join(a, d, hit);
	struct mapped_file m;
	int err = sysroot_map(&L->ctx->root, c->path, &m);
	if (err) {
		c->detail = arena_printf(a, "cannot be read: %s", strerror(err));
		return c->result = WIN_CAND_BAD_PE;
	}
	const char *perr = NULL;
	bool ok = pe_ident(m.data, &c->machine, NULL, &perr) && pe_validate(m.data, &perr);
	sysroot_unmap(&m);
	if (!ok) {
		c->detail = perr;
		return c->result = WIN_CAND_BAD_PE;
	}
	if (c->machine != L->t.machine) {
		c->detail = arena_printf(a, "%s DLL in a %s process", pe_machine_name(c->machine),
					 pe_machine_name(L->t.machine));
		return c->result = WIN_CAND_WRONG_MACHINE;
	}
	return c->result = WIN_CAND_FOUND;
}

static struct win_candidate *add_cand(struct arena *a, struct win_resolution *r, const char *origin)
{
	struct win_candidate *c = ARENA_PUSH(a, r->cands, r->n_cands, r->cap_cands);
	c->origin = origin;
	return c;
}

/* The directory list of the search, in order, with the name of each step. */
struct search_dir {
	const char *dir, *origin;
};

static size_t search_dirs(struct win_loader *L, const char *from_dir, struct search_dir *out, size_t max)
{
	struct arena *a = L->ctx->arena;
	struct win_target *t = &L->t;
	size_t n = 0;
#define ADD(d, o)                                         \
	do {                                              \
		if (n < max)                              \
			out[n++] = (struct search_dir){ d, o }; \
	} while (0)
	const char *s32 = NULL;
	win_system32(L, &s32);
	if (t->mode == WIN_SEARCH_DEFAULT_DIRS) {
		if (from_dir)
			ADD(from_dir, "the loading DLL's directory (LOAD_LIBRARY_SEARCH_DLL_LOAD_DIR)");
		if (t->app_dir)
			ADD(t->app_dir, "application directory");
		for (size_t i = 0; i < t->n_user_dirs; i++)
			ADD(t->user_dirs[i], "os.add_dll_directory / AddDllDirectory");
		ADD(s32, "System32");
		return n;
	}
	if (t->app_dir)
		ADD(t->app_dir, "application directory");
	if (t->set_dll_directory)
		ADD(t->set_dll_directory, "SetDllDirectory");
	ADD(s32, "System32");
	ADD(win_join(a, t->system_root, "System"), "16-bit System directory");
	ADD(t->system_root, "Windows directory");
	if (t->cwd && !t->set_dll_directory)
		ADD(t->cwd, "current directory");
	for (size_t i = 0; i < L->n_path_dirs; i++)
		ADD(L->path_dirs[i], arena_printf(a, "PATH entry %llu", (unsigned long long)i + 1));
#undef ADD
	return n;
}

/* "cublas64_11.dll" -> stem "cublas64_", number "11"; "nvrtc64_120_0.dll" -> "nvrtc64_", "120"
 * ignoring the trailing "_0". False when the name carries no version number. This is how CUDA
 * puts the major in DLL names (compat-facts.md §4a). */
static bool dll_stem(const char *name, char *stem, size_t cap, unsigned *num)
{
	size_t n = strlen(name);
	if (n < 5 || strcasecmp(name + n - 4, ".dll") != 0)
		return false;
	n -= 4;
	if (n >= 2 && name[n - 1] == '0' && name[n - 2] == '_')
		n -= 2;
	size_t d = n;
	while (d > 0 && isdigit((unsigned char)name[d - 1]))
		d--;
	if (d == n || d == 0 || n - d > 4 || d >= cap)
		return false;
	for (size_t i = 0; i < d; i++)
		stem[i] = (char)tolower((unsigned char)name[i]);
	stem[d] = 0;
	*num = (unsigned)strtoul(name + d, NULL, 10);
	return true;
}

/* The major a DLL's number names: NVIDIA writes the CUDA release into it as major and minor
 * (cudart64_80: 8.0, cudart64_91: 9.1, cudart64_102: 10.2, cublas64_112: 11.2) or the major alone
 * (cublas64_11, cudnn64_8): 112 and 11 are one major, 102 and 11 two. */
static unsigned dll_major(unsigned num)
{
	return num >= 20 ? num / 10 : num;
}

/* Whether two numbers name DLLs one program can use in place of each other: the same major from
 * CUDA 11 on (minor-version compatibility; cublas64_112 and cublas64_11), the very same number
 * before it, where every minor release has its own DLLs (cudart64_91 does not serve a program
 * built with 9.2's cudart64_92). */
static bool same_dll_release(unsigned x, unsigned y)
{
	return dll_major(x) == dll_major(y) && (dll_major(x) >= 11 || x == y);
}

static bool seen_dir(const char **dirs, size_t n, const char *d)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(dirs[i], d) == 0)
			return true;
	return false;
}

/* Directories outside the search where CUDA and cuDNN put DLLs (formats.md §4.3). */
static size_t extra_dirs(struct win_loader *L, struct search_dir *out, size_t max)
{
	struct arena *a = L->ctx->arena;
	struct envsnap *env = &L->ctx->env;
	size_t n = 0;
#define ADD(d, o)                                         \
	do {                                              \
		if (n < max)                              \
			out[n++] = (struct search_dir){ d, o }; \
	} while (0)
	if (L->t.mode == WIN_SEARCH_DEFAULT_DIRS)
		for (size_t i = 0; i < L->n_path_dirs; i++)
			ADD(L->path_dirs[i], arena_printf(a, "PATH entry %llu (Python >= 3.8 does not search PATH)",
							 (unsigned long long)i + 1));
	for (size_t i = 0; i < env->n; i++)
		if (strncasecmp(env->vars[i].name, "CUDA_PATH", 9) == 0 && env->vars[i].value[0]) {
			const char *v = env->vars[i].value;
			ADD(win_join(a, v, "bin"), arena_printf(a, "%%%s%%\\bin", env->vars[i].name));
			ADD(win_join(a, v, "bin\\x64"), arena_printf(a, "%%%s%%\\bin\\x64 (CUDA 13 layout)", env->vars[i].name));
		}
	/* Installed toolkits and cuDNN, whatever the environment says. */
	static const struct {
		const char *base, *sub[3], *what;
	} roots[] = {
		{ "/Program Files/NVIDIA GPU Computing Toolkit/CUDA", { "bin", "bin/x64", NULL }, "CUDA toolkit" },
		{ "/Program Files/NVIDIA/CUDNN", { "bin", NULL, NULL }, "cuDNN" },
	};
	for (size_t r = 0; r < sizeof roots / sizeof roots[0]; r++) {
		const char *base = win_fs_find(&L->fs, roots[r].base);
		if (!base)
			continue;
		size_t nv;
		const struct sysroot_dirent *v = win_fs_list(&L->fs, base, &nv);
		for (size_t i = 0; i < nv && i < 64; i++) {
			const char *vd = path_join(a, base, v[i].name);
			for (int s = 0; s < 3 && roots[r].sub[s]; s++) {
				const char *sd = win_fs_find(&L->fs, path_join(a, vd, roots[r].sub[s]));
				if (!sd)
					continue;
				ADD(win_path_from_root(a, sd), arena_printf(a, "%s %s", roots[r].what, v[i].name));
				if (r == 1) {
					/* cuDNN 9 installs into bin\<cuda major.minor>\ (e.g. bin\12.8) */
					size_t nb;
					const struct sysroot_dirent *b = win_fs_list(&L->fs, sd, &nb);
					for (size_t k = 0; k < nb && k < 32; k++)
						if (b[k].type == DT_DIR && isdigit((unsigned char)b[k].name[0]))
							ADD(win_path_from_root(a, path_join(a, sd, b[k].name)),
							    arena_printf(a, "cuDNN %s, CUDA %s subdirectory", v[i].name, b[k].name));
				}
			}
		}
	}
	/* pip wheels next to the host python: site-packages\nvidia\<lib>\bin and torch\lib */
	if (L->t.app_dir) {
		const char *sp = win_join(a, L->t.app_dir, "Lib\\site-packages");
		const char *nv = win_fs_find_win(&L->fs, win_join(a, sp, "nvidia"));
		if (nv) {
			size_t nn;
			const struct sysroot_dirent *e = win_fs_list(&L->fs, nv, &nn);
			for (size_t i = 0; i < nn && i < 64; i++) {
				const char *b = win_fs_find(&L->fs, path_join(a, path_join(a, nv, e[i].name), "bin"));
				if (b)
					ADD(win_path_from_root(a, b), arena_printf(a, "pip wheel nvidia\\%s", e[i].name));
			}
		}
		const char *tl = win_fs_find_win(&L->fs, win_join(a, sp, "torch\\lib"));
		if (tl)
			ADD(win_path_from_root(a, tl), "PyTorch's bundled DLLs (torch\\lib)");
	}
#undef ADD
	return n;
}

/* Files named like name with another number, in dir (in-root). */
static void scan_other_major(struct win_loader *L, struct win_resolution *r, const char *dir_win,
			     const char *origin, const char *stem, unsigned num)
{
	struct arena *a = L->ctx->arena;
	const char *rp = win_path_to_root(a, dir_win, NULL);
	const char *d = rp ? win_fs_find(&L->fs, rp) : NULL;
	if (!d)
		return;
	size_t n;
	const struct sysroot_dirent *e = win_fs_list(&L->fs, d, &n);
	for (size_t i = 0; i < n; i++) {
		char s2[128];
		unsigned n2;
		if (!dll_stem(e[i].name, s2, sizeof s2, &n2) || same_dll_release(n2, num) || strcmp(s2, stem) != 0)
			continue;
		for (size_t k = 0; k < r->n_other_major; k++)
			if (strcmp(r->other_major[k].path, path_join(a, d, e[i].name)) == 0)
				goto next;
		struct win_candidate *c =
			ARENA_PUSH(a, r->other_major, r->n_other_major, r->cap_other_major);
		c->dir = dir_win;
		c->origin = origin;
		c->result = WIN_CAND_FOUND;
		c->path = path_join(a, d, e[i].name);
		c->detail = arena_strdup(a, e[i].name);
next:;
	}
}

void win_resolve(struct win_loader *L, const char *name, const char *from_dir, struct win_resolution *r)
{
	struct arena *a = L->ctx->arena;
	memset(r, 0, sizeof *r);
	r->name = name;
	r->chosen = -1;
	if (strchr(name, '\\') || strchr(name, '/')) {
		/* LoadLibrary with a path: only that file. */
		struct win_candidate *c = add_cand(a, r, "the path given");
		probe_dir(L, win_dirname(a, name), win_basename(name), c);
		if (c->result == WIN_CAND_FOUND)
			r->chosen = 0;
		r->error = c->result == WIN_CAND_FOUND ? 0
			   : c->result == WIN_CAND_WRONG_MACHINE || c->result == WIN_CAND_BAD_PE
				   ? WIN_ERROR_BAD_EXE_FORMAT
				   : WIN_ERROR_MOD_NOT_FOUND;
		return;
	}
	if (win_is_api_set(name)) {
		r->system = "API set (a virtual name Windows maps to its own DLLs)";
		return;
	}
	if (win_is_known_dll(name)) {
		const char *s32 = NULL;
		win_system32(L, &s32);
		struct win_candidate *c = add_cand(a, r, "KnownDLLs (always from System32)");
		if (probe_dir(L, s32, name, c) == WIN_CAND_FOUND)
			r->chosen = 0;
		else
			r->system = "KnownDLL (part of Windows; not in the analysed tree)";
		return;
	}
	struct search_dir dirs[WIN_MAX_PATH_DIRS + 16];
	size_t nd = search_dirs(L, from_dir, dirs, sizeof dirs / sizeof dirs[0]);
	const char **seen = arena_calloc(a, nd + WIN_MAX_SCAN_DIRS, sizeof *seen);
	size_t n_seen = 0;
	for (size_t i = 0; i < nd; i++) {
		struct win_candidate *c = add_cand(a, r, dirs[i].origin);
		enum win_cand_result res = probe_dir(L, dirs[i].dir, name, c);
		const char *rp = win_path_to_root(a, dirs[i].dir, NULL);
		const char *d = rp ? win_fs_find(&L->fs, rp) : NULL;
		if (d)
			seen[n_seen++] = d;
		if (res == WIN_CAND_FOUND) {
			r->chosen = (int)r->n_cands - 1;
			break;
		}
		if (res == WIN_CAND_WRONG_MACHINE || res == WIN_CAND_BAD_PE) {
			/* Windows does not skip it and go on, unlike ld.so (formats.md §4.2) */
			r->error = WIN_ERROR_BAD_EXE_FORMAT;
			break;
		}
	}
	if (r->chosen < 0 && !r->error)
		r->error = WIN_ERROR_MOD_NOT_FOUND;
	/* Where else the name lives, for the explanation and the fix. */
	struct search_dir extra[WIN_MAX_SCAN_DIRS];
	size_t ne = extra_dirs(L, extra, WIN_MAX_SCAN_DIRS);
	char stem[128];
	unsigned num = 0;
	bool versioned = dll_stem(name, stem, sizeof stem, &num);
	if (versioned)
		for (size_t i = 0; i < nd; i++)
			scan_other_major(L, r, dirs[i].dir, dirs[i].origin, stem, num);
	for (size_t i = 0; i < ne; i++) {
		const char *rp = win_path_to_root(a, extra[i].dir, NULL);
		const char *d = rp ? win_fs_find(&L->fs, rp) : NULL;
		if (!d || seen_dir(seen, n_seen, d))
			continue;
		seen[n_seen++] = d;
		if (versioned)
			scan_other_major(L, r, extra[i].dir, extra[i].origin, stem, num);
		struct win_candidate c = { .origin = extra[i].origin };
		enum win_cand_result res = probe_dir(L, extra[i].dir, name, &c);
		if (res == WIN_CAND_FOUND || res == WIN_CAND_WRONG_MACHINE || res == WIN_CAND_BAD_PE)
			*(struct win_candidate *)ARENA_PUSH(a, r->elsewhere, r->n_elsewhere, r->cap_elsewhere) = c;
	}
}

int win_tree_loaded(const struct win_tree *t, const char *name)
{
	for (size_t i = 0; i < t->n; i++)
		if (!t->nodes[i].repeat && strcasecmp(t->nodes[i].name, name) == 0)
			return (int)i;
	return -1;
}

static void walk_tree(struct win_loader *L, const char *name, const char *from_dir, struct win_tree *t)
{
	struct arena *a = L->ctx->arena;
	memset(t, 0, sizeof *t);
	if (L->t.mode != WIN_SEARCH_DEFAULT_DIRS)
		from_dir = NULL; /* no $ORIGIN on Windows: only the DLL_LOAD_DIR flag searches there */
	struct win_node *root = ARENA_PUSH(a, t->nodes, t->n, t->cap);
	root->name = name;
	root->parent = -1;
	win_resolve(L, name, from_dir, &root->res);
	/* A module loaded by path in DEFAULT_DIRS mode also searches its own folder for what it
	 * needs (LOAD_LIBRARY_SEARCH_DLL_LOAD_DIR, which Python adds for .pyd files). */
	if (!from_dir && (strchr(name, '\\') || strchr(name, '/')) && L->t.mode == WIN_SEARCH_DEFAULT_DIRS)
		from_dir = win_dirname(a, name);
	/* breadth first: t->n grows while we walk; bounded by WIN_TREE_MAX_NODES */
	for (size_t i = 0; i < t->n; i++) {
		struct win_node *nd = &t->nodes[i];
		const struct win_candidate *c = win_chosen(&nd->res);
		if (nd->repeat || !c)
			continue;
		struct mapped_file m;
		int err = sysroot_map(&L->ctx->root, c->path, &m);
		if (err) {
			nd->pe_error = arena_printf(a, "cannot be read: %s", strerror(err));
			continue;
		}
		struct pe_info *pe = arena_alloc(a, sizeof *pe);
		const char *perr = NULL;
		if (!pe_parse(m.data, a, pe, &perr)) {
			nd->pe_error = perr;
			sysroot_unmap(&m);
			continue;
		}
		sysroot_unmap(&m);
		nd->pe = pe;
		nd->version = pe_file_version(a, pe);
		if (nd->depth >= WIN_TREE_MAX_DEPTH)
			continue;
		int depth = nd->depth;
		bool parent_delay = nd->delay;
		for (size_t k = 0; k < pe->n_imports; k++) {
			if (t->n >= WIN_TREE_MAX_NODES) {
				t->truncated = true;
				return;
			}
			const struct pe_import *imp = &pe->imports[k];
			int prev = win_tree_loaded(t, imp->dll);
			struct win_node *ch = ARENA_PUSH(a, t->nodes, t->n, t->cap);
			ch->name = imp->dll;
			ch->parent = (int)i;
			ch->depth = depth + 1;
			ch->delay = imp->delay || parent_delay;
			ch->import = imp;
			if (prev >= 0) {
				ch->repeat = true;
				ch->res = t->nodes[prev].res;
			} else {
				win_resolve(L, imp->dll, from_dir, &ch->res);
			}
		}
	}
}

/* --- error 127: imports the provider does not export ------------------------------------------ */

static int str_cmp(const void *x, const void *y)
{
	return strcmp(*(const char *const *)x, *(const char *const *)y);
}

/* A DLL's exports as sorted tables: names for lookup by name, ordinals for lookup by ordinal
 * (a crafted pair of DLLs may hold 65,536 ordinal imports against 262,144 exports: a linear
 * search per import would be 17 G comparisons). */
struct export_index {
	const char **names;
	size_t n_names;
	uint32_t *ordinals;
	size_t n_ordinals;
};

static int u32_cmp(const void *x, const void *y)
{
	uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
	return a < b ? -1 : a > b;
}

static void index_exports(struct arena *a, const struct pe_info *pe, struct export_index *ix)
{
	size_t n = pe->n_exports ? pe->n_exports : 1;
	ix->names = arena_calloc(a, n, sizeof *ix->names);
	ix->ordinals = arena_calloc(a, n, sizeof *ix->ordinals);
	ix->n_names = 0;
	for (size_t i = 0; i < pe->n_exports; i++) {
		if (pe->exports[i].name)
			ix->names[ix->n_names++] = pe->exports[i].name;
		ix->ordinals[i] = pe->exports[i].ordinal;
	}
	ix->n_ordinals = pe->n_exports;
	qsort(ix->names, ix->n_names, sizeof *ix->names, str_cmp);
	qsort(ix->ordinals, ix->n_ordinals, sizeof *ix->ordinals, u32_cmp);
}

static bool exports_proc(const struct export_index *ix, const char *proc)
{
	if (proc[0] == '#') { /* by ordinal */
		uint32_t ord = (uint32_t)strtoul(proc + 1, NULL, 10);
		return bsearch(&ord, ix->ordinals, ix->n_ordinals, sizeof *ix->ordinals, u32_cmp) != NULL;
	}
	return bsearch(&proc, ix->names, ix->n_names, sizeof *ix->names, str_cmp) != NULL;
}

bool win_pe_read(struct win_loader *L, const char *path, struct pe_info *pe)
{
	struct mapped_file m;
	if (sysroot_map(&L->ctx->root, path, &m))
		return false;
	const char *err;
	bool ok = pe_parse(m.data, L->ctx->arena, pe, &err);
	sysroot_unmap(&m);
	return ok;
}

/* True when the PE file at in-root path exports every name in procs. */
static bool copy_exports_all(struct win_loader *L, const char *path, const char **procs, size_t n)
{
	struct arena *a = L->ctx->arena;
	struct pe_info pe;
	bool ok = win_pe_read(L, path, &pe);
	if (!ok)
		return false;
	struct export_index ix;
	index_exports(a, &pe, &ix);
	for (size_t i = 0; i < n && ok; i++)
		ok = exports_proc(&ix, procs[i]);
	return ok;
}

/* Windows binds every normal import when it loads a DLL: a name the provider does not export
 * fails the whole load with error 127 (a delay-loaded one only at its first call: not checked). */
static void check_imports(struct win_loader *L, struct win_tree *t)
{
	struct arena *a = L->ctx->arena;
	struct export_index **ix = arena_calloc(a, t->n ? t->n : 1, sizeof *ix);
	for (size_t i = 1; i < t->n; i++) {
		struct win_node *nd = &t->nodes[i];
		if (nd->delay || !nd->import || nd->import->delay)
			continue;
		int p = nd->repeat ? win_tree_loaded(t, nd->name) : (int)i;
		const struct pe_info *prov = p >= 0 ? t->nodes[p].pe : NULL;
		if (!prov || t->nodes[p].res.system)
			continue;
		if (!ix[p]) {
			ix[p] = arena_alloc(a, sizeof *ix[p]);
			index_exports(a, prov, ix[p]);
		}
		for (size_t k = 0; k < nd->import->n_funcs; k++) {
			const char *proc = nd->import->funcs[k];
			if (exports_proc(ix[p], proc))
				continue;
			if (nd->n_missing_procs < WIN_MAX_MISSING_PROCS) {
				if (!nd->missing_procs)
					nd->missing_procs = arena_calloc(a, WIN_MAX_MISSING_PROCS, sizeof *nd->missing_procs);
				nd->missing_procs[nd->n_missing_procs] = proc;
			}
			nd->n_missing_procs++;
		}
		if (!nd->n_missing_procs)
			continue;
		size_t listed = nd->n_missing_procs < WIN_MAX_MISSING_PROCS ? nd->n_missing_procs : WIN_MAX_MISSING_PROCS;
		for (size_t e = 0; e < nd->res.n_elsewhere && !nd->procs_elsewhere; e++)
			if (nd->res.elsewhere[e].result == WIN_CAND_FOUND &&
			    copy_exports_all(L, nd->res.elsewhere[e].path, nd->missing_procs, listed))
				nd->procs_elsewhere = nd->res.elsewhere[e].path;
	}
}

void win_tree_build(struct win_loader *L, const char *name, const char *from_dir, struct win_tree *t)
{
	walk_tree(L, name, from_dir, t);
	check_imports(L, t);
}
