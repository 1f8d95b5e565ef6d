/* CUDA toolkits on disk: /usr/local/cuda*, /opt/cuda, CUDA_HOME/CUDA_PATH/CUDA_ROOT, and the one
 * whose nvcc is first on PATH. Versions from version.json, version.txt, the dist-info of a toolkit
 * assembled from wheels, libcudart's file name, or nvcc's embedded release string — never by
 * running nvcc. */
#include <jansson.h>
#include <string.h>

#include "collect/distinfo.h"
#include "collect/inventory.h"
#include "fmt/version.h"

#define VERSION_JSON_MAX (256u * 1024)

static const char *json_version(struct cudx_ctx *ctx, const char *text, size_t len)
{
	json_error_t jerr;
	json_t *root = json_loadb(text, len, 0, &jerr);
	if (!root)
		return NULL;
	const char *v = NULL;
	/* "cuda" can be date-like ("12.6.20241114"): prefer the runtime's own version then */
	const char *keys[] = { "cuda", "cuda_cudart", "cuda_nvcc" };
	for (size_t i = 0; i < 3 && !v; i++) {
		const char *s = json_string_value(json_object_get(json_object_get(root, keys[i]), "version"));
		struct version ver;
		if (s && version_parse(s, &ver) && (ver.n < 3 || ver.part[2] < 100000))
			v = arena_strdup(ctx->arena, s);
	}
	json_decref(root);
	return v;
}

static void toolkit_version(struct cudx_ctx *ctx, struct inventory *inv, struct toolkit *tk)
{
	size_t len;
	char *text = sysroot_read_text(&ctx->root, ctx->arena, path_join(ctx->arena, tk->path, "version.json"),
				       VERSION_JSON_MAX, &len, NULL);
	if (text) {
		tk->version = json_version(ctx, text, len);
		if (tk->version) {
			tk->version_source = "version.json";
			return;
		}
		inventory_note(ctx, inv, path_join(ctx->arena, tk->path, "version.json"),
			       "unreadable version.json, ignored");
	}
	text = sysroot_read_text(&ctx->root, ctx->arena, path_join(ctx->arena, tk->path, "version.txt"),
				 4096, &len, NULL);
	if (text) {
		const char *p = strstr(text, "CUDA Version ");
		struct version v;
		if (p && version_parse(p + 13, &v)) {
			char buf[64];
			tk->version = arena_strdup(ctx->arena, version_format(&v, buf, sizeof buf));
			tk->version_source = "version.txt";
			return;
		}
	}
	/* a toolkit assembled from pip wheels: nvidia_cuda_runtime-13.0.96.dist-info */
	struct distinfo_set set = { 0 };
	distinfo_for_dir(ctx, path_join(ctx->arena, tk->path, "lib64/x"), &set);
	for (size_t i = 0; i < set.n; i++)
		if (strcmp(set.v[i].name, "nvidia_cuda_runtime") == 0 ||
		    strncmp(set.v[i].name, "nvidia_cuda_runtime_cu", 22) == 0) {
			tk->version = set.v[i].version;
			tk->version_source = arena_printf(ctx->arena, "dist-info %s", path_basename(set.v[i].path));
			return;
		}
	/* libcudart.so.12.4.127, the real file: the link beside it is named by the SONAME, which says
	 * nothing of the minor version from CUDA 11 on (every 11.x runtime is libcudart.so.11.0) */
	static const char *const libdirs[] = { "lib64", "lib", "targets/x86_64-linux/lib" };
	const char *best = NULL; /* over all three: lib64 may be a directory holding only the link */
	struct version best_v = { 0 };
	for (size_t d = 0; d < 3; d++) {
		struct sysroot_dirent *ents;
		size_t n;
		if (sysroot_list_dir(&ctx->root, ctx->arena, path_join(ctx->arena, tk->path, libdirs[d]), &ents,
				     &n, 20000) != 0)
			continue;
		for (size_t i = 0; i < n; i++) {
			struct version v;
			if (strncmp(ents[i].name, "libcudart.so.", 13) == 0 && version_parse(ents[i].name + 13, &v) &&
			    v.n >= 2 && (!best || v.n > best_v.n || (v.n == best_v.n && version_cmp(&v, &best_v) > 0))) {
				best = arena_strdup(ctx->arena, ents[i].name + 13);
				best_v = v;
			}
		}
	}
	if (best) {
		tk->version = best;
		tk->version_source = "libcudart file name";
		return;
	}
	/* nvcc carries "Cuda compilation tools, release 13.0, V13.0.88" */
	if (tk->nvcc) {
		struct mapped_file m;
		if (sysroot_map(&ctx->root, tk->nvcc, &m) == 0) {
			static const char tag[] = "Cuda compilation tools, release ";
			long long off = span_find(m.data, 0, tag, sizeof tag - 1);
			if (off >= 0) {
				const char *p = (const char *)m.data.p + off;
				const char *vpos = NULL;
				for (size_t i = 0; i + 1 < 80 && (size_t)off + i + 1 < m.data.n; i++)
					if (p[i] == ',' && p[i + 1] == ' ' && (size_t)off + i + 3 < m.data.n &&
					    p[i + 2] == 'V') {
						vpos = p + i + 3;
						break;
					}
				size_t vl = 0;
				while (vpos && (size_t)(vpos - (const char *)m.data.p) + vl < m.data.n &&
				       (vpos[vl] == '.' || (vpos[vl] >= '0' && vpos[vl] <= '9')) && vl < 24)
					vl++;
				if (vl) {
					tk->version = arena_strndup(ctx->arena, vpos, vl);
					tk->version_source = "nvcc release string";
				}
			}
			sysroot_unmap(&m);
		}
	}
}

static void add_toolkit(struct cudx_ctx *ctx, struct inventory *inv, const char *path, const char *origin)
{
	struct sysroot_resolved r;
	if (sysroot_resolve(&ctx->root, ctx->arena, path, &r) != 0 || !sysroot_is_dir(&ctx->root, r.path))
		return;
	for (size_t i = 0; i < inv->n_toolkits; i++)
		if (strcmp(inv->toolkits[i].real_path, r.path) == 0)
			return;
	/* something that looks like a toolkit: nvcc, cudart or include/cuda.h */
	const char *nvcc = path_join(ctx->arena, path, "bin/nvcc");
	bool has_nvcc = sysroot_exists(&ctx->root, nvcc);
	if (!has_nvcc && !sysroot_exists(&ctx->root, path_join(ctx->arena, path, "include/cuda.h")) &&
	    !sysroot_exists(&ctx->root, path_join(ctx->arena, path, "include/cuda_runtime_api.h")) &&
	    !sysroot_is_dir(&ctx->root, path_join(ctx->arena, path, "lib64")))
		return;
	struct toolkit *tk = ARENA_PUSH(ctx->arena, inv->toolkits, inv->n_toolkits, inv->cap_toolkits);
	tk->path = arena_strdup(ctx->arena, path);
	tk->real_path = r.path;
	tk->origin = origin;
	tk->nvcc = has_nvcc ? nvcc : NULL;
	static const char *const stubs[] = { "lib64/stubs/libcuda.so", "lib/stubs/libcuda.so",
					     "targets/x86_64-linux/lib/stubs/libcuda.so" };
	for (size_t i = 0; i < 3 && !tk->stub_libcuda; i++) {
		const char *s = path_join(ctx->arena, path, stubs[i]);
		if (sysroot_exists(&ctx->root, s))
			tk->stub_libcuda = s;
	}
	toolkit_version(ctx, inv, tk);
}

void collect_toolkits(struct cudx_ctx *ctx, struct inventory *inv)
{
	if (ctx->os != OS_LINUX)
		return;
	static const char *const vars[] = { "CUDA_HOME", "CUDA_PATH", "CUDA_ROOT" };
	for (size_t i = 0; i < 3; i++) {
		const char *v = envsnap_get(&ctx->env, vars[i]);
		if (v && v[0] == '/')
			add_toolkit(ctx, inv, v, vars[i]);
	}
	/* nvcc first on PATH decides which toolkit builds extensions */
	const char **dirs;
	size_t n = env_split_path(ctx->arena, envsnap_get(&ctx->env, "PATH"), ':', &dirs);
	for (size_t i = 0; i < n; i++) {
		if (dirs[i][0] != '/')
			continue;
		const char *nvcc = path_join(ctx->arena, dirs[i], "nvcc");
		struct sysroot_resolved r;
		if (sysroot_resolve(&ctx->root, ctx->arena, nvcc, &r) != 0)
			continue;
		/* /usr/bin/nvcc on Debian is a shell wrapper around /usr/lib/nvidia-cuda-toolkit/bin/nvcc */
		const char *bin = path_dirname(ctx->arena, r.path);
		const char *top = path_dirname(ctx->arena, bin);
		if (strcmp(top, "/usr") == 0 && sysroot_is_dir(&ctx->root, DISTRO_CUDA_TOOLKIT_DIR))
			top = DISTRO_CUDA_TOOLKIT_DIR;
		add_toolkit(ctx, inv, top, "nvcc on PATH");
		break;
	}
	struct sysroot_dirent *ents;
	size_t ne;
	if (sysroot_list_dir(&ctx->root, ctx->arena, "/usr/local", &ents, &ne, 10000) == 0)
		for (size_t i = 0; i < ne; i++)
			if (strcmp(ents[i].name, "cuda") == 0 || strncmp(ents[i].name, "cuda-", 5) == 0)
				add_toolkit(ctx, inv, path_join(ctx->arena, "/usr/local", ents[i].name), "/usr/local");
	add_toolkit(ctx, inv, "/opt/cuda", "/opt/cuda");
}
