/* The live probe as a collector: runs only on the live system (never for --root: no code from an
 * analysed tree is ever executed) and only without --no-probe. */
#include <string.h>

#include "collect/inventory.h"
#include "probe/probe.h"
#include "probe/probe_ctx.h"

void probe_options_from_ctx(const struct cudx_ctx *ctx, const struct inventory *inv,
			    struct probe_options *o)
{
	probe_options_defaults(o);
	if (ctx->opt->probe_timeout > 0)
		o->timeout_s = ctx->opt->probe_timeout;
	o->own_environment = !ctx->opt->env_file && ctx->opt->pid == 0;
	o->ld_library_path = envsnap_get(&ctx->env, "LD_LIBRARY_PATH");
	o->cuda_visible_devices = envsnap_get(&ctx->env, "CUDA_VISIBLE_DEVICES");
	/* cudart copies the collectors found (pip wheels, framework-bundled): a framework would
	 * load them by absolute path, so they are tried as such, once each */
	for (size_t i = 0; i < inv->n_libs && o->n_found_cudarts < PROBE_MAX_TARGETS; i++) {
		const struct lib_file *l = &inv->libs[i];
		if (!l->component || strcmp(l->component, "cudart") != 0 || !l->real_path ||
		    l->real_path[0] != '/' || l->broken_link)
			continue;
		bool dup = false;
		for (size_t k = 0; k < o->n_found_cudarts; k++)
			dup = dup || strcmp(o->found_cudarts[k], l->real_path) == 0;
		if (!dup)
			o->found_cudarts[o->n_found_cudarts++] = l->real_path;
	}
}

void probe_collect(struct cudx_ctx *ctx, struct inventory *inv, const struct probe_options *o)
{
	struct probe_report *rep = arena_calloc(ctx->arena, 1, sizeof *rep);
	inv->probe = rep;
	if (!ctx->root.live) {
		rep->not_run = "the probe runs only on the live system, never on a --root tree";
		return;
	}
	if (ctx->opt->no_probe) {
		rep->not_run = "--no-probe";
		return;
	}
	probe_run(ctx->arena, o, rep);
}

void collect_probe(struct cudx_ctx *ctx, struct inventory *inv)
{
	struct probe_options o;
	probe_options_from_ctx(ctx, inv, &o);
	probe_collect(ctx, inv, &o);
}
