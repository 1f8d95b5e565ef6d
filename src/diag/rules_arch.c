/* Rules over the GPU code in libraries (inv->arch, filled by collect_arch or `cudx arch`):
 * a GPU that no kernel image fits, a GPU that runs a library only through PTX JIT, and a
 * toolkit that can no longer (or cannot yet) build for the GPU. */
#include <string.h>

#include "collect/arch.h"
#include "diag/rule.h"
#include "fmt/version.h"
#include "kb/kb.h"

#define REF_COMPAT "https://docs.nvidia.com/cuda/cuda-c-best-practices-guide/index.html#building-for-maximum-compatibility"
#define REF_FAMILY \
	"https://developer.nvidia.com/blog/nvidia-blackwell-and-nvidia-cuda-12-9-introduce-family-specific-architecture-features"

static const char *gpu_desc(struct arena *a, const struct arch_gpu *g)
{
	return g->name ? arena_printf(a, "%s (%s, compute capability %d.%d)", g->name, g->label, g->cc_major, g->cc_minor)
		       : arena_printf(a, "%s (compute capability %d.%d)", g->label, g->cc_major, g->cc_minor);
}

static const char *lib_name(const struct arch_file *f)
{
	const char *s = strrchr(f->path, '/');
	return s ? s + 1 : f->path;
}

static void gpu_evidence(struct finding *fd, struct arena *a, const struct arch_gpu *g)
{
	finding_evidence(fd, "GPU: %s, from %s", gpu_desc(a, g), g->source ? g->source : "?");
}

/* The GPU code a library carries, then the GPU it was judged for. */
static void code_evidence(struct finding *fd, struct arena *a, const struct arch_file *f, const struct arch_gpu *g)
{
	const char *sass = arch_target_list(a, &f->summary, FATBIN_KIND_ELF, false);
	const char *ptx = arch_target_list(a, &f->summary, FATBIN_KIND_PTX, false);
	finding_evidence(fd, "%s: %zu fat binaries, %zu GPU images", f->path, f->fat.n_containers, f->fat.n_entries);
	finding_evidence(fd, "SASS (machine code) for: %s", *sass ? sass : "none");
	finding_evidence(fd, "PTX (JIT-compilable) for: %s", *ptx ? ptx : "none");
	gpu_evidence(fd, a, g);
}

/* Which CUDA releases can build for this GPU, for the fix text. */
static const char *toolkit_range(struct arena *a, const struct arch_gpu *g)
{
	const struct kb_arch_support *s = kb_arch_support(g->cc_major * 10 + g->cc_minor);
	if (!s || !s->added)
		return NULL;
	if (s->removed)
		return arena_printf(a, "CUDA >= %s and < %s", s->added, s->removed);
	return arena_printf(a, "CUDA >= %s", s->added);
}

static void driver_evidence(struct finding *fd, struct arena *a, const struct arch_inventory *ai,
			    const struct arch_judgement *j)
{
	if (!j->ptx_needs_cuda)
		return;
	const struct kb_cuda_release *r = kb_cuda_release(j->ptx_needs_cuda);
	const char *drv = r && r->linux_driver ? arena_printf(a, " (Linux driver >= %s)", r->linux_driver) : "";
	finding_evidence(fd, "its PTX is ISA %d.%d, which a driver JIT reads from CUDA %s on%s", j->ptx_isa_major,
			 j->ptx_isa_minor, j->ptx_needs_cuda, drv);
	if (ai->driver_version)
		finding_evidence(fd, "driver %s supports CUDA %s", ai->driver_version,
				 ai->driver_max_cuda ? ai->driver_max_cuda : "(unknown)");
}

/* One library judged for one GPU. */
struct verdict_site {
	const struct arch_inventory *ai;
	const struct arch_file *f;
	const struct arch_gpu *gpu;
	const struct arch_judgement *j;
};

/* Call emit for every (readable library, GPU) pair whose verdict is v, in inventory order. */
static void each_verdict(struct diag_ctx *d, const struct rule *self, enum arch_verdict v,
			 void (*emit)(struct diag_ctx *d, const struct rule *self, const struct verdict_site *at))
{
	const struct arch_inventory *ai = d->inv->arch;
	if (!ai)
		return;
	for (size_t i = 0; i < ai->n_files; i++) {
		const struct arch_file *f = &ai->files[i];
		if (f->error)
			continue;
		for (size_t g = 0; g < ai->n_gpus; g++)
			if (f->verdicts[g].verdict == v)
				emit(d, self, &(struct verdict_site){ ai, f, &ai->gpus[g], &f->verdicts[g] });
	}
}

static void emit_no_kernel_image(struct diag_ctx *d, const struct rule *self, const struct verdict_site *at)
{
	struct arena *a = d->out->arena;
	const struct arch_file *f = at->f;
	const struct arch_gpu *gpu = at->gpu;
	const struct arch_judgement *j = at->j;
	const bool driver_only = j->modules_jit_driver_too_old > 0;
	struct finding *fd = rule_emit(d, self, "%s has no kernel image for %s", lib_name(f), gpu_desc(a, gpu));
	finding_subject(fd, f->path);
	if (j->sparse)
		finding_cause(fd,
			      "%s was built for other GPUs: only %zu of its %zu fat binaries have code that "
			      "runs on %s (a GPU it was built for gets %zu). The kernels it actually uses "
			      "almost certainly fail with \"no kernel image is available for execution on "
			      "the device\" (cudaErrorNoKernelImageForDevice, 209).",
			      lib_name(f), j->modules_native + j->modules_jit, j->modules, gpu->label,
			      j->reference_native);
	else if (driver_only)
		finding_cause(fd,
			      "%s carries no machine code (SASS) that runs on %s, and its PTX is too new "
			      "for the driver to JIT-compile. Every kernel launch fails with "
			      "cudaErrorNoKernelImageForDevice / CUDA_ERROR_UNSUPPORTED_PTX_VERSION.",
			      lib_name(f), gpu->label);
	else
		finding_cause(fd,
			      "%s carries no machine code (SASS) for %s and no PTX the driver could "
			      "compile for it, so kernel launches fail with \"no kernel image is "
			      "available for execution on the device\" (cudaErrorNoKernelImageForDevice, 209). "
			      "SASS for sm_XY runs only on compute capability X.Z with Z >= Y; PTX only "
			      "on GPUs at or above its target.",
			      lib_name(f), gpu->label);
	code_evidence(fd, a, f, gpu);
	if (j->nearest_sass && !j->sparse) {
		char t[48];
		finding_evidence(fd, "nearest SASS in the file: %s", fatbin_target_name(j->nearest_sass, t, sizeof t));
	}
	driver_evidence(fd, a, at->ai, j);
	if (driver_only && j->ptx_needs_cuda) {
		const struct kb_cuda_release *r = kb_cuda_release(j->ptx_needs_cuda);
		finding_fix(fd, "upgrade the NVIDIA driver to one for CUDA %s or newer%s%s", j->ptx_needs_cuda,
			    r && r->linux_driver ? " (>= " : "", r && r->linux_driver ? arena_printf(a, "%s)", r->linux_driver) : "");
	}
	const char *range = toolkit_range(a, gpu);
	if (range)
		finding_fix(fd, "install a build of %s made with %s, which can target %s", lib_name(f), range, gpu->label);
	else
		finding_fix(fd, "install a build of %s compiled for %s (or with PTX for an older target)", lib_name(f),
			    gpu->label);
	finding_fix(fd, "check with: cudx arch %s --gpu %s", f->path, gpu->label);
	finding_ref(fd, REF_COMPAT);
}

static void check_no_kernel_image(struct diag_ctx *d, const struct rule *self)
{
	each_verdict(d, self, ARCH_NO_IMAGE, emit_no_kernel_image);
}

static void emit_ptx_jit_only(struct diag_ctx *d, const struct rule *self, const struct verdict_site *at)
{
	struct arena *a = d->out->arena;
	const struct arch_file *f = at->f;
	const struct arch_gpu *gpu = at->gpu;
	const struct arch_judgement *j = at->j;
	char t[48];
	struct finding *fd = rule_emit(d, self, "%s runs on %s only through PTX JIT (%s)", lib_name(f), gpu->label,
				       fatbin_target_name(j->best_ptx, t, sizeof t));
	finding_subject(fd, f->path);
	finding_cause(fd,
		      "%s has no machine code (SASS) for %s; the driver compiles its PTX at first use. "
		      "That works, but the first run can take minutes and fills the JIT cache, and "
		      "kernels may be slower than ones built for this GPU.",
		      lib_name(f), gpu->label);
	code_evidence(fd, a, f, gpu);
	driver_evidence(fd, a, at->ai, j);
	if (j->driver_ok == -1 && j->ptx_needs_cuda)
		finding_evidence(fd, "the driver version is unknown: JIT needs one for CUDA %s or newer", j->ptx_needs_cuda);
	const char *range = toolkit_range(a, gpu);
	finding_fix(fd, "install a build of %s with SASS for %s%s%s", lib_name(f), gpu->label,
		    range ? " (made with " : "", range ? arena_printf(a, "%s)", range) : "");
	finding_fix(fd, "keep the JIT cache between runs: export CUDA_CACHE_MAXSIZE=4294967296 "
			"(and a persistent CUDA_CACHE_PATH in containers)");
	finding_ref(fd, REF_COMPAT);
}

static void check_ptx_jit_only(struct diag_ctx *d, const struct rule *self)
{
	each_verdict(d, self, ARCH_PTX_JIT, emit_ptx_jit_only);
}

/* A toolkit on the system that cannot target a GPU here: removed (CUDA 13 and Pascal) or not
 * yet added (CUDA 11.8 and Blackwell). */
static void check_gpu_unsupported_by_toolkit(struct diag_ctx *d, const struct rule *self)
{
	const struct arch_inventory *ai = d->inv->arch;
	if (!ai)
		return;
	struct arena *a = d->out->arena;
	for (size_t t = 0; t < d->inv->n_toolkits; t++) {
		const struct toolkit *tk = &d->inv->toolkits[t];
		if (!tk->version)
			continue;
		for (size_t g = 0; g < ai->n_gpus; g++) {
			const struct arch_gpu *gpu = &ai->gpus[g];
			const struct kb_arch_support *s = kb_arch_support(gpu->cc_major * 10 + gpu->cc_minor);
			if (!s)
				continue;
			const bool removed = s->removed && version_strcmp(tk->version, s->removed) >= 0;
			const bool not_yet = s->added && version_strcmp(tk->version, s->added) < 0;
			if (!removed && !not_yet)
				continue;
			struct finding *fd = rule_emit(d, self, "CUDA %s at %s cannot build code for %s", tk->version,
						       tk->path, gpu_desc(a, gpu));
			finding_subject(fd, tk->path);
			if (removed)
				finding_cause(fd,
					      "CUDA %s removed the %s target: nvcc there cannot produce SASS or PTX for "
					      "this GPU, and the libraries of that release carry no code for it.",
					      s->removed, gpu->label);
			else
				finding_cause(fd,
					      "The %s target first appeared in CUDA %s: this older toolkit cannot produce SASS "
					      "for it; code built with it runs on this GPU only through PTX JIT, if PTX "
					      "was embedded.",
					      gpu->label, s->added);
			finding_evidence(fd, "toolkit %s at %s (version from %s)", tk->version, tk->path,
					 tk->version_source ? tk->version_source : "?");
			finding_evidence(fd, "%s: added in CUDA %s%s%s%s%s", gpu->label, s->added ? s->added : "?",
					 s->deprecated ? ", deprecated in " : "", s->deprecated ? s->deprecated : "",
					 s->removed ? ", removed in " : "", s->removed ? s->removed : "");
			gpu_evidence(fd, a, gpu);
			const char *range = toolkit_range(a, gpu);
			if (range)
				finding_fix(fd, "use %s to build for %s", range, gpu->label);
			if (s->fact.source)
				finding_evidence(fd, "knowledge-base sources (docs/kb.md): %s%s", s->fact.source,
						 s->fact.unconfirmed ? " (unconfirmed)" : "");
		}
	}
}

static const struct rule rules[] = {
	{ "no-kernel-image", SEV_ERROR, check_no_kernel_image,
	  .cause = "The code contains no GPU binary for this GPU's architecture and no PTX that can be compiled for "
		   "it: kernel launches fail with \"no kernel image is available for execution on the device\" "
		   "(cudaErrorNoKernelImageForDevice, 209).",
	  .fix = "use a build compiled for this GPU (cudx arch FILE shows what a binary contains)", .ref = REF_COMPAT },
	{ "ptx-jit-only", SEV_WARNING, check_ptx_jit_only,
	  .cause = "The library has no machine code (SASS) for this GPU; the driver JIT-compiles its PTX at first "
		   "use, which is slow the first time and may run slower.",
	  .fix = "install a build with SASS for this GPU, and keep the JIT cache between runs", .ref = REF_COMPAT },
	{ "gpu-unsupported-by-toolkit", SEV_WARNING, check_gpu_unsupported_by_toolkit,
	  .cause = "A CUDA toolkit here cannot build code for a GPU here: the target was removed from it, or "
		   "added in a later release.",
	  .fix = "use a CUDA release that supports the GPU to build for it" },
};

RULE_FAMILY(rules_arch, "arch", rules);
