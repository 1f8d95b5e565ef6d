/* bitsandbytes' native libraries: which CUDA releases its package carries a library for (one file
 * each, libbitsandbytes_cuda121.so / .dll), read from its directory listing. Which one it will load
 * depends on torch's CUDA and BNB_CUDA_VERSION; src/diag/rules_python.c judges that. */
#include <string.h>

#include "collect/python.h"

#define PY_MAX_BNB_ENTRIES 4096 /* a bitsandbytes package directory holds a few dozen entries */

void py_read_bnb(struct cudx_ctx *ctx, struct py_env *env)
{
	const struct py_wheel *w = py_env_wheel(env, "bitsandbytes");
	if (!w || !w->dist_dir)
		return;
	struct py_bnb *b = arena_calloc(ctx->arena, 1, sizeof *b);
	b->version = w->version;
	b->pkg_dir = path_join(ctx->arena, path_dirname(ctx->arena, w->dist_dir), "bitsandbytes");
	struct sysroot_dirent *ents = NULL;
	size_t n = 0;
	int err = sysroot_list_dir(&ctx->root, ctx->arena, b->pkg_dir, &ents, &n, PY_MAX_BNB_ENTRIES);
	if (err) {
		b->problem = arena_printf(ctx->arena, "%s: %s", b->pkg_dir, strerror(err));
	} else {
		b->cuda_libs = arena_alloc(ctx->arena, (n ? n : 1) * sizeof *b->cuda_libs);
		for (size_t i = 0; i < n; i++)
			if (strncmp(ents[i].name, "libbitsandbytes_cuda", 20) == 0)
				b->cuda_libs[b->n_cuda_libs++] = ents[i].name;
	}
	env->bnb = b;
}
