/* See python_resolve.h. glibc's order for dlopen/NEEDED of a name without a slash:
 *   1. DT_RPATH of the caller, only when it has no DT_RUNPATH
 *   2. LD_LIBRARY_PATH (ignored for set-uid programs: not the case for python)
 *   3. DT_RUNPATH of the caller (for dlopen: the object that called dlopen)
 *   4. /etc/ld.so.cache
 *   5. the default directories
 * $ORIGIN expands to the directory of the caller as it was opened. Candidates that are not a
 * 64-bit ELF object are skipped, as ld.so skips them. */
#include <string.h>

#include "collect/python_resolve.h"
#include "fmt/elf.h"
#include "fmt/ldcache.h"

#define PY_MAX_SEARCH_DIRS 256
#define PY_MAX_OBJECT_MAP (2ull << 30)
#define PY_MAX_LDCACHE (64u << 20)

const char *py_canon(struct cudx_ctx *ctx, const char *path)
{
	struct sysroot_resolved r;
	if (sysroot_resolve(&ctx->root, ctx->arena, path, &r) == 0 && r.path)
		return r.path;
	return path_normalize(ctx->arena, path);
}

bool py_object_open(struct cudx_ctx *ctx, const char *path, struct py_object *obj, const char **why)
{
	memset(obj, 0, sizeof *obj);
	obj->path = path;
	*why = NULL;
	struct mapped_file m;
	int err = sysroot_map(&ctx->root, path, &m);
	if (err) {
		*why = arena_printf(ctx->arena, "%s", strerror(err));
		return false;
	}
	struct elf_info info;
	const char *perr = NULL;
	bool ok = m.data.n <= PY_MAX_OBJECT_MAP && elf_parse(m.data, ctx->arena, &info, &perr);
	sysroot_unmap(&m);
	if (!ok) {
		*why = arena_printf(ctx->arena, "not a readable ELF object (%s)", perr ? perr : "too large");
		return false;
	}
	obj->needed = info.needed;
	obj->n_needed = info.n_needed;
	obj->rpath = info.rpath;
	obj->runpath = info.runpath;
	return true;
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

static bool usable(struct cudx_ctx *ctx, const char *path)
{
	struct mapped_file m;
	if (sysroot_map(&ctx->root, path, &m) != 0)
		return false;
	int cls = 0;
	uint16_t mach = 0;
	bool ok = elf_ident(m.data, &cls, &mach) && cls == 64;
	sysroot_unmap(&m);
	return ok;
}

static const char *const default_dirs[] = { "/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu",
					    "/lib64", "/usr/lib64", "/lib", "/usr/lib" };

static const char *ldcache_find(struct cudx_ctx *ctx, const char *name)
{
	struct mapped_file m;
	if (sysroot_map(&ctx->root, "/etc/ld.so.cache", &m) != 0)
		return NULL;
	const char *hit = NULL;
	struct ldcache c;
	const char *err;
	if (m.data.n <= PY_MAX_LDCACHE && ldcache_parse(m.data, ctx->arena, &c, &err)) {
		const struct ldcache_entry *e = ldcache_lookup(&c, name, 64, 62 /* EM_X86_64 */);
		if (e)
			hit = e->path;
	}
	sysroot_unmap(&m);
	return hit;
}

void py_resolve(struct cudx_ctx *ctx, const struct py_object *from, const char *name,
		struct py_resolution *out)
{
	memset(out, 0, sizeof *out);
	if (strchr(name, '/')) {
		if (usable(ctx, name))
			*out = (struct py_resolution){ name, "path" };
		return;
	}
	struct search_dir dirs[PY_MAX_SEARCH_DIRS];
	size_t n = search_dirs(ctx, from, dirs);
	for (size_t i = 0; i < n; i++) {
		const char *p = path_join(ctx->arena, dirs[i].dir, name);
		if (usable(ctx, p)) {
			*out = (struct py_resolution){ p, dirs[i].how };
			return;
		}
	}
	const char *c = ldcache_find(ctx, name);
	if (c && usable(ctx, c)) {
		*out = (struct py_resolution){ c, "ld.so.cache" };
		return;
	}
	for (size_t i = 0; i < sizeof default_dirs / sizeof default_dirs[0]; i++) {
		const char *p = path_join(ctx->arena, default_dirs[i], name);
		if (usable(ctx, p)) {
			*out = (struct py_resolution){ p, "default dir" };
			return;
		}
	}
}

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
