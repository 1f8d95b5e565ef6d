/* Framework rules: what each framework was built for against what this machine gives it.
 * A torch wheel's CUDA differing from the local toolkit is normal (pip wheels bring their own
 * runtime) and is not a finding; only nvcc-framework-mismatch mentions it, as info, for people
 * building extensions. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collect/python.h"
#include "collect/python_resolve.h"
#include "arch/arch.h"
#include "diag/rule.h"
#include "fmt/version.h"
#include "kb/kb.h"
#include "sys/envsnap.h"

static const char *env_label(const struct py_env *e)
{
	return e->prefix;
}

#define FOR_EACH_FW(d, env, fw)                                                        \
	for (size_t ei_ = 0; (d)->inv->python && ei_ < (d)->inv->python->n_envs; ei_++) \
		for (const struct py_env *env = &(d)->inv->python->envs[ei_]; env; env = NULL) \
			for (size_t fi_ = 0; fi_ < env->n_fws; fi_++)                   \
				for (const struct py_framework *fw = &env->fws[fi_]; fw; fw = NULL)

/* A machine with an NVIDIA GPU or driver (or one given on the command line) */
static bool gpu_machine(const struct diag_ctx *d)
{
	return d->inv->n_gpus > 0 || d->inv->driver.effective_version || d->inv->driver.kernel_version ||
	       d->ctx->opt->n_gpus || d->ctx->opt->driver;
}

/* A GPU build whose CUDA side will run here: a package for CPU and GPU alike (CTranslate2) only on a
 * GPU machine. */
static bool gpu_fw(const struct diag_ctx *d, const struct py_framework *fw)
{
	if (!fw->gpu_build || fw->cpu_only)
		return false;
	return !fw->gpu_optional || gpu_machine(d);
}

static const struct py_lib_use *lib_use(const struct py_framework *fw, const char *prefix)
{
	for (size_t i = 0; i < fw->n_libs; i++)
		if (strncmp(fw->libs[i].name, prefix, strlen(prefix)) == 0)
			return &fw->libs[i];
	return NULL;
}

/* --- torch-cpu-build ------------------------------------------------------------------------ */
static void check_torch_cpu(struct diag_ctx *d, const struct rule *self)
{
	bool gpu_here = d->inv->n_gpus > 0 || d->inv->driver.effective_version || d->ctx->opt->n_gpus;
	FOR_EACH_FW(d, env, fw)
	{
		if (fw->kind != PY_FW_TORCH || !fw->cpu_only)
			continue;
		struct finding *f = rule_emit(d, self, "PyTorch %s in %s is a CPU-only build",
					      fw->version ? fw->version : "?", env_label(env));
		if (!gpu_here)
			finding_mild(f); /* no GPU or driver seen: a CPU build may be what is wanted */
		finding_subject(f, fw->pkg_dir);
		finding_cause(f, "This wheel has no CUDA code: torch.cuda.is_available() is False and any "
				 "GPU use fails with \"Torch not compiled with CUDA enabled\". Wheels from "
				 "download.pytorch.org/whl/cpu (and the default wheel on Windows and macOS) are "
				 "CPU-only.");
		finding_evidence(f, "%s/version.py: __version__ = '%s', cuda = None", fw->pkg_dir,
				 fw->version ? fw->version : "?");
		finding_evidence(f, "environment: %s (%s)", env->prefix, env->origin);
		finding_fix(f, "%s/bin/pip install --force-reinstall torch --index-url "
			       "https://download.pytorch.org/whl/cu126   # pick the CUDA variant your driver supports",
			    env->prefix);
		finding_ref(f, "https://pytorch.org/get-started/locally/");
	}
}

/* --- framework-driver-too-old --------------------------------------------------------------- */
static const char *driver_version(const struct diag_ctx *d, const struct py_framework *fw,
				  const char **source)
{
	if (d->inv->driver.effective_version) {
		*source = d->inv->driver.simulated ? "--driver" : "installed driver";
		return d->inv->driver.effective_version;
	}
	if (d->ctx->opt->driver) {
		*source = "--driver";
		return d->ctx->opt->driver;
	}
	const struct py_lib_use *cu = lib_use(fw, "libcuda.so.1");
	if (cu && cu->resolved && cu->version) {
		*source = cu->resolved;
		return cu->version;
	}
	return NULL;
}

/* The least driver the framework's CUDA major runs on, when the driver seen is older (else NULL) */
static const char *driver_floor_unmet(const struct diag_ctx *d, const struct py_framework *fw, const char **drv,
				      const char **src, struct kb_fact *fact, bool *own_release)
{
	*own_release = false;
	*drv = fw->cuda ? driver_version(d, fw, src) : NULL;
	/* Thor's driver version is its L4T release's own: driver-too-old judges it by the release */
	if (!*drv || !driver_on_desktop_scale(&d->inv->driver))
		return NULL;
	const char *floor = kb_minor_compat_floor(atoi(fw->cuda), d->ctx->os, fact);
	/* a build of the major's first release runs from that toolkit's own minimum, which can be
	 * below the floor minor-version compatibility needs (CUDA 11.0: 450.51.05 < 450.80.02) */
	const struct kb_cuda_release *rel = strchr(fw->cuda, '.') ? kb_cuda_release(fw->cuda) : NULL;
	const char *own = rel ? kb_cuda_release_driver(rel, d->ctx->os) : NULL;
	if (own && floor && version_strcmp(own, floor) < 0) {
		floor = own;
		*own_release = true;
		if (fact)
			*fact = rel->fact;
	}
	return floor && version_strcmp(*drv, floor) < 0 ? floor : NULL;
}

static void check_driver(struct diag_ctx *d, const struct rule *self)
{
	FOR_EACH_FW(d, env, fw)
	{
		if (!gpu_fw(d, fw) || !fw->cuda)
			continue;
		const char *src = NULL, *drv = NULL;
		struct kb_fact fact = { 0 };
		bool own_release = false;
		const char *floor = driver_floor_unmet(d, fw, &drv, &src, &fact, &own_release);
		if (!floor)
			continue;
		int major = atoi(fw->cuda);
		struct finding *f = rule_emit(d, self, "%s %s needs driver >= %s (CUDA %s); the driver is %s",
					      py_fw_kind_name(fw->kind), fw->version ? fw->version : "?", floor,
					      own_release ? fw->cuda : arena_printf(d->ctx->arena, "%d", major), drv);
		finding_subject(f, fw->pkg_dir);
		finding_cause(f, "The framework was built with CUDA %s. %s; this driver is older, so the first CUDA call "
				 "fails with \"CUDA driver version is insufficient for CUDA runtime version\" "
				 "(cudaErrorInsufficientDriver, 35).",
			      fw->cuda,
			      own_release ? arena_printf(d->ctx->arena,
							 "A CUDA %s application runs on a driver of at least %s, that "
							 "toolkit's own minimum (below the floor of CUDA %d.x's minor-version "
							 "compatibility, which came with its later releases)",
							 fw->cuda, floor, major)
					  : arena_printf(d->ctx->arena,
							 "A CUDA %d application runs on a driver of at least %s "
							 "(minor-version compatibility)",
							 major, floor));
		finding_evidence(f, "%s: CUDA %s (%s)", fw->pkg_dir, fw->cuda,
				 fw->cuda_source ? fw->cuda_source : "?");
		finding_evidence(f, "driver %s (%s)", drv, src);
		finding_evidence(f, "minimum driver for CUDA %s: %s (%s)",
				 own_release ? fw->cuda : arena_printf(d->ctx->arena, "%d.x", major), floor,
				 fact.source ? fact.source : "knowledge base");
		finding_fix(f, "Install an NVIDIA driver >= %s, or a build of %s for an older CUDA major "
			       "that this driver supports.",
			    floor, py_fw_kind_name(fw->kind));
		finding_ref(f, "https://docs.nvidia.com/deploy/cuda-compatibility/");
	}
}

/* --- framework-lib-missing ------------------------------------------------------------------ */
/* A load that misses the copy an nvidia-* wheel of the environment holds on disk (CTranslate2's
 * plain dlopen by name; TensorFlow before 2.14, whose RUNPATH reaches no wheel). */
static bool wheel_copy_off_path(const struct diag_ctx *d, const struct py_lib_use *u)
{
	return u->wheel_copy && sysroot_exists(&d->ctx->root, u->wheel_copy);
}

/* "a:b:c" holds dir as one of its elements */
static bool path_list_has(const char *list, const char *dir)
{
	size_t n = strlen(dir);
	for (const char *p = list; p; p = strchr(p, ':') ? strchr(p, ':') + 1 : NULL)
		if (strncmp(p, dir, n) == 0 && (p[n] == ':' || p[n] == 0))
			return true;
	return false;
}

/* The copy another framework of the environment links at import (torch's libcudnn.so.9, a NEEDED
 * of libtorch_cuda.so) under the same name: a process that imports that framework first has it
 * loaded, and a dlopen by that name then returns it (whisperX imports torch before CTranslate2). */
static const struct py_lib_use *linked_by_other(const struct py_env *env, const struct py_framework *fw,
						const char *name, const struct py_framework **by)
{
	for (size_t k = 0; k < env->n_fws; k++) {
		const struct py_framework *o = &env->fws[k];
		for (size_t i = 0; o != fw && i < o->n_libs; i++) {
			const struct py_lib_use *u = &o->libs[i];
			if (u->resolved && u->via && strncmp(u->via, "NEEDED", 6) == 0 && strcmp(u->name, name) == 0) {
				*by = o;
				return u;
			}
		}
	}
	return NULL;
}

static bool lib_missing(const struct py_lib_use *u)
{
	return !u->resolved && !u->optional;
}

/* The CUDA build of torch in the environment, which bitsandbytes follows */
static const struct py_framework *torch_cuda_build(const struct py_env *env)
{
	for (size_t i = 0; i < env->n_fws; i++) {
		const struct py_framework *fw = &env->fws[i];
		if (fw->kind == PY_FW_TORCH && fw->gpu_build && !fw->cpu_only && !fw->rocm && fw->cuda &&
		    strchr(fw->cuda, '.'))
			return fw;
	}
	return NULL;
}

/* Every GPU seen is below compute capability 7.5: bitsandbytes 0.43-0.44 then load the
 * _nocublaslt variant of their library (no cuBLASLt int8 path there; 0.45 dropped the variants) */
static bool gpus_below_turing(const struct diag_ctx *d)
{
	if (!d->inv->n_gpus)
		return false;
	for (size_t i = 0; i < d->inv->n_gpus; i++)
		if (d->inv->gpus[i].cc_major * 10 + d->inv->gpus[i].cc_minor >= 75 || !d->inv->gpus[i].cc_major)
			return false;
	return true;
}

/* bitsandbytes carries the library it will load for "121": libbitsandbytes_cuda121 with this
 * system's suffix, or its _nocublaslt variant where 0.43-0.44 pick that (every GPU below compute
 * capability 7.5) */
static bool bnb_has(const struct diag_ctx *d, const struct py_bnb *b, const char *want)
{
	const char *suffix = d->ctx->os == OS_WINDOWS ? ".dll" : ".so"; /* its DYNAMIC_LIBRARY_SUFFIX */
	bool nocublaslt = version_strcmp(b->version, "0.45") < 0 && gpus_below_turing(d);
	const char *name = arena_printf(d->ctx->arena, "libbitsandbytes_cuda%s%s%s", want,
					nocublaslt ? "_nocublaslt" : "", suffix);
	for (size_t i = 0; i < b->n_cuda_libs; i++)
		if (strcmp(b->cuda_libs[i], name) == 0)
			return true;
	return false;
}

/* The newest library it carries for torch's CUDA major below its minor ("128" under 12.9): what
 * BNB_CUDA_VERSION can name instead (a library of an older minor runs on the newer runtime of its
 * major); NULL when none */
static const char *bnb_same_major(const struct diag_ctx *d, const struct py_bnb *b, int maj, int min)
{
	for (int m = min - 1; m >= 0; m--) {
		const char *code = arena_printf(d->ctx->arena, "%d%d", maj, m);
		if (bnb_has(d, b, code))
			return code;
	}
	return NULL;
}

/* bitsandbytes 0.43+ without a native library for the CUDA it asks for (torch's, or
 * BNB_CUDA_VERSION's): it cannot use the GPU. Judged only on a GPU machine whose driver runs
 * torch's CUDA: otherwise torch.cuda.is_available() is False and bitsandbytes takes its CPU
 * library whatever it carries. Before 0.43 it chose by the libcudart it found (not read here). */
static void check_bnb_lib(struct diag_ctx *d, const struct rule *self)
{
	for (size_t e = 0; gpu_machine(d) && d->inv->python && e < d->inv->python->n_envs; e++) {
		const struct py_env *env = &d->inv->python->envs[e];
		const struct py_bnb *b = env->bnb;
		const struct py_framework *torch = torch_cuda_build(env);
		if (!b || b->problem || !b->version || version_strcmp(b->version, "0.43") < 0 || !torch)
			continue;
		const char *drv = NULL, *src = NULL;
		struct kb_fact fact = { 0 };
		bool own_release = false;
		if (driver_floor_unmet(d, torch, &drv, &src, &fact, &own_release)) /* framework-driver-too-old says why */
			continue;
		int maj = 0, min = 0;
		if (sscanf(torch->cuda, "%d.%d", &maj, &min) != 2)
			continue;
		const char *torch_want = arena_printf(d->ctx->arena, "%d%d", maj, min);
		const char *override = envsnap_get(&d->ctx->env, "BNB_CUDA_VERSION");
		bool by_override = override && *override && strcmp(override, torch_want) != 0;
		const char *want = by_override ? override : torch_want;
		if (bnb_has(d, b, want))
			continue;
		struct finding *f = rule_emit(d, self, "bitsandbytes %s has no library for CUDA %s (libbitsandbytes_cuda%s)",
					      b->version, by_override ? want : torch->cuda, want);
		finding_subject(f, b->pkg_dir);
		finding_cause(f, "bitsandbytes loads libbitsandbytes_cuda%s from its package directory for %s; the "
				 "file is not there, so it cannot use the GPU: depending on the release it falls back to "
				 "its CPU library (\"compiled without GPU support\") or stops with \"Configured CUDA "
				 "binary not found\" (no 8-bit optimizers or GPU quantization either way).",
			      want,
			      by_override ? arena_printf(d->ctx->arena, "BNB_CUDA_VERSION=%s", want)
					  : arena_printf(d->ctx->arena, "torch's CUDA %s", torch->cuda));
		const char *have = NULL;
		for (size_t i = 0; i < b->n_cuda_libs; i++)
			have = have ? arena_printf(d->ctx->arena, "%s, %s", have, b->cuda_libs[i]) : b->cuda_libs[i];
		finding_evidence(f, "%s: %s", b->pkg_dir, have ? have : "no libbitsandbytes_cuda* library at all");
		finding_evidence(f, "torch %s: CUDA %s (%s)", torch->version ? torch->version : "?", torch->cuda,
				 torch->cuda_source ? torch->cuda_source : "?");
		if (by_override) {
			finding_evidence(f, "BNB_CUDA_VERSION=%s in the environment", want);
			if (bnb_has(d, b, torch_want))
				finding_fix(f, "unset BNB_CUDA_VERSION   # then bitsandbytes loads the library for torch's CUDA %s",
					    torch->cuda);
		}
		finding_fix(f, "pip install -U bitsandbytes   # in %s: a release with a library for CUDA %s", env->prefix,
			    by_override ? want : torch->cuda);
		const char *older = bnb_same_major(d, b, maj, min);
		if (older && !by_override)
			finding_fix(f, "or export BNB_CUDA_VERSION=%s   # its library for an older CUDA %d, which runs on torch's "
				       "CUDA %s runtime",
				    older, maj, torch->cuda);
	}
}

static void check_lib_missing(struct diag_ctx *d, const struct rule *self)
{
	check_bnb_lib(d, self);
	FOR_EACH_FW(d, env, fw)
	{
		if (!gpu_fw(d, fw))
			continue;
		size_t missing = 0, unpinned = 0;
		for (size_t i = 0; i < fw->n_libs; i++)
			missing += lib_missing(&fw->libs[i]);
		for (size_t i = 0; i < fw->n_reqs; i++)
			unpinned += fw->reqs[i].installed == NULL;
		if (!missing && !unpinned)
			continue;
		const char *first = NULL;
		for (size_t i = 0; i < fw->n_libs && !first; i++)
			if (lib_missing(&fw->libs[i]))
				first = fw->libs[i].name;
		for (size_t i = 0; i < fw->n_reqs && !first; i++)
			if (!fw->reqs[i].installed)
				first = fw->reqs[i].name;
		/* cuDNN is the one users look for: name it in the summary when it is among the missing */
		for (size_t i = 0; i < fw->n_libs; i++)
			if (lib_missing(&fw->libs[i]) && strncmp(fw->libs[i].name, "libcudnn.so.", 12) == 0)
				first = fw->libs[i].name;
		size_t more = missing + unpinned - 1;
		struct finding *f = rule_emit(d, self, "%s %s cannot load %s%s", py_fw_kind_name(fw->kind),
					      fw->version ? fw->version : "?", first,
					      more ? arena_printf(d->ctx->arena, " and %zu more", more) : "");
		finding_subject(f, fw->pkg_dir);
		finding_cause(f, "%s %s was built for CUDA %s and cuDNN %s and loads these libraries by name; "
				 "the loader would not find %s on this system.",
			      py_fw_kind_name(fw->kind), fw->version ? fw->version : "?",
			      fw->cuda ? fw->cuda : "?", fw->cudnn ? fw->cudnn : "?",
			      missing > 1 ? "them" : "it");
		for (size_t i = 0; i < fw->n_libs; i++) {
			const struct py_lib_use *u = &fw->libs[i];
			if (!lib_missing(u))
				continue;
			finding_evidence(f, "%s: not found (%s)", u->name, u->via ? u->via : "dlopen");
			for (size_t k = 0; k < u->n_others; k++)
				finding_evidence(f, "  only another major exists: %s", u->others[k]);
			if (wheel_copy_off_path(d, u))
				finding_evidence(f, "  the environment's %s%s%s has it at %s, where this load does not look",
						 u->wheel, u->wheel_version ? " " : "", u->wheel_version ? u->wheel_version : "",
						 u->wheel_copy);
			const struct py_framework *by = NULL;
			const struct py_lib_use *other = fw->gpu_optional ? linked_by_other(env, fw, u->name, &by) : NULL;
			if (other)
				finding_evidence(f, "  found only in a process that imports %s first, which links %s at import "
						    "(its copy: %s)",
						 py_fw_kind_name(by->kind), other->name, other->resolved);
		}
		for (size_t i = 0; i < fw->n_reqs; i++)
			if (!fw->reqs[i].installed)
				finding_evidence(f, "METADATA Requires-Dist: %s: not installed in %s",
						 fw->reqs[i].raw, env->prefix);
		/* a wheel's copy off the path is reached by naming its directory (faster-whisper's advice for
		 * CTranslate2); else the wheel that has it */
		const char *ld = NULL;
		for (size_t i = 0; i < fw->n_libs; i++) {
			const struct py_lib_use *u = &fw->libs[i];
			if (!lib_missing(u))
				continue;
			if (wheel_copy_off_path(d, u)) {
				const char *dir = path_dirname(d->ctx->arena, u->wheel_copy);
				if (!path_list_has(ld, dir))
					ld = ld ? arena_printf(d->ctx->arena, "%s:%s", ld, dir) : dir;
			} else if (strncmp(u->name, "libcudnn.so.", 12) == 0) {
				finding_fix(f, "%s/bin/pip install 'nvidia-cudnn-cu%d==%s.*'   # cuDNN %s for CUDA %d",
					    env->prefix, fw->cuda ? atoi(fw->cuda) : 12,
					    u->name + 12, u->name + 12, fw->cuda ? atoi(fw->cuda) : 12);
			}
		}
		if (ld)
			finding_fix(f, "export LD_LIBRARY_PATH=%s${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}   # the "
				       "wheels' own directories, which %s does not search",
				    ld, py_fw_kind_name(fw->kind));
		if (fw->kind == PY_FW_TENSORFLOW)
			finding_fix(f, "%s/bin/pip install 'tensorflow[and-cuda]==%s'   # the NVIDIA wheels this "
				       "release was tested with",
				    env->prefix, fw->version ? fw->version : "");
		else if (fw->kind != PY_FW_CTRANSLATE2) /* CTranslate2 pins no nvidia-* wheels */
			finding_fix(f, "%s/bin/pip install --force-reinstall '%s==%s'   # brings its pinned "
				       "nvidia-* wheels back",
				    env->prefix, fw->name, fw->version ? fw->version : "");
		finding_fix(f, "cudx why %s   # every place the loader looks", first);
	}
}

/* --- framework-cudnn-mismatch --------------------------------------------------------------- */
/* The frameworks' own check (torch/backends/cudnn, XLA cuda_dnn.cc, ORT docs): same major, and
 * for torch/TF/JAX a runtime minor at least the compiled one. "min" rows (JAX) are a floor. */
static bool cudnn_ok(const struct py_framework *fw, const char *built, const char *found)
{
	struct version b, r;
	bool floor = strncmp(built, ">=", 2) == 0;
	if (!version_parse(floor ? built + 2 : built, &b) || !version_parse(found, &r))
		return true; /* unknown: no claim */
	if (b.part[0] != r.part[0])
		return false;
	if (fw->kind == PY_FW_ONNXRUNTIME || b.n < 2)
		return true;
	return r.part[1] >= b.part[1];
}

static void check_cudnn(struct diag_ctx *d, const struct rule *self)
{
	FOR_EACH_FW(d, env, fw)
	{
		if (!gpu_fw(d, fw) || !fw->cudnn)
			continue;
		const struct py_lib_use *u = lib_use(fw, "libcudnn.so.");
		if (!u || !u->resolved || !u->version || cudnn_ok(fw, fw->cudnn, u->version))
			continue;
		struct finding *f = rule_emit(d, self, "%s %s was built with cuDNN %s but would load cuDNN %s",
					      py_fw_kind_name(fw->kind), fw->version ? fw->version : "?",
					      fw->cudnn, u->version);
		finding_subject(f, fw->pkg_dir);
		finding_cause(f, "cuDNN must have the major version the framework was compiled with and a "
				 "minor version at least as high (\"Loaded runtime CuDNN library: X but source "
				 "was compiled with: Y\", \"cuDNN version incompatibility\"). The copy the loader "
				 "picks first is older.");
		finding_evidence(f, "built with cuDNN %s (%s)", fw->cudnn, fw->cudnn_source ? fw->cudnn_source : "?");
		finding_evidence(f, "%s -> %s via %s, version %s (%s)", u->name, u->resolved,
				 u->how ? u->how : "?", u->version, u->version_source ? u->version_source : "?");
		if (u->wheel_copy)
			finding_evidence(f, "the environment's own copy: %s (%s %s)", u->wheel_copy, u->wheel,
					 u->wheel_version ? u->wheel_version : "");
		if (u->how && strcmp(u->how, "LD_LIBRARY_PATH") == 0)
			finding_fix(f, "Remove %s from LD_LIBRARY_PATH so the framework's own cuDNN is used.",
				    path_dirname(d->ctx->arena, u->resolved));
		finding_fix(f, "%s/bin/pip install 'nvidia-cudnn-cu%d>=%s'", env->prefix,
			    fw->cuda ? atoi(fw->cuda) : 12, fw->cudnn[0] == '>' ? fw->cudnn + 2 : fw->cudnn);
	}
}

/* --- pip-nvidia-shadowed -------------------------------------------------------------------- */
static void check_shadowed(struct diag_ctx *d, const struct rule *self)
{
	struct arena *a = d->ctx->arena;
	const char **seen = NULL;
	size_t n_seen = 0, cap_seen = 0;
	FOR_EACH_FW(d, env, fw)
	{
		/* CTranslate2 never looks into the wheels: a system copy first is how it works */
		if (!gpu_fw(d, fw) || fw->gpu_optional)
			continue;
		for (size_t i = 0; i < fw->n_libs; i++) {
			const struct py_lib_use *u = &fw->libs[i];
			if (!u->resolved || !u->wheel_copy)
				continue;
			if (strcmp(py_canon(d->ctx, u->resolved), py_canon(d->ctx, u->wheel_copy)) == 0)
				continue;
			if (u->version && u->wheel_version && strcmp(u->version, u->wheel_version) == 0)
				continue; /* the same release twice: harmless */
			const char *key = arena_printf(a, "%s|%s", env->prefix, u->name);
			bool dup = false;
			for (size_t k = 0; k < n_seen; k++)
				dup |= strcmp(seen[k], key) == 0;
			if (dup)
				continue;
			*ARENA_PUSH(a, seen, n_seen, cap_seen) = key;
			struct finding *f = rule_emit(d, self, "%s from %s shadows the %s wheel's copy in %s",
						      u->name, path_dirname(a, u->resolved), u->wheel,
						      env->prefix);
			finding_subject(f, u->wheel_copy);
			finding_cause(f, "%s loads %s expecting the copy of its nvidia-* wheel, but the loader "
					 "finds another copy first (%s). Mixing releases gives undefined symbols, "
					 "\"version ... not found\" or cuDNN version errors at run time.",
				      py_fw_kind_name(fw->kind), u->name, u->how ? u->how : "search order");
			finding_evidence(f, "would load: %s via %s%s%s", u->resolved, u->how ? u->how : "?",
					 u->version ? ", version " : "", u->version ? u->version : "");
			finding_evidence(f, "wheel copy: %s (%s %s)", u->wheel_copy, u->wheel,
					 u->wheel_version ? u->wheel_version : "");
			finding_evidence(f, "loaded by: %s", u->via ? u->via : "?");
			if (u->how && strcmp(u->how, "LD_LIBRARY_PATH") == 0)
				finding_fix(f, "Remove %s from LD_LIBRARY_PATH (or put %s before it)",
					    path_dirname(a, u->resolved), path_dirname(a, u->wheel_copy));
			else
				finding_fix(f, "Make %s come first: export LD_LIBRARY_PATH=%s:$LD_LIBRARY_PATH",
					    path_dirname(a, u->wheel_copy), path_dirname(a, u->wheel_copy));
		}
	}
}

/* --- framework-gpu-arch --------------------------------------------------------------------- */
/* "sm_90a" / "compute_90": SASS runs within its family, PTX JIT-compiles upwards (src/arch/). */
static bool arch_runs(const char *arch, int cc_major, int cc_minor)
{
	bool sass = strncmp(arch, "sm_", 3) == 0;
	const char *digits = sass ? arch + 3 : strncmp(arch, "compute_", 8) == 0 ? arch + 8 : NULL;
	if (!digits)
		return true; /* not a spelling we know: no claim */
	char *end;
	long sm = strtol(digits, &end, 10);
	if (sm <= 0 || sm > 10000)
		return true;
	char variant = *end == 'a' || *end == 'f' ? *end : 0;
	return sass ? arch_sass_runs((uint32_t)sm, variant, cc_major, cc_minor)
		    : arch_ptx_jits((uint32_t)sm, variant, cc_major, cc_minor);
}

static void check_gpu_arch(struct diag_ctx *d, const struct rule *self)
{
	for (size_t g = 0; g < d->inv->n_gpus; g++) {
		const struct gpu_info *gpu = &d->inv->gpus[g];
		if (!gpu->cc_major)
			continue;
		FOR_EACH_FW(d, env, fw)
		{
			if (!gpu_fw(d, fw) || fw->n_archs == 0)
				continue;
			bool runs = false;
			for (size_t i = 0; i < fw->n_archs && !runs; i++)
				runs = arch_runs(fw->archs[i], gpu->cc_major, gpu->cc_minor);
			if (runs)
				continue;
			struct finding *f = rule_emit(d, self, "%s %s has no GPU code for %s (sm_%d%d)",
						      py_fw_kind_name(fw->kind), fw->version ? fw->version : "?",
						      gpu->name ? gpu->name : "this GPU", gpu->cc_major,
						      gpu->cc_minor);
			finding_subject(f, fw->pkg_dir);
			finding_cause(f, "The framework carries machine code (SASS) and PTX only for the "
					 "architectures below; none runs on compute capability %d.%d, so kernels "
					 "fail with \"no kernel image is available for execution on the device\".",
				      gpu->cc_major, gpu->cc_minor);
			char *list = arena_strdup(d->ctx->arena, "");
			for (size_t i = 0; i < fw->n_archs; i++)
				list = arena_printf(d->ctx->arena, "%s%s%s", list, i ? " " : "", fw->archs[i]);
			finding_evidence(f, "%s: %s", fw->archs_source ? fw->archs_source : "archs", list);
			finding_evidence(f, "GPU: %s, compute capability %d.%d (%s)", gpu->name ? gpu->name : "?",
					 gpu->cc_major, gpu->cc_minor, gpu->source ? gpu->source : "?");
			finding_fix(f, "Install a %s build whose CUDA version supports sm_%d%d (newer GPUs need "
				       "newer CUDA builds; older GPUs need older ones).",
				    py_fw_kind_name(fw->kind), gpu->cc_major, gpu->cc_minor);
		}
	}
}

/* --- tf-windows-native-gpu ------------------------------------------------------------------ */
static void check_tf_windows(struct diag_ctx *d, const struct rule *self)
{
	if (d->ctx->os != OS_WINDOWS)
		return;
	const char *last_gpu = kb_tf_last_windows_gpu();
	const struct kb_tf_build *last = kb_tf_build(last_gpu, OS_WINDOWS);
	struct version lv;
	if (!last || !version_parse(last_gpu, &lv) || lv.n < 2)
		return;
	FOR_EACH_FW(d, env, fw)
	{
		struct version v;
		/* the Windows wheels after 2.10 are CPU builds (build_info.py: is_cuda_build False): only
		 * tensorflow-cpu says the user asked for no GPU */
		if (fw->kind != PY_FW_TENSORFLOW || strcmp(fw->name, "tensorflow-cpu") == 0 || !fw->version)
			continue;
		if (!version_parse(fw->version, &v) || version_cmp_parts(&v, &lv, 2) <= 0)
			continue;
		struct finding *f = rule_emit(d, self, "TensorFlow %s on native Windows has no GPU support",
					      fw->version);
		finding_subject(f, fw->pkg_dir);
		finding_cause(f, "TensorFlow %d.%d was the last release with CUDA support on native Windows; "
				 "from %d.%d the Windows package runs on the CPU only, whatever CUDA and cuDNN "
				 "are installed.",
			      lv.part[0], lv.part[1], lv.part[0], lv.part[1] + 1);
		finding_evidence(f, "%s: %s %s", env->prefix, fw->name, fw->version);
		finding_fix(f, "Use TensorFlow in WSL2 (pip install 'tensorflow[and-cuda]' inside the Linux "
			       "distribution), or pin 'tensorflow<%d.%d' with CUDA %s and cuDNN %s on Windows.",
			    lv.part[0], lv.part[1] + 1, last->cuda, last->cudnn);
		finding_ref(f, "https://www.tensorflow.org/install/pip#windows-native");
	}
}

/* --- nvcc-framework-mismatch ---------------------------------------------------------------- */
static void check_nvcc(struct diag_ctx *d, const struct rule *self)
{
	const struct toolkit *tk = NULL;
	for (size_t i = 0; i < d->inv->n_toolkits && !tk; i++)
		if (d->inv->toolkits[i].nvcc && d->inv->toolkits[i].version)
			tk = &d->inv->toolkits[i];
	if (!tk)
		return;
	FOR_EACH_FW(d, env, fw)
	{
		if (fw->kind != PY_FW_TORCH || !gpu_fw(d, fw) || !fw->cuda)
			continue;
		if (atoi(fw->cuda) == atoi(tk->version))
			continue;
		struct finding *f = rule_emit(d, self, "nvcc %s and PyTorch %s (CUDA %s) differ in CUDA major",
					      tk->version, fw->version ? fw->version : "?", fw->cuda);
		finding_subject(f, fw->pkg_dir);
		finding_cause(f, "Running PyTorch is not affected (the wheel brings its own CUDA runtime). "
				 "Building a CUDA extension (torch.utils.cpp_extension, pip install of a package "
				 "with CUDA sources) with this nvcc fails: \"The detected CUDA version (%s) "
				 "mismatches the version that was used to compile PyTorch (%s)\".",
			      tk->version, fw->cuda);
		finding_evidence(f, "nvcc: %s (CUDA %s, %s)", tk->nvcc, tk->version, tk->origin ? tk->origin : "?");
		finding_evidence(f, "%s: CUDA %s", fw->pkg_dir, fw->cuda);
		finding_fix(f, "For building extensions: install CUDA toolkit %d.x and point CUDA_HOME at it, "
			       "or install the matching PyTorch CUDA variant.",
			    atoi(fw->cuda));
	}
}

static const struct rule python_rules[] = {
	{ "torch-cpu-build", SEV_WARNING, check_torch_cpu,
	  .cause = "The installed PyTorch wheel has no CUDA code: torch.cuda.is_available() is False.",
	  .fix = "reinstall torch from the CUDA index of pytorch.org", .mild = SEV_INFO,
	  .mild_when = "no GPU and no driver were seen: a CPU build may be what is wanted" },
	{ "framework-driver-too-old", SEV_ERROR, check_driver,
	  .cause = "The framework was built with a CUDA release that needs a newer driver than the one here.",
	  .fix = "install a newer NVIDIA driver, or a build of the framework for an older CUDA major" },
	{ "framework-lib-missing", SEV_ERROR, check_lib_missing,
	  .cause = "The framework loads CUDA libraries by name that the loader does not find.",
	  .fix = "install the framework's CUDA wheels (or the matching toolkit libraries)" },
	{ "framework-cudnn-mismatch", SEV_ERROR, check_cudnn,
	  .cause = "The framework was built with a cuDNN major (or a newer minor) than the cuDNN it would load.",
	  .fix = "install the cuDNN the framework was built with", .about = "cudnn" },
	{ "pip-nvidia-shadowed", SEV_WARNING, check_shadowed,
	  .cause = "A library from elsewhere on the search path is loaded instead of the copy of the framework's "
		   "nvidia-* wheel.",
	  .fix = "remove the other directory from LD_LIBRARY_PATH, or put the wheel's directory first" },
	{ "framework-gpu-arch", SEV_ERROR, check_gpu_arch,
	  .cause = "The framework carries GPU code only for other GPU architectures than the GPU here.",
	  .fix = "install a build of the framework whose CUDA version supports this GPU" },
	{ "tf-windows-native-gpu", SEV_WARNING, check_tf_windows,
	  .cause = "TensorFlow after 2.10 has no GPU support on native Windows.",
	  .fix = "use TensorFlow in WSL2, or TensorFlow 2.10 with CUDA 11.2 and cuDNN 8.1" },
	{ "nvcc-framework-mismatch", SEV_INFO, check_nvcc,
	  .cause = "The nvcc on the system and the framework were made for different CUDA majors: building "
		   "extensions fails; running the framework is not affected.",
	  .fix = "install the CUDA toolkit of the framework's major and point CUDA_HOME at it" },
};

RULE_FAMILY(rules_python, "python", python_rules);
