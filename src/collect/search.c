#include <string.h>

#include "collect/search.h"

static const char *const default_dirs[] = { "/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu",
					    "/lib64", "/usr/lib64", "/lib", "/usr/lib" };

const char *search_first(struct cudx_ctx *ctx, const struct inventory *inv, const char *name,
			 const char **how)
{
	const char **dirs;
	size_t n = env_split_path(ctx->arena, envsnap_get(&ctx->env, "LD_LIBRARY_PATH"), ':', &dirs);
	for (size_t i = 0; i < n; i++) {
		if (dirs[i][0] != '/')
			continue;
		const char *p = path_join(ctx->arena, dirs[i], name);
		if (sysroot_exists(&ctx->root, p)) {
			*how = "LD_LIBRARY_PATH";
			return p;
		}
	}
	for (size_t i = 0; i < inv->n_libs; i++) {
		const struct lib_file *l = &inv->libs[i];
		if (strcmp(l->origin, "ld.so.cache") == 0 && !l->broken_link &&
		    (strcmp(l->name, name) == 0 || (l->soname && strcmp(l->soname, name) == 0))) {
			*how = "ld.so.cache";
			return l->path;
		}
	}
	for (size_t i = 0; i < sizeof default_dirs / sizeof default_dirs[0]; i++) {
		const char *p = path_join(ctx->arena, default_dirs[i], name);
		if (sysroot_exists(&ctx->root, p)) {
			*how = "default dir";
			return p;
		}
	}
	*how = NULL;
	return NULL;
}
