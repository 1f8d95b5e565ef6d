/* --pid: which GPU libraries a running process actually has mapped (/proc/PID/maps). */
#include <stdio.h>
#include <string.h>

#include "collect/inventory.h"
#include "collect/libversion.h"
#include "kb/kb.h"

#define MAPS_MAX (8u << 20)

void collect_process(struct cudx_ctx *ctx, struct inventory *inv)
{
	if (!ctx->opt->pid)
		return;
	struct sysroot live;
	sysroot_init(&live, ctx->arena, "/");
	char path[64];
	snprintf(path, sizeof path, "/proc/%d/maps", ctx->opt->pid);
	int err;
	size_t len;
	char *text = sysroot_read_text(&live, ctx->arena, path, MAPS_MAX, &len, &err);
	if (!text) {
		inventory_note(ctx, inv, path, "cannot read the process's memory map: %s", strerror(err));
		return;
	}
	inv->loaded_pid = ctx->opt->pid;
	for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
		/* address perms offset dev inode pathname */
		char *file = strchr(line, '/');
		if (!file)
			continue;
		const struct kb_lib *k = kb_lib_classify(path_basename(file), OS_LINUX);
		if (!k)
			continue;
		bool dup = false;
		for (size_t i = 0; i < inv->n_loaded; i++)
			dup |= strcmp(inv->loaded[i].path, file) == 0;
		if (dup)
			continue;
		struct loaded_lib *l = ARENA_PUSH(ctx->arena, inv->loaded, inv->n_loaded, inv->cap_loaded);
		l->path = arena_strdup(ctx->arena, file);
		l->component = k->component;
		l->family = k->family;
		l->major = k->major;
		/* maps name the real file: "libcudnn.so.8.9.7" carries its version; else the copy the
		 * inventory read (wheel RECORD, embedded string) */
		struct lib_file tmp = { .real_path = l->path, .component = k->component };
		libversion_from_name(ctx, &tmp);
		l->version = tmp.version;
		for (size_t i = 0; !l->version && i < inv->n_libs; i++)
			if (inv->libs[i].real_path && strcmp(inv->libs[i].real_path, l->path) == 0)
				l->version = inv->libs[i].version;
	}
}
