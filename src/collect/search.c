/* dlopen(NAME) from a program without RPATH, answered by the ld.so simulator (src/loader/), so the
 * inventory's "which libcuda would a process get" follows exactly the rules `cudx why` shows. */
#include "collect/search.h"
#include "loader/loader.h"

const char *search_first(struct cudx_ctx *ctx, const char *name, const char **how)
{
	struct loader L;
	struct loader_config cfg = { .root = &ctx->root, .env = &ctx->env, .no_dlopen_edges = true,
				    .memo = &ctx->ldcache_memo };
	loader_init(&L, ctx->arena, &cfg);
	struct loader_result *r = loader_resolve(&L, name, NULL, true);
	*how = r && r->path ? loader_how_name(r->how) : NULL;
	return r ? r->path : NULL;
}
