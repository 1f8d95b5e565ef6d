/* The driver family: is there a driver, do its kernel and user-space halves agree, is the
 * libcuda a process would load the real one, is it new enough for the CUDA runtimes here
 * (driver_too_old.c), can it drive the GPU, can this user reach the GPU device nodes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag/driver_checks.h"
#include "diag/focus.h"
#include "diag/rule.h"
#include "fmt/version.h"
#include "kb/kb.h"

#define REF_COMPAT "https://docs.nvidia.com/deploy/cuda-compatibility/"
#define REF_MINOR "https://docs.nvidia.com/deploy/cuda-compatibility/minor-version-compatibility.html"

bool driver_in_compat_dir(const struct driver_info *drv, const char *path)
{
	if (!path)
		return false;
	for (size_t i = 0; i < drv->n_compat_dirs; i++) {
		size_t n = strlen(drv->compat_dirs[i]);
		if (strncmp(path, drv->compat_dirs[i], n) == 0 && path[n] == '/')
			return true;
	}
	return strstr(path, "/compat/libcuda.so") || strstr(path, "/compat/lib/libcuda.so") ||
	       strstr(path, "/compat/lib.real/libcuda.so");
}

static bool has_real_libcuda(const struct inventory *inv)
{
	for (size_t i = 0; i < inv->n_libs; i++)
		if (strcmp(inv->libs[i].component, "libcuda") == 0 && !inv->libs[i].is_stub &&
		    !inv->libs[i].broken_link && !driver_in_compat_dir(&inv->driver, inv->libs[i].path))
			return true;
	return false;
}

/* A GPU on the PCI bus that the NVIDIA driver does not list, with what holds it instead. */
static const struct gpu_info *undriven_pci_gpu(const struct inventory *inv, size_t *n)
{
	const struct gpu_info *first = NULL;
	*n = 0;
	for (size_t i = 0; i < inv->n_gpus; i++)
		if (inv->gpus[i].pci_only) {
			first = first ? first : &inv->gpus[i];
			(*n)++;
		}
	return first;
}

/* Evidence and advice for each GPU on the bus the NVIDIA driver does not hold: nouveau has it (the
 * NVIDIA module cannot bind while it does), vfio-pci (passed to a virtual machine), or nothing. */
static void add_pci_evidence(struct finding *f, const struct inventory *inv)
{
	bool nouveau = false, vfio = false;
	for (size_t i = 0; i < inv->n_gpus; i++) {
		const struct gpu_info *g = &inv->gpus[i];
		if (!g->pci_only)
			continue;
		const char *k = g->kernel_driver;
		finding_evidence(f, "PCI %s: %s (%s), kernel driver: %s", g->bus_id, g->name ? g->name : "NVIDIA GPU",
				 g->pci_id, k ? k : "none");
		nouveau |= k && strcmp(k, "nouveau") == 0;
		vfio |= k && strcmp(k, "vfio-pci") == 0;
	}
	if (nouveau)
		finding_fix(f, "nouveau, the open-source driver, holds the GPU: blacklist it (printf 'blacklist nouveau\\noptions "
			       "nouveau modeset=0\\n' | sudo tee /etc/modprobe.d/blacklist-nouveau.conf; sudo update-initramfs -u "
			       "(Fedora: sudo dracut --force)), reboot, then load the NVIDIA driver");
	if (vfio)
		finding_fix(f, "a GPU bound to vfio-pci is reserved for a virtual machine: remove its ID from the vfio-pci.ids "
			       "kernel option (or the VM's passthrough list) to use it on this host");
}

/* Where container runtimes bind the host's driver libraries into a container (Singularity's and
 * Apptainer's --nv, the Kubernetes device plugins' /usr/local/nvidia): a libcuda there was put
 * there by a runtime, not baked into the image. */
static bool driver_bound_in(const struct driver_info *drv)
{
	static const char *const targets[] = { "/.singularity.d/libs/", "/usr/local/nvidia/" };
	const char *p = drv->libcuda_path ? drv->libcuda_path : drv->libcuda_off_path;
	for (size_t i = 0; p && i < sizeof targets / sizeof targets[0]; i++)
		if (strncmp(p, targets[i], strlen(targets[i])) == 0)
			return true;
	return false;
}

static void check_no_driver(struct diag_ctx *d, const struct rule *self)
{
	const struct inventory *inv = d->inv;
	const struct driver_info *drv = &inv->driver;
	if (drv->wsl1 && !drv->simulated && d->ctx->os == OS_LINUX) {
		/* WSL 1 runs on the Windows kernel, which gives Linux programs no GPU at all */
		struct finding *f = rule_emit(d, self, "this is WSL 1, which gives Linux programs no GPU");
		finding_subject(f, "/proc/sys/kernel/osrelease");
		finding_evidence(f, "kernel release %s (WSL 1's end in -Microsoft, WSL 2's in -microsoft-standard-WSL2)",
				 drv->wsl1_release);
		if (drv->libcuda_path || drv->libcuda_off_path)
			finding_evidence(f, "a Linux driver's libcuda.so.1 is installed inside it: %s (it cannot reach the GPU)",
					 drv->libcuda_path ? drv->libcuda_path : drv->libcuda_off_path);
		finding_cause(f, "WSL 1 runs Linux programs on the Windows kernel (its release ends in -Microsoft), without "
				 "the GPU paravirtualisation of WSL 2: no NVIDIA driver, Windows' or a Linux one installed "
				 "inside it, can reach the GPU from here.");
		finding_fix(f, "convert the distribution to WSL 2 (PowerShell: wsl --set-version <distro> 2) and keep the "
			       "Windows NVIDIA driver; do not install a Linux NVIDIA driver inside WSL");
		return;
	}
	if (drv->simulated || drv->wsl || d->ctx->os != OS_LINUX)
		return;
	/* a Jetson's kernel side is nvgpu, seen through its module or device nodes */
	bool kernel = drv->kernel_version || drv->module_version || drv->tegra_gpu;
	bool user = has_real_libcuda(inv);
	if (kernel && user)
		return;
	size_t n_pci;
	const struct gpu_info *pci = undriven_pci_gpu(inv, &n_pci);
	/* a tree with the PCI bus in it is a machine's, not an image's; so is one with a container
	 * engine and the NVIDIA Container Toolkit, which a host installs to give its containers the
	 * driver (an image of the toolkit itself, which the GPU Operator runs, has no engine) */
	const char *tk = inv->container_host.toolkit;
	bool operator_toolkit = tk && strncmp(tk, CONTAINER_TOOLKIT_OPERATOR_DIR "/",
					      sizeof CONTAINER_TOOLKIT_OPERATOR_DIR) == 0;
	bool toolkit_host = tk && !inv->system.container &&
			    (inv->container_host.engine || inv->container_host.unprivileged || operator_toolkit);
	if (!inv->system.live && !kernel && !user && !pci && !toolkit_host) {
		/* an image or chroot: the NVIDIA container toolkit injects the driver at run time */
		struct finding *f = rule_emit(d, self, "no NVIDIA driver in this tree (normal for a container image)");
		finding_mild(f);
		finding_cause(f, "Neither the kernel module's /proc entries nor a real libcuda.so.1 exist under %s. "
				 "Inside a container the NVIDIA Container Toolkit mounts the host's driver libraries at "
				 "run time; a chroot or a copied system has no driver of its own.",
			      inv->system.root);
		finding_fix(f, "run the container with GPU access: docker run --gpus all ... (or --device nvidia.com/gpu=all with CDI)");
		return;
	}
	if (kernel && !user && drv->operator_driver) {
		/* a node's driver kept for the pods: workloads get its libraries, host programs do not
		 * (by design) */
		const struct kb_node_driver *nd = drv->operator_driver;
		struct finding *f = rule_emit(d, self, "the driver is kept for the pods by %s (%s)", nd->who, nd->root);
		finding_mild(f);
		finding_cause(f, "The kernel module is loaded and the driver's libraries are kept by %s in %s: the host "
				 "itself has no libcuda.so.1 on its search path, by design. Pods get the driver through %s; "
				 "programs run on the host do not.",
			      nd->who, nd->root, nd->pods);
		finding_fix(f, "run GPU programs in pods (on the host: %s)", nd->host_fix);
		return;
	}
	/* a container's tree (not the live system) with the driver's libraries bound in: the kernel
	 * module is the host's, and its /proc entries are no part of the tree */
	if (!kernel && user && !drv->tegra && inv->system.container && !inv->system.live) {
		if (driver_bound_in(drv))
			return;
		/* the toolkit binds the host's libraries into the image's own library directory, where a
		 * copy baked into the image would be too: either way the module is the host's */
		struct finding *f = rule_emit(d, self, "the NVIDIA kernel module is not visible from this container's tree");
		finding_mild(f);
		finding_cause(f, "This container's tree holds the driver's user-space library (%s), mounted in by the "
				 "container runtime or baked into the image, but none of the kernel module's /proc "
				 "entries: the module is the host's, and a copied tree does not show it.",
			      drv->libcuda_path ? drv->libcuda_path : drv->libcuda_off_path);
		finding_fix(f, "on the host: cat /proc/driver/nvidia/version (it must be the version of %s)",
			    drv->libcuda_version ? drv->libcuda_version : "the libcuda here");
		return;
	}
	struct finding *f;
	if (!kernel && !user) {
		f = rule_emit(d, self, "no NVIDIA driver is installed or loaded%s%s", pci ? " for the " : "",
			      pci ? pci->name : "");
		finding_cause(f, "The NVIDIA kernel module is not loaded (%s and /sys/module/nvidia are absent) and no real "
				 "libcuda.so.1 exists. Nothing can use the GPU until a driver is installed.%s",
			      "/proc/driver/nvidia/version",
			      pci && pci->kernel_driver && strcmp(pci->kernel_driver, "nouveau") == 0
				      ? " The GPU is driven by nouveau, the open-source driver, which has no CUDA."
				      : "");
		finding_fix(f, "install the NVIDIA driver for your GPU (Debian: apt install nvidia-driver; Ubuntu: "
			       "ubuntu-drivers install), then reboot");
		finding_fix(f, "in a container: start it with GPU access (docker run --gpus all ...) and install "
			       "nvidia-container-toolkit on the host");
	} else if (!kernel && drv->l4t_openrm) {
		/* Thor: its GPU driver is L4T's unified nvidia.ko, not nvgpu */
		f = rule_emit(d, self, "the Jetson's GPU driver (nvidia.ko of L4T R%s) is not loaded", drv->l4t_release);
		finding_cause(f, "Jetson Thor's GPU driver is the unified OpenRM kernel module of its L4T release; its user-space "
				 "driver (%s) exists, but /proc/driver/nvidia/version and /sys/module/nvidia do not: the "
				 "module did not load.",
			      drv->libcuda_path ? drv->libcuda_path : "libcuda");
		finding_fix(f, "sudo modprobe nvidia && dmesg | grep -i nvidia | tail; reflash the board's L4T release with SDK "
			       "Manager if the module does not load (it is L4T's own: no desktop driver package)");
	} else if (!kernel && drv->tegra) {
		f = rule_emit(d, self, "the Jetson's GPU driver (nvgpu) is not visible");
		finding_cause(f, "The Jetson's user-space driver (%s) exists, but neither /dev/nvhost-ctrl-gpu, "
				 "/dev/nvgpu/igpu0/ctrl nor /sys/module/nvgpu does: %s",
			      drv->libcuda_path ? drv->libcuda_path : "libcuda",
			      inv->system.container ? "the container was started without the NVIDIA runtime, which "
						      "passes the GPU's device nodes in."
						    : "the integrated GPU's kernel driver did not come up.");
		if (inv->system.container)
			finding_fix(f, "docker run --runtime nvidia ... (or set \"default-runtime\": \"nvidia\" in "
				       "/etc/docker/daemon.json and restart Docker)");
		finding_fix(f, "on the Jetson itself: dmesg | grep -i nvgpu; reflash the board's L4T release with "
			       "SDK Manager if the driver does not load");
	} else if (!kernel) {
		f = rule_emit(d, self, "the NVIDIA kernel module is not loaded%s",
			      pci && pci->kernel_driver && strcmp(pci->kernel_driver, "nouveau") == 0 ? ": nouveau holds the GPU"
												    : "");
		finding_cause(f, "User-space driver libraries exist (%s) but the kernel module is not loaded: "
				 "/proc/driver/nvidia/version is absent. The module may have failed to build for this "
				 "kernel (DKMS), be blocked by Secure Boot, or nouveau may hold the GPU.",
			      drv->libcuda_path ? drv->libcuda_path : "libcuda");
		finding_fix(f, "sudo modprobe nvidia && dmesg | grep -i -E 'nvidia|nouveau' | tail");
		finding_fix(f, "if the module is missing for this kernel: sudo dkms autoinstall (or reinstall the driver "
			       "package), then reboot");
	} else {
		f = rule_emit(d, self, "the NVIDIA kernel module %s is loaded but libcuda.so.1 is missing",
			      drv->kernel_version ? drv->kernel_version : drv->module_version);
		finding_cause(f, "The kernel driver is running, but its user-space library libcuda.so.1 is not on the "
				 "loader's search path, so no CUDA program can start. In a container this means the "
				 "driver libraries were not mounted in.");
		finding_fix(f, "install the user-space part of the same driver version (Debian: apt install libcuda1; "
			       "Ubuntu: apt install libnvidia-compute-%s)",
			    drv->kernel_version ? drv->kernel_version : "<branch>");
		finding_fix(f, "in a container: docker run --gpus all (NVIDIA Container Toolkit mounts libcuda.so.1)");
	}
	if (!kernel)
		add_pci_evidence(f, inv);
	if (toolkit_host && !kernel && !user && operator_toolkit)
		finding_fix(f, "a GPU Operator node: the operator's driver DaemonSet installs the driver, not the host's "
			       "packages: kubectl -n gpu-operator logs ds/nvidia-driver-daemonset");
	const char *engine = inv->container_host.engine ? inv->container_host.engine : inv->container_host.unprivileged;
	if (toolkit_host && !kernel && !user)
		finding_evidence(f, "the NVIDIA Container Toolkit (%s)%s%s%s %s installed here: this is a host, whose "
				    "driver the toolkit mounts into containers, and there is none to mount",
				 tk, engine ? " and a container engine (" : "", engine ? engine : "", engine ? ")" : "",
				 engine ? "are" : "is");
	if (drv->libcuda_path)
		finding_evidence(f, "libcuda the loader would pick: %s%s", drv->libcuda_path,
				 drv->libcuda_is_stub ? " (the toolkit's stub)" : "");
	if (drv->tegra)
		finding_evidence(f, "Jetson GPU driver: %s%s%s", drv->l4t_release ? "L4T R" : "",
				 drv->l4t_release ? drv->l4t_release : "L4T release unknown",
				 kernel		  ? ""
				 : drv->l4t_openrm ? "; its nvidia.ko not loaded"
						   : "; no nvgpu module or device node");
	else
		finding_evidence(f, "kernel module: %s",
				 kernel ? (drv->kernel_version ? drv->kernel_version : drv->module_version)
					: "not loaded (/proc/driver/nvidia/version absent)");
	finding_ref(f, "https://docs.nvidia.com/cuda/cuda-installation-guide-linux/");
}

/* libcuda.so.1 exists only where the system keeps the driver off the default search path
 * (data/driver_dirs.tsv): programs that do not carry that directory in their RUNPATH or get it
 * through LD_LIBRARY_PATH fail as if there were no driver, while the system's own ones work. */
static void check_off_path(struct diag_ctx *d, const struct rule *self)
{
	const struct driver_info *drv = &d->inv->driver;
	/* on WSL 1 no driver reaches the GPU, wherever its library lies (no-driver says so) */
	if (!drv->libcuda_off_path || drv->libcuda_path || drv->simulated || drv->wsl1 || d->ctx->os != OS_LINUX)
		return;
	const struct kb_driver_dir *dd = drv->off_path_dir;
	struct finding *f = rule_emit(d, self, "libcuda.so.1 is in %s (%s), which the loader does not search",
				      dd->dir, dd->system);
	finding_subject(f, drv->libcuda_off_path);
	finding_cause(f, "The driver is installed: its libcuda.so.1 is %s. But %s is not on this environment's "
			 "LD_LIBRARY_PATH, in /etc/ld.so.cache or among the default directories, so a program "
			 "that does not carry it in its own RUNPATH (a pip wheel, a conda package, a downloaded "
			 "binary) cannot load libcuda.so.1 and sees no driver (\"libcuda.so.1: cannot open shared "
			 "object file\", error 35, torch.cuda.is_available() False).",
		      drv->libcuda_off_path, dd->dir);
	finding_evidence(f, "%s: the driver's libcuda.so.1; %s keeps the driver there (knowledge-base sources "
			    "%s, docs/kb.md)",
			 drv->libcuda_off_path, dd->system, dd->fact.source ? dd->fact.source : "?");
	finding_evidence(f, "the loader's search for libcuda.so.1 (LD_LIBRARY_PATH, ld.so.cache, default "
			    "directories) finds none");
	if (drv->kernel_version || drv->module_version)
		finding_evidence(f, "kernel module: %s", drv->kernel_version ? drv->kernel_version : drv->module_version);
	finding_fix(f, "%s", dd->fix);
	finding_fix(f, "cudx why libcuda.so.1   # every place the loader looks");
}

/* The container runtime's forward-compatibility handling (libnvidia-container's cuda-compat "mount"
 * mode) mounts the image's compat libcuda into the library directory beside the host's older one:
 * a libcuda of the very version of a compat dir's copy is that copy, wherever it lies. */
static bool compat_copy_version(const struct inventory *inv, const char *version)
{
	for (size_t i = 0; version && i < inv->n_libs; i++) {
		const struct lib_file *l = &inv->libs[i];
		if (strcmp(l->component, "libcuda") == 0 && l->version && !l->is_stub &&
		    driver_in_compat_dir(&inv->driver, l->path) && version_strcmp(l->version, version) == 0)
			return true;
	}
	return false;
}

bool driver_libcuda_is_compat(const struct inventory *inv)
{
	const struct driver_info *drv = &inv->driver;
	if (!drv->libcuda_path || drv->libcuda_is_stub)
		return false;
	if (driver_in_compat_dir(drv, drv->libcuda_path))
		return true;
	const char *kv = drv->kernel_version ? drv->kernel_version : drv->module_version;
	return inv->system.container && kv && drv->libcuda_version && version_strcmp(drv->libcuda_version, kv) > 0 &&
	       compat_copy_version(inv, drv->libcuda_version);
}

static void check_userspace_mismatch(struct diag_ctx *d, const struct rule *self)
{
	const struct driver_info *drv = &d->inv->driver;
	const char *kv = drv->kernel_version ? drv->kernel_version : drv->module_version;
	if (!kv || drv->simulated)
		return;
	const char *names[2] = { "libcuda", "NVML" };
	const char *paths[2] = { drv->libcuda_path, drv->nvml_path };
	const char *vers[2] = { drv->libcuda_is_stub ? NULL : drv->libcuda_version, drv->nvml_version };
	for (int i = 0; i < 2; i++) {
		if (!vers[i] || version_strcmp(vers[i], kv) == 0)
			continue;
		/* a forward-compatibility libcuda (cuda-compat) is newer than the module by design; where
		 * the GPU does not support that, CUDA says so with 804 (forward-compat-unsupported) */
		if (i == 0 && version_strcmp(vers[i], kv) > 0 && driver_libcuda_is_compat(d->inv))
			continue;
		struct finding *f = rule_emit(d, self, "driver/library version mismatch: kernel module %s, %s %s", kv,
					      names[i], vers[i]);
		finding_subject(f, paths[i]);
		finding_cause(f, "The loaded NVIDIA kernel module and the user-space %s come from different driver "
				 "releases. NVML reports \"Driver/library version mismatch\" and CUDA fails with error 803 "
				 "(system has unsupported display driver / cuda driver combination). Usually the driver "
				 "packages were upgraded and the machine was not rebooted%s.",
			      names[i], d->inv->system.container ? ", or a container image carries its own driver libraries" : "");
		finding_evidence(f, "kernel module: %s (%s)", kv,
				 drv->kernel_version ? "/proc/driver/nvidia/version" : "/sys/module/nvidia/version");
		finding_evidence(f, "%s: %s (version %s)", names[i], paths[i], vers[i]);
		finding_fix(f, "reboot (or unload and reload the module: sudo rmmod nvidia_uvm nvidia_drm nvidia_modeset "
			       "nvidia && sudo modprobe nvidia)");
		finding_fix(f, "or install the user-space libraries of driver %s so both halves match", kv);
		if (d->inv->system.container)
			finding_fix(f, "in a container: remove the driver libraries baked into the image; the NVIDIA "
				       "Container Toolkit mounts the host's");
		finding_ref(f, "https://docs.nvidia.com/deploy/cuda-compatibility/");
	}
}

/* libcuda.so.1 itself, or the unversioned name on LD_LIBRARY_PATH, reaches a stub. */
static void stub_on_search_path(struct diag_ctx *d, const struct rule *self)
{
	const struct inventory *inv = d->inv;
	const struct driver_info *drv = &inv->driver;
	if (drv->libcuda_is_stub) {
		struct finding *f = rule_emit(d, self, "the loader would load the CUDA toolkit's stub libcuda");
		finding_subject(f, drv->libcuda_path);
		finding_cause(f, "libcuda.so.1 resolves to a link-time stub. Every CUDA call through it returns "
				 "CUDA_ERROR_STUB_LIBRARY (34): \"CUDA driver is a stub library\". The stub exists only so "
				 "programs can be linked on machines without a driver.");
		finding_evidence(f, "libcuda.so.1 -> %s (stub)", drv->libcuda_path);
		finding_fix(f, "remove the stubs directory from LD_LIBRARY_PATH / ld.so.conf, or delete the copied stub");
		finding_fix(f, "install the real driver's libcuda.so.1 (it comes with the NVIDIA driver, not the toolkit)");
		finding_ref(f, "https://docs.nvidia.com/cuda/cuda-driver-api/group__CUDA__TYPES.html");
		return;
	}
	/* dlopen("libcuda.so") — the unversioned name some tools use — reaching a stub first */
	const char **dirs;
	/* as the ldpath rules do (rules_env.c): the first 256 elements only, each distinct one once, so a
	 * huge or repetitive variable costs 256 x n_libs comparisons at most and the rest is never copied */
	const char *v = envsnap_get(&d->ctx->env, "LD_LIBRARY_PATH"), *end = v;
	for (size_t k = 0; end && k < 256; k++)
		if ((end = strchr(end, ':')))
			end++;
	if (end)
		v = arena_strndup(d->ctx->arena, v, (size_t)(end - 1 - v));
	size_t n = env_split_path(d->ctx->arena, v, ':', &dirs);
	for (size_t i = 0; i < n; i++) {
		bool seen = false;
		for (size_t j = 0; j < i && !seen; j++)
			seen = strcmp(dirs[j], dirs[i]) == 0;
		if (seen)
			continue;
		for (size_t k = 0; k < inv->n_libs; k++) {
			const struct lib_file *l = &inv->libs[k];
			if (!l->is_stub || strcmp(l->dir, dirs[i]) != 0)
				continue;
			bool real = has_real_libcuda(inv);
			struct finding *f = rule_emit(d, self, "the toolkit's stub libcuda is on LD_LIBRARY_PATH%s",
						      real ? " ahead of the real driver" : " and no real driver exists");
			if (real)
				finding_mild(f);
			finding_subject(f, l->path);
			finding_cause(f, "%s is a link-time stub (every call returns error 34, CUDA_ERROR_STUB_LIBRARY). "
					 "Programs that load libcuda by its unversioned name (dlopen(\"libcuda.so\"), as some "
					 "JIT compilers and older tools do) get the stub instead of the driver.",
				      l->path);
			finding_evidence(f, "LD_LIBRARY_PATH element %zu: %s", i + 1, dirs[i]);
			finding_evidence(f, "%s: stub (no driver version, from %s)", l->path, l->origin);
			if (drv->libcuda_path)
				finding_evidence(f, "libcuda.so.1 resolves to %s", drv->libcuda_path);
			finding_fix(f, "remove %s from LD_LIBRARY_PATH (the stub is only for linking: use -L at build time)",
				    dirs[i]);
			return;
		}
	}
}

/* The real file a finding's subject names, for telling whether two findings are about one file. */
static const char *real_of(struct diag_ctx *d, const char *path)
{
	struct sysroot_resolved r;
	return path && sysroot_resolve(&d->ctx->root, d->ctx->arena, path, &r) == 0 ? r.path : path;
}

struct focus_stub {
	struct diag_ctx *d;
	const struct rule *self;
};

/* A file why/tree's subject loads (collect/focus.h) that is a stub libcuda, unless the search-path
 * cases above already named it. */
static void focus_stub(void *ud, const char *name, const char *path, const char *real_path)
{
	struct focus_stub *s = ud;
	struct diag_ctx *d = s->d;
	const struct inventory *inv = d->inv;
	const struct lib_file *stub = NULL;
	for (size_t i = 0; i < inv->n_libs && !stub; i++)
		if (inv->libs[i].is_stub && inv->libs[i].real_path && real_path &&
		    strcmp(inv->libs[i].real_path, real_path) == 0)
			stub = &inv->libs[i];
	if (!stub)
		return;
	for (size_t i = 0; i < d->out->n; i++)
		if (d->out->v[i].rule == s->self && d->out->v[i].subject &&
		    strcmp(real_of(d, d->out->v[i].subject), real_path) == 0)
			return;
	bool unversioned = strcmp(path_basename(name), "libcuda.so") == 0;
	struct finding *f = rule_emit(d, s->self, "%s resolves to the CUDA toolkit's stub libcuda", name);
	if (unversioned && has_real_libcuda(inv))
		finding_mild(f);
	finding_subject(f, path);
	finding_evidence(f, "%s -> %s (stub, from %s)", name, path, stub->origin);
	if (inv->driver.libcuda_path)
		finding_evidence(f, "libcuda.so.1 resolves to %s", inv->driver.libcuda_path);
}

static void check_stub(struct diag_ctx *d, const struct rule *self)
{
	stub_on_search_path(d, self);
	struct focus_stub s = { d, self };
	diag_focus_each_object(d->inv, focus_stub, &s);
}

static void check_device_nodes(struct diag_ctx *d, const struct rule *self)
{
	const struct inventory *inv = d->inv;
	const struct driver_info *drv = &inv->driver;
	if (!inv->system.live || drv->wsl || drv->simulated)
		return;
	if (!drv->kernel_version && !drv->module_version && !has_real_libcuda(inv))
		return; /* no driver: no-driver says it */
	if (drv->tegra)
		return; /* a Jetson's nodes are nvgpu's: no-driver judges them */
	bool ctl = false, gpu = false;
	for (size_t i = 0; i < drv->n_nodes; i++) {
		const struct device_node *n = &drv->nodes[i];
		if (!n->exists)
			continue;
		const char *base = n->path + 5;
		if (strcmp(base, "nvidiactl") == 0)
			ctl = true;
		if (strncmp(base, "nvidia", 6) == 0 && base[6] >= '0' && base[6] <= '9')
			gpu = true;
	}
	if (ctl && gpu)
		return;
	struct finding *f = rule_emit(d, self, "no NVIDIA device nodes (%s%s%s missing)", ctl ? "" : "/dev/nvidiactl",
				      !ctl && !gpu ? ", " : "", gpu ? "" : "/dev/nvidia0..N");
	finding_cause(f, "CUDA talks to the GPU through /dev/nvidiactl and /dev/nvidiaN. %s",
		      inv->system.container
			      ? "This looks like a container started without GPU access: the devices were not passed in."
			      : "The kernel module is loaded but the nodes were not created (nvidia-modprobe or udev did not "
				"run), or the GPU was not detected.");
	for (size_t i = 0; i < drv->n_nodes; i++)
		finding_evidence(f, "%s: %s", drv->nodes[i].path, drv->nodes[i].exists ? "present" : "missing");
	if (inv->system.container)
		finding_fix(f, "start the container with GPU access: docker run --gpus all ... (NVIDIA Container Toolkit)");
	else {
		finding_fix(f, "sudo nvidia-modprobe -c 0 -u   # creates /dev/nvidia0 and /dev/nvidia-uvm");
		finding_fix(f, "check that the GPU is seen: lspci -nn | grep -i nvidia; dmesg | grep -i nvrm");
	}
}

static void check_node_permission(struct diag_ctx *d, const struct rule *self)
{
	const struct driver_info *drv = &d->inv->driver;
	if (!d->inv->system.live)
		return;
	for (size_t i = 0; i < drv->n_nodes; i++) {
		const struct device_node *n = &drv->nodes[i];
		if (!n->exists || (n->readable && n->writable))
			continue;
		struct finding *f = rule_emit(d, self, "no read/write access to %s", n->path);
		finding_subject(f, n->path);
		finding_cause(f, "This user cannot open %s for reading and writing, so CUDA reports no devices (error "
				 "100) or \"operation not permitted\".",
			      n->path);
		finding_evidence(f, "%s: mode %04o, owner uid %u, group gid %u; readable=%s writable=%s", n->path, n->mode,
				 n->uid, n->gid, n->readable ? "yes" : "no", n->writable ? "yes" : "no");
		finding_fix(f, "add this user to the device's group: sudo usermod -aG $(stat -c %%G %s) $USER (log in again)",
			    n->path);
		finding_fix(f, "or fix the mode: the driver's default is 0666 (NVreg_DeviceFileMode)");
	}
}

/* A GPU the installed driver cannot drive (data/driver_gpu.tsv): a branch newer than the last one
 * for its architecture, the open kernel module on a GPU before Turing, or the proprietary one on a
 * Blackwell GPU. The module loads, but initialises no such GPU: "No devices were found", error 100. */
static void check_gpu_unsupported(struct diag_ctx *d, const struct rule *self)
{
	const struct inventory *inv = d->inv;
	const struct driver_info *drv = &inv->driver;
	const char *ver = drv->simulated ? drv->simulated
		 : drv->kernel_version	 ? drv->kernel_version
		 : drv->module_version	 ? drv->module_version
					 : drv->effective_version;
	/* no module loaded: the flavour its installed package would load */
	const char *flavour = drv->kernel_flavour ? drv->kernel_flavour : drv->module_package_flavour;
	/* WSL's driver is the Windows one, whose numbers are not these branches' */
	if ((!ver && !flavour) || drv->tegra || drv->wsl || d->ctx->os != OS_LINUX)
		return;
	int branch = ver ? atoi(ver) : 0;
	bool open = flavour && strcmp(flavour, "open") == 0 && !drv->simulated;
	struct arena *a = d->ctx->arena;
	/* who runs the flavour: the driver of that version, or (no version known) its package */
	const char *who = ver ? arena_printf(a, "Driver %s", ver) : arena_printf(a, "The driver package %s", drv->module_package);
	int br = branch ? branch : drv->module_package_branch;
	const char *nnn = br ? arena_printf(a, "%d", br) : "NNN";
	/* the package names of the system's manager, where its package is known */
	bool pacman = drv->module_package_from && strstr(drv->module_package_from, "pacman");
	bool dpkg = drv->module_package_from && strstr(drv->module_package_from, "dpkg");
	const char *to_closed =
		pacman ? "Arch: nvidia-dkms, or the AUR's nvidia-580xx-dkms from the 590 branch on"
		: dpkg ? arena_printf(a, "Debian: nvidia-kernel-dkms; Ubuntu: nvidia-driver-%s, not -open", nnn)
		       : arena_printf(a, "Ubuntu: nvidia-driver-%s, not -open; Arch: nvidia-dkms, or the AUR's "
					 "nvidia-580xx-dkms from the 590 branch on",
				      nnn);
	const char *to_open = pacman ? "Arch: nvidia-open-dkms"
			      : dpkg ? arena_printf(a, "Debian: nvidia-open-kernel-dkms; Ubuntu: nvidia-driver-%s-open", nnn)
				     : arena_printf(a, "Ubuntu: nvidia-driver-%s-open; Arch: nvidia-open-dkms", nnn);
	for (size_t i = 0; i < inv->n_gpus; i++) {
		const struct gpu_info *g = &inv->gpus[i];
		const struct kb_gpu *k = g->name ? kb_gpu_lookup(g->name) : NULL;
		const struct kb_driver_gpu *row = g->cc_major ? kb_driver_gpu(g->cc_major, g->cc_minor) : NULL;
		if (!row || (k && strcmp(k->segment, "jetson") == 0))
			continue;
		/* a GPU held for a virtual machine (vfio-pci) or by another driver is not this driver's to drive */
		if (g->kernel_driver && strcmp(g->kernel_driver, "nvidia") != 0 && strcmp(g->kernel_driver, "nouveau") != 0)
			continue;
		/* a GPU given as "sm_61" takes the name of its architecture row in gpus.tsv ("compute
		 * capability 6.1 (Pascal)"): say "GPU", the family follows */
		bool arch_row = g->name && strncmp(g->name, "compute capability ", 19) == 0;
		const char *name = g->name && !arch_row ? g->name : "GPU";
		struct finding *f;
		if (row->last_branch && ver && branch > row->last_branch) {
			f = rule_emit(d, self, "driver %s does not support the %s (%s, sm_%d%d): R%d is the last branch for %s GPUs",
				      ver, name, row->family, g->cc_major, g->cc_minor, row->last_branch, row->family);
			finding_cause(f, "NVIDIA drivers newer than the R%d branch no longer drive %s GPUs. Driver %s loads, "
					 "but initialises no %s: nvidia-smi says \"No devices were found\" (or cannot talk to "
					 "the driver) and CUDA reports no device (error 100).",
				      row->last_branch, row->family, ver, name);
			finding_fix(f, "install a driver of the R%d branch, the last for %s GPUs (the distribution's package of "
				       "that branch where it still has one, else NVIDIA's .run installer of it), then reboot",
				    row->last_branch, row->family);
			finding_fix(f, "software that needs a newer driver (a CUDA newer than R%d supports) then needs a "
				       "newer GPU",
				    row->last_branch);
		} else if (open && !row->open_module) {
			f = rule_emit(d, self, "the open kernel module cannot drive the %s (%s, sm_%d%d, before Turing)", name,
				      row->family, g->cc_major, g->cc_minor);
			finding_cause(f, "%s %s the open flavour of the kernel module, which needs the GSP (GPU "
					 "System Processor) that Turing introduced. It refuses %s GPUs (dmesg: \"not supported "
					 "by open nvidia.ko\"), so nvidia-smi finds no device (or cannot talk to the driver) and "
					 "CUDA reports error 100.",
				      who, drv->kernel_flavour ? "runs" : "installs", row->family);
			finding_fix(f, "install the proprietary flavour of the same driver (%s; runfile: "
				       "--kernel-module-type=proprietary; NixOS: hardware.nvidia.open = false), then reboot",
				    to_closed);
		} else if (!open && flavour && !drv->simulated && !row->closed_module) {
			f = rule_emit(d, self, "the proprietary kernel module cannot drive the %s (%s, sm_%d%d): it needs the open one",
				      name, row->family, g->cc_major, g->cc_minor);
			finding_cause(f, "%s %s the proprietary flavour of the kernel module, which does not drive %s "
					 "GPUs: only the open kernel modules do (dmesg: \"requires use of the NVIDIA open kernel "
					 "modules\", then RmInitAdapter failed), so nvidia-smi finds no device and CUDA reports "
					 "error 100.",
				      who, drv->kernel_flavour ? "runs" : "installs", row->family);
			/* the first branch for the GPU: the minimum driver of the CUDA release that added its
			 * architecture (data/cuda_arch.tsv, data/cuda_driver.tsv) */
			const struct kb_arch_support *arch = kb_arch_support(g->cc_major * 10 + g->cc_minor);
			const struct kb_cuda_release *rel = arch ? kb_cuda_release(arch->added) : NULL;
			const char *first = rel ? kb_cuda_release_driver(rel, OS_LINUX) : NULL;
			if (first && atoi(first) > branch)
				finding_fix(f, "install driver %s or newer (the first of CUDA %s, which added sm_%d%d) in its open "
					       "flavour (Ubuntu: nvidia-driver-%d-open; runfile: --kernel-module-type=open; "
					       "NixOS: hardware.nvidia.open = true), then reboot",
					    first, arch->added, g->cc_major, g->cc_minor, atoi(first));
			else
				finding_fix(f, "install the open flavour of the same driver (%s; runfile: "
					       "--kernel-module-type=open; NixOS: hardware.nvidia.open = true), then reboot",
					    to_open);
		} else
			continue;
		finding_subject(f, g->source);
		finding_evidence(f, "GPU: %s, compute capability %d.%d (%s) [%s]", name, g->cc_major, g->cc_minor,
				 row->family, g->source);
		if (ver)
			finding_evidence(f, "driver: %s%s (%s)", ver,
					 drv->kernel_flavour ? (open ? ", open kernel module" : ", proprietary kernel module") : "",
					 drv->simulated ? "--driver" : drv->kernel_version ? "/proc/driver/nvidia/version"
						 : drv->module_version ? "/sys/module/nvidia/version" : drv->libcuda_path);
		if (!drv->kernel_flavour && drv->module_package)
			finding_evidence(f, "kernel module: not loaded; the installed package %s%s%s (%s) installs the %s flavour",
					 drv->module_package, drv->module_package_version ? " " : "",
					 drv->module_package_version ? drv->module_package_version : "",
					 drv->module_package_from, drv->module_package_flavour);
		if (row->last_branch)
			finding_evidence(f, "%s GPUs: drivers up to R%d, %s kernel module (knowledge-base sources %s)",
					 row->family, row->last_branch, row->open_module ? "either" : "proprietary",
					 row->fact.source);
		else
			finding_evidence(f, "%s GPUs: the open kernel module only (knowledge-base source %s)", row->family,
					 row->fact.source);
		finding_ref(f, "https://docs.nvidia.com/datacenter/tesla/driver-installation-guide/kernel-modules.html");
	}
}

static const struct rule rules[] = {
	/* first: a driver that will not drive the GPU is why the module finds no device, so it goes
	 * before no-driver, which it causes */
	{ "driver-gpu-unsupported", SEV_ERROR, check_gpu_unsupported,
	  .cause = "The installed driver cannot drive this GPU: its branch is newer than the last one for the GPU's "
		   "architecture (R390 for Fermi, R470 for Kepler, R580 for Maxwell, Pascal and Volta), or it runs the "
		   "open kernel module, which needs Turing or later, or the proprietary one, which does not drive "
		   "Blackwell. The module loads but finds no device.",
	  .fix = "install the last driver branch for the GPU's architecture, or the other kernel-module flavour",
	  .ref = "https://docs.nvidia.com/datacenter/tesla/driver-installation-guide/kernel-modules.html",
	  .about = "driver" },
	{ "no-driver", SEV_ERROR, check_no_driver,
	  .cause = "No usable NVIDIA driver: the kernel module is not loaded, or no real libcuda.so.1 is where the "
		   "loader looks. Every CUDA call fails (cudaErrorInsufficientDriver, 35, when no libcuda is found).",
	  .fix = "install the NVIDIA driver for your GPU (Debian: apt install nvidia-driver; Ubuntu: ubuntu-drivers "
		 "install), then reboot\nin a container: run it with GPU access (docker run --gpus all ...)",
	  .about = "driver", .mild = SEV_INFO,
	  .mild_when = "a --root tree has neither the kernel module nor libcuda: a container image gets the driver "
		       "from the NVIDIA Container Toolkit at run time" },
	{ "driver-lib-off-path", SEV_ERROR, check_off_path,
	  .cause = "The driver's libcuda.so.1 exists only in a directory the system keeps off the loader's default "
		   "search path (NixOS's /run/opengl-driver/lib, a container's /usr/local/nvidia/lib64): programs "
		   "that do not carry it in their RUNPATH fail as if no driver were installed.",
	  .fix = "add the directory to LD_LIBRARY_PATH for programs that were not built for this system",
	  .about = "driver" },
	{ "driver-userspace-mismatch", SEV_ERROR, check_userspace_mismatch,
	  .cause = "The user-space driver libraries and the loaded kernel module come from different driver versions "
		   "(typically after a driver upgrade without a reboot): NVML says \"Driver/library version "
		   "mismatch\", CUDA fails with error 803.",
	  .fix = "reboot, or reload the module: sudo rmmod nvidia_uvm nvidia_drm nvidia_modeset nvidia && sudo "
		 "modprobe nvidia",
	  .ref = REF_COMPAT, .about = "driver" },
	{ "stub-libcuda", SEV_ERROR, check_stub,
	  .cause = "The libcuda a program would load is the CUDA toolkit's link-time stub, whose every entry point "
		   "returns CUDA_ERROR_STUB_LIBRARY (34): \"CUDA driver is a stub library\". The stubs directory is on "
		   "the search path before the real driver library.",
	  .fix = "remove .../lib64/stubs from LD_LIBRARY_PATH (and from /etc/ld.so.conf.d, then sudo ldconfig)\n"
		 "install the real driver's libcuda.so.1 (it comes with the NVIDIA driver, not the toolkit)",
	  .ref = "https://docs.nvidia.com/cuda/cuda-driver-api/group__CUDA__TYPES.html", .about = "driver",
	  .mild = SEV_WARNING,
	  .mild_when = "the stub is reached only by the unversioned name libcuda.so and a real libcuda exists" },
	{ "driver-too-old", SEV_ERROR, driver_check_too_old,
	  .cause = "A CUDA runtime here needs a newer driver than the one installed, even with minor-version "
		   "compatibility: every call fails with error 35, \"CUDA driver version is insufficient for CUDA "
		   "runtime version\".",
	  .fix = "upgrade the NVIDIA driver, or use software built for the CUDA release the driver supports",
	  .ref = REF_COMPAT },
	{ "driver-minor-compat", SEV_WARNING, NULL,
	  .cause = "A CUDA runtime is newer than the driver's own CUDA release and runs only through minor-version "
		   "compatibility: features that need the newer driver are unavailable and newer PTX cannot be "
		   "JIT-compiled (error 222).",
	  .fix = "upgrade the driver to the runtime's minimum to remove the limitation", .ref = REF_MINOR },
	{ "no-device-nodes", SEV_ERROR, check_device_nodes,
	  .cause = "The GPU device nodes /dev/nvidiactl and /dev/nvidiaN are missing, so CUDA finds no device.",
	  .fix = "sudo nvidia-modprobe -c 0 -u\nin a container: docker run --gpus all ...", .about = "driver" },
	{ "device-node-permission", SEV_ERROR, check_node_permission,
	  .cause = "This user cannot open a GPU device node for reading and writing, so CUDA reports no devices "
		   "(error 100) or \"operation not permitted\".",
	  .fix = "add this user to the device's group, or restore the driver's default mode 0666", .about = "driver" },
};

RULE_FAMILY(rules_driver, "driver", rules);
