/* The knowledge base: lookups over tables generated at build time from the data/ tables (TSV). Rules and
 * collectors see the data only through these functions. Every answer carries its source and
 * whether the research marked it UNCONFIRMED (then rules may warn on it, never error on it alone).
 * All returned pointers point into static tables: valid for the whole run, never freed.
 * How to add a CUDA release, a GPU, a library: docs/kb.md. */
#ifndef CUDX_KB_H
#define CUDX_KB_H

#include <stdbool.h>
#include <stddef.h>

#include "sys/options.h" /* enum target_os */

struct kb_fact {
	const char *source; /* source keys, comma-separated ("S1,S3"): kb_source() describes each */
	bool unconfirmed;
};

/* --- Sources (data/sources.tsv) ------------------------------------------------------------- */
struct kb_source {
	const char *key;   /* "S1" */
	const char *title; /* "NVIDIA CUDA Toolkit 13.4 Update 1 Release Notes" */
	const char *url;   /* or NULL */
};
/* One source key ("S1"); NULL when unknown. */
const struct kb_source *kb_source(const char *key);

/* --- CUDA release -> driver (data/cuda_driver.tsv, data/minor_compat.tsv) ------------------ */
struct kb_cuda_release {
	const char *cuda;           /* "12.4" or "12.4.1" */
	const char *linux_driver;   /* minimum driver for the toolkit itself, e.g. "550.54.14"; NULL when
				     * only the branch is known (13.3, 13.4) */
	const char *windows_driver; /* e.g. "551.61"; NULL when unknown or N/A (13.x) */
	struct kb_fact fact;
	const char *series; /* major.minor: "12.4" */
	const char *label;  /* as the release notes name it: "12.4 Update 1" */
	int branch;         /* driver branch that first supports the series: 550 (R550) */
};
/* Best row for a CUDA version: an exact match, else the GA row of that major.minor ("12.4" for
 * "12.4.131"), else NULL. */
const struct kb_cuda_release *kb_cuda_release(const char *cuda_version);
/* Every row, oldest first (for iteration). */
size_t kb_cuda_releases(const struct kb_cuda_release **rows);
/* Minimum driver with minor-version compatibility for a CUDA major (11 -> "450.80.02"). NULL when the
 * major has none (10.x). fact may be NULL. */
const char *kb_minor_compat_floor(int cuda_major, enum target_os os, struct kb_fact *fact);
/* Highest CUDA version (major.minor) whose toolkit minimum driver is <= driver_version, e.g.
 * "535.104.05" -> "12.2". NULL when older than every row. Rows with no exact build for the OS count
 * from their branch ("610" for 13.3). */
const char *kb_driver_max_cuda(const char *driver_version, enum target_os os);
/* The minimum driver of a row for an OS: the exact build, else NULL. */
const char *kb_cuda_release_driver(const struct kb_cuda_release *r, enum target_os os);

struct kb_minor_compat {
	int cuda_major;
	enum target_os os;
	const char *floor; /* "525.60.13" */
	int branch_min;    /* 525 */
	int branch_max;    /* first branch of the next major (580), 0 = none */
	const char *note;
	struct kb_fact fact;
};
const struct kb_minor_compat *kb_minor_compat(int cuda_major, enum target_os os);

/* --- Integer version encodings (data/version_encoding.tsv) ----------------------------------- */
struct kb_version_encoding {
	const char *component; /* "cuda", "cudnn", "cublas", "nccl" */
	int major_from, major_to; /* majors this encoding applies to; major_to 0 = open */
	long major_mul, minor_mul, patch_mul; /* value = major*major_mul + minor*minor_mul + patch*patch_mul */
	const char *example;   /* "8.9.7 -> 8907" */
	const char *api;       /* where the integer comes from: "cudnnGetVersion(), CUDNN_VERSION" */
	struct kb_fact fact;
};
/* Decode an integer version of a component ("cuda" 12040 -> 12.4.0; "cudnn" 90600 -> 9.6.0). */
bool kb_version_decode(const char *component, long encoded, int *major, int *minor, int *patch);
size_t kb_version_encodings(const struct kb_version_encoding **rows);

/* --- GPU architectures (data/gpus.tsv, data/cuda_arch.tsv) --------------------------------- */
struct kb_gpu {
	const char *name;   /* "NVIDIA GeForce RTX 3090" */
	int cc_major, cc_minor;
	const char *family; /* "Ampere" */
	struct kb_fact fact;
	const char *segment; /* "datacenter", "workstation", "geforce", "jetson", "arch" (a row that
			      * stands for the whole compute capability, returned for "sm_86") */
};
/* Accepts "sm_86", "8.6", "86", "compute_86", or a model name as NVML/nvidia-smi print it (case- and
 * "NVIDIA "-prefix-insensitive, e.g. "RTX 3090"). NULL when unknown. */
const struct kb_gpu *kb_gpu_lookup(const char *name_or_sm);
/* Parse an SM spelling ("sm_86", "compute_90a", "8.6", "86", "120") into a compute capability. */
bool kb_parse_sm(const char *s, int *cc_major, int *cc_minor);
/* Every model row (segment != "arch"), for listing the GPUs of a compute capability. */
size_t kb_gpus(const struct kb_gpu **rows);
/* CUDA toolkit support of an SM: first/last toolkit that can build SASS for it. */
struct kb_arch_support {
	int sm;                  /* 86 */
	const char *added;       /* first CUDA release targeting it, "11.1" */
	const char *deprecated;  /* or NULL */
	const char *removed;     /* first CUDA release that cannot target it, or NULL */
	struct kb_fact fact;
	const char *suffix;      /* NULL for sm_90, "a" for the row sm_90a */
	const char *note;
};
/* The plain (suffix-less) row for an SM. */
const struct kb_arch_support *kb_arch_support(int sm);
size_t kb_arch_rows(const struct kb_arch_support **rows);
/* Can nvcc of this CUDA version build SASS for the row? (added <= cuda < removed) */
bool kb_arch_supported_by(const struct kb_arch_support *a, const char *cuda_version);
bool kb_arch_deprecated_in(const struct kb_arch_support *a, const char *cuda_version);

/* PTX ISA versions (data/ptx_isa.tsv): which CUDA writes an ISA, which driver can JIT it. */
struct kb_ptx_isa {
	const char *ptx_isa;     /* "8.6" */
	const char *cuda;        /* first CUDA release with it: "12.7" */
	const char *driver_cuda; /* first driver-reported CUDA version that JITs it: "12.8" */
	struct kb_fact fact;
};
const struct kb_ptx_isa *kb_ptx_isa(int major, int minor);
size_t kb_ptx_isa_rows(const struct kb_ptx_isa **rows);

/* --- Library catalogue (data/libs.tsv, data/pip_wheels.tsv, data/lib_dlopen.tsv) ------------- */
struct kb_lib {
	const char *component;  /* "cudart", "cublas", "cublasLt", "cudnn", "cudnn_ops", "libcuda", "nvml", ... */
	const char *family;     /* "cuda-runtime", "cublas", "cudnn", "driver", "nccl", ... */
	int major;              /* the major in the file name / SONAME (cudart 12, cudnn 9) */
	int cuda_major;         /* CUDA major it belongs to (0 = any / not tied) */
	enum target_os os;
	const char *name;       /* SONAME or DLL name: "libcudnn_ops.so.9", "cublas64_11.dll" */
	const char *pip_wheel;  /* "nvidia-cublas-cu12" or NULL (for cuDNN/NCCL see kb_pip_wheel) */
	const char *pip_dir;    /* directory inside site-packages: "nvidia/cudnn/lib" */
	struct kb_fact fact;
	const char *cuda_versions; /* when narrower than the major: "11.0" for nvrtc64_110_0.dll */
	bool driver_versioned;     /* files carry the driver version: libcuda.so.535.104.05 */
	const char *note;
};
/* Classify a file name ("libcudnn_ops.so.9.1.0", "libcudart.so.12", "cublas64_11.dll",
 * "libcuda.so.535.104.05"): the catalogue row it is a copy of, or NULL when not a known library.
 * A path is reduced to its last component; OS_AUTO guesses the OS from the name (".dll").
 * Names shared by several CUDA majors (libcurand.so.10) give the newest; see kb_lib_classify_all. */
const struct kb_lib *kb_lib_classify(const char *filename, enum target_os os);
/* A Linux shared-object name without a version after ".so" (libcublas.so, the development link):
 * it classifies as the newest major of its library, which only the file it reaches can confirm. */
bool kb_lib_name_unversioned(const char *filename);
/* Every row the name matches, best first; returns the count (at most max stored). */
size_t kb_lib_classify_all(const char *filename, enum target_os os, const struct kb_lib **out, size_t max);
/* Every row of the catalogue (filter by family/os/cuda_major yourself). */
size_t kb_lib_rows(const struct kb_lib **rows);
/* Rows of one component for an OS and CUDA major (cuda_major 0 = any): e.g. ("cublas", 11,
 * OS_WINDOWS) -> cublas64_11.dll. Returns the count (at most max stored). A component may also
 * be a family name ("cudnn" gives every cuDNN library). */
size_t kb_lib_find(const char *component, int cuda_major, enum target_os os, const struct kb_lib **out,
		   size_t max);
/* Run-time (dlopen) edges: names the library `from_name` loads by itself. Returns the count and
 * points *names at an array owned by the kb. from_name may be a file name (libcudnn.so.9.1.0): it
 * is classified first. Link-time dependencies (DT_NEEDED, PE imports) are not listed. */
size_t kb_lib_dlopens(const char *from_name, enum target_os os, const char *const **names);

struct kb_lib_edge {
	const char *from;  /* SONAME / DLL name */
	const char *to;    /* the name passed to dlopen / LoadLibrary */
	enum target_os os;
	int cuda_major;    /* only for builds of this CUDA major (libnvrtc.so.12 vs .13); 0 = any */
	const char *note;
	struct kb_fact fact;
};
size_t kb_lib_edges(const struct kb_lib_edge **rows);

struct kb_pip_wheel {
	const char *family;  /* "cudnn", "nccl", "cusparselt", "nvshmem" (libraries not tied to one CUDA major) */
	int cuda_major;
	const char *wheel;   /* "nvidia-cudnn-cu12" */
	const char *linux_dir, *windows_dir; /* in site-packages */
	const char *last_version; /* latest seen, when known */
	struct kb_fact fact;
};
const struct kb_pip_wheel *kb_pip_wheel(const char *family, int cuda_major);
size_t kb_pip_wheels(const struct kb_pip_wheel **rows);
/* Whether the catalogue knows WHEEL ("nvidia-cublas", "nvidia-cudnn-cu12") as shipping a library
 * (libs.tsv or pip_wheels.tsv); tool wheels (nvidia-cuda-nvcc's ptxas) do not. */
bool kb_wheel_ships_libs(const char *wheel);

/* --- Driver directories off the loader's path (data/driver_dirs.tsv) ------------------------- */
struct kb_driver_dir {
	const char *dir;    /* "/run/opengl-driver/lib" */
	const char *system; /* "NixOS" */
	const char *fix;    /* what makes programs find the driver there */
	struct kb_fact fact;
};
size_t kb_driver_dirs(const struct kb_driver_dir **rows);

/* --- Kubernetes nodes that keep the driver for their pods (data/node_drivers.tsv) ----------- */
struct kb_node_driver {
	const char *root;     /* "/run/nvidia/driver": where the host sees the driver's files */
	const char *who;      /* "the GPU Operator's driver container" */
	const char *pods;     /* how the pods get the driver */
	const char *host_fix; /* how to run a driver program on the host */
	bool toolkit;         /* the pods get it through the NVIDIA Container Toolkit */
	struct kb_fact fact;
};
size_t kb_node_drivers(const struct kb_node_driver **rows);

/* --- GPU chips (data/gpu_chips.tsv) -------------------------------------------------------- */
struct kb_gpu_chip {
	const char *chip;   /* "GA102" */
	int cc_major, cc_minor;
	const char *family; /* "Ampere" */
	struct kb_fact fact;
};
/* The row of the longest chip that begins word, the first word of a pci.ids device name
 * ("GK110BGL" -> GK110, "TU104GL" -> TU104); NULL when none does. */
const struct kb_gpu_chip *kb_gpu_chip(const char *word);

/* --- NVSwitch boards (data/nvswitch.tsv) --------------------------------------------------- */
struct kb_nvswitch_hint {
	const char *kind;  /* "device-ids", "name-part", "model" */
	const char *first; /* a device ID (hex) or a lower-case word */
	const char *last;  /* device-ids: the last ID of the range */
	struct kb_fact fact;
};
/* Whether NVIDIA PCI device `device` is an NVSwitch. */
bool kb_nvswitch_device(unsigned device);
/* Whether a GPU name (as the driver lists it) is an SXM module's. */
bool kb_sxm_module(const char *name);

/* --- Driver API entry points older drivers lack (data/driver_symbols.tsv) --------------------- */
struct kb_driver_symbol {
	const char *symbol;     /* "cuCtxCreate_v4" */
	const char *newer_than; /* "12.2": the CUDA of the newest driver read that lacks it */
	const char *seen_in;    /* "13.0": the CUDA of the first driver read that exports it */
	struct kb_fact fact;
};
/* The row of a cu* entry point that drivers up to some CUDA release do not export, or NULL (one
 * every driver read exports, or no driver API name). */
const struct kb_driver_symbol *kb_driver_symbol(const char *symbol);

/* --- Driver branches per GPU architecture (data/driver_gpu.tsv) ------------------------------ */
struct kb_driver_gpu {
	const char *cc;      /* "6.1" */
	const char *family;  /* "Pascal" */
	int last_branch;     /* 580: the newest branch that drives it; 0: none has dropped it */
	bool open_module;    /* whether the open kernel-module flavour drives it */
	bool closed_module;  /* whether the proprietary flavour drives it (not Blackwell's) */
	struct kb_fact fact;
};
/* The row of a discrete GPU's compute capability, or NULL (Turing to Hopper: every branch, both
 * flavours; Jetson's: L4T). */
const struct kb_driver_gpu *kb_driver_gpu(int cc_major, int cc_minor);

/* --- Packages that install the kernel module (data/driver_module_packages.tsv) -------------- */
struct kb_module_package {
	const char *manager; /* "pacman", "dpkg" */
	const char *package; /* "nvidia-open-dkms", "nvidia-dkms-*-open" ('*': any text) */
	const char *flavour; /* "open", "proprietary" */
	struct kb_fact fact;
};
/* The row for an installed package of a package manager, or NULL when it installs no NVIDIA
 * kernel module the table knows. */
const struct kb_module_package *kb_module_package(const char *manager, const char *name);

/* --- Jetson: L4T releases (data/l4t.tsv) ---------------------------------------------------- */
struct kb_l4t {
	const char *l4t;      /* "35.4": L4T major.minor */
	const char *jetpack;  /* "5.1.2" */
	const char *cuda;     /* "11.4": the CUDA the JetPack installs, the newest its driver runs */
	const char *cudnn;    /* NULL where the sources do not say */
	const char *tensorrt;
	bool openrm;          /* the GPU driver is the unified OpenRM nvidia.ko (Thor), not nvgpu: its
			       * version ("580.00") is L4T's own, not on the desktop driver scale */
	struct kb_fact fact;
};
/* The row of an L4T release ("35.4.1", "32.7"): its major.minor, else the newest row of its major;
 * NULL for a major the table lacks. */
const struct kb_l4t *kb_l4t_lookup(const char *release);

/* --- cuDNN (data/cudnn.tsv) ------------------------------------------------------------------ */
struct kb_cudnn_release {
	const char *version;       /* "8.9.7" */
	const char *cuda_versions; /* "11.8,12.x" as the support matrix says */
	struct kb_fact fact;
	const char *last;          /* the row covers version..last ("7.6.4".."7.6.5"), or NULL */
	const char *linux_driver, *windows_driver; /* driver floors stated by the matrix, or NULL */
	const char *cc;            /* compute capabilities: "5.0-9.0" */
	const char *windows_extra; /* extra DLLs needed on Windows: "zlibwapi.dll" */
	const char *note;
};
/* The row covering a version ("8.9.7", "8.9.7.29", "9.5.1"); NULL when the research has none. */
const struct kb_cudnn_release *kb_cudnn_release(const char *version);
/* The highest documented row of the same major at or below the version (for "9.1.0": 9.0.0). */
const struct kb_cudnn_release *kb_cudnn_release_nearest(const char *version);
size_t kb_cudnn_releases(const struct kb_cudnn_release **rows);
/* Decode cudnnGetVersion(): 8.x encodes major*1000+minor*100+patch, 9.x major*10000+minor*100+patch. */
bool kb_cudnn_decode_version(long encoded, int *major, int *minor, int *patch);

/* --- Error codes (data/errors.tsv) ----------------------------------------------------------- */
struct kb_error {
	const char *api;     /* "cudart", "cudart_legacy", "cu", "cudnn8", "cudnn9", "cublas", "nccl", "nvml",
			      * "optix", "win32", "ntstatus" */
	long code;
	const char *name;    /* "cudaErrorInsufficientDriver" */
	const char *text;    /* the official message */
	const char *finding; /* finding id it points to, or NULL */
	struct kb_fact fact;
	bool verbatim;       /* text is the exact string the library prints (else the header's meaning) */
	const char *note;
	const char *causes;  /* explain's cause keys, most likely first, comma-separated; NULL: none */
	const char *aliases; /* other names of the code, comma-separated, or NULL */
};
const struct kb_error *kb_error_lookup(const char *api, long code);
const struct kb_error *kb_error_by_name(const char *name);
size_t kb_errors(const struct kb_error **rows);

/* --- Frameworks (data/tf.tsv, data/torch.tsv, data/frameworks.tsv) -------------------------- */
struct kb_tf_build {
	const char *version;  /* "2.15.0" (the tested configuration's row) */
	const char *last;     /* the row covers version..last (1.5.0..1.12.0), or NULL */
	enum target_os os;
	const char *package;  /* "tensorflow", "tensorflow_gpu" */
	const char *python;   /* "3.9-3.11" */
	const char *compiler, *build_tool;
	const char *cudnn;    /* "8.9" */
	const char *cuda;     /* "12.2" */
	struct kb_fact fact;
};
/* The tested configuration for a TensorFlow version ("2.15.1" -> the 2.15.0 row) on an OS. NULL when
 * none: on Windows every release after 2.10 (no native GPU build). */
const struct kb_tf_build *kb_tf_build(const char *version, enum target_os os);
/* The last TensorFlow release with native Windows GPU support ("2.10.0"). */
const char *kb_tf_last_windows_gpu(void);
size_t kb_tf_builds(const struct kb_tf_build **rows);

struct kb_torch_variant {
	const char *torch;   /* "2.5" (major.minor) */
	const char *variant; /* "cu124" */
	const char *cuda;    /* "12.4" */
	const char *cudnn;   /* "9.1.0.70", NULL when unknown */
	bool experimental;
	bool pypi_default;   /* the plain `pip install torch` wheel on Linux */
	const char *archs;   /* "7.5,8.0,8.6,9.0,10.0,12.0+PTX" when known */
	const char *note;
	struct kb_fact fact;
};
/* The CUDA variants of a torch release ("2.5.1", "2.5.1+cu124", "2.5"): the count, *rows points at
 * the first (they are adjacent). 0 when unknown. */
size_t kb_torch_release(const char *version, const struct kb_torch_variant **rows);
/* One variant: ("2.5.1", "cu124"); a version with a local tag ("2.5.1+cu124") may pass NULL. */
const struct kb_torch_variant *kb_torch_variant(const char *version, const char *variant);
size_t kb_torch_variants(const struct kb_torch_variant **rows);

/* Other frameworks: JAX, ONNX Runtime, CuPy (one row per release range and CUDA flavour). */
struct kb_framework_req {
	const char *framework; /* "jax", "onnxruntime", "cupy" */
	const char *version;   /* first release of the row: "1.18.1" */
	const char *last;      /* last release of the row, or NULL (= only `version`; "-" open) */
	const char *package;   /* "onnxruntime-gpu", "cupy-cuda12x", "jax-cuda12-plugin" */
	const char *cuda;      /* supported CUDA: "12.x", "11.2-11.8,12.0-12.2" */
	const char *cudnn;     /* "9.x", ">=9.8,<10", or NULL */
	const char *built_with;/* CUDA the wheel was built with, when stated */
	const char *driver_min;/* Linux driver floor, when stated */
	const char *sm_min;    /* "5.2" */
	const char *note;
	struct kb_fact fact;
};
/* Rows of a framework that cover a version (a release may have several CUDA flavours). */
size_t kb_framework_find(const char *framework, const char *version, const struct kb_framework_req **out,
			 size_t max);
size_t kb_framework_reqs(const struct kb_framework_req **rows);

/* What a framework loads at run time and from which of its objects (data/framework_loads.tsv). */
struct kb_framework_load {
	const char *framework;  /* package: "torch", "onnxruntime-gpu", "jax-cuda12-plugin" */
	const char *object;     /* path inside site-packages: "torch/lib/libtorch_cuda.so" */
	const char *how;        /* "needed" or "dlopen" */
	const char *components; /* libs.tsv components, comma-separated: "cudart,cublas,cublasLt,cudnn" */
	enum target_os os;
	const char *note;
	struct kb_fact fact;
};
/* Rows of a framework package (case-insensitive); count, rows stored up to max. */
size_t kb_framework_loads(const char *framework, const struct kb_framework_load **out, size_t max);

#endif
