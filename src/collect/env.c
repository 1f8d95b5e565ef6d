/* The environment variables that decide how the GPU stack loads and behaves. The list is fixed
 * so reports are comparable between machines. */
#include <strings.h>

#include "collect/inventory.h"

static const char *const relevant[] = {
	"LD_LIBRARY_PATH", "LD_PRELOAD", "PATH", "CUDA_HOME", "CUDA_PATH", "CUDA_ROOT",
	"CUDA_VISIBLE_DEVICES", "NVIDIA_VISIBLE_DEVICES", "NVIDIA_DRIVER_CAPABILITIES",
	"CUDA_DEVICE_ORDER", "CUDA_MODULE_LOADING", "CUDA_LAUNCH_BLOCKING", "CUDA_CACHE_DISABLE",
	"CUDA_FORCE_PTX_JIT", "CUDA_DISABLE_PTX_JIT", "CUDNN_PATH", "CONDA_PREFIX", "VIRTUAL_ENV",
	"PYTHONPATH", "XLA_FLAGS", "TF_CPP_MIN_LOG_LEVEL", "PYTORCH_CUDA_ALLOC_CONF", "NCCL_DEBUG",
	"LD_BIND_NOW",
};

void collect_env(struct cudx_ctx *ctx, struct inventory *inv)
{
	for (size_t i = 0; i < sizeof relevant / sizeof relevant[0]; i++) {
		const char *v = envsnap_get(&ctx->env, relevant[i]);
		if (!v)
			continue;
		struct env_setting *s = ARENA_PUSH(ctx->arena, inv->env, inv->n_env, inv->cap_env);
		s->name = relevant[i];
		s->value = v;
	}
	/* CUDA_PATH_V12_4 and friends (Windows installers set one per toolkit) */
	for (size_t i = 0; i < ctx->env.n; i++) {
		const char *name = ctx->env.vars[i].name;
		if (strncasecmp(name, "CUDA_PATH_V", 11) != 0)
			continue;
		struct env_setting *s = ARENA_PUSH(ctx->arena, inv->env, inv->n_env, inv->cap_env);
		s->name = name;
		s->value = ctx->env.vars[i].value;
	}
}
