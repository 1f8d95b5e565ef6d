/* containerd on a GPU node: which config it reads and whether its default runtime is the NVIDIA
 * one (Kubernetes distributions keep the file in their own places); and whether the host has the
 * NVIDIA Container Toolkit and a container engine at all. */
#include <errno.h>
#include <string.h>

#include "collect/inventory.h"
#include "fmt/containerd_toml.h"

/* The first of the programs found in the directories a host installs them to (NixOS: its system
 * profile; the GPU Operator: its toolkit directory), by their path inside the root; NULL when none. */
static const char *find_program(struct cudx_ctx *ctx, const char *const *names, size_t n)
{
	static const char *const dirs[] = { "/usr/bin",
					    "/usr/local/bin",
					    "/usr/sbin",
					    "/bin",
					    "/sbin",
					    "/run/current-system/sw/bin",
					    "/var/lib/rancher/rke2/bin",
					    "/snap/microk8s/current/bin",
					    CONTAINER_TOOLKIT_OPERATOR_DIR,
					    "/home/kubernetes/bin/nvidia/toolkit" };
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < sizeof dirs / sizeof dirs[0]; k++) {
			const char *p = path_join(ctx->arena, dirs[k], names[i]);
			if (sysroot_exists(&ctx->root, p))
				return p;
		}
	return NULL;
}

/* A CDI spec of the toolkit's (nvidia-ctk cdi generate, NixOS's hardware.nvidia-container-toolkit,
 * the GPU Operator's management.nvidia.com-gpu.yaml, the device plugin's
 * k8s.device-plugin.nvidia.com-gpu.json): a file with "nvidia" in its name in a CDI spec directory. */
static const char *find_cdi_spec(struct cudx_ctx *ctx)
{
	static const char *const dirs[] = { "/etc/cdi", "/var/run/cdi", "/run/cdi" };
	for (size_t k = 0; k < sizeof dirs / sizeof dirs[0]; k++) {
		struct sysroot_dirent *ents;
		size_t n;
		if (sysroot_list_dir(&ctx->root, ctx->arena, dirs[k], &ents, &n, 256) != 0)
			continue;
		for (size_t i = 0; i < n; i++)
			if (strstr(ents[i].name, "nvidia"))
				return path_join(ctx->arena, dirs[k], ents[i].name);
	}
	return NULL;
}

/* The toolkit's programs: the prestart hook Docker's --gpus looks for (named
 * nvidia-container-runtime-hook, and nvidia-container-toolkit before 1.14), the runtime and the
 * CLIs (nvidia-docker: nvidia-docker2's wrapper, or nvidia-docker 1.x itself), or a CDI spec it
 * generated. The engines: Docker's daemon, Podman, containerd, CRI-O, k3s,
 * RKE2 (a snap's Docker, which carries its own NVIDIA support, is not one of them). */
static void collect_container_host(struct cudx_ctx *ctx, struct inventory *inv)
{
	static const char *const toolkit[] = {
		"nvidia-container-runtime-hook", "nvidia-container-toolkit", "nvidia-ctk",
		"nvidia-container-cli",          "nvidia-container-runtime", "nvidia-docker"
	};
	static const char *const engines[] = { "dockerd", "podman", "containerd", "crio", "k3s", "rke2" };
	static const char *const unprivileged[] = { "enroot" };
	inv->container_host.toolkit = find_program(ctx, toolkit, sizeof toolkit / sizeof toolkit[0]);
	if (!inv->container_host.toolkit)
		inv->container_host.toolkit = find_cdi_spec(ctx);
	inv->container_host.engine = find_program(ctx, engines, sizeof engines / sizeof engines[0]);
	inv->container_host.unprivileged = find_program(ctx, unprivileged,
							sizeof unprivileged / sizeof unprivileged[0]);
}

void collect_container_engine(struct cudx_ctx *ctx, struct inventory *inv)
{
	collect_container_host(ctx, inv);
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
