/* See python_resolve.h. Resolution itself is src/loader/'s; what is left here is the list of
 * directories a search would try (RPATH unless RUNPATH, LD_LIBRARY_PATH, RUNPATH, $ORIGIN
 * expanded), used only to show the other majors of a library that is not found. */
#include <string.h>

#include "collect/python_resolve.h"

#define PY_MAX_SEARCH_DIRS 256

const char *py_canon(struct cudx_ctx *ctx, const char *path)
{
	struct sysroot_resolved r;
	if (sysroot_resolve(&ctx->root, ctx->arena, path, &r) == 0 && r.path)
		return r.path;
	return path_normalize(ctx->arena, path);
}

void py_proc_init(struct py_proc *p, struct cudx_ctx *ctx)
{
	struct loader_config cfg = { .root = &ctx->root, .env = &ctx->env };
	loader_init(&p->L, ctx->arena, &cfg);
}

bool py_object_open(struct py_proc *p, struct cudx_ctx *ctx, const char *path, struct py_object *obj,
		    const char **why)
{
	memset(obj, 0, sizeof *obj);
	obj->path = path;
	*why = NULL;
	if (!sysroot_exists(&ctx->root, path)) {
		*why = "no such file";
		return false;
	}
	const char *err = NULL;
	struct loader_object *lo = loader_open_object(&p->L, path, NULL, &err);
	if (!lo) {
		*why = arena_printf(ctx->arena, "not a readable ELF object (%s)", err ? err : "?");
		return false;
	}
	obj->lo = lo;
	obj->needed = lo->elf.needed;
	obj->n_needed = lo->elf.n_needed;
	obj->rpath = lo->elf.rpath;
	obj->runpath = lo->elf.runpath;
	return true;
}

static const char *how_text(enum loader_how h)
{
	switch (h) {
	case LOADER_HOW_ALREADY_LOADED: return "already loaded";
	case LOADER_HOW_PATH: return "path";
	case LOADER_HOW_RPATH: return "rpath";
	case LOADER_HOW_LD_LIBRARY_PATH: return "LD_LIBRARY_PATH";
	case LOADER_HOW_RUNPATH: return "runpath";
	case LOADER_HOW_LDCACHE: return "ld.so.cache";
	case LOADER_HOW_DEFAULT: return "default dir";
	default: return NULL;
	}
}

void py_resolve(struct py_proc *p, const struct py_object *from, struct loader_object *from_lo,
		const char *name, bool dlopen, struct py_resolution *out)
{
	memset(out, 0, sizeof *out);
	struct loader_object *req = from_lo ? from_lo : from ? from->lo : NULL;
	struct loader_result *r = loader_resolve(&p->L, name, req, dlopen);
	if (!r)
		return;
	out->path = r->path;
	out->how = how_text(r->how);
	out->error = r->error;
	out->object = r->object;
	/* an already-loaded hit names the object's own path */
	if (!out->path && r->object)
		out->path = r->object->path;
}

struct search_dir {
	const char *dir;
	const char *how;
};

/* Split a DT_RPATH/DT_RUNPATH and expand $ORIGIN / ${ORIGIN}. */
static void add_dirs(struct cudx_ctx *ctx, const char *list, char sep, const char *origin,
		     const char *how, struct search_dir *out, size_t *n)
{
	const char **parts;
	size_t np = env_split_path(ctx->arena, list, sep, &parts);
	for (size_t i = 0; i < np && *n < PY_MAX_SEARCH_DIRS; i++) {
		const char *d = parts[i];
		const char *o = strstr(d, "$ORIGIN");
		size_t ol = 7;
		if (!o && (o = strstr(d, "${ORIGIN}")))
			ol = 9;
		if (o && origin)
			d = arena_printf(ctx->arena, "%.*s%s%s", (int)(o - d), d, origin, o + ol);
		else if (o)
			continue;
		if (d[0] != '/')
			continue; /* relative to the process's cwd: unknowable from files */
		out[(*n)++] = (struct search_dir){ path_normalize(ctx->arena, d), how };
	}
}

static size_t search_dirs(struct cudx_ctx *ctx, const struct py_object *from, struct search_dir *out)
{
	size_t n = 0;
	const char *origin = from ? path_dirname(ctx->arena, from->path) : NULL;
	if (from && from->rpath && !from->runpath)
		add_dirs(ctx, from->rpath, ':', origin, "rpath", out, &n);
	const char *llp = envsnap_get(&ctx->env, "LD_LIBRARY_PATH");
	if (llp)
		add_dirs(ctx, llp, ':', NULL, "LD_LIBRARY_PATH", out, &n);
	if (from && from->runpath)
		add_dirs(ctx, from->runpath, ':', origin, "runpath", out, &n);
	return n;
}

static const char *const default_dirs[] = { "/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu",
					    "/lib64", "/usr/lib64", "/lib", "/usr/lib" };

size_t py_other_majors(struct cudx_ctx *ctx, const struct py_object *from, const char *name,
		       const char ***out)
{
	*out = NULL;
	const char *so = strstr(name, ".so.");
	if (!so)
		return 0;
	size_t stem = (size_t)(so - name) + 4; /* "libcudnn.so." */
	struct search_dir dirs[PY_MAX_SEARCH_DIRS];
	size_t nd = search_dirs(ctx, from, dirs);
	for (size_t i = 0; i < sizeof default_dirs / sizeof default_dirs[0] && nd < PY_MAX_SEARCH_DIRS; i++)
		dirs[nd++] = (struct search_dir){ default_dirs[i], "default dir" };
	size_t n = 0, cap = 0;
	for (size_t i = 0; i < nd && n < 16; i++) {
		struct sysroot_dirent *ents;
		size_t ne;
		if (sysroot_list_dir(&ctx->root, ctx->arena, dirs[i].dir, &ents, &ne, 20000) != 0)
			continue;
		for (size_t j = 0; j < ne && n < 16; j++) {
			const char *e = ents[j].name;
			/* same stem, a major of its own ("libcudnn.so.9", not "libcudnn.so.8.9.7") */
			if (strncmp(e, name, stem) != 0 || strchr(e + stem, '.') || !e[stem] ||
			    strcmp(e, name) == 0)
				continue;
			*ARENA_PUSH(ctx->arena, *out, n, cap) = path_join(ctx->arena, dirs[i].dir, e);
		}
	}
	return n;
}
