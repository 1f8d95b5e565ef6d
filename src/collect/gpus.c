/* GPUs: what the kernel driver lists in /proc/driver/nvidia/gpus/<bus>/information, plus the ones
 * given with --gpu (simulating a target host). Compute capability from the knowledge base; the
 * probe adds what the driver API reports. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collect/inventory.h"
#include "kb/kb.h"

/* "Model: \t\t NVIDIA H100 80GB HBM3" -> "NVIDIA H100 80GB HBM3" */
static const char *field(struct arena *a, const char *text, const char *key)
{
	const char *p = strstr(text, key);
	if (!p)
		return NULL;
	p += strlen(key);
	while (*p == ' ' || *p == '\t')
		p++;
	const char *end = strchr(p, '\n');
	size_t len = end ? (size_t)(end - p) : strlen(p);
	while (len && (p[len - 1] == ' ' || p[len - 1] == '\t' || p[len - 1] == '\r'))
		len--;
	return len ? arena_strndup(a, p, len < 200 ? len : 200) : NULL;
}

static void set_cc(struct gpu_info *g, const char *query)
{
	const struct kb_gpu *k = kb_gpu_lookup(query);
	if (k) {
		g->cc_major = k->cc_major;
		g->cc_minor = k->cc_minor;
		if (!g->name)
			g->name = k->name;
	}
}

void collect_gpus(struct cudx_ctx *ctx, struct inventory *inv)
{
	struct sysroot_dirent *ents;
	size_t n;
	if (ctx->os == OS_LINUX &&
	    sysroot_list_dir(&ctx->root, ctx->arena, "/proc/driver/nvidia/gpus", &ents, &n, 256) == 0) {
		for (size_t i = 0; i < n; i++) {
			const char *path = arena_printf(ctx->arena, "/proc/driver/nvidia/gpus/%s/information",
							ents[i].name);
			char *text = sysroot_read_text(&ctx->root, ctx->arena, path, 8192, NULL, NULL);
			if (!text)
				continue;
			struct gpu_info *g = ARENA_PUSH(ctx->arena, inv->gpus, inv->n_gpus, inv->cap_gpus);
			g->name = field(ctx->arena, text, "Model:");
			g->uuid = field(ctx->arena, text, "GPU UUID:");
			g->bus_id = field(ctx->arena, text, "Bus Location:");
			if (!g->bus_id)
				g->bus_id = ents[i].name;
			g->source = path;
			if (g->name)
				set_cc(g, g->name);
			else
				inventory_note(ctx, inv, path, "no Model line");
		}
	}
	for (size_t i = 0; i < ctx->opt->n_gpus; i++) {
		struct gpu_info *g = ARENA_PUSH(ctx->arena, inv->gpus, inv->n_gpus, inv->cap_gpus);
		g->source = "--gpu";
		set_cc(g, ctx->opt->gpus[i]);
		if (!g->name)
			g->name = ctx->opt->gpus[i];
		if (!g->cc_major)
			inventory_note(ctx, inv, "--gpu", "unknown GPU or architecture '%s' (try sm_86 or 8.6)",
				       ctx->opt->gpus[i]);
	}
}
