/* Python environments and their GPU frameworks (issue 7). See python.h. */
#include <string.h>

#include "collect/python.h"

void py_collect(struct cudx_ctx *ctx, struct inventory *inv, struct python_inventory *py)
{
	py_find_envs(ctx, py);
	for (size_t i = 0; i < py->n_envs; i++) {
		struct py_env *env = &py->envs[i];
		/* sys.path order: the env's own site dirs first; the first copy of a package wins */
		for (size_t j = 0; j < env->n_site_dirs; j++)
			py_scan_site(ctx, inv, env, env->site_dirs[j]);
		/* the copies the environment's nvidia-* wheels bring join the inventory's libraries, so
		 * the library rules (mixed cuDNN, runtimes vs driver, broken links) see them too */
		const char *origin = arena_printf(ctx->arena, "python env %s", env->prefix);
		for (size_t w = 0; w < env->n_wheels; w++)
			if (env->wheels[w].lib_dir)
				inventory_add_lib_dir(ctx, inv, env->wheels[w].lib_dir, origin,
						      arena_printf(ctx->arena, "%s %s", env->wheels[w].name,
								   env->wheels[w].version ? env->wheels[w].version : "?"));
		/* conda's cudatoolkit / cuda-* / cudnn packages install into the prefix's lib/ */
		if (env->kind && strcmp(env->kind, "conda") == 0)
			inventory_add_lib_dir(ctx, inv, path_join(ctx->arena, env->prefix, "lib"),
					      arena_printf(ctx->arena, "conda env %s", env->prefix), NULL);
		py_read_frameworks(ctx, inv, env);
		py_read_bnb(ctx, env);
	}
}

void collect_python(struct cudx_ctx *ctx, struct inventory *inv)
{
	struct python_inventory *py = arena_calloc(ctx->arena, 1, sizeof *py);
	py_collect(ctx, inv, py);
	inv->python = py;
}
