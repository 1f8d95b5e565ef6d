/* One site-packages directory: the distributions that matter to the GPU stack, from their
 * *.dist-info / *.egg-info directory names, and for nvidia-* wheels the libraries their RECORD
 * lists (the exact directory the wheel put them in, whatever its layout: nvidia/cudnn/lib,
 * nvidia/cu13/lib, ...). */
#include <ctype.h>
#include <string.h>

#include "collect/python.h"
#include "fmt/pymeta.h"

#define PY_MAX_RECORD (8u << 20) /* torch's RECORD is ~1 MB; nvidia-* wheels' a few KB */
#define PY_MAX_WHEEL_LIBS 256

/* Distributions worth reading: frameworks (PaddlePaddle among them), NVIDIA wheels, and the cuda-* ones (the cuda-toolkit
 * meta-package, cuda-bindings): the same prefixes a framework's Requires-Dist is checked for;
 * bitsandbytes, whose native library follows torch's CUDA. */
static bool interesting(const char *name)
{
	static const char *const prefixes[] = { "nvidia-", "torch", "tensorflow", "tf-nightly",
						"jax", "onnxruntime", "cupy-cuda", "cuda-", "paddlepaddle",
						"ctranslate2", "bitsandbytes" };
	for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++)
		if (strncmp(name, prefixes[i], strlen(prefixes[i])) == 0)
			return true;
	return false;
}

/* "nvidia_cudnn_cu12-9.1.0.70.dist-info" -> name, version. The name part of a dist-info dir has
 * '-' escaped as '_' (PEP 427), so the first '-' ends it. */
static bool split_dist_dir(struct arena *a, const char *dname, const char **name, const char **version)
{
	const char *suffix = strstr(dname, ".dist-info");
	if (!suffix)
		suffix = strstr(dname, ".egg-info");
	if (!suffix || suffix == dname || (suffix[1] == 'd' ? suffix[10] : suffix[9]) != 0)
		return false;
	/* the name ends at the first '-' before a digit: a tool that left the name's own '-'
	 * unescaped (cupy-cuda101-8.4.0.dist-info) still gives cupy-cuda101, 8.4.0 */
	const char *dash = NULL;
	for (const char *p = dname; p < suffix && !dash; p++)
		if (*p == '-' && p + 1 < suffix && isdigit((unsigned char)p[1]))
			dash = p;
	if (!dash)
		dash = memchr(dname, '-', (size_t)(suffix - dname));
	size_t nl = dash ? (size_t)(dash - dname) : (size_t)(suffix - dname);
	*name = pymeta_normalize(a, dname, nl);
	*version = dash ? arena_strndup(a, dash + 1, (size_t)(suffix - dash - 1)) : NULL;
	/* egg-info names may carry "-py3.11" after the version */
	if (*version && suffix[1] == 'e') {
		char *py = strstr((char *)*version, "-py");
		if (py)
			*py = 0;
	}
	return **name != 0;
}

/* "torch-1.5.0a0+4ff3872-py3.7-linux-x86_64.egg" -> name, version: a directory `setup.py install`
 * (setuptools' easy_install) leaves in site-packages, with the package inside and its metadata in
 * EGG-INFO/. A zipped egg (a file) is not read. */
static bool split_egg_dir(struct arena *a, const char *dname, const char **name, const char **version)
{
	size_t len = strlen(dname);
	if (len < 5 || strcmp(dname + len - 4, ".egg") != 0)
		return false;
	const char *py = strstr(dname, "-py");
	const char *end = py ? py : dname + len - 4;
	const char *dash = memchr(dname, '-', (size_t)(end - dname));
	size_t nl = dash ? (size_t)(dash - dname) : (size_t)(end - dname);
	if (nl == 0)
		return false;
	*name = pymeta_normalize(a, dname, nl);
	*version = dash ? arena_strndup(a, dash + 1, (size_t)(end - dash - 1)) : NULL;
	return true;
}

/* "torch.egg-link": a development install (`python setup.py develop`, `pip install -e` before PEP
 * 660), the documented way to build PyTorch from source. Its first line is the source tree, which
 * holds NAME.egg-info and the package beside it, as an egg's EGG-INFO. Prints the egg-info
 * directory (NULL when the link or the directory is not there) and its version. */
static const char *egg_link_target(struct cudx_ctx *ctx, const char *site, const char *dname, size_t nl,
				   const char **version)
{
	struct mapped_file m;
	const char *info = NULL;
	*version = NULL;
	if (sysroot_map(&ctx->root, path_join(ctx->arena, site, dname), &m) != 0)
		return NULL;
	size_t k = 0;
	while (k < m.data.n && k < 4096 && m.data.p[k] != '\n' && m.data.p[k] != '\r')
		k++;
	if (k > 0 && k < 4096 && m.data.p[0] == '/') {
		const char *src = arena_strndup(ctx->arena, (const char *)m.data.p, k);
		const char *dir = path_join(ctx->arena, src, arena_printf(ctx->arena, "%.*s.egg-info", (int)nl, dname));
		if (sysroot_exists(&ctx->root, dir))
			info = dir;
	}
	sysroot_unmap(&m);
	struct mapped_file meta;
	if (info && sysroot_map(&ctx->root, path_join(ctx->arena, info, "PKG-INFO"), &meta) == 0) {
		struct pymeta_dist d;
		const char *err;
		if (meta.data.n <= PY_MAX_RECORD && pymeta_parse_metadata(meta.data, ctx->arena, &d, &err))
			*version = d.version;
		sysroot_unmap(&meta);
	}
	return info;
}

static void read_record(struct cudx_ctx *ctx, struct py_wheel *w, const char *site)
{
	const char *rec = path_join(ctx->arena, w->dist_dir, "RECORD");
	struct mapped_file m;
	if (sysroot_map(&ctx->root, rec, &m) != 0)
		return;
	if (m.data.n <= PY_MAX_RECORD) {
		const char **paths;
		size_t n = pymeta_record_libs(m.data, ctx->arena, &paths, PY_MAX_WHEEL_LIBS);
		size_t cap = 0;
		for (size_t i = 0; i < n; i++) {
			const char *dir = path_dirname(ctx->arena, paths[i]);
			/* paths are relative to site-packages; "../../bin/x" style entries are skipped */
			if (strstr(paths[i], "..") || paths[i][0] == '/')
				continue;
			const char *full_dir = path_join(ctx->arena, site, dir);
			if (!w->lib_dir)
				w->lib_dir = full_dir;
			else if (strcmp(w->lib_dir, full_dir) != 0)
				continue; /* one lib dir per wheel: the first (wheels have one) */
			*ARENA_PUSH(ctx->arena, w->libs, w->n_libs, cap) =
				arena_strdup(ctx->arena, path_basename(paths[i]));
		}
	}
	sysroot_unmap(&m);
}

void py_scan_site(struct cudx_ctx *ctx, struct inventory *inv, struct py_env *env, const char *site)
{
	struct sysroot_dirent *ents;
	size_t n;
	int err = sysroot_list_dir(&ctx->root, ctx->arena, site, &ents, &n, PY_MAX_SITE_ENTRIES);
	if (err) {
		inventory_note(ctx, inv, site, "cannot list site-packages: %s", strerror(err));
		return;
	}
	if (n >= PY_MAX_SITE_ENTRIES)
		inventory_note(ctx, inv, site, "more than %d entries: only the first were read",
			       PY_MAX_SITE_ENTRIES);
	/* eggs and development links first: easy-install.pth puts them before site-packages itself
	 * on sys.path, so a source build installed with setup.py shadows a pip install of the same
	 * package */
	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = 0; i < n; i++) {
			const char *name, *version, *info = NULL;
			bool egg = pass == 0;
			size_t len = strlen(ents[i].name);
			bool link = egg && len > 9 && strcmp(ents[i].name + len - 9, ".egg-link") == 0;
			if (link)
				name = pymeta_normalize(ctx->arena, ents[i].name, len - 9);
			else if (!(egg ? split_egg_dir(ctx->arena, ents[i].name, &name, &version)
				       : split_dist_dir(ctx->arena, ents[i].name, &name, &version)))
				continue;
			if (!*name || !interesting(name))
				continue;
			if (py_env_wheel(env, name))
				continue; /* the first site dir on sys.path wins, as import does */
			const char *dir = path_join(ctx->arena, site, ents[i].name);
			if (link && !(info = egg_link_target(ctx, site, ents[i].name, len - 9, &version)))
				continue;
			if (egg && !link && !sysroot_exists(&ctx->root, path_join(ctx->arena, dir, "EGG-INFO")))
				continue;
			struct py_wheel *w = ARENA_PUSH(ctx->arena, env->wheels, env->n_wheels, env->cap_wheels);
			w->name = name;
			w->version = version;
			/* an egg's package sits beside EGG-INFO, a development link's beside its egg-info in
			 * the source tree, as a wheel's beside its dist-info */
			w->dist_dir = link ? info : egg ? path_join(ctx->arena, dir, "EGG-INFO") : dir;
			if (strncmp(name, "nvidia-", 7) == 0)
				read_record(ctx, w, site);
		}
	}
}

const struct py_wheel *py_env_wheel(const struct py_env *env, const char *name)
{
	for (size_t i = 0; i < env->n_wheels; i++)
		if (strcmp(env->wheels[i].name, name) == 0)
			return &env->wheels[i];
	return NULL;
}
