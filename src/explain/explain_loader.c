/* The loader behind explain's library checks: how ld.so would resolve the library a message
 * names, with every place tried (the `why` view). Uses the glibc loader simulator
 * (src/loader/loader.h) when this build has it; without it explain falls back to the inventory's
 * list of copies. */
#include <string.h>

#include "explain/explain_loader.h"

#if defined(__has_include)
#if __has_include("loader/loader.h")
#define EXPLAIN_HAVE_LOADER 1
#include "loader/loader.h"
#endif
#endif

#ifdef EXPLAIN_HAVE_LOADER
static void resolve(void *cookie, struct arena *a, const char *name, struct explain_resolution *out)
{
	struct cudx_ctx *ctx = cookie;
	memset(out, 0, sizeof *out);
	if (!strstr(name, ".so") || strchr(name, '/'))
		return;
	struct loader *L = arena_calloc(a, 1, sizeof *L);
	struct loader_config cfg;
	memset(&cfg, 0, sizeof cfg);
	cfg.root = &ctx->root;
	cfg.env = &ctx->env;
	loader_init(L, a, &cfg);
	/* a run-time load by a program without RPATH: what frameworks do for CUDA libraries */
	struct loader_result *r = loader_resolve(L, name, NULL, true);
	out->available = true;
	out->system = L->interp_path && !L->no_libc;
	if (!r)
		return;
	out->path = r->path;
	out->how = r->path ? loader_how_name(r->how) : NULL;
	out->tried = arena_calloc(a, r->n_cands ? r->n_cands : 1, sizeof *out->tried);
	for (size_t i = 0; i < r->n_cands && out->n_tried < 16; i++)
		out->tried[out->n_tried++] =
			arena_printf(a, "tried %s (%s): %s", r->cands[i].path,
				     r->cands[i].via ? r->cands[i].via : loader_how_name(r->cands[i].how),
				     r->cands[i].reason ? r->cands[i].reason : "");
}
#endif

void explain_machine_loader(struct explain_machine *m, struct cudx_ctx *ctx)
{
#ifdef EXPLAIN_HAVE_LOADER
	if (ctx->os != OS_WINDOWS) {
		m->resolve = resolve;
		m->cookie = ctx;
	}
#else
	(void)m, (void)ctx;
#endif
}
