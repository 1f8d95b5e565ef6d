/* The knowledge base: lookups over tables generated at build time from data/<table>.tsv. Rules and
 * collectors see the data only through these functions. Every answer carries its source and
 * whether the research marked it UNCONFIRMED (then rules may warn on it, never error on it alone). */
#ifndef CUDX_KB_H
#define CUDX_KB_H

#include <stdbool.h>
#include <stddef.h>

#include "sys/options.h" /* enum target_os */

struct kb_fact {
	const char *source;
	bool unconfirmed;
};

/* --- CUDA release -> driver (data/cuda_driver.tsv, data/minor_compat.tsv) ------------------ */
struct kb_cuda_release {
	const char *cuda;           /* "12.4" or "12.4.1" */
	const char *linux_driver;   /* minimum driver for the toolkit itself, e.g. "550.54.14" */
	const char *windows_driver; /* e.g. "551.61"; NULL when unknown */
	struct kb_fact fact;
};
/* Best row for a CUDA version: an exact match, else the GA row of that major.minor ("12.4" for
 * "12.4.131"), else NULL. */
const struct kb_cuda_release *kb_cuda_release(const char *cuda_version);
/* Minimum driver with minor-version compatibility for a CUDA major (11 -> "450.80.02"). */
const char *kb_minor_compat_floor(int cuda_major, enum target_os os, struct kb_fact *fact);
/* Highest CUDA version (major.minor) whose toolkit minimum driver is <= driver_version, e.g.
 * "535.104.05" -> "12.2". NULL when older than every row. */
const char *kb_driver_max_cuda(const char *driver_version, enum target_os os);

/* --- GPU architectures (data/gpus.tsv, data/cuda_arch.tsv) --------------------------------- */
struct kb_gpu {
	const char *name;   /* "NVIDIA GeForce RTX 3090" */
	int cc_major, cc_minor;
	const char *family; /* "Ampere" */
	struct kb_fact fact;
};
/* Accepts "sm_86", "8.6", "86", "compute_86", or a model name as NVML/nvidia-smi print it (case- and
 * "NVIDIA "-prefix-insensitive, e.g. "RTX 3090"). NULL when unknown. */
const struct kb_gpu *kb_gpu_lookup(const char *name_or_sm);
/* CUDA toolkit support of an SM: first/last toolkit that can build SASS for it. */
struct kb_arch_support {
	int sm;                  /* 86 */
	const char *added;       /* first CUDA release targeting it, "11.1" */
	const char *deprecated;  /* or NULL */
	const char *removed;     /* first CUDA release that cannot target it, or NULL */
	struct kb_fact fact;
};
const struct kb_arch_support *kb_arch_support(int sm);

/* --- Library catalogue (data/libs.tsv) ------------------------------------------------------ */
struct kb_lib {
	const char *component;  /* "cudart", "cublas", "cublasLt", "cudnn", "cudnn_ops", "libcuda", "nvml", ... */
	const char *family;     /* "cuda-runtime", "cublas", "cudnn", "driver", "nccl", ... */
	int major;              /* the major in the file name / SONAME (cudart 12, cudnn 9) */
	int cuda_major;         /* CUDA major it belongs to (0 = any / not tied) */
	enum target_os os;
	const char *name;       /* SONAME or DLL name: "libcudnn_ops.so.9", "cublas64_11.dll" */
	const char *pip_wheel;  /* "nvidia-cudnn-cu12" or NULL */
	const char *pip_dir;    /* directory inside site-packages: "nvidia/cudnn/lib" */
	struct kb_fact fact;
};
/* Classify a file name ("libcudnn_ops.so.9.1.0", "libcudart.so.12", "cublas64_11.dll",
 * "libcuda.so.535.104.05"): the catalogue row it is a copy of, or NULL when not a known library. */
const struct kb_lib *kb_lib_classify(const char *filename, enum target_os os);
/* Every row of a component family for an OS (e.g. all cudnn 8 sub-libraries), for iteration. */
size_t kb_lib_rows(const struct kb_lib **rows);
/* Run-time (dlopen) edges: names the library `from_name` loads by itself. Returns the count and
 * points *names at an array owned by the kb. */
size_t kb_lib_dlopens(const char *from_name, enum target_os os, const char *const **names);

/* --- cuDNN (data/cudnn.tsv) ------------------------------------------------------------------ */
struct kb_cudnn_release {
	const char *version;       /* "8.9.7" */
	const char *cuda_versions; /* "11.8,12.x" as the support matrix says */
	struct kb_fact fact;
};
const struct kb_cudnn_release *kb_cudnn_release(const char *version);
/* Decode cudnnGetVersion(): 8.x encodes major*1000+minor*100+patch, 9.x major*10000+minor*100+patch. */
bool kb_cudnn_decode_version(long encoded, int *major, int *minor, int *patch);

/* --- Error codes (data/errors.tsv) ----------------------------------------------------------- */
struct kb_error {
	const char *api;     /* "cudart", "cu", "cudnn8", "cudnn9", "cublas", "nvml" */
	long code;
	const char *name;    /* "cudaErrorInsufficientDriver" */
	const char *text;    /* the official message */
	const char *finding; /* finding id it points to, or NULL */
	struct kb_fact fact;
};
const struct kb_error *kb_error_lookup(const char *api, long code);
const struct kb_error *kb_error_by_name(const char *name);

#endif
