/* The probe family: what the live smoke test saw, turned into causes. Return codes are mapped to
 * finding ids by the knowledge base's error table (data/errors.tsv, `finding` column); this file
 * only adds what a code alone cannot say: which library returned it, what the driver reported
 * beside it, and the context that tells one cause from another (35 with no driver at all, 999
 * with /dev/nvidia-uvm missing, 100 with CUDA_VISIBLE_DEVICES hiding the GPUs). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag/rule.h"
#include "kb/kb.h"
#include "probe/probe.h"

#define REF_COMPAT "https://docs.nvidia.com/deploy/cuda-compatibility/"
#define MAX_EVIDENCE 8

/* "12020" -> "12.2" */
static const char *cuda_ver(struct arena *a, const char *v)
{
	if (!v)
		return NULL;
	long x = strtol(v, NULL, 10);
	if (x <= 0)
		return v;
	return arena_printf(a, "%ld.%ld", x / 1000, (x % 1000) / 10);
}

static const char *step_where(struct arena *a, const struct probe_step *s)
{
	return arena_printf(a, "%s %s", s->stage, s->library ? s->library : s->target);
}

static const char *code_desc(struct arena *a, const struct probe_step *s)
{
	const struct kb_error *e = s->api ? kb_error_lookup(s->api, s->code) : NULL;
	const char *name = e && e->name ? e->name : s->lib_code_name;
	const char *text = e && e->text && *e->text ? e->text : s->lib_code_text;
	return arena_printf(a, "%ld%s%s%s%s%s", s->code, name ? " " : "", name ? name : "",
			    text ? " (" : "", text ? text : "", text ? ")" : "");
}

/* The finding a failed step points to, with the context refinements described at the top. */
static const char *step_finding(const struct diag_ctx *d, const struct probe_step *s)
{
	const struct probe_report *rep = d->inv->probe;
	const struct kb_error *e = s->api ? kb_error_lookup(s->api, s->code) : NULL;
	const char *id = e ? e->finding : NULL;
	if (strcmp(s->api ? s->api : "", "cudart") == 0 && s->code == 35) {
		/* cudart says "insufficient driver" also when it found no libcuda at all: then
		 * cudaDriverGetVersion succeeds with 0 (verified with cudart 11.8 and 13.0) */
		const char *dv = probe_fact_get(rep, s->stage, s->target, "driver_cuda_version");
		if (dv && strcmp(dv, "0") == 0)
			return "no-driver";
	}
	if (s->code == 999 && (strcmp(s->api ? s->api : "", "cu") == 0 ||
			       strcmp(s->api ? s->api : "", "cudart") == 0)) {
		bool uvm = false;
		for (size_t i = 0; i < d->inv->driver.n_nodes; i++)
			if (strcmp(d->inv->driver.nodes[i].path, "/dev/nvidia-uvm") == 0)
				uvm = d->inv->driver.nodes[i].exists;
		if (!uvm)
			return "nvidia-uvm-missing";
		if (id && strcmp(id, "nvidia-uvm-missing") == 0)
			return NULL; /* 999 with the node present: no known cause */
	}
	return id && *id ? id : NULL;
}

/* A failed step whose own code names no cause (CUBLAS_STATUS_NOT_INITIALIZED ...) takes the cause
 * of a later failure in the same child: the runtime call that shows why the handle failed. */
static const char *resolved_finding(const struct diag_ctx *d, size_t idx)
{
	const struct probe_report *rep = d->inv->probe;
	const struct probe_step *s = &rep->steps[idx];
	const char *id = step_finding(d, s);
	if (id)
		return id;
	for (size_t j = idx + 1; j < rep->n_steps; j++) {
		const struct probe_step *t = &rep->steps[j];
		if (strcmp(t->stage, s->stage) != 0 || strcmp(t->target, s->target) != 0)
			break;
		if (t->outcome == PROBE_FAILED && t->has_code) {
			const char *tid = step_finding(d, t);
			if (tid)
				return tid;
		}
	}
	return NULL;
}

/* The finding with this id if another family already made it (the static driver rules see the
 * same problem from the files): the probe adds its live evidence there instead of a twin. */
static struct finding *existing(struct diag_ctx *d, const char *id)
{
	for (size_t i = 0; i < d->out->n; i++)
		if (strcmp(d->out->v[i].id, id) == 0)
			return &d->out->v[i];
	return NULL;
}

static void visible_devices_reason(struct diag_ctx *d, struct finding *f)
{
	const char *cvd = envsnap_get(&d->ctx->env, "CUDA_VISIBLE_DEVICES");
	bool nodes = false;
	for (size_t i = 0; i < d->inv->driver.n_nodes; i++) {
		const char *p = d->inv->driver.nodes[i].path;
		if (d->inv->driver.nodes[i].exists && strncmp(p, "/dev/nvidia", 11) == 0 && isdigit((unsigned char)p[11]))
			nodes = true;
	}
	if (cvd) {
		finding_evidence(f, "CUDA_VISIBLE_DEVICES=%s (%s)", cvd, d->ctx->env.origin ? d->ctx->env.origin : "environment");
		finding_cause(f, "CUDA_VISIBLE_DEVICES is set to \"%s\", which hides the GPUs from CUDA when it is "
				 "empty, -1, or names devices that do not exist.", cvd);
		finding_fix(f, "unset CUDA_VISIBLE_DEVICES (or set it to existing indices or GPU UUIDs: nvidia-smi -L)");
	} else if (!nodes) {
		finding_evidence(f, "no /dev/nvidia0, /dev/nvidia1, ... device nodes");
		if (d->inv->system.container) {
			finding_cause(f, "This is a container without GPU access: the GPU device nodes were not "
					 "passed in, so the driver library finds no device.");
			finding_fix(f, "start the container with GPU access: docker run --gpus all ... (podman: --device nvidia.com/gpu=all)");
		} else {
			finding_cause(f, "There are no GPU device nodes: either this machine has no NVIDIA GPU, or "
					 "the kernel driver is not loaded and did not create them.");
			finding_fix(f, "check for the GPU and the driver: lspci | grep -i nvidia; sudo modprobe nvidia; nvidia-smi");
		}
	} else {
		finding_cause(f, "The driver is installed and device nodes exist, but it reports no CUDA-capable "
				 "device: the GPU may have fallen off the bus, be in use by a VM, or be unsupported by "
				 "this driver branch.");
		finding_fix(f, "nvidia-smi; sudo dmesg | grep -i -E 'NVRM|Xid'");
	}
}

static void fill_new(struct diag_ctx *d, struct finding *f, const char *id, const struct probe_step *s)
{
	const struct probe_report *rep = d->inv->probe;
	const char *drv = probe_fact_get(rep, "driver", NULL, "driver_cuda_version");
	if (!drv && s)
		drv = probe_fact_get(rep, s->stage, s->target, "driver_cuda_version");
	const char *rt = s ? probe_fact_get(rep, s->stage, s->target, "runtime_version") : NULL;
	if (strcmp(id, "driver-too-old") == 0) {
		finding_cause(f, "The CUDA runtime is newer than the driver supports: the driver supports CUDA up to %s, "
				 "the runtime is CUDA %s. Minor-version compatibility covers only runtimes of the "
				 "driver's own CUDA major.",
			      drv ? cuda_ver(d->ctx->arena, drv) : "?", rt ? cuda_ver(d->ctx->arena, rt) : "?");
		finding_fix(f, "install a newer NVIDIA driver (one supporting CUDA %s), or use a CUDA runtime "
			       "(PyTorch/TF build) that matches CUDA %s",
			    rt ? cuda_ver(d->ctx->arena, rt) : "of the runtime", drv ? cuda_ver(d->ctx->arena, drv) : "of the driver");
		finding_ref(f, REF_COMPAT);
	} else if (strcmp(id, "stub-libcuda") == 0) {
		finding_cause(f, "The libcuda.so.1 that was loaded is the CUDA toolkit's link-time stub, whose every "
				 "entry point returns CUDA_ERROR_STUB_LIBRARY (34). The stubs directory is on the "
				 "search path before the real driver library.");
		finding_fix(f, "remove .../lib64/stubs from LD_LIBRARY_PATH (and from /etc/ld.so.conf.d, then sudo ldconfig)");
	} else if (strcmp(id, "no-device") == 0) {
		visible_devices_reason(d, f);
	} else if (strcmp(id, "no-driver") == 0) {
		finding_cause(f, "The CUDA runtime found no libcuda.so.1 at all: cudaDriverGetVersion returned 0, and "
				 "every call fails with cudaErrorInsufficientDriver (35).");
		finding_fix(f, "install the NVIDIA driver's user-space library (Debian: apt install libcuda1), or in a "
			       "container run it with --gpus all");
	} else if (strcmp(id, "nvidia-uvm-missing") == 0) {
		finding_cause(f, "CUDA failed with an unknown error (999) and /dev/nvidia-uvm does not exist: the "
				 "nvidia-uvm kernel module is not loaded, and CUDA cannot manage memory without it.");
		finding_fix(f, "sudo modprobe nvidia-uvm (or run nvidia-modprobe -u -c=0 once); in a container, pass /dev/nvidia-uvm in");
	} else if (strcmp(id, "driver-userspace-mismatch") == 0) {
		finding_cause(f, "The user-space driver libraries and the loaded kernel module come from different "
				 "driver versions (typically after a driver upgrade without a reboot).");
		finding_fix(f, "reboot, or reload the module: sudo rmmod nvidia_uvm nvidia_drm nvidia_modeset nvidia && sudo modprobe nvidia");
	} else if (strcmp(id, "forward-compat-unsupported") == 0) {
		finding_cause(f, "A CUDA forward-compatibility libcuda (cuda-compat) was loaded, but this GPU does not "
				 "support forward compatibility (only data-center GPUs and some RTX/NGC SKUs do).");
		finding_fix(f, "remove the compat directory (/usr/local/cuda-*/compat) from LD_LIBRARY_PATH or the ld cache, "
			       "or upgrade the driver instead");
		finding_ref(f, "https://docs.nvidia.com/deploy/cuda-compatibility/forward-compatibility.html");
	} else if (strcmp(id, "no-kernel-image") == 0) {
		finding_cause(f, "The code contains no GPU binary for this GPU's architecture and no PTX that can be "
				 "compiled for it.");
		finding_fix(f, "use a build compiled for this GPU (cudx arch FILE shows what a binary contains)");
	} else if (strcmp(id, "ptx-too-new") == 0) {
		finding_cause(f, "The PTX was generated by a newer compiler than the driver's PTX JIT understands.");
		finding_fix(f, "upgrade the NVIDIA driver, or use a build with SASS for this GPU");
	} else if (strcmp(id, "cudnn-cuda-mismatch") == 0) {
		finding_cause(f, "cuDNN was built for a different CUDA major than the CUDA runtime it is used with.");
		finding_fix(f, "install the cuDNN build for your CUDA major (pip: nvidia-cudnn-cuXX)");
	}
}

static void emit_code_findings(struct diag_ctx *d, const struct rule *self)
{
	const struct probe_report *rep = d->inv->probe;
	if (!rep || !rep->ran)
		return;
	struct finding *f = NULL;
	size_t shown = 0;
	bool fresh = false;
	for (size_t i = 0; i < rep->n_steps; i++) {
		const struct probe_step *s = &rep->steps[i];
		if (s->outcome != PROBE_FAILED || !s->has_code || strcmp(s->stage, "locate") == 0)
			continue;
		const char *id = resolved_finding(d, i);
		if (!id || strcmp(id, self->id) != 0)
			continue;
		if (!f) {
			f = existing(d, self->id);
			if (!f) {
				f = rule_emit(d, self, "live probe: %s %s returned %s", s->target, s->name,
					      code_desc(d->ctx->arena, s));
				fresh = true;
			}
			if (fresh)
				fill_new(d, f, self->id, s);
		}
		if (shown++ < MAX_EVIDENCE)
			finding_evidence(f, "probe: %s: %s returned %s", step_where(d->ctx->arena, s), s->name,
					 code_desc(d->ctx->arena, s));
	}
	if (f) {
		const char *drv = probe_fact_get(rep, "driver", NULL, "driver_cuda_version");
		if (drv)
			finding_evidence(f, "probe: libcuda cuDriverGetVersion = %s (CUDA %s)", drv,
					 cuda_ver(d->ctx->arena, drv));
		for (size_t i = 0; i < rep->n_facts; i++)
			if (strcmp(rep->facts[i].stage, "runtime") == 0 &&
			    strcmp(rep->facts[i].key, "runtime_version") == 0)
				finding_evidence(f, "probe: %s cudaRuntimeGetVersion = %s (CUDA %s)", rep->facts[i].target,
						 rep->facts[i].value, cuda_ver(d->ctx->arena, rep->facts[i].value));
	}
}

static const char *signal_desc(struct arena *a, int sig)
{
	const char *n = sigabbrev_np(sig);
	return arena_printf(a, "signal %d%s%s", sig, n ? ", SIG" : "", n ? n : "");
}

static const char *run_library(const struct probe_report *rep, const struct probe_run *r)
{
	const char *lib = NULL;
	for (size_t i = 0; i < rep->n_steps; i++)
		if (rep->steps[i].stage == r->stage && rep->steps[i].target == r->target && rep->steps[i].library)
			lib = rep->steps[i].library;
	return lib;
}

static void check_crashed(struct diag_ctx *d, const struct rule *self)
{
	const struct probe_report *rep = d->inv->probe;
	if (!rep || !rep->ran)
		return;
	for (size_t i = 0; i < rep->n_runs; i++) {
		const struct probe_run *r = &rep->runs[i];
		if (r->end != PROBE_RUN_CRASHED && r->end != PROBE_RUN_EXITED && r->end != PROBE_RUN_GARBLED)
			continue;
		const char *how = r->end == PROBE_RUN_CRASHED ? signal_desc(d->ctx->arena, r->signal)
				  : r->end == PROBE_RUN_EXITED ? arena_printf(d->ctx->arena, "called exit(%d)", r->exit_status)
							       : "wrote garbage into the probe's result pipe";
		const char *lib = run_library(rep, r);
		struct finding *f = rule_emit(d, self, "the %s probe of %s %s%s%s", r->stage, r->target, how,
					      r->last_step ? " in " : "", r->last_step ? r->last_step : "");
		finding_subject(f, lib ? lib : r->target);
		finding_cause(f, "Vendor code %s while cudx's probe child was inside %s. A program that uses this "
				 "library the same way dies the same way. The probe ran it in a separate process; "
				 "everything else in this report is unaffected.",
			      how, r->last_step ? r->last_step : "its first step");
		if (lib)
			finding_evidence(f, "library: %s", lib);
		finding_evidence(f, "last step begun: %s", r->last_step ? r->last_step : "(none recorded)");
		if (r->problem)
			finding_evidence(f, "record stream: %s", r->problem);
		finding_fix(f, "reinstall the package that owns %s, or take its directory off the search path", lib ? lib : r->target);
		finding_fix(f, "look for GPU errors: sudo dmesg | grep -i -E 'NVRM|Xid'");
	}
}

static void check_timeout(struct diag_ctx *d, const struct rule *self)
{
	const struct probe_report *rep = d->inv->probe;
	if (!rep || !rep->ran)
		return;
	for (size_t i = 0; i < rep->n_runs; i++) {
		const struct probe_run *r = &rep->runs[i];
		if (r->end != PROBE_RUN_TIMEOUT)
			continue;
		const char *lib = run_library(rep, r);
		struct finding *f = rule_emit(d, self, "the %s probe of %s did not finish within %.0f s%s%s", r->stage,
					      r->target, d->ctx->opt->probe_timeout, r->last_step ? ": stuck in " : "",
					      r->last_step ? r->last_step : "");
		finding_subject(f, lib ? lib : r->target);
		finding_cause(f, "A call into the vendor library did not return; cudx killed the probe child. A hung "
				 "cuInit usually means a GPU that stopped responding, a driver waiting on a lock "
				 "(another process, nvidia-persistenced), or a remote/virtual GPU that is unreachable.");
		if (lib)
			finding_evidence(f, "library: %s", lib);
		finding_evidence(f, "last step begun: %s", r->last_step ? r->last_step : "(none recorded)");
		finding_fix(f, "check for hung GPU processes and driver errors: nvidia-smi; sudo dmesg | grep -i -E 'NVRM|Xid'");
		finding_fix(f, "give the probe more time: cudx --probe-timeout 60");
	}
	for (size_t i = 0; i < rep->n_runs; i++)
		if (rep->runs[i].end == PROBE_RUN_NOT_STARTED) {
			const struct finding *f = existing(d, self->id);
			if (f)
				finding_evidence((struct finding *)f, "not run for lack of time: the %s stage%s",
						 rep->runs[i].stage, "");
		}
}

static void check_wrong(struct diag_ctx *d, const struct rule *self)
{
	const struct probe_report *rep = d->inv->probe;
	if (!rep || !rep->ran)
		return;
	for (size_t i = 0; i < rep->n_steps; i++) {
		const struct probe_step *s = &rep->steps[i];
		if (s->outcome != PROBE_WRONG)
			continue;
		struct finding *f = rule_emit(d, self, "%s: %s", step_where(d->ctx->arena, s), s->value ? s->value : s->name);
		finding_subject(f, s->library ? s->library : s->target);
		finding_cause(f, "Every call returned success but the result is wrong. This points to faulty GPU memory, "
				 "a broken or mismatched library build, or an unstable (overclocked, overheating) GPU.");
		finding_evidence(f, "step: %s", s->name);
		finding_fix(f, "run NVIDIA's memory and compute checks (dcgmi diag -r 3, or cuda-samples' memtest); check nvidia-smi -q -d ECC");
	}
}

/* cuDNN built for CUDA major M with no cudart of major M here (or cuDNN said so itself). */
static void check_cudnn_cuda(struct diag_ctx *d, const struct rule *self)
{
	const struct probe_report *rep = d->inv->probe;
	if (!rep || !rep->ran)
		return;
	emit_code_findings(d, self);
	for (size_t i = 0; i < rep->n_facts; i++) {
		const struct probe_fact *x = &rep->facts[i];
		if (strcmp(x->stage, "cudnn") != 0 || strcmp(x->key, "cudart_version") != 0)
			continue;
		long want = strtol(x->value, NULL, 10) / 1000;
		bool have = false;
		const char *seen = NULL;
		for (size_t k = 0; k < rep->n_facts; k++) {
			const struct probe_fact *y = &rep->facts[k];
			if (strcmp(y->stage, "runtime") != 0 || strcmp(y->key, "runtime_version") != 0)
				continue;
			seen = y->value;
			if (strtol(y->value, NULL, 10) / 1000 == want)
				have = true;
		}
		if (have || !seen || want <= 0)
			continue;
		struct finding *f = existing(d, self->id);
		if (!f) {
			f = rule_emit(d, self, "cuDNN %s was built for CUDA %ld, but the CUDA runtime here is %s",
				      x->target, want, cuda_ver(d->ctx->arena, seen));
			fill_new(d, f, self->id, NULL);
		}
		finding_evidence(f, "probe: %s cudnnGetCudartVersion = %s", x->target, x->value);
		for (size_t k = 0; k < rep->n_facts; k++)
			if (strcmp(rep->facts[k].stage, "runtime") == 0 && strcmp(rep->facts[k].key, "runtime_version") == 0)
				finding_evidence(f, "probe: %s cudaRuntimeGetVersion = %s", rep->facts[k].target, rep->facts[k].value);
	}
}

/* NVML's driver version against the kernel module's. */
static void check_nvml_kernel(struct diag_ctx *d, const struct rule *self)
{
	const struct probe_report *rep = d->inv->probe;
	if (!rep || !rep->ran)
		return;
	emit_code_findings(d, self);
	const char *nv = probe_fact_get(rep, "nvml", NULL, "driver_version");
	const char *kv = d->inv->driver.kernel_version ? d->inv->driver.kernel_version : d->inv->driver.module_version;
	if (!nv || !kv || strcmp(nv, kv) == 0)
		return;
	struct finding *f = existing(d, self->id);
	if (!f) {
		f = rule_emit(d, self, "NVML reports driver %s but the kernel module is %s", nv, kv);
		fill_new(d, f, self->id, NULL);
	}
	finding_evidence(f, "probe: nvmlSystemGetDriverVersion = %s; kernel module %s", nv, kv);
}

static bool covered(const char *id);

/* A failure no table row explains: still shown, with the library's own words. */
static void check_unmapped(struct diag_ctx *d, const struct rule *self)
{
	const struct probe_report *rep = d->inv->probe;
	if (!rep || !rep->ran)
		return;
	for (size_t i = 0; i < rep->n_steps; i++) {
		const struct probe_step *s = &rep->steps[i];
		if (s->outcome != PROBE_FAILED || !s->has_code || strcmp(s->stage, "locate") == 0)
			continue;
		const char *id = resolved_finding(d, i);
		if (id && covered(id))
			continue;
		struct finding *f = rule_emit(d, self, "%s: %s returned %s", step_where(d->ctx->arena, s), s->name,
					      code_desc(d->ctx->arena, s));
		finding_subject(f, s->library ? s->library : s->target);
		finding_cause(f, "The call failed with a code cudx has no diagnosis for yet%s%s%s.",
			      id ? " (the error table points to " : "", id ? id : "", id ? ", which no probe rule emits)" : "");
		finding_evidence(f, "stage %s, target %s", s->stage, s->target);
	}
}

static const struct rule probe_rules[] = {
	{ "probe-crashed", SEV_ERROR, check_crashed },
	{ "probe-timeout", SEV_ERROR, check_timeout },
	{ "no-driver", SEV_ERROR, emit_code_findings },
	{ "stub-libcuda", SEV_ERROR, emit_code_findings },
	{ "driver-too-old", SEV_ERROR, emit_code_findings },
	{ "driver-userspace-mismatch", SEV_ERROR, check_nvml_kernel },
	{ "forward-compat-unsupported", SEV_ERROR, emit_code_findings },
	{ "nvidia-uvm-missing", SEV_ERROR, emit_code_findings },
	{ "no-device", SEV_ERROR, emit_code_findings },
	{ "no-kernel-image", SEV_ERROR, emit_code_findings },
	{ "ptx-too-new", SEV_ERROR, emit_code_findings },
	{ "cudnn-cuda-mismatch", SEV_ERROR, check_cudnn_cuda },
	{ "wrong-result", SEV_ERROR, check_wrong },
	/* ids the error table points some codes to, owned by other families: the probe's
	 * evidence joins their finding, or makes one */
	{ "cudnn-mixed-versions", SEV_ERROR, emit_code_findings },
	{ "lib-not-found", SEV_ERROR, emit_code_findings },
	{ "device-node-permission", SEV_ERROR, emit_code_findings },
	{ "probe-step-failed", SEV_WARNING, check_unmapped },
};

RULE_FAMILY(rules_probe, "probe", probe_rules);

static bool covered(const char *id)
{
	for (size_t i = 0; i < sizeof probe_rules / sizeof probe_rules[0]; i++)
		if (probe_rules[i].check == emit_code_findings || probe_rules[i].check == check_cudnn_cuda ||
		    probe_rules[i].check == check_nvml_kernel)
			if (strcmp(probe_rules[i].id, id) == 0)
				return true;
	return false;
}
