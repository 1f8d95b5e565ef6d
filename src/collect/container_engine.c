/* containerd on a GPU node: which config it reads and whether its default runtime is the NVIDIA
 * one. Kubernetes distributions keep the file in their own places. */
#include <errno.h>
#include <string.h>

#include "collect/inventory.h"
#include "fmt/containerd_toml.h"

void collect_container_engine(struct cudx_ctx *ctx, struct inventory *inv)
{
	static const char *const configs[] = {
		"/etc/containerd/config.toml",
		"/var/lib/rancher/k3s/agent/etc/containerd/config.toml", /* k3s writes it at start */
		"/var/lib/rancher/rke2/agent/etc/containerd/config.toml",
		"/var/snap/microk8s/current/args/containerd-template.toml",
	};
	struct containerd_info *c = &inv->containerd;
	for (size_t i = 0; i < sizeof configs / sizeof configs[0]; i++) {
		size_t len;
		int err;
		char *text = sysroot_read_text(&ctx->root, ctx->arena, configs[i], 1u << 20, &len, &err);
		if (!text) {
			if (err != ENOENT && err != ENOTDIR)
				inventory_note(ctx, inv, configs[i], "cannot read: %s", strerror(err));
			continue;
		}
		struct containerd_config cfg;
		containerd_config_scan(span_make(text, len), ctx->arena, &cfg);
		/* the first file found, unless a later one is the one that has the NVIDIA runtime */
		if (c->config && (c->nvidia_runtime || !cfg.nvidia_runtime))
			continue;
		c->config = configs[i];
		c->nvidia_runtime = cfg.nvidia_runtime;
		c->default_runtime = cfg.default_runtime;
	}
}
