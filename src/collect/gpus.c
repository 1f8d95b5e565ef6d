/* GPUs: what the kernel driver lists in /proc/driver/nvidia/gpus/<bus>/information, plus the ones
 * given with --gpu (simulating a target host). Compute capability from the knowledge base; the
 * probe adds what the driver API reports. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collect/inventory.h"
#include "fmt/nvproc.h"
#include "kb/kb.h"

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
			size_t len;
			char *text = sysroot_read_text(&ctx->root, ctx->arena, path, 8192, &len, NULL);
			if (!text)
				continue;
			struct span info = span_make(text, len);
			struct gpu_info *g = ARENA_PUSH(ctx->arena, inv->gpus, inv->n_gpus, inv->cap_gpus);
			g->name = nvproc_field(info, ctx->arena, "Model");
			g->uuid = nvproc_field(info, ctx->arena, "GPU UUID");
			g->bus_id = nvproc_field(info, ctx->arena, "Bus Location");
			if (!g->bus_id)
				g->bus_id = ents[i].name;
			g->source = path;
			if (g->name)
				set_cc(g, g->name);
			else
				inventory_note(ctx, inv, path, "no Model line");
		}
	}
	/* a Jetson's integrated GPU is not listed under /proc/driver/nvidia: the board's model names it
	 * ("NVIDIA Jetson AGX Orin Developer Kit" -> the gpus.tsv row "NVIDIA Jetson AGX Orin") */
	if (inv->driver.tegra && !inv->n_gpus && !ctx->opt->n_gpus) {
		size_t len;
		char *model = sysroot_read_text(&ctx->root, ctx->arena, "/proc/device-tree/model", 256, &len, NULL);
		const struct kb_gpu *k = model ? kb_gpu_lookup(model) : NULL;
		if (k && strcmp(k->segment, "jetson") == 0) {
			struct gpu_info *g = ARENA_PUSH(ctx->arena, inv->gpus, inv->n_gpus, inv->cap_gpus);
			g->name = k->name;
			g->cc_major = k->cc_major;
			g->cc_minor = k->cc_minor;
			g->source = "/proc/device-tree/model";
		} else if (model)
			inventory_note(ctx, inv, "/proc/device-tree/model",
				       "no Jetson the knowledge base knows: \"%.80s\"", model);
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
