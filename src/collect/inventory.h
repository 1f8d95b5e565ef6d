/* The inventory: everything cudx observed about the system, as plain data, no judgement.
 * Collectors (src/collect/, one file per subject) fill it; rules (src/diag/) read it. Subjects
 * owned by later modules hang off pointers declared here and defined in their own headers, so a
 * module adds its subject without touching the others. */
#ifndef CUDX_INVENTORY_H
#define CUDX_INVENTORY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sys/context.h"
#include "util/compiler.h"

/* One copy of a known GPU library on disk. */
struct lib_file {
	const char *path;      /* where it was found (inside the root), possibly a symlink */
	const char *real_path; /* after following links; NULL when the chain is broken */
	const char *name;      /* basename of path */
	const char *component; /* knowledge-base component ("cudart", "cudnn_ops", "libcuda", ...) */
	const char *family;    /* knowledge-base family ("cuda-runtime", "cudnn", "driver", ...) */
	int major;             /* major in the file name / SONAME (cudnn 9, cudart 12) */
	int cuda_major;        /* CUDA major it belongs to; 0 unknown or not tied */
	const char *soname;    /* from the ELF dynamic section */
	const char *version;   /* best known full version */
	const char *version_source; /* "file name", "embedded string", "dist-info nvidia_cudnn_cu13-9.19.0.56" */
	const char *origin;    /* how it was found: "ld.so.cache", "LD_LIBRARY_PATH", "default dir", ... */
	const char *dir;       /* directory of path */
	const char *owner;     /* package that installed it (pip wheel, conda, driver dir), or NULL */
	bool is_stub;          /* the toolkit's link-time stub (libcuda from lib64/stubs) */
	bool broken_link;
	int elf_class;         /* 32, 64; 0 unknown */
	uint16_t elf_machine;
	const char *problem;   /* why it could not be read fully (truncated ELF ...), or NULL */
	long long size;          /* bytes of the real file; -1 unknown */
	long long recorded_size; /* the size its package's file list (wheel RECORD) states; -1 unknown */
	const char **chain;    /* symlink chain: path, target1, target2, ... real file */
	size_t n_chain;
};

struct device_node {
	const char *path;   /* "/dev/nvidia0", "/dev/nvidiactl", "/dev/nvidia-uvm", "/dev/dxg" */
	bool exists;
	bool readable, writable; /* access(2) R/W for this user (live system only) */
	unsigned mode, uid, gid;
	bool is_char_device;
};

struct driver_info {
	const char *kernel_version;  /* from /proc/driver/nvidia/version, NULL when absent */
	const char *kernel_flavour;  /* "proprietary" | "open" */
	const char *kernel_line;     /* the NVRM line as read */
	const char *module_version;  /* /sys/module/nvidia/version */
	const char *libcuda_path;    /* the libcuda.so.1 the loader would pick, NULL when none */
	const char *libcuda_version; /* its driver version (from the real file name) */
	const char *nvml_path;
	const char *nvml_version;
	bool libcuda_is_stub;        /* the one picked is the toolkit stub */
	/* when the loader finds no libcuda.so.1: the driver's copy in a directory the system keeps
	 * off the default search path (data/driver_dirs.tsv: NixOS's /run/opengl-driver/lib) */
	const char *libcuda_off_path;
	const struct kb_driver_dir *off_path_dir;
	bool wsl;                    /* /usr/lib/wsl/lib or /dev/dxg present, or WSL 1 (wsl1) */
	bool wsl1;                   /* WSL 1 (its kernel release ends in -Microsoft): no GPU at all */
	const char *wsl1_release;    /* that kernel release */
	/* a Kubernetes node whose driver libraries an installer keeps for the pods in a directory of
	 * its own (the GPU Operator's driver container, seen at /run/nvidia/driver; GKE's driver
	 * installer, /home/kubernetes/bin/nvidia): the host has none of its own, by design
	 * (data/node_drivers.tsv) */
	const struct kb_node_driver *operator_driver;
	struct device_node *nodes;
	size_t n_nodes;
	/* no module loaded: the package that installs one (data/driver_module_packages.tsv), which
	 * says the flavour that would load; NULL when none is known */
	const char *module_package;          /* "nvidia-open-dkms" */
	const char *module_package_version;  /* "580.82.09-1" as the package manager has it */
	const char *module_package_flavour;  /* "open" | "proprietary" */
	const char *module_package_from;     /* "/var/lib/pacman/local", "/var/lib/dpkg/status" */
	int module_package_branch;           /* 535 from its name or version, 0 when neither says */
	bool module_package_conflict;        /* packages of both flavours: none is kept */
	const char **compat_dirs;    /* /usr/local/cuda-X/compat dirs with a forward-compat libcuda */
	size_t n_compat_dirs;
	/* NVSwitch systems (HGX/DGX): what shows the switches (/dev/nvidia-nvswitch0,
	 * an entry of /proc/driver/nvidia-nvswitch/devices, an NVSwitch on the PCI bus), and the fabric
	 * manager they need (its daemon, its systemd unit enabled for boot) */
	const char *nvswitch;
	const char *fabricmanager;   /* /usr/bin/nv-fabricmanager, NULL when not installed */
	bool fabricmanager_enabled;  /* nvidia-fabricmanager.service wanted by multi-user.target */
	/* the Unified Memory module: loaded (/sys/module/nvidia_uvm), or loaded on demand by the
	 * setuid nvidia-modprobe that libcuda runs when /dev/nvidia-uvm is missing */
	bool uvm_loaded;
	const char *nvidia_modprobe;   /* /usr/bin/nvidia-modprobe, the one libcuda runs; NULL when absent */
	bool nvidia_modprobe_setuid;   /* owned by root with the set-user-ID bit */
	/* Jetson (Tegra): the GPU driver (nvgpu and libcuda.so.1.1) is part of L4T, whose release
	 * /etc/nv_tegra_release names; there is no /proc/driver/nvidia and no driver version */
	bool tegra;                  /* nv_tegra_release, a Tegra libcuda, or the nvgpu driver */
	const char *l4t_release;     /* "35.4.1"; in a container, the image's (the host's is not seen) */
	const struct kb_l4t *l4t;    /* its JetPack and CUDA, NULL when unknown */
	bool tegra_gpu;              /* the nvgpu driver is seen: /sys/module/nvgpu or a Tegra GPU node */
	/* Jetson Thor (L4T 38 on): the GPU driver is the unified OpenRM nvidia.ko, with a version
	 * ("580.00") that is L4T's own, not on the desktop scale. On Thor itself l4t_release and l4t
	 * are set and max_cuda is the L4T release's; in a container (the image's release file) only
	 * the version shows it, l4t is NULL and max_cuda unknown */
	bool l4t_openrm;
	const char *display_module_version; /* JetPack 6's OpenRM display nvidia.ko beside nvgpu ("540.4.0") */
	const char *simulated;       /* --driver VER, when given */
	/* the driver version rules should use: simulated, else userspace, else kernel */
	const char *effective_version;
	const char *max_cuda;        /* highest CUDA version the effective driver supports (kb) */
};

/* Whether the driver's version can be compared with the desktop tables (data/cuda_driver.tsv):
 * not Thor's L4T build ("580.00" runs CUDA 13.0), unless --driver names one. */
static inline bool driver_on_desktop_scale(const struct driver_info *d)
{
	return !d->l4t_openrm || d->simulated;
}

/* Whether the report shows the L4T release: a Jetson's, or Thor's where its release is known. */
static inline bool driver_shows_l4t(const struct driver_info *d)
{
	return d->tegra || (d->l4t_openrm && d->l4t);
}

/* containerd on a GPU node (collect/container_engine.c): a pod that names no runtime class runs
 * under the default runtime and gets the GPU driver only when that is the NVIDIA one. */
struct containerd_info {
	const char *config;          /* the config file read, NULL when none was found */
	bool nvidia_runtime;         /* it defines an nvidia runtime */
	const char *default_runtime; /* default_runtime_name, NULL when unset (runc) */
};

/* Where the GPU Operator installs the toolkit on a host (only a host has it) */
#define CONTAINER_TOOLKIT_OPERATOR_DIR "/usr/local/nvidia/toolkit"

/* The NVIDIA Container Toolkit and the container engines installed on a host
 * (collect/container_engine.c): the toolkit's hook is what gives containers the GPUs and the
 * driver; a container image does not carry it. Paths inside the root, NULL when none was found. */
struct container_host_info {
	const char *toolkit; /* nvidia-container-runtime-hook, nvidia-ctk, ..., or its CDI spec */
	const char *engine;  /* dockerd, podman, containerd, ... */
	/* a runtime that starts containers without privileges (enroot): it cannot load a kernel module
	 * that is not loaded yet, as the toolkit's CLI does for Docker (--load-kmods) */
	const char *unprivileged;
};

struct toolkit {
	const char *path;           /* "/usr/local/cuda-12.4" (inside the root) */
	const char *real_path;      /* if path is a link ("/usr/local/cuda" -> ...) */
	const char *version;        /* "12.4.131" or "13.0" */
	const char *version_source; /* "version.json", "version.txt", "nvcc", "dist-info ...", "libcudart file name" */
	const char *origin;         /* "/usr/local", "CUDA_HOME", "CUDA_PATH", "nvcc on PATH" */
	const char *nvcc;           /* path of bin/nvcc, or NULL */
	const char *stub_libcuda;   /* path of lib64/stubs/libcuda.so, or NULL */
	int gcc_max_major;          /* the newest GCC nvcc accepts (include/crt/host_config.h), 0 unknown */
};

/* The host compiler nvcc would use: NVCC_CCBIN, else gcc on PATH (collect/hostcc.c). */
struct host_compiler {
	const char *path;      /* as found ("/usr/bin/gcc"); NULL when none */
	const char *real_path; /* where its links end */
	int gcc_major;         /* 0 when it cannot be told without running it */
	const char *how;       /* how the major was read: "file name gcc-12", "/usr/lib/gcc/x86_64-linux-gnu/13" */
	const char *allowed;   /* the variable that passes -allow-unsupported-compiler to nvcc, or NULL */
};

struct gpu_info {
	const char *name;
	int cc_major, cc_minor; /* 0.0 when unknown */
	const char *source;     /* "/proc/driver/nvidia/gpus/0000:01:00.0/information", "--gpu", "probe" */
	const char *bus_id;
	const char *uuid;
	/* from the PCI bus (/sys/bus/pci/devices), where the system shows it: */
	const char *pci_id;        /* "10de:1380" */
	const char *kernel_driver; /* the driver bound to it: "nvidia", "nouveau", "vfio-pci"; NULL: none */
	bool pci_only;             /* seen on the bus, not listed by the NVIDIA driver (/proc) */
};

struct env_setting {
	const char *name;
	const char *value;
};

/* A library in a process: mapped (--pid: /proc/PID/maps) or opened by the loader while `cudx run`
 * watched (src/collect/observed_inventory.h gives each watched process's set in this form). */
struct loaded_lib {
	const char *path;
	const char *component;
	const char *family;
	int major;           /* from the knowledge base's catalogue row */
	const char *version; /* from the file name or the inventory's copy of the same file, or NULL */
};

struct inventory_note {
	const char *subject; /* the file or area */
	const char *message; /* what was wrong: "not an ELF file (bad magic)" */
};

struct system_info {
	const char *root;       /* "/" or the --root directory */
	bool live;
	const char *env_origin; /* where the environment came from */
	const char *os;         /* "linux" | "windows" */
	const char *os_name;    /* PRETTY_NAME from /etc/os-release */
	const char *kernel;     /* uname -r (live) */
	const char *machine;    /* uname -m (live) or from the root */
	const char *hostname;
	bool container;         /* /.dockerenv, /run/.containerenv, /run/systemd/container, a k8s service account,
				 * /.singularity.d */
	bool singularity;       /* a Singularity/Apptainer container: the host's /dev and /proc, its driver
				 * libraries only with --nv */
	bool user_root;         /* live, and cudx runs as the host's root (not a user namespace's): what a
				 * program of this user may do */
};

struct python_inventory;  /* src/collect/python.h */
struct probe_report;      /* src/probe/probe.h */
struct windows_inventory; /* src/collect/windows.h */
struct arch_inventory;    /* src/collect/arch.h */
struct message_inventory; /* src/explain/explain_message.h: what the messages explain read say */
struct run_observation;   /* src/collect/observed_inventory.h (cudx run) */
struct focus;             /* src/collect/focus.h */
struct fleet;             /* src/fleet/fleet_compare.h */

struct inventory {
	struct system_info system;
	struct driver_info driver;
	struct toolkit *toolkits;
	size_t n_toolkits;
	struct lib_file *libs;
	size_t n_libs;
	struct gpu_info *gpus;
	size_t n_gpus;
	struct env_setting *env; /* the variables that matter to the GPU stack, in a fixed order */
	size_t n_env;
	struct loaded_lib *loaded; /* --pid only */
	size_t n_loaded;
	long long loaded_pid; /* the process inv->loaded describes */
	struct host_compiler hostcc;
	struct containerd_info containerd;
	struct container_host_info container_host;
	struct inventory_note *notes;
	size_t n_notes;
	size_t cap_libs, cap_notes, cap_toolkits, cap_gpus, cap_env, cap_loaded;

	struct python_inventory *python;
	struct probe_report *probe;
	struct windows_inventory *windows;
	struct arch_inventory *arch;
	struct message_inventory *message; /* set by `cudx explain` only */
	struct run_observation *run; /* cudx run: what the real loader did; NULL otherwise */
	struct focus *focus; /* what the command asks about (why/tree/arch/probe), NULL for check */
	const struct fleet *fleet; /* compare: the nodes' reports the fleet rules judge; NULL otherwise */
};

/* Build the whole inventory. Never fails: problems become notes. */
void inventory_collect(struct cudx_ctx *ctx, struct inventory *inv);
void inventory_note(struct cudx_ctx *ctx, struct inventory *inv, const char *subject,
		    const char *fmt, ...) CUDX_PRINTF(4, 5);

/* Add a library file found at path (inside the root) by `origin` ("LD_LIBRARY_PATH", "ld.so.cache",
 * "python env /opt/venv", ...). Recognised by the knowledge base's catalogue, else ignored (NULL).
 * The same real file found again is not added twice; a broken link is added with broken_link. */
struct lib_file *inventory_add_lib(struct cudx_ctx *ctx, struct inventory *inv, const char *path,
				   const char *origin, const char *owner);
/* Add every known library in a directory (not recursive). */
void inventory_add_lib_dir(struct cudx_ctx *ctx, struct inventory *inv, const char *dir,
			   const char *origin, const char *owner);
/* A relevant environment variable's value from the snapshot (NULL when unset). */
const char *inventory_env(const struct inventory *inv, const char *name);
/* The GPUs a process here can see: those the driver lists (not --gpu), else one per /dev/nvidiaN
 * node (a tree without the driver's /proc entries); *by_nodes (may be NULL) says which. */
size_t inventory_visible_gpus(const struct inventory *inv, bool *by_nodes);

/* The collectors, called by inventory_collect in this order: system, env, toolkits, libs,
 * driver, gpus, process, focus (collect/focus.h), python, windows, arch, probe. */
void collect_system(struct cudx_ctx *ctx, struct inventory *inv);
void collect_env(struct cudx_ctx *ctx, struct inventory *inv);
void collect_driver(struct cudx_ctx *ctx, struct inventory *inv);
/* The newest CUDA the effective driver runs: the desktop tables' (data/cuda_driver.tsv), Thor's L4T
 * release's, NULL when there is no effective version or Thor's release is not seen. */
const char *driver_max_cuda(const struct driver_info *d, enum target_os os);
void collect_gpus(struct cudx_ctx *ctx, struct inventory *inv);
/* Debian's and Ubuntu's nvidia-cuda-toolkit: nvcc under this directory (/usr/bin/nvcc is a wrapper),
 * its headers (nvidia-cuda-dev) in /usr/include */
#define DISTRO_CUDA_TOOLKIT_DIR "/usr/lib/nvidia-cuda-toolkit"
void collect_toolkits(struct cudx_ctx *ctx, struct inventory *inv);
void collect_hostcc(struct cudx_ctx *ctx, struct inventory *inv);   /* nvcc's host compiler */
/* containerd's runtimes, the container toolkit and engines installed */
void collect_container_engine(struct cudx_ctx *ctx, struct inventory *inv);
/* The toolkit whose nvcc a build takes (collect/hostcc.c), or NULL. */
const struct toolkit *hostcc_toolkit(const struct inventory *inv);
void collect_libs(struct cudx_ctx *ctx, struct inventory *inv);
void collect_process(struct cudx_ctx *ctx, struct inventory *inv); /* --pid maps */
void collect_python(struct cudx_ctx *ctx, struct inventory *inv);  /* frameworks (issue 7) */
void collect_windows(struct cudx_ctx *ctx, struct inventory *inv); /* Windows trees (issue 8) */
void collect_arch(struct cudx_ctx *ctx, struct inventory *inv);    /* GPU code in libraries (issue 5) */
void collect_probe(struct cudx_ctx *ctx, struct inventory *inv);   /* live probe (issue 6) */

#endif
