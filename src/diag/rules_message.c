/* The message family: causes an error message proves, or shows together with the machine, that
 * no other family can see on the machine alone. They run only for `cudx explain`, which puts what
 * the messages say into the inventory (inv->message, src/explain/explain_message.h: each message
 * with the causes its text points to, best first). A rule emits its finding when a message's
 * most likely cause is its own (the message is the evidence: "[WinError 1455]" is the page file),
 * or, where the machine can add something, when its cause is among the message's candidates and
 * the machine shows it (a container without GPU device nodes, a WSL system).
 *
 * Only a finding the machine backs has a subject: what the machine showed (the container's root,
 * /usr/lib/wsl/lib). A finding without one repeats the message, and explain does not count it as
 * the machine's confirmation (explain_rank.c).
 *
 * Three rules also judge the machine alone, for every command: nvcc-host-compiler-unsupported, whose
 * two halves (the newest GCC the toolkit's nvcc takes, the GCC it would get) are files
 * (collect/hostcc.c), so check can say it before a build fails; framework-cpu-build for the
 * CPU onnxruntime installed next to onnxruntime-gpu (one package directory, two owners); and
 * fabric-manager-not-running for an NVSwitch system without the fabric manager. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "collect/python.h"
#include "diag/rule.h"
#include "kb/kb.h"
#include "util/ci.h"
#include "explain/explain_message.h"

static const struct message_cause *cause_of(const struct message_entry *e, const char *id, bool top_only)
{
	for (size_t i = 0; i < e->n_causes && (!top_only || i == 0); i++)
		if (strcmp(e->causes[i].finding, id) == 0)
			return &e->causes[i];
	return NULL;
}

/* What the machine shows of a cause: the subject it is about and the evidence. */
struct machine_side {
	const char *subject, *evidence;
};

/* One finding for every message that points to this rule's cause, the messages as evidence; with
 * the machine's side (machine not NULL) also when the cause is a candidate below the first. */
static void emit(struct diag_ctx *d, const struct rule *self, const struct machine_side *machine)
{
	const struct message_inventory *mi = d->inv->message;
	struct finding *f = NULL;
	for (size_t i = 0; mi && i < mi->n; i++) {
		const struct message_entry *e = &mi->v[i];
		const struct message_cause *c = cause_of(e, self->id, machine == NULL);
		if (!c)
			continue;
		if (!f) {
			f = rule_emit(d, self, "%s", c->summary);
			finding_cause(f, "The error message says so: %s.%s%s", c->because ? c->because : "its text",
				      machine ? " The machine agrees: " : "", machine ? machine->evidence : "");
			for (size_t k = 0; k < c->n_fix; k++)
				finding_fix(f, "%s", c->fix[k]);
			if (machine) {
				finding_subject(f, machine->subject);
				finding_evidence(f, "%s", machine->evidence);
			}
		}
		finding_evidence(f, "message (line %zu%s): %s", e->line_no, e->count > 1 ? ", repeated" : "", e->line);
	}
}

static void check_top(struct diag_ctx *d, const struct rule *self)
{
	emit(d, self, NULL);
}

/* /dev/nvidia0, /dev/nvidia1, ...: one node per GPU the driver drives. */
static bool gpu_nodes(const struct inventory *inv)
{
	for (size_t i = 0; i < inv->driver.n_nodes; i++) {
		const char *p = inv->driver.nodes[i].path;
		if (inv->driver.nodes[i].exists && strncmp(p, "/dev/nvidia", 11) == 0 && isdigit((unsigned char)p[11]))
			return true;
	}
	return false;
}

/* A container on WSL (Docker Desktop, or Docker inside a WSL distribution): the NVIDIA runtime
 * mounts the Windows driver's libcuda.so.1 into it when the compute capability is asked for. /dev/dxg
 * without any libcuda.so.1 is a container started without it, not a WSL search-path problem. */
static bool wsl_container_without_libcuda(const struct inventory *inv)
{
	return inv->system.container && inv->driver.wsl && !inv->driver.libcuda_path && !inv->driver.libcuda_off_path;
}

/* A GPU node (not itself a container) whose containerd defines the NVIDIA runtime without making it
 * the default (collect/container_engine.c). */
static bool pods_get_no_driver(const struct inventory *inv)
{
	const struct containerd_info *c = &inv->containerd;
	return !inv->system.container && c->config && c->nvidia_runtime &&
	       !(c->default_runtime && strncmp(c->default_runtime, "nvidia", 6) == 0);
}

/* A container with no GPU device nodes: "no device" and "no driver" messages there mean the
 * container was started without the GPUs. */
static void check_container(struct diag_ctx *d, const struct rule *self)
{
	const struct inventory *inv = d->inv;
	static const struct machine_side seen = {
		"/dev/nvidia0", "this is a container (/.dockerenv, /run/.containerenv, /run/systemd/container or a Kubernetes service account) without /dev/nvidia0, /dev/nvidia1, ..."
	};
	static const struct machine_side seen_wsl = {
		"libcuda.so.1", "this is a container on WSL (/dev/dxg) without the driver's libcuda.so.1, which the NVIDIA runtime mounts in for the compute capability"
	};
	/* Singularity shares the host's /dev and /proc: without --nv it is the driver's libraries that are
	 * missing. Only in a running one (live, or a tree that shows the host's module): an image at
	 * rest has no driver either way */
	static const struct machine_side seen_singularity = {
		"libcuda.so.1", "this is a Singularity/Apptainer container (/.singularity.d) without the driver's "
				"libcuda.so.1, which --nv binds in from the host"
	};
	if (wsl_container_without_libcuda(inv))
		emit(d, self, &seen_wsl);
	else if (inv->system.singularity) {
		bool running = inv->system.live || inv->driver.kernel_version;
		/* bound in but off the search path is driver-lib-off-path, not a container without --nv */
		bool no_libcuda = (!inv->driver.libcuda_path && !inv->driver.libcuda_off_path) || inv->driver.libcuda_is_stub;
		emit(d, self, running && !inv->driver.wsl && no_libcuda ? &seen_singularity : NULL);
	}
	else if (pods_get_no_driver(inv)) {
		/* a node whose containerd runs pods without a runtime class under runc: the message came
		 * from such a pod (cudart's 35 when it finds no libcuda at all, no device) */
		struct machine_side node = {
			inv->containerd.config,
			arena_printf(d->ctx->arena,
				     "containerd on this node (%s) has an nvidia runtime, but its default is %s: a pod "
				     "without runtimeClassName: nvidia runs under that and gets no GPU driver",
				     inv->containerd.config,
				     inv->containerd.default_runtime ? inv->containerd.default_runtime : "runc (not set)")
		};
		emit(d, self, &node);
	} else {
		/* running: live, or a tree that shows the host's module (/proc is the host's, /dev the
		 * container's own) and no driver library mounted off the search path (/usr/local/nvidia,
		 * which came with the GPU the runtime gave it); a libcuda on the path may be baked into
		 * the image and says nothing of the GPU */
		bool running = inv->system.live || (inv->driver.kernel_version && !inv->driver.libcuda_off_path);
		emit(d, self, inv->system.container && running && !inv->driver.wsl && !gpu_nodes(inv) ? &seen : NULL);
	}
}

/* Whether a message was written by the toolkit itself (it ran, so it is installed): its program's
 * name followed by its colon ("nvidia-container-cli: initialization error: ..."), not a line that
 * says the program is missing ("fork/exec /usr/bin/nvidia-container-runtime: no such file"). */
static bool toolkit_spoke(const struct message_inventory *mi)
{
	static const char *const said[] = { "nvidia-container-cli: ", "nvidia-container-cli.real: ", "nvidia-ctk: " };
	static const char *const missing[] = { "no such file", "not found", "command not found", "cannot execute",
					       "permission denied" };
	for (size_t i = 0; mi && i < mi->n; i++) {
		const char *line = mi->v[i].line;
		for (size_t k = 0; line && k < sizeof said / sizeof said[0]; k++) {
			const char *p = strstr(line, said[k]);
			if (!p)
				continue;
			const char *after = p + strlen(said[k]);
			bool absent = false;
			for (size_t j = 0; j < sizeof missing / sizeof missing[0]; j++)
				absent |= ci_has_n(after, strlen(missing[j]), missing[j]);
			if (!absent)
				return true;
		}
	}
	return false;
}

/* A host (not a container) with a container engine and no NVIDIA Container Toolkit (none of its
 * programs, no CDI spec of it, no nvidia runtime in containerd's config): its containers cannot be
 * given the GPUs (collect/container_engine.c). Not a node whose pods get the driver without the
 * toolkit (GKE's device plugin). */
static void check_toolkit(struct diag_ctx *d, const struct rule *self)
{
	const struct inventory *inv = d->inv;
	const struct container_host_info *h = &inv->container_host;
	const struct kb_node_driver *nd = inv->driver.operator_driver;
	if (inv->system.container || !h->engine || h->toolkit || inv->containerd.nvidia_runtime ||
	    (nd && !nd->toolkit) || toolkit_spoke(inv->message)) {
		check_top(d, self);
		return;
	}
	struct machine_side seen = {
		h->engine, arena_printf(d->ctx->arena,
					"a container engine is installed here (%s), the NVIDIA Container Toolkit is not "
					"(none of its programs, no CDI spec of it, no nvidia runtime in containerd's config)",
					h->engine)
	};
	emit(d, self, &seen);
}

static void check_wsl(struct diag_ctx *d, const struct rule *self)
{
	static const struct machine_side seen = { "/usr/lib/wsl/lib",
						  "this system is WSL 2 (/usr/lib/wsl/lib or /dev/dxg present, or "
						  "its kernel release says microsoft-standard)" };
	static const struct machine_side wsl1 = { "/proc/sys/kernel/osrelease",
						  "this system is WSL 1 (its kernel release ends in -Microsoft), "
						  "which gives Linux programs no GPU: only WSL 2 has GPU support" };
	const struct machine_side *side = d->inv->driver.wsl1 ? &wsl1 : &seen;
	emit(d, self, d->inv->driver.wsl && !wsl_container_without_libcuda(d->inv) ? side : NULL);
}

/* A CPU-only package of a framework other than PyTorch (whose own finding is torch-cpu-build), and
 * not TensorFlow on Windows (tf-windows-native-gpu says more). *pair: it is the CPU onnxruntime next
 * to onnxruntime-gpu, a problem by itself: both install onnxruntime/, so the package installed last
 * is what Python imports. */
static const struct py_framework *cpu_framework(const struct diag_ctx *d, const struct py_env **env_out, bool *pair)
{
	const struct python_inventory *py = d->inv->python;
	const struct py_framework *found = NULL;
	*pair = false;
	for (size_t e = 0; py && e < py->n_envs; e++) {
		const struct py_env *env = &py->envs[e];
		for (size_t i = 0; i < env->n_fws; i++) {
			const struct py_framework *fw = &env->fws[i];
			if (!fw->cpu_only || fw->kind == PY_FW_TORCH ||
			    (fw->kind == PY_FW_TENSORFLOW && d->ctx->os == OS_WINDOWS))
				continue;
			bool both = fw->kind == PY_FW_ONNXRUNTIME && py_env_wheel(env, "onnxruntime-gpu");
			if (!found || (both && !*pair))
				found = fw, *env_out = env, *pair = both;
		}
	}
	return found;
}

static void check_framework_cpu(struct diag_ctx *d, const struct rule *self)
{
	const struct py_env *env = NULL;
	bool pair;
	const struct py_framework *fw = cpu_framework(d, &env, &pair);
	struct machine_side seen = { 0 };
	if (fw) {
		seen.subject = fw->pkg_dir;
		seen.evidence =
			pair ? arena_printf(
				       d->ctx->arena,
				       "%s has both onnxruntime %s (the CPU package) and onnxruntime-gpu "
				       "installed: they share %s, and the one installed last is what Python imports",
				       env->prefix, fw->version ? fw->version : "?", fw->pkg_dir)
			     : arena_printf(d->ctx->arena, "%s %s (%s) in %s is a CPU-only build",
					    py_fw_kind_name(fw->kind), fw->version ? fw->version : "?", fw->name,
					    env->prefix);
	}
	if (d->inv->message) {
		emit(d, self, fw ? &seen : NULL);
		return;
	}
	if (!fw || !pair)
		return;
	/* check alone: only the pair; a CPU package by itself may well be what the user wants */
	struct finding *f = rule_emit(d, self, "onnxruntime and onnxruntime-gpu are both installed in %s", env->prefix);
	finding_subject(f, fw->pkg_dir);
	finding_cause(f, "The CPU package onnxruntime and onnxruntime-gpu install the same onnxruntime/ directory. "
			 "Whichever pip installed last wins: when it is the CPU one, the CUDA execution provider is "
			 "missing (\"CUDAExecutionProvider is not in available provider names\").");
	finding_evidence(f, "%s", seen.evidence);
	finding_fix(f, "%s/bin/pip uninstall -y onnxruntime onnxruntime-gpu && %s/bin/pip install onnxruntime-gpu",
		    env->prefix, env->prefix);
}

/* The toolkit nvcc would come from (hostcc_toolkit), when its nvcc takes no GCC this new. */
static const struct toolkit *compiler_too_new(const struct inventory *inv)
{
	const struct host_compiler *h = &inv->hostcc;
	if (!h->gcc_major || h->allowed)
		return NULL;
	const struct toolkit *pick = hostcc_toolkit(inv);
	return pick && pick->gcc_max_major && h->gcc_major > pick->gcc_max_major ? pick : NULL;
}

static void check_host_compiler(struct diag_ctx *d, const struct rule *self)
{
	const struct inventory *inv = d->inv;
	const struct host_compiler *h = &inv->hostcc;
	const struct toolkit *tk = compiler_too_new(inv);
	const char *ver = tk ? (tk->version ? arena_printf(d->ctx->arena, "CUDA %s", tk->version) : tk->path) : NULL;
	struct machine_side seen = { 0 };
	if (tk) {
		seen.subject = tk->nvcc;
		seen.evidence = arena_printf(d->ctx->arena,
					     "the nvcc of %s (%s) takes GCC up to %d (its include/crt/host_config.h); "
					     "the compiler it would use, %s, is GCC %d (%s)",
					     ver, tk->nvcc, tk->gcc_max_major, h->path, h->gcc_major, h->how);
	}
	if (inv->message) {
		emit(d, self, tk ? &seen : NULL);
		if (findings_has(d->out, self->id))
			return;
	}
	if (!tk)
		return;
	struct finding *f = rule_emit(d, self, "nvcc of %s takes GCC up to %d; %s is GCC %d", ver,
				      tk->gcc_max_major, h->path, h->gcc_major);
	finding_subject(f, tk->nvcc);
	finding_cause(f, "Every nvcc compile on this machine stops at \"unsupported GNU version! gcc versions later "
			 "than %d are not supported!\": %s's host_config.h refuses GCC %d, which is the compiler nvcc "
			 "would run (%s). PyTorch/CUDA extensions, CMake CUDA projects and pip builds from source "
			 "fail before compiling anything; running prebuilt programs is not affected.",
		      tk->gcc_max_major, tk->path, h->gcc_major, h->path);
	finding_evidence(f, "%s", seen.evidence);
	if (h->real_path && strcmp(h->real_path, h->path) != 0)
		finding_evidence(f, "%s -> %s", h->path, h->real_path);
	finding_fix(f, "install GCC %d and point nvcc at it: export NVCC_CCBIN=/usr/bin/gcc-%d (or nvcc -ccbin "
		       "g++-%d; CMake: -DCMAKE_CUDA_HOST_COMPILER=g++-%d)",
		    tk->gcc_max_major, tk->gcc_max_major, tk->gcc_max_major, tk->gcc_max_major);
	finding_fix(f, "or use a newer CUDA toolkit that supports GCC %d", h->gcc_major);
}

/* An HGX/DGX board: the NVSwitch driver or bridge shows, or eight or more SXM modules the driver
 * lists (data/nvswitch.tsv: a name with "SXM" or "HGX", or an H100/H200/B200 ... without
 * "PCIe"/"NVL"; eight of them are joined through NVSwitches). A30s, L40s and other PCIe cards are
 * not. The reason, or NULL. */
static const char *nvswitch_system(struct diag_ctx *d)
{
	const struct inventory *inv = d->inv;
	if (inv->driver.nvswitch)
		return arena_printf(d->ctx->arena, "NVSwitch: %s", inv->driver.nvswitch);
	size_t sxm = 0;
	const char *first = NULL;
	for (size_t i = 0; i < inv->n_gpus; i++) {
		const struct gpu_info *g = &inv->gpus[i];
		if (g->name && g->source && strncmp(g->source, "/proc/driver/nvidia/gpus/", 25) == 0 && kb_sxm_module(g->name)) {
			first = first ? first : g->name;
			sxm++;
		}
	}
	return sxm >= 8 ? arena_printf(d->ctx->arena, "%zu SXM GPUs (%s): an HGX/DGX board, whose GPUs reach each "
						  "other through NVSwitches",
					   sxm, first)
			: NULL;
}

/* The fabric manager on an NVSwitch system: without it (or not started at boot) CUDA's
 * initialisation waits and then fails with error 802, "system not yet initialized". Only on the
 * host with the driver loaded: a container does not run it, nor does the GPU Operator's host. */
static void check_fabric_manager(struct diag_ctx *d, const struct rule *self)
{
	const struct inventory *inv = d->inv;
	const struct driver_info *drv = &inv->driver;
	const char *why = NULL;
	if (d->ctx->os == OS_LINUX && drv->kernel_version && !inv->system.container && !drv->operator_driver &&
	    !(drv->fabricmanager && drv->fabricmanager_enabled))
		why = nvswitch_system(d);
	if (!why) {
		check_top(d, self);
		return;
	}
	struct finding *f = drv->fabricmanager
				    ? rule_emit(d, self, "the fabric manager (%s) is installed but not enabled to start at boot",
						drv->fabricmanager)
				    : rule_emit(d, self, "an NVSwitch system without the fabric manager (nvidia-fabricmanager)");
	if (drv->fabricmanager)
		finding_mild(f);
	finding_subject(f, drv->fabricmanager ? drv->fabricmanager : "/usr/bin/nv-fabricmanager");
	finding_cause(f, "On an NVSwitch system every GPU waits for the fabric manager to set up the NVLink fabric; "
			 "until it runs, cuInit fails with error 802 (\"system not yet initialized\") and CUDA sees no "
			 "usable device, although nvidia-smi lists the GPUs. %s",
		      drv->fabricmanager ? "The daemon is installed, but nvidia-fabricmanager.service is not enabled "
					   "(multi-user.target does not want it), so it does not start with the system."
					 : "nv-fabricmanager is not installed.");
	finding_evidence(f, "%s", why);
	finding_evidence(f, "driver: %s (the fabric manager must be of exactly this version)", drv->kernel_version);
	finding_evidence(f, "fabric manager: %s%s", drv->fabricmanager ? drv->fabricmanager : "no /usr/bin/nv-fabricmanager",
			 drv->fabricmanager_enabled ? "" : "; /etc/systemd/system/multi-user.target.wants/nvidia-fabricmanager.service absent");
	if (!drv->fabricmanager)
		finding_fix(f, "install the fabric manager of exactly driver %s (Ubuntu: apt install nvidia-fabricmanager-%d=%s-1; "
			       "RHEL: dnf module install nvidia-driver:%d-dkms/fm)",
			    drv->kernel_version, atoi(drv->kernel_version), drv->kernel_version, atoi(drv->kernel_version));
	finding_fix(f, "sudo systemctl enable --now nvidia-fabricmanager");
	finding_ref(f, "https://docs.nvidia.com/datacenter/tesla/fabric-manager-user-guide/index.html");
}

static const struct rule message_rules[] = {
	{ "windows-pagefile-too-small", SEV_ERROR, check_top,
	  .cause = "Windows ran out of commit memory while loading the large CUDA DLLs: the paging file is too "
		   "small (error 1455), often because many worker processes each load them.",
	  .fix = "Enlarge the paging file (System > Advanced > Performance > Virtual memory)\n"
		 "Load fewer processes at once (DataLoader num_workers=0)" },
	{ "container-no-gpu", SEV_ERROR, check_container,
	  .cause = "The container was started without GPU access (no --gpus, device request or CDI device, or the "
		   "NVIDIA runtime hook did not run), or lost it after a daemon reload.",
	  .fix = "Start it with docker run --gpus all (or --runtime=nvidia, or a CDI device --device nvidia.com/gpu=all)\n"
		 "Kubernetes: request nvidia.com/gpu in the pod's resources\n"
		 "Singularity/Apptainer: singularity exec --nv (apptainer exec --nv) binds the host's driver in",
	  .about = "driver" },
	{ "container-toolkit-missing", SEV_ERROR, check_toolkit,
	  .cause = "The NVIDIA Container Toolkit is not installed or not registered with the container engine, so "
		   "it cannot give containers the GPUs.",
	  .fix = "Install nvidia-container-toolkit\nnvidia-ctk runtime configure --runtime=docker\n"
		 "Restart the daemon (systemctl restart docker)",
	  .ref = "https://docs.nvidia.com/datacenter/cloud-native/container-toolkit/latest/install-guide.html" },
	{ "wsl-libcuda", SEV_ERROR, check_wsl,
	  .cause = "On WSL the driver's libcuda.so.1 lives in /usr/lib/wsl/lib (provided by Windows): that directory "
		   "is not on the loader's path, or a Linux driver installed inside WSL shadows it.",
	  .fix = "Do not install a Linux NVIDIA driver inside WSL\n"
		 "Put /usr/lib/wsl/lib on the loader path (LD_LIBRARY_PATH=/usr/lib/wsl/lib, or an ld.so.conf entry)\n"
		 "WSL 1 has no GPU support: use WSL 2",
	  .ref = "https://docs.nvidia.com/cuda/wsl-user-guide/index.html",
	  .about = "driver" },
	{ "fabric-manager-not-running", SEV_ERROR, check_fabric_manager,
	  .cause = "On NVSwitch systems (HGX/DGX) CUDA waits for the fabric manager, which is not running or not of "
		   "the driver's exact version (error 802, system not yet initialized).",
	  .fix = "Install nvidia-fabricmanager of exactly the driver's version\n"
		 "systemctl enable --now nvidia-fabricmanager",
	  .about = "driver", .mild = SEV_WARNING,
	  .mild_when = "the fabric manager is installed but its unit is not enabled for boot (it may have been started by hand)" },
	{ "gpu-lost", SEV_ERROR, check_top,
	  .cause = "The GPU has fallen off the bus or needs a reset (Xid 79, NVML GPU is lost): a hardware, power, "
		   "PCIe or temperature problem, not the software stack.",
	  .fix = "Reboot (or nvidia-smi -r as root when no process uses the GPU)\n"
		 "Check power cables, PCIe seating and temperatures; sudo dmesg | grep -i xid shows the event",
	  .about = "driver" },
	{ "nvcc-host-compiler-unsupported", SEV_ERROR, check_host_compiler,
	  .cause = "nvcc refuses the host C++ compiler it found: a GCC or Visual Studio newer than this CUDA "
		   "release supports.",
	  .fix = "Install a GCC / Visual Studio this CUDA release supports and point nvcc at it (nvcc -ccbin g++-12, "
		 "CUDAHOSTCXX)\nor use a newer CUDA toolkit",
	  .about = "toolkit" },
	{ "cuda-toolkit-not-found", SEV_ERROR, check_top,
	  .cause = "Building CUDA code needs a CUDA toolkit (nvcc) and none was found: CUDA_HOME / CUDA_PATH is not "
		   "set and no nvcc is on PATH.",
	  .fix = "Install the CUDA toolkit of the framework's CUDA version (or conda install cuda-nvcc)\n"
		 "Set CUDA_HOME to it",
	  .about = "toolkit" },
	{ "framework-cpu-build", SEV_WARNING, check_framework_cpu,
	  .cause = "The installed framework package is its CPU-only variant (onnxruntime, a jaxlib or TensorFlow "
		   "without CUDA), so it never uses the GPU.",
	  .fix = "Install the GPU variant (onnxruntime-gpu, jax[cuda12], tensorflow[and-cuda]) and uninstall the CPU one" },
	{ "conda-cuda-virtual-package", SEV_WARNING, check_top,
	  .cause = "The conda solver found no __cuda virtual package: it ran where no driver is visible (a docker "
		   "build, a login node).",
	  .fix = "Set CONDA_OVERRIDE_CUDA to the CUDA the target's driver supports (CONDA_OVERRIDE_CUDA=12.4) while "
		 "solving" },
	{ "harmless-warning", SEV_INFO, check_top,
	  .cause = "An informational message: the framework probes for optional GPU libraries or features and goes "
		   "on without them.",
	  .fix = "Nothing to fix unless the GPU is wanted; TF_CPP_MIN_LOG_LEVEL=2 silences TensorFlow's notes" },
};

RULE_FAMILY(rules_message, "message", message_rules);
