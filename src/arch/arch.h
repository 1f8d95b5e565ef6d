/* GPU code in a binary versus the GPU that must run it.
 *
 * arch_summarize() turns the entries of a fat-binary scan into per-target counts (what
 * `cuobjdump --list-elf/--list-ptx` would list, summarised). arch_judge() decides, for one GPU
 * (compute capability) and optionally one driver, whether the binary runs natively, only through
 * PTX JIT, or not at all. Both are pure: no I/O; the caller passes the facts about the machine
 * (the driver's highest CUDA version). PTX ISA -> driver CUDA version is the knowledge base's
 * (data/ptx_isa.tsv, kb_ptx_isa()). */
#ifndef CUDX_ARCH_H
#define CUDX_ARCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fmt/fatbin.h"
#include "util/arena.h"

#define ARCH_MAX_TARGETS 256 /* distinct (kind, sm, variant) kept; more are counted as "other" */

/* One target with its count: "sm_90a x288". */
struct arch_target {
	uint16_t kind;   /* enum fatbin_kind */
	uint32_t sm;
	char variant;    /* 0, 'a', 'f' */
	uint32_t count;
	uint16_t isa_min_major, isa_min_minor; /* PTX: lowest and highest PTX ISA seen */
	uint16_t isa_max_major, isa_max_minor;
	uint32_t abi7, abi8;                   /* SASS: cubin ABI generations (entry version 1.7 / 1.8) */
	uint32_t by_comp[4];                   /* enum fatbin_compression */
	uint64_t stored_bytes;
};

struct arch_summary {
	struct arch_target *targets; /* sorted: SASS, PTX, LTO-IR, others; then sm, variant */
	size_t n_targets;
	size_t other_entries;        /* entries beyond ARCH_MAX_TARGETS distinct targets */
	size_t n_containers, n_entries;
	size_t n_sass, n_ptx, n_ltoir;
	uint32_t by_comp[4];
};

void arch_summarize(const struct fatbin_file *f, struct arena *a, struct arch_summary *out);
/* "sm_75 sm_80 sm_90a" (or with counts: "sm_75 x190  sm_80 x191") for the targets of one kind;
 * "" when there are none. */
char *arch_target_list(struct arena *a, const struct arch_summary *s, uint16_t kind, bool counts);

/* --- compatibility ----------------------------------------------------------------------- */

/* SASS for sm (variant) runs on a GPU of compute capability cc_major.cc_minor:
 * plain sm_XY on X.Z with Z >= Y; "a" only on exactly X.Y; "f" on the family, i.e. X.Z with
 * Z >= Y (sm_100f on 10.0 and 10.3, sm_120f on 12.0 and 12.1). SOURCE: formats.md §1.5, NVIDIA
 * blog "Family-Specific Architecture Features" (CUDA 12.9). */
bool arch_sass_runs(uint32_t sm, char variant, int cc_major, int cc_minor);
/* PTX for compute_XY can be JIT-compiled for cc >= X.Y; "a" PTX only for exactly X.Y; "f" PTX
 * within the family (same major, minor >= Y). */
bool arch_ptx_jits(uint32_t sm, char variant, int cc_major, int cc_minor);

/* The first driver-reported CUDA version whose JIT reads PTX of this ISA version ("12.8" for
 * ISA 8.6, which came with the never-released CUDA 12.7); NULL when the ISA is newer than the
 * knowledge base (data/ptx_isa.tsv). */
const char *arch_ptx_jit_needs_cuda(int isa_major, int isa_minor);

enum arch_verdict {
	ARCH_NO_GPU_CODE = 0, /* the file holds no fat binary at all (a host-only library) */
	ARCH_NATIVE,          /* SASS that runs on this GPU */
	ARCH_PTX_JIT,         /* no usable SASS; PTX the driver can JIT (slow first run) */
	ARCH_NO_IMAGE,        /* neither: cudaErrorNoKernelImageForDevice (209) */
};

const char *arch_verdict_name(enum arch_verdict v); /* "native", "ptx-jit", "no-kernel-image", "no-gpu-code" */

struct arch_judgement {
	enum arch_verdict verdict;
	/* per fat binary (module): how each would load on this GPU */
	size_t modules, modules_native, modules_jit, modules_none;
	/* modules that have JIT-able PTX but whose PTX ISA the driver is too old for */
	size_t modules_jit_driver_too_old;
	/* modules holding only LTO-IR: linked at run time by nvJitLink (cuFFT callbacks), never
	 * loaded by the driver as they are; not counted as native, JIT or none */
	size_t modules_ltoir_only;
	/* evidence */
	const struct fatbin_entry *best_sass;   /* the SASS picked for this GPU (highest usable), or NULL */
	const struct fatbin_entry *best_ptx;    /* highest usable PTX, or NULL */
	const struct fatbin_entry *nearest_sass; /* when no SASS runs: the closest SASS target in the file */
	/* highest PTX ISA among the PTX the GPU would JIT, and what it needs */
	int ptx_isa_major, ptx_isa_minor;
	const char *ptx_needs_cuda;    /* driver_cuda of that ISA; NULL when unknown (newer than our data) */
	int driver_ok;                 /* 1 new enough, 0 too old, -1 unknown (no driver given) */
	/* The most fat binaries any GPU the file has SASS for would run natively. A library built for
	 * other GPUs may keep a handful of old kernels (cuDNN 9 for CUDA 13 has 2 sm_70 modules out of
	 * 1501): when this GPU gets under ARCH_SPARSE_PERCENT of that, it is judged no-kernel-image
	 * with sparse set, since the library's real work has no code for it. */
	size_t reference_native;
	bool sparse;
};

#define ARCH_SPARSE_PERCENT 10

/* Judge the scanned file for a GPU of compute capability cc. driver_max_cuda: the highest CUDA
 * version the driver supports ("12.2"), or NULL when unknown. */
void arch_judge(const struct fatbin_file *f, int cc_major, int cc_minor, const char *driver_max_cuda,
		struct arch_judgement *out);

/* Parse "sm_86", "compute_86", "sm_90a", "8.6", "86", "120": the compute capability. Model
 * names need the knowledge base (kb_gpu_lookup). */
bool arch_parse_cc(const char *s, int *cc_major, int *cc_minor);

#endif
