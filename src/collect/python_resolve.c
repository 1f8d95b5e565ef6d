/* See python_resolve.h. Resolution, search-path expansion, the default directories and the
 * ld.so.cache are src/loader/'s; what is left here is listing the other majors of a library that
 * is not found in the directories a search would try. */
#include <string.h>

#include "collect/python_resolve.h"

const char *py_canon(struct cudx_ctx *ctx, const char *path)
{
	struct sysroot_resolved r;
	if (sysroot_resolve(&ctx->root, ctx->arena, path, &r) == 0 && r.path)
		return r.path;
	return path_normalize(ctx->arena, path);
}

void py_proc_init(struct py_proc *p, struct cudx_ctx *ctx)
{
	/* the run's one parsed ld.so.cache (shared with the loader rules) */
	struct loader_config cfg = { .root = &ctx->root, .env = &ctx->env, .memo = &ctx->ldcache_memo };
	memset(p, 0, sizeof *p);
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

/* The directories a search for from's request would try, in ld.so's order (RPATH unless
 * RUNPATH, LD_LIBRARY_PATH, RUNPATH, then the default dirs), expanded by the loader itself. */
static size_t search_dirs(struct py_proc *p, const struct py_object *from, const char ***out)
{
	struct loader *L = &p->L;
	const struct loader_object *o = from ? from->lo : NULL;
	const char *lists[3] = { from && from->rpath && !from->runpath ? from->rpath : NULL,
				 L->cfg.env ? envsnap_get(L->cfg.env, "LD_LIBRARY_PATH") : NULL,
				 from ? from->runpath : NULL };
	size_t n = 0, cap = 0;
	*out = NULL;
	for (size_t k = 0; k < 3; k++) {
		if (!lists[k])
			continue;
		const char **dirs;
		size_t nd = loader_expand_path(L, lists[k], k == 1 ? NULL : o, k == 1, &dirs);
		for (size_t i = 0; i < nd; i++)
			if (dirs[i][0] == '/') /* relative to the process's cwd: unknowable from files */
				*ARENA_PUSH(L->a, *out, n, cap) = path_normalize(L->a, dirs[i]);
	}
	for (size_t i = 0; i < L->cfg.n_default_dirs; i++)
		*ARENA_PUSH(L->a, *out, n, cap) = L->cfg.default_dirs[i];
	return n;
}

size_t py_other_majors(struct py_proc *p, const struct py_object *from, const char *name, const char ***out)
{
	*out = NULL;
	const char *so = strstr(name, ".so.");
	if (!so)
		return 0;
	size_t stem = (size_t)(so - name) + 4; /* "libcudnn.so." */
	struct arena *a = p->L.a;
	if (!p->have_dirs || p->dirs_from != from) {
		p->n_dirs = search_dirs(p, from, &p->dirs);
		p->dirs_from = from;
		p->have_dirs = true;
	}
	const char **dirs = p->dirs;
	size_t nd = p->n_dirs;
	size_t n = 0, cap = 0;
	for (size_t i = 0; i < nd && n < 16; i++) {
		struct sysroot_dirent *ents;
		size_t ne;
		if (sysroot_list_dir(p->L.cfg.root, a, dirs[i], &ents, &ne, 20000) != 0)
			continue;
		for (size_t j = 0; j < ne && n < 16; j++) {
			const char *e = ents[j].name;
			/* same stem, a major of its own ("libcudnn.so.9", not "libcudnn.so.8.9.7") */
			if (strncmp(e, name, stem) != 0 || strchr(e + stem, '.') || !e[stem] ||
			    strcmp(e, name) == 0)
				continue;
			*ARENA_PUSH(a, *out, n, cap) = path_join(a, dirs[i], e);
		}
	}
	return n;
}
