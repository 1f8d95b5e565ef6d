/* The probe family: what the live smoke test saw, turned into causes. Return codes are mapped to
 * finding ids by the knowledge base's error table (data/errors.tsv, `finding` column); this file
 * only adds what a code alone cannot say: which library returned it, what the driver reported
 * beside it, the context that tells one cause from another (`refinements`, as the table's notes
 * describe them: "only when", "instead"), and each cause's text, evidence and fix (`causes`). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag/rule.h"
#include "kb/kb.h"
#include "probe/probe.h"

#define REF_COMPAT "https://docs.nvidia.com/deploy/cuda-compatibility/"
#define MAX_EVIDENCE 8
/* Creating a CUDA context takes a few hundred MiB of GPU memory: with less than this free on a
 * GPU, a failed initialisation is taken to be the memory. */
#define INIT_FREE_MIB 256ull

/* The probe's report when it ran, else NULL: every rule here starts with it. */
static const struct probe_report *probe_of(const struct diag_ctx *d)
{
	const struct probe_report *rep = d->inv->probe;
	return rep && rep->ran ? rep : NULL;
}

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

static bool node_exists(const struct diag_ctx *d, const char *path)
{
	for (size_t i = 0; i < d->inv->driver.n_nodes; i++)
		if (d->inv->driver.nodes[i].exists && strcmp(d->inv->driver.nodes[i].path, path) == 0)
			return true;
	return false;
}

/* /dev/nvidia0, /dev/nvidia1, ...: one node per GPU the kernel driver drives. */
static bool gpu_nodes(const struct diag_ctx *d)
{
	for (size_t i = 0; i < d->inv->driver.n_nodes; i++) {
		const char *p = d->inv->driver.nodes[i].path;
		if (d->inv->driver.nodes[i].exists && strncmp(p, "/dev/nvidia", 11) == 0 && isdigit((unsigned char)p[11]))
			return true;
	}
	return false;
}

/* The i-th GPU NVML showed with less than INIT_FREE_MIB free (the fact device.N.memory_free),
 * from `from` on; NULL when there is none. */
static const struct probe_fact *full_gpu(const struct probe_report *rep, size_t *from)
{
	static const char suffix[] = ".memory_free";
	for (size_t i = *from; i < rep->n_facts; i++) {
		const struct probe_fact *x = &rep->facts[i];
		size_t kl = strlen(x->key), sl = sizeof suffix - 1;
		if (strcmp(x->stage, "nvml") == 0 && kl > sl && strcmp(x->key + kl - sl, suffix) == 0 &&
		    strtoull(x->value, NULL, 10) >> 20 < INIT_FREE_MIB) {
			*from = i + 1;
			return x;
		}
	}
	return NULL;
}

/* What a code of the CUDA runtime or driver API alone cannot say: each entry picks the finding
 * from the context (NULL: no known cause). table_id is the error table's finding for the code;
 * the table's note for the code says the same in words. */
struct refinement {
	long code;
	const char *(*pick)(const struct diag_ctx *d, const struct probe_step *s, const char *table_id);
};

/* 3, cudaErrorInitializationError / CUDA_ERROR_NOT_INITIALIZED: a full GPU, or no GPU at all. */
static const char *pick_init_failed(const struct diag_ctx *d, const struct probe_step *s, const char *table_id)
{
	(void)s;
	size_t from = 0;
	if (full_gpu(d->inv->probe, &from))
		return "gpu-out-of-memory";
	return gpu_nodes(d) ? NULL : table_id;
}

/* 35, cudaErrorInsufficientDriver: cudart says so also when it found no libcuda at all; then
 * cudaDriverGetVersion succeeds with 0 (verified with cudart 11.8 and 13.0). */
static const char *pick_insufficient_driver(const struct diag_ctx *d, const struct probe_step *s, const char *table_id)
{
	const char *dv = probe_fact_get(d->inv->probe, s->stage, s->target, "driver_cuda_version");
	return dv && strcmp(dv, "0") == 0 ? "no-driver" : table_id;
}

/* 999, unknown error: points to the missing nvidia-uvm node, and nowhere when it is there. */
static const char *pick_unknown_error(const struct diag_ctx *d, const struct probe_step *s, const char *table_id)
{
	(void)s;
	return node_exists(d, "/dev/nvidia-uvm") ? NULL : table_id;
}

static const struct refinement refinements[] = {
	{ 3, pick_init_failed },
	{ 35, pick_insufficient_driver },
	{ 999, pick_unknown_error },
};

/* The finding a failed step points to: the error table's, refined by the context. */
static const char *step_finding(const struct diag_ctx *d, const struct probe_step *s)
{
	const struct kb_error *e = s->api ? kb_error_lookup(s->api, s->code) : NULL;
	const char *id = e && e->finding && *e->finding ? e->finding : NULL;
	if (e && (strcmp(s->api, "cu") == 0 || strcmp(s->api, "cudart") == 0))
		for (size_t i = 0; i < sizeof refinements / sizeof refinements[0]; i++)
			if (refinements[i].code == s->code)
				return refinements[i].pick(d, s, id);
	return id;
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

static void fill_new(struct diag_ctx *d, struct finding *f, const char *id, const struct probe_step *s);

/* The finding for owner's id: the one another family made first (the static driver rules see the
 * same problem from the files), to which the probe adds its live evidence, else a new one with the
 * probe's own explanation (s: the step that points to it, or NULL). */
static struct finding *joined(struct diag_ctx *d, const struct rule *owner, const struct probe_step *s,
			      const char *summary)
{
	bool created;
	struct finding *f = rule_join(d, owner, NULL, &created, "%s", summary);
	if (created)
		fill_new(d, f, owner->id, s);
	return f;
}

static void visible_devices_reason(struct diag_ctx *d, struct finding *f)
{
	const char *cvd = envsnap_get(&d->ctx->env, "CUDA_VISIBLE_DEVICES");
	if (cvd) {
		finding_evidence(f, "CUDA_VISIBLE_DEVICES=%s (%s)", cvd, d->ctx->env.origin ? d->ctx->env.origin : "environment");
		finding_cause(f, "CUDA_VISIBLE_DEVICES is set to \"%s\", which hides the GPUs from CUDA when it is "
				 "empty, -1, or names devices that do not exist.", cvd);
		finding_fix(f, "unset CUDA_VISIBLE_DEVICES (or set it to existing indices or GPU UUIDs: nvidia-smi -L)");
	} else if (!gpu_nodes(d)) {
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

static void fill_driver_too_old(struct diag_ctx *d, struct finding *f, const struct probe_step *s)
{
	const struct probe_report *rep = d->inv->probe;
	const char *drv = probe_fact_get(rep, "driver", NULL, "driver_cuda_version");
	if (!drv && s)
		drv = probe_fact_get(rep, s->stage, s->target, "driver_cuda_version");
	const char *rt = s ? probe_fact_get(rep, s->stage, s->target, "runtime_version") : NULL;
	finding_cause(f, "The CUDA runtime is newer than the driver supports: the driver supports CUDA up to %s, "
			 "the runtime is CUDA %s. Minor-version compatibility covers only runtimes of the "
			 "driver's own CUDA major.",
		      drv ? cuda_ver(d->ctx->arena, drv) : "?", rt ? cuda_ver(d->ctx->arena, rt) : "?");
	finding_fix(f, "install a newer NVIDIA driver (one supporting CUDA %s), or use a CUDA runtime "
		       "(PyTorch/TF build) that matches CUDA %s",
		    rt ? cuda_ver(d->ctx->arena, rt) : "of the runtime", drv ? cuda_ver(d->ctx->arena, drv) : "of the driver");
	finding_ref(f, REF_COMPAT);
}

static void fill_no_device(struct diag_ctx *d, struct finding *f, const struct probe_step *s)
{
	(void)s;
	visible_devices_reason(d, f);
}

/* "535.309.01" from ".../libcuda.so.535.309.01": the driver version that user-space driver
 * libraries carry in their file names (research/formats.md §5.2); NULL for "libcuda.so.1". */
static const char *driver_suffix(const char *file)
{
	const char *base = file ? strrchr(file, '/') : NULL;
	const char *so = strstr(base ? base : file ? file : "", ".so.");
	return so && strchr(so + 4, '.') ? so + 4 : NULL;
}

/* The ptx stage's loads: its own libcuda ("load libcuda.so.1", the stage's target) and, after a
 * failed JIT, the JIT compiler by the name libcuda uses (probe_stage_ptx.c). */
static const struct probe_step *ptx_load(const struct probe_report *rep, bool own)
{
	for (size_t i = 0; i < rep->n_steps; i++) {
		const struct probe_step *t = &rep->steps[i];
		if (strcmp(t->stage, "ptx") == 0 && strncmp(t->name, "load ", 5) == 0 &&
		    (strcmp(t->name + 5, t->target) == 0) == own)
			return t;
	}
	return NULL;
}

static void fill_ptxjit_missing(struct diag_ctx *d, struct finding *f, const struct probe_step *s)
{
	(void)s;
	const struct probe_report *rep = d->inv->probe;
	const struct probe_step *jit = ptx_load(rep, false), *cu = ptx_load(rep, true);
	const char *cuda = cu && cu->outcome == PROBE_OK ? cu->value : NULL;
	const char *cuda_v = driver_suffix(cuda);
	if (jit && jit->outcome == PROBE_OK) {
		const char *jit_v = driver_suffix(jit->value);
		finding_evidence(f, "probe: the loader finds %s: %s", jit->name + 5, jit->value);
		if (jit_v && cuda_v && strcmp(jit_v, cuda_v) != 0)
			finding_cause(f, "libcuda.so.1 could not use its PTX JIT compiler: the loader finds %s of driver %s, "
					 "but libcuda is of driver %s, and the driver's libraries work only with their own "
					 "version.",
				      jit->name + 5, jit_v, cuda_v);
		else
			finding_cause(f, "libcuda.so.1 could not use its PTX JIT compiler, although the loader finds %s: the "
					 "file is damaged or not of the driver's version, so code shipped as PTX cannot "
					 "be compiled for this GPU.",
				      jit->name + 5);
	} else {
		if (jit)
			finding_evidence(f, "probe: the loader finds no %s: %s", jit->name + 5,
					 jit->value ? jit->value : "not found");
		finding_cause(f, "The driver's PTX JIT compiler is not installed: libcuda.so.1 loads %s when a program "
				 "brings PTX instead of code for this GPU, and %s, so PTX cannot be JIT-compiled.",
			      jit ? jit->name + 5 : "it", jit ? "the loader finds none" : "could not find it");
	}
	if (cuda)
		finding_evidence(f, "probe: libcuda.so.1 is %s", cuda);
	finding_fix(f, "install the driver's PTX JIT compiler package of the same version as the driver%s%s "
		       "(Debian: apt install libnvidia-ptxjitcompiler1, the version of libcuda1)",
		    cuda_v ? " " : "", cuda_v ? cuda_v : "");
}

static void fill_gpu_out_of_memory(struct diag_ctx *d, struct finding *f, const struct probe_step *s)
{
	(void)s;
	const struct probe_report *rep = d->inv->probe;
	finding_cause(f, "CUDA could not initialise because the GPU's memory is used up: creating a CUDA context "
			 "needs a few hundred MiB, and the libraries report the failure as an initialisation "
			 "error, not as out of memory.");
	size_t from = 0;
	for (const struct probe_fact *x; (x = full_gpu(rep, &from));) {
		int dev = atoi(x->key + 7); /* device.N.memory_free */
		char key[64];
		snprintf(key, sizeof key, "device.%d.memory", dev);
		const char *total = probe_fact_get(rep, "nvml", NULL, key);
		finding_evidence(f, "probe: NVML: GPU %d has %llu MiB free of %llu MiB", dev,
				 strtoull(x->value, NULL, 10) >> 20, total ? strtoull(total, NULL, 10) >> 20 : 0);
	}
	finding_fix(f, "free GPU memory: nvidia-smi lists the processes holding it; stop them, or run on another GPU "
		       "(CUDA_VISIBLE_DEVICES)");
}

/* The probe's own explanation of a finding it makes (when no other family made it first); the
 * ids without one here take their entry's cause and fix. */
static const struct {
	const char *id;
	void (*fill)(struct diag_ctx *d, struct finding *f, const struct probe_step *s);
} fills[] = {
	{ "driver-too-old", fill_driver_too_old },
	{ "no-device", fill_no_device },
	{ "ptxjit-missing", fill_ptxjit_missing },
	{ "gpu-out-of-memory", fill_gpu_out_of_memory },
};

static void fill_new(struct diag_ctx *d, struct finding *f, const char *id, const struct probe_step *s)
{
	for (size_t i = 0; i < sizeof fills / sizeof fills[0]; i++)
		if (strcmp(fills[i].id, id) == 0)
			fills[i].fill(d, f, s);
}

/* The steps whose code points to owner's id: one finding (joined or new) with each as evidence. */
static void emit_code_findings(struct diag_ctx *d, const struct rule *self)
{
	const struct probe_report *rep = probe_of(d);
	if (!rep)
		return;
	struct finding *f = NULL;
	size_t shown = 0;
	for (size_t i = 0; i < rep->n_steps; i++) {
		const struct probe_step *s = &rep->steps[i];
		if (s->outcome != PROBE_FAILED || !s->has_code || strcmp(s->stage, "locate") == 0)
			continue;
		const char *id = resolved_finding(d, i);
		if (!id || strcmp(id, self->id) != 0)
			continue;
		if (!f)
			f = joined(d, self, s, arena_printf(d->ctx->arena, "live probe: %s %s returned %s", s->target, s->name,
							    code_desc(d->ctx->arena, s)));
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

/* The probe's 999 with /dev/nvidia-uvm absent, or, without a probe, a container whose GPU nodes were
 * passed in without /dev/nvidia-uvm (a CDI spec or device list that leaves it out): CUDA cannot
 * create the node there as nvidia-modprobe does on a host, so cuInit fails (999, or "no CUDA-capable
 * device") while nvidia-smi, which needs only nvidiactl and nvidiaN, works. */
static void check_uvm_in_container(struct diag_ctx *d, const struct rule *self)
{
	const struct inventory *inv = d->inv;
	const struct driver_info *drv = &inv->driver;
	if (!inv->system.live || !inv->system.container || drv->wsl)
		return;
	/* no GPU nodes at all is no-device-nodes' */
	if (!node_exists(d, "/dev/nvidiactl") || !gpu_nodes(d) || node_exists(d, "/dev/nvidia-uvm"))
		return;
	struct finding *f = rule_emit(d, self, "/dev/nvidia-uvm is missing in this container (its GPU nodes are here)");
	finding_subject(f, "/dev/nvidia-uvm");
	finding_cause(f, "The container was given /dev/nvidiactl and the GPU nodes but not /dev/nvidia-uvm (a CDI spec "
			 "or --device list that leaves it out). CUDA needs it for every context and cannot create it "
			 "inside a container, so cuInit fails (999 or \"no CUDA-capable device\", "
			 "torch.cuda.is_available() False) while nvidia-smi, which needs only the other nodes, works.");
	for (size_t i = 0; i < drv->n_nodes; i++)
		finding_evidence(f, "%s: %s", drv->nodes[i].path, drv->nodes[i].exists ? "present" : "missing");
	finding_fix(f, "pass it in: --device /dev/nvidia-uvm --device /dev/nvidia-uvm-tools (docker/podman), or "
		       "regenerate the CDI spec with a current nvidia-ctk (nvidia-ctk cdi generate)");
	finding_fix(f, "on the host, load the module first if it is absent: sudo nvidia-modprobe -u -c=0");
}

/* A host whose nvidia module is loaded (its /sys/module shows it) and whose /dev lists the control
 * node, without /dev/nvidia-uvm. That is how many installs boot: libcuda runs the set-user-ID
 * /usr/bin/nvidia-modprobe on the first CUDA call, which loads nvidia-uvm and makes the node
 * (modprobe makes it only where a distribution's udev rule does), and the toolkit's CLI does it for
 * Docker (--load-kmods).
 * Nothing does it for a runtime without privileges (enroot, whose maintainer states it: enroot#106),
 * nor, without that set-user-ID program, for a user other than the host's root. */
static void check_uvm_on_host(struct diag_ctx *d, const struct rule *self)
{
	const struct inventory *inv = d->inv;
	const struct driver_info *drv = &inv->driver;
	if (inv->system.container || drv->wsl || drv->tegra || !drv->module_version ||
	    !node_exists(d, "/dev/nvidiactl") || node_exists(d, "/dev/nvidia-uvm"))
		return;
	const char *runtime = inv->container_host.unprivileged;
	/* whether a program may make it is known only on the live system (a tree may lose the
	 * set-user-ID bit) */
	bool no_loader = inv->system.live && !inv->system.user_root && !drv->nvidia_modprobe_setuid;
	if (!runtime && !no_loader)
		return;
	struct finding *f = rule_emit(
		d, self, "%s, and %s",
		drv->uvm_loaded ? "/dev/nvidia-uvm is missing" : "the nvidia-uvm module is not loaded",
		runtime ? "containers started without privileges cannot make it" : "nothing can make it for this user");
	finding_subject(f, "/dev/nvidia-uvm");
	finding_evidence(f,
			 "/sys/module/nvidia/version: %s; /sys/module/nvidia_uvm: %s; /dev/nvidiactl: present; "
			 "/dev/nvidia-uvm: missing",
			 drv->module_version, drv->uvm_loaded ? "present" : "missing");
	const char *loader = drv->nvidia_modprobe ? arena_printf(d->ctx->arena, "%s%s", drv->nvidia_modprobe,
								 drv->nvidia_modprobe_setuid ? ": set-user-ID root"
											     : ": not set-user-ID root")
						  : "nvidia-modprobe: not installed";
	finding_evidence(f, "%s", loader);
	if (runtime) {
		finding_evidence(f, "%s: starts containers without privileges", runtime);
		finding_cause(f,
			      "Nothing makes /dev/nvidia-uvm at boot here. CUDA makes it on demand through the "
			      "set-user-ID /usr/bin/nvidia-modprobe, and the container toolkit's CLI does for Docker, but a "
			      "container started without privileges (enroot, Slurm's Pyxis) cannot: its CUDA programs "
			      "fail to initialise (999 or \"no CUDA-capable device\") until something privileged makes "
			      "it, typically after each reboot.");
	} else
		finding_cause(f,
			      "/dev/nvidia-uvm is missing, and libcuda, which makes it on the first CUDA call through "
			      "the set-user-ID /usr/bin/nvidia-modprobe (its one fixed path), cannot here: a CUDA program of a user other than root "
			      "fails to initialise (999 or \"no CUDA-capable device\") while nvidia-smi works.");
	if (drv->nvidia_modprobe)
		finding_fix(f, "now: sudo %s -u -c=0 (loads nvidia-uvm and makes /dev/nvidia-uvm)", drv->nvidia_modprobe);
	else
		finding_fix(f, "now: sudo modprobe nvidia-uvm && sudo mknod -m 666 /dev/nvidia-uvm c $(grep nvidia-uvm "
			       "/proc/devices | cut -d' ' -f1) 0 (modprobe makes the node only where a udev rule does)");
	finding_fix(f, "at every boot: a oneshot systemd unit that runs the same, or the CUDA installation guide's "
		       "start-up script (modprobe nvidia-uvm, then mknod with the major number /proc/devices gives it)");
	if (!runtime)
		finding_fix(
			f,
			"or install the driver's nvidia-modprobe as /usr/bin/nvidia-modprobe, set-user-ID root, so "
			"that CUDA makes it on demand");
}

/* The probe's own 999 where a program would not get it: its child runs with no_new_privs and
 * without CAP_SYS_MODULE (docs/probe.md), so the set-user-ID nvidia-modprobe that libcuda runs to
 * make a missing /dev/nvidia-uvm cannot work inside it, while it works for a program started
 * normally (or as the host's root). */
static bool uvm_left_to_the_sandbox(const struct diag_ctx *d)
{
	const struct inventory *inv = d->inv;
	const struct probe_report *rep = inv->probe;
	/* a runtime without privileges cannot make it either way: that stays the host's error */
	return rep && rep->sandbox.reported && (rep->sandbox.no_new_privs || rep->sandbox.caps_dropped) &&
	       inv->system.live && !inv->system.container && inv->driver.module_version &&
	       !inv->container_host.unprivileged && (inv->driver.nvidia_modprobe_setuid || inv->system.user_root);
}

static void check_uvm(struct diag_ctx *d, const struct rule *self)
{
	emit_code_findings(d, self);
	const struct inventory *inv = d->inv;
	bool sandbox = uvm_left_to_the_sandbox(d);
	bool emitted = false;
	for (size_t i = 0; i < d->out->n; i++) {
		struct finding *f = &d->out->v[i];
		if (strcmp(f->id, self->id) != 0)
			continue;
		emitted = true;
		if (sandbox) {
			finding_mild(f);
			finding_evidence(f,
					 "%s should make the node for a program started normally; cudx's probe runs "
					 "with no_new_privs and without CAP_SYS_MODULE, where it cannot",
					 inv->system.user_root ? "the host's root"
							       : arena_printf(d->ctx->arena, "%s (set-user-ID root)",
									      inv->driver.nvidia_modprobe));
			finding_fix(f, "run one CUDA program outside cudx (nvidia-smi does not make the node); if it "
				       "fails the same way, nvidia-modprobe cannot load nvidia-uvm for the running kernel "
				       "(the module not built for it, or refused by Secure Boot): sudo modprobe nvidia-uvm "
				       "shows why");
		}
		if (inv->container_host.unprivileged && !inv->system.container)
			finding_evidence(f, "%s: starts containers without privileges, which cannot make the node at all",
					 inv->container_host.unprivileged);
	}
	if (emitted)
		return;
	check_uvm_in_container(d, self);
	check_uvm_on_host(d, self);
}

static const char *signal_desc(struct arena *a, int sig)
{
	const char *n = sigabbrev_np(sig);
	return arena_printf(a, "crashed with signal %d%s%s%s", sig, n ? " (SIG" : "", n ? n : "", n ? ")" : "");
}

static const char *run_library(const struct probe_report *rep, const struct probe_run *r)
{
	const char *lib = NULL;
	for (size_t i = 0; i < rep->n_steps; i++)
		if (rep->steps[i].stage == r->stage && rep->steps[i].target == r->target && rep->steps[i].library)
			lib = rep->steps[i].library;
	return lib;
}

/* A child that did not finish: the finding names the library and the step it was in. */
static struct finding *emit_run(struct diag_ctx *d, const struct rule *self, const struct probe_run *r,
				const char *summary)
{
	const char *lib = run_library(d->inv->probe, r);
	struct finding *f = rule_emit(d, self, "%s", summary);
	finding_subject(f, lib ? lib : r->target);
	if (lib)
		finding_evidence(f, "library: %s", lib);
	finding_evidence(f, "last step begun: %s", r->last_step ? r->last_step : "(none recorded)");
	return f;
}

static void check_crashed(struct diag_ctx *d, const struct rule *self)
{
	const struct probe_report *rep = probe_of(d);
	if (!rep)
		return;
	for (size_t i = 0; i < rep->n_runs; i++) {
		const struct probe_run *r = &rep->runs[i];
		if (r->end != PROBE_RUN_CRASHED && r->end != PROBE_RUN_EXITED && r->end != PROBE_RUN_GARBLED)
			continue;
		const char *how = r->end == PROBE_RUN_CRASHED ? signal_desc(d->ctx->arena, r->signal)
				  : r->end == PROBE_RUN_EXITED ? arena_printf(d->ctx->arena, "called exit(%d)", r->exit_status)
							       : "wrote garbage into the probe's result pipe";
		const char *lib = run_library(rep, r);
		const char *summary = arena_printf(d->ctx->arena, "the %s probe of %s %s%s%s", r->stage, r->target, how,
						   r->last_step ? " in " : "", r->last_step ? r->last_step : "");
		struct finding *f = emit_run(d, self, r, summary);
		finding_cause(f, "The vendor library %s while cudx's probe child was inside %s. A program that uses this "
				 "library the same way dies the same way. The probe ran it in a separate process; "
				 "everything else in this report is unaffected.",
			      how, r->last_step ? r->last_step : "its first step");
		if (r->problem)
			finding_evidence(f, "record stream: %s", r->problem);
		finding_fix(f, "reinstall the package that owns %s, or take its directory off the search path", lib ? lib : r->target);
		finding_fix(f, "look for GPU errors: sudo dmesg | grep -i -E 'NVRM|Xid'");
	}
}

static void check_timeout(struct diag_ctx *d, const struct rule *self)
{
	const struct probe_report *rep = probe_of(d);
	if (!rep)
		return;
	for (size_t i = 0; i < rep->n_runs; i++) {
		const struct probe_run *r = &rep->runs[i];
		if (r->end != PROBE_RUN_TIMEOUT)
			continue;
		const char *summary = arena_printf(d->ctx->arena, "the %s probe of %s did not finish within %.0f s%s%s",
						   r->stage, r->target, d->ctx->opt->probe_timeout,
						   r->last_step ? ": stuck in " : "", r->last_step ? r->last_step : "");
		struct finding *f = emit_run(d, self, r, summary);
		finding_cause(f, "A call into the vendor library did not return; cudx killed the probe child. A hung "
				 "cuInit usually means a GPU that stopped responding, a driver waiting on a lock "
				 "(another process, nvidia-persistenced), or a remote/virtual GPU that is unreachable.");
		finding_fix(f, "check for hung GPU processes and driver errors: nvidia-smi; sudo dmesg | grep -i -E 'NVRM|Xid'");
		finding_fix(f, "give the probe more time: cudx --probe-timeout 60");
	}
	for (size_t i = 0; i < rep->n_runs; i++)
		if (rep->runs[i].end == PROBE_RUN_NOT_STARTED)
			for (size_t k = 0; k < d->out->n; k++)
				if (strcmp(d->out->v[k].id, self->id) == 0) {
					finding_evidence(&d->out->v[k], "not run for lack of time: the %s stage", rep->runs[i].stage);
					break;
				}
}

static void check_wrong(struct diag_ctx *d, const struct rule *self)
{
	const struct probe_report *rep = probe_of(d);
	if (!rep)
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
	const struct probe_report *rep = probe_of(d);
	if (!rep)
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
		struct finding *f = joined(d, self, NULL,
					   arena_printf(d->ctx->arena, "cuDNN %s was built for CUDA %ld, but the CUDA runtime here is %s",
							x->target, want, cuda_ver(d->ctx->arena, seen)));
		finding_evidence(f, "probe: %s cudnnGetCudartVersion = %s", x->target, x->value);
		for (size_t k = 0; k < rep->n_facts; k++)
			if (strcmp(rep->facts[k].stage, "runtime") == 0 && strcmp(rep->facts[k].key, "runtime_version") == 0)
				finding_evidence(f, "probe: %s cudaRuntimeGetVersion = %s", rep->facts[k].target, rep->facts[k].value);
	}
}

/* NVML's driver version against the kernel module's. */
static void check_nvml_kernel(struct diag_ctx *d, const struct rule *self)
{
	const struct probe_report *rep = probe_of(d);
	if (!rep)
		return;
	emit_code_findings(d, self);
	const char *nv = probe_fact_get(rep, "nvml", NULL, "driver_version");
	const char *kv = d->inv->driver.kernel_version ? d->inv->driver.kernel_version : d->inv->driver.module_version;
	if (!nv || !kv || strcmp(nv, kv) == 0)
		return;
	struct finding *f =
		joined(d, self, NULL, arena_printf(d->ctx->arena, "NVML reports driver %s but the kernel module is %s", nv, kv));
	finding_evidence(f, "probe: nvmlSystemGetDriverVersion = %s; kernel module %s", nv, kv);
}

static bool covered(const char *id);

/* A failure no table row explains: still shown, with the library's own words. */
static void check_unmapped(struct diag_ctx *d, const struct rule *self)
{
	const struct probe_report *rep = probe_of(d);
	if (!rep)
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

/* dlopen found the file but could not load it (undefined symbol, wrong ELF class, a dependency
 * missing): unlike "not installed", this is a broken installation. */
static void check_load_failed(struct diag_ctx *d, const struct rule *self)
{
	const struct probe_report *rep = probe_of(d);
	if (!rep)
		return;
	for (size_t i = 0; i < rep->n_steps; i++) {
		const struct probe_step *s = &rep->steps[i];
		if (s->outcome != PROBE_MISSING || strncmp(s->name, "load ", 5) != 0 || !s->value ||
		    probe_load_not_found(s->name, s->value))
			continue;
		const char *name = s->name + 5;
		bool seen = false;
		for (size_t k = 0; k < d->out->n; k++)
			seen = seen || (strcmp(d->out->v[k].id, self->id) == 0 && d->out->v[k].subject &&
					strcmp(d->out->v[k].subject, name) == 0);
		if (seen)
			continue;
		struct finding *f = rule_emit(d, self, "%s is on the search path but cannot be loaded", name);
		finding_subject(f, name);
		finding_cause(f, "The dynamic loader found %s but failed to load it: %s. Every program that needs it "
				 "fails the same way; the file is damaged, from another version than the libraries "
				 "it depends on, or built for another machine.",
			      name, s->value);
		finding_evidence(f, "probe (%s stage): dlopen(\"%s\"): %s", s->stage, name, s->value);
		finding_fix(f, "reinstall the package that provides %s (and the libraries it links against, with the same version)", name);
		finding_fix(f, "cudx why %s shows where it is found and what it needs", name);
	}
}

/* Ids of other families the error table points some codes to, in the order their findings are
 * made: the probe's evidence joins their finding, or makes one (with their entry's severity). */
static const struct {
	const char *id;
	void (*check)(struct diag_ctx *d, const struct rule *owner);
} joins[] = {
	{ "no-driver", emit_code_findings },
	{ "stub-libcuda", emit_code_findings },
	{ "driver-too-old", emit_code_findings },
	{ "driver-userspace-mismatch", check_nvml_kernel },
	{ "no-kernel-image", emit_code_findings },
	{ "cudnn-mixed-versions", emit_code_findings },
	{ "lib-not-found", emit_code_findings },
	{ "device-node-permission", emit_code_findings },
};

static void check_joins(struct diag_ctx *d, const struct rule *self)
{
	(void)self;
	for (size_t i = 0; i < sizeof joins / sizeof joins[0]; i++) {
		const struct rule *owner = diag_rule(joins[i].id);
		if (owner)
			joins[i].check(d, owner);
	}
}

static const struct rule probe_rules[] = {
	{ "probe-crashed", SEV_ERROR, check_crashed,
	  .cause = "A vendor library crashed (or exited) inside cudx's probe child; a program that uses it the same "
		   "way dies the same way.",
	  .fix = "reinstall the package that owns the library\nlook for GPU errors: sudo dmesg | grep -i -E 'NVRM|Xid'" },
	{ "probe-timeout", SEV_ERROR, check_timeout,
	  .cause = "A call into a vendor library did not return within the probe's time limit.",
	  .fix = "check for hung GPU processes and driver errors: nvidia-smi; sudo dmesg | grep -i -E 'NVRM|Xid'" },
	{ .check = check_joins }, /* walker */
	{ "forward-compat-unsupported", SEV_ERROR, emit_code_findings,
	  .cause = "A CUDA forward-compatibility libcuda (cuda-compat) was loaded, but this GPU does not support "
		   "forward compatibility (only data-center GPUs and some RTX/NGC SKUs do).",
	  .fix = "remove the compat directory (/usr/local/cuda-*/compat) from LD_LIBRARY_PATH or the ld cache, or "
		 "upgrade the driver instead",
	  .ref = "https://docs.nvidia.com/deploy/cuda-compatibility/forward-compatibility.html", .about = "driver" },
	{ "nvidia-uvm-missing", SEV_ERROR, check_uvm,
	  .cause = "/dev/nvidia-uvm does not exist where CUDA runs (the probe's 999, or a container given the other GPU "
		   "nodes without it): the nvidia-uvm module is not loaded or the node was not passed in, and CUDA "
		   "cannot manage memory without it.",
	  .fix = "sudo nvidia-modprobe -u -c=0 (loads the module and makes the node); in a container, pass "
		 "/dev/nvidia-uvm in",
	  .about = "driver",
	  .mild_when = "only the probe's sandbox could not make the node: a set-user-ID nvidia-modprobe (or the host's "
		       "root) makes it for programs started normally",
	  .mild = SEV_INFO },
	{ "no-device", SEV_ERROR, emit_code_findings,
	  .cause = "The driver reports no CUDA-capable device (error 100): the GPUs are hidden, absent, or not "
		   "reachable from here.",
	  .fix = "nvidia-smi; sudo dmesg | grep -i -E 'NVRM|Xid'" },
	{ "ptx-too-new", SEV_ERROR, emit_code_findings,
	  .cause = "The PTX was generated by a newer compiler than the driver's PTX JIT understands.",
	  .fix = "upgrade the NVIDIA driver, or use a build with SASS for this GPU" },
	{ "ptxjit-missing", SEV_ERROR, emit_code_findings,
	  .cause = "libcuda.so.1 could not use the driver's PTX JIT compiler, so code shipped as PTX cannot be "
		   "compiled for this GPU.",
	  .fix = "install the driver's PTX JIT compiler package of the same version as the driver", .about = "driver" },
	{ "cudnn-cuda-mismatch", SEV_ERROR, check_cudnn_cuda,
	  .cause = "cuDNN was built for a different CUDA major than the CUDA runtime it is used with.",
	  .fix = "install the cuDNN build for your CUDA major (pip: nvidia-cudnn-cuXX)", .about = "cudnn" },
	{ "wrong-result", SEV_ERROR, check_wrong,
	  .cause = "Every call returned success but the result is wrong: faulty GPU memory, a broken library build, "
		   "or an unstable GPU.",
	  .fix = "run NVIDIA's memory and compute checks (dcgmi diag -r 3); check nvidia-smi -q -d ECC" },
	{ "probe-load-failed", SEV_ERROR, check_load_failed,
	  .cause = "The dynamic loader found a library but could not load it: it is damaged, from another version "
		   "than the libraries it depends on, or built for another machine.",
	  .fix = "reinstall the package that provides it (and the libraries it links against)" },
	{ "gpu-busy", SEV_ERROR, emit_code_findings,
	  .cause = "The GPU is busy or unavailable to this process: its compute mode is EXCLUSIVE_PROCESS and another "
		   "process holds it, or PROHIBITED (no CUDA contexts at all).",
	  .fix = "nvidia-smi -q -d COMPUTE shows the compute mode; sudo nvidia-smi -c DEFAULT resets it, or stop the "
		 "process holding the GPU (nvidia-smi lists it)" },
	{ "gpu-out-of-memory", SEV_ERROR, emit_code_findings,
	  .cause = "CUDA could not initialise because the GPU's memory is used up.",
	  .fix = "free GPU memory: nvidia-smi lists the processes holding it" },
	{ "probe-step-failed", SEV_WARNING, check_unmapped,
	  .cause = "A probe call failed with a code cudx has no diagnosis for yet." },
};

RULE_FAMILY(rules_probe, "probe", probe_rules);

/* Whether a probe rule turns a code pointing to id into a finding. */
static bool covered(const char *id)
{
	for (size_t i = 0; i < sizeof joins / sizeof joins[0]; i++)
		if (strcmp(joins[i].id, id) == 0)
			return true;
	for (size_t i = 0; i < sizeof probe_rules / sizeof probe_rules[0]; i++)
		if ((probe_rules[i].check == emit_code_findings || probe_rules[i].check == check_cudnn_cuda) &&
		    strcmp(probe_rules[i].id, id) == 0)
			return true;
	return false;
}
