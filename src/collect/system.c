/* Which system is this: OS release, kernel, machine, container markers. */
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "collect/inventory.h"

/* PRETTY_NAME="Debian GNU/Linux 12 (bookworm)" from os-release */
static const char *os_release_name(struct cudx_ctx *ctx)
{
	static const char *const paths[] = { "/etc/os-release", "/usr/lib/os-release" };
	for (size_t i = 0; i < sizeof paths / sizeof paths[0]; i++) {
		size_t len;
		char *text = sysroot_read_text(&ctx->root, ctx->arena, paths[i], 16384, &len, NULL);
		if (!text)
			continue;
		for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
			if (strncmp(line, "PRETTY_NAME=", 12) != 0)
				continue;
			char *v = line + 12;
			size_t vl = strlen(v);
			if (vl >= 2 && (v[0] == '"' || v[0] == '\'') && v[vl - 1] == v[0])
				return arena_strndup(ctx->arena, v + 1, vl - 2);
			return arena_strdup(ctx->arena, v);
		}
	}
	return NULL;
}

/* Whether uid 0 here is the host's: a user namespace (rootless Podman, enroot --root, unshare -U -r)
 * maps it to another user or to a range of the host's ids, and has no CAP_SYS_MODULE on the host.
 * /proc/self/uid_map's line "0 0 4294967295" is the initial namespace's alone; without the file
 * (old kernels) nothing says otherwise. */
static bool root_of_the_host(struct cudx_ctx *ctx)
{
	size_t len;
	char *map = sysroot_read_text(&ctx->root, ctx->arena, "/proc/self/uid_map", 4096, &len, NULL);
	if (!map)
		return true;
	unsigned long inside, outside, count;
	return sscanf(map, "%lu %lu %lu", &inside, &outside, &count) == 3 && inside == 0 && outside == 0 &&
	       count == 4294967295UL;
}

void collect_system(struct cudx_ctx *ctx, struct inventory *inv)
{
	struct system_info *s = &inv->system;
	s->root = ctx->root.live ? "/" : ctx->root.root;
	s->live = ctx->root.live;
	s->user_root = s->live && geteuid() == 0 && root_of_the_host(ctx);
	s->env_origin = ctx->env.origin;
	s->os = ctx->os == OS_WINDOWS ? "windows" : "linux";
	if (ctx->os == OS_WINDOWS)
		return;
	s->os_name = os_release_name(ctx);
	/* Docker's and Podman's own markers; a Kubernetes pod's service account; systemd's, which LXC,
	 * systemd-nspawn and Podman write with the manager's name, and WSL 2 with systemd as "wsl"
	 * (not a container: its GPU comes through /dev/dxg) */
	static const char *const markers[] = { "/.dockerenv", "/run/.containerenv",
					       "/var/run/secrets/kubernetes.io/serviceaccount" };
	for (size_t i = 0; i < sizeof markers / sizeof markers[0] && !s->container; i++)
		s->container = sysroot_exists(&ctx->root, markers[i]);
	/* every Singularity and Apptainer image holds /.singularity.d (its run scripts; with --nv the
	 * host's driver libraries are bound into /.singularity.d/libs); inside one the runtime also
	 * sets SINGULARITY_CONTAINER / APPTAINER_CONTAINER */
	s->singularity = sysroot_is_dir(&ctx->root, "/.singularity.d") || envsnap_get(&ctx->env, "SINGULARITY_CONTAINER") ||
			 envsnap_get(&ctx->env, "APPTAINER_CONTAINER");
	s->container |= s->singularity;
	size_t len;
	const char *manager = sysroot_read_text(&ctx->root, ctx->arena, "/run/systemd/container", 256, &len, NULL);
	if (!s->container && manager && len && strncmp(manager, "wsl", 3) != 0)
		s->container = true;
	if (ctx->root.live) {
		struct utsname u;
		if (uname(&u) == 0) {
			s->kernel = arena_strdup(ctx->arena, u.release);
			s->machine = arena_strdup(ctx->arena, u.machine);
			s->hostname = arena_strdup(ctx->arena, u.nodename);
		}
	}
}
