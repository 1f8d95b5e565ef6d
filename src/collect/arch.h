/* GPU code in the libraries the system would load (inventory subject of issue 5), and the
 * file-level analysis `cudx arch FILE...` shares with it. Plain data: the verdicts here are
 * facts about code and GPU (what runs where); rules_arch.c turns them into findings. */
#ifndef CUDX_COLLECT_ARCH_H
#define CUDX_COLLECT_ARCH_H

#include <stdbool.h>
#include <stddef.h>

#include "arch/arch.h"
#include "collect/inventory.h"

/* A GPU the code is judged against: detected (inv->gpus) or simulated (--gpu). */
struct arch_gpu {
	const char *label;  /* "sm_86" */
	const char *name;   /* "NVIDIA GeForce RTX 3090", or NULL when only the SM is known */
	int cc_major, cc_minor;
	const char *source; /* "--gpu", or the gpu_info source */
};

/* One analysed file. */
struct arch_file {
	const char *path;      /* as given / inside the root */
	const char *component; /* kb component when it came from inv->libs, else NULL */
	const char *error;     /* could not be read (then nothing else is set), or NULL */
	struct fatbin_file fat;
	struct arch_summary summary;
	struct arch_judgement *verdicts; /* one per arch_inventory.gpus, same order */
};

struct arch_inventory {
	struct arch_gpu *gpus;
	size_t n_gpus, cap_gpus;
	const char *driver_version;  /* the driver the JIT verdict assumed (--driver, or found) */
	const char *driver_max_cuda; /* its highest CUDA version, from the knowledge base */
	struct arch_file *files;
	size_t n_files, cap_files;
	const char *skipped;         /* why no library was analysed ("no GPU to judge against") */
	const char **bad_gpus;       /* --gpu values that name no known GPU */
	size_t n_bad_gpus, cap_bad_gpus;
};

/* Fill a->gpus from --gpu (all of them) or else from inv->gpus, and the driver facts from
 * --driver or inv->driver. */
void arch_inventory_init(struct cudx_ctx *ctx, const struct inventory *inv, struct arch_inventory *ai);
/* Map path (inside the root), scan it with bounded RSS, summarise it and judge it for every GPU
 * in ai. Appends to ai->files and returns the new entry. */
struct arch_file *arch_analyze_file(struct cudx_ctx *ctx, struct arch_inventory *ai, const char *path,
				    const char *component);
/* Whether ai already holds the file at path (as analysed). */
bool arch_inventory_has(const struct arch_inventory *ai, const char *path);

#endif
