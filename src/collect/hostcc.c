/* The host compiler nvcc would hand its C++ to, and the newest GCC each toolkit's nvcc accepts
 * (nvcc-host-compiler-unsupported). Both are read from files, never by running a compiler:
 *   - nvcc takes NVCC_CCBIN when set, else the first gcc on PATH; its major comes from the name
 *     its links end at (Debian and Ubuntu: /usr/bin/gcc -> gcc-12 -> x86_64-linux-gnu-gcc-12),
 *     else from the version directory under /usr/lib/gcc/TRIPLE/ that no numbered gcc-N claims
 *     (Fedora, Arch, RHEL);
 *   - the toolkit's include/crt/host_config.h states the newest GCC (fmt/hostconfig.h). */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "collect/inventory.h"
#include "collect/search.h"
#include "fmt/hostconfig.h"

#define HOST_CONFIG_MAX (1u << 20)

/* the distribution's toolkit keeps its headers in /usr/include, not under its own directory */
static bool distro_toolkit(const char *path)
{
	return strcmp(path, DISTRO_CUDA_TOOLKIT_DIR) == 0 || strcmp(path, "/usr") == 0;
}

static void toolkit_gcc_max(struct cudx_ctx *ctx, struct toolkit *tk)
{
	struct mapped_file m;
	if (!tk->nvcc)
		return;
	if (sysroot_map(&ctx->root, path_join(ctx->arena, tk->path, "include/crt/host_config.h"), &m) != 0 &&
	    (!distro_toolkit(tk->path) || sysroot_map(&ctx->root, "/usr/include/crt/host_config.h", &m) != 0))
		return;
	int max;
	if (m.data.n <= HOST_CONFIG_MAX && hostconfig_gcc_max(m.data, &max))
		tk->gcc_max_major = max;
	sysroot_unmap(&m);
}

/* "gcc-12", "x86_64-linux-gnu-gcc-12", "g++-13": the number after the last "-" of a gcc name */
static int major_from_name(const char *base)
{
	const char *dash = strrchr(base, '-');
	if (!dash || dash - base < 3 || (strncmp(dash - 3, "gcc", 3) != 0 && strncmp(dash - 3, "g++", 3) != 0))
		return 0;
	const char *p = dash + 1;
	if (!isdigit((unsigned char)*p))
		return 0;
	int v = atoi(p);
	return v > 0 && v < 1000 ? v : 0;
}

/* The GCC major an unnumbered gcc is, from the version directories under /usr/lib/gcc/TRIPLE/
 * ("14.2.1", "13"): the only one there, or the only one no numbered compiler beside it claims
 * (Arch and Fedora install an older GCC as gcc-13 next to the distribution's gcc). */
static int unnumbered_major(struct cudx_ctx *ctx, const char *bin_dir, const char **dir_out)
{
	struct sysroot_dirent *triples;
	size_t nt;
	if (sysroot_list_dir(&ctx->root, ctx->arena, "/usr/lib/gcc", &triples, &nt, 64) != 0)
		return 0;
	int majors[16];
	const char *dirs[16];
	size_t n = 0;
	for (size_t t = 0; t < nt; t++) {
		const char *tdir = path_join(ctx->arena, "/usr/lib/gcc", triples[t].name);
		struct sysroot_dirent *vers;
		size_t nv;
		if (sysroot_list_dir(&ctx->root, ctx->arena, tdir, &vers, &nv, 64) != 0)
			continue;
		for (size_t v = 0; v < nv; v++) {
			int major = atoi(vers[v].name);
			if (!isdigit((unsigned char)vers[v].name[0]) || major <= 0 || major >= 1000)
				continue;
			bool dup = false;
			for (size_t k = 0; k < n; k++)
				dup |= majors[k] == major;
			if (dup)
				continue;
			if (n == 16)
				return 0;
			majors[n] = major;
			dirs[n++] = path_join(ctx->arena, tdir, vers[v].name);
		}
	}
	int found = 0;
	for (size_t k = 0; k < n; k++) {
		const char *numbered = path_join(ctx->arena, bin_dir, arena_printf(ctx->arena, "gcc-%d", majors[k]));
		if (n > 1 && sysroot_exists(&ctx->root, numbered))
			continue;
		if (found)
			return 0;
		found = majors[k];
		*dir_out = dirs[k];
	}
	return found;
}

static void find_host_gcc(struct cudx_ctx *ctx, struct inventory *inv)
{
	struct host_compiler *h = &inv->hostcc;
	static const char *const flag_vars[] = { "NVCC_APPEND_FLAGS", "NVCC_PREPEND_FLAGS" };
	for (size_t i = 0; i < 2; i++) {
		const char *v = envsnap_get(&ctx->env, flag_vars[i]);
		if (v && strstr(v, "allow-unsupported-compiler"))
			h->allowed = flag_vars[i];
	}
	const char *ccbin = envsnap_get(&ctx->env, "NVCC_CCBIN");
	const char *name = ccbin && *ccbin ? ccbin : "gcc";
	const char *found = NULL;
	if (name[0] == '/')
		found = sysroot_exists(&ctx->root, name) ? name : NULL;
	else {
		const char **dirs;
		size_t n = env_split_path(ctx->arena, envsnap_get(&ctx->env, "PATH"), ':', &dirs);
		for (size_t i = 0; i < n && !found; i++) {
			const char *p = dirs[i][0] == '/' ? path_join(ctx->arena, dirs[i], name) : NULL;
			if (p && sysroot_exists(&ctx->root, p))
				found = p;
		}
	}
	if (!found)
		return;
	h->path = found;
	struct sysroot_resolved r;
	if (sysroot_resolve(&ctx->root, ctx->arena, found, &r) != 0)
		return;
	h->real_path = r.path;
	/* the first name on the way that carries the major decides */
	h->gcc_major = major_from_name(path_basename(found));
	for (size_t i = 0; i < r.n_links && !h->gcc_major; i++)
		h->gcc_major = major_from_name(path_basename(r.links[i].target));
	if (!h->gcc_major)
		h->gcc_major = major_from_name(path_basename(r.path));
	if (h->gcc_major) {
		h->how = "the compiler's file name";
		return;
	}
	const char *dir = NULL;
	if (strstr(path_basename(r.path), "gcc") &&
	    (h->gcc_major = unnumbered_major(ctx, path_dirname(ctx->arena, r.path), &dir)))
		h->how = arena_printf(ctx->arena, "the GCC installed as %s", dir);
}

void collect_hostcc(struct cudx_ctx *ctx, struct inventory *inv)
{
	bool any_nvcc = false;
	for (size_t i = 0; i < inv->n_toolkits; i++) {
		toolkit_gcc_max(ctx, &inv->toolkits[i]);
		any_nvcc |= inv->toolkits[i].nvcc != NULL;
	}
	if (any_nvcc)
		find_host_gcc(ctx, inv);
}

/* The toolkit a build takes: the first nvcc on PATH, else CUDA_HOME / CUDA_PATH / CUDA_ROOT (what
 * PyTorch's and CMake's CUDA lookups read), else /usr/local/cuda, else the only one with an nvcc. */
const struct toolkit *hostcc_toolkit(const struct inventory *inv)
{
	static const char *const order[] = { "nvcc on PATH", "CUDA_HOME", "CUDA_PATH", "CUDA_ROOT" };
	for (size_t o = 0; o < sizeof order / sizeof order[0]; o++)
		for (size_t i = 0; i < inv->n_toolkits; i++)
			if (inv->toolkits[i].nvcc && strcmp(inv->toolkits[i].origin, order[o]) == 0)
				return &inv->toolkits[i];
	for (size_t i = 0; i < inv->n_toolkits; i++)
		if (inv->toolkits[i].nvcc && strcmp(inv->toolkits[i].path, "/usr/local/cuda") == 0)
			return &inv->toolkits[i];
	/* else the only toolkit with an nvcc, wherever it is (Arch's /opt/cuda) */
	const struct toolkit *only = NULL;
	for (size_t i = 0; i < inv->n_toolkits; i++)
		if (inv->toolkits[i].nvcc) {
			if (only)
				return NULL;
			only = &inv->toolkits[i];
		}
	return only;
}
