/* Python environments and the GPU frameworks installed in them, found from files only (Python
 * may be the broken part, and a --root tree must never be executed). Plain data: what each
 * framework was built for, the libraries it will load and where the loader would find them.
 * Judgement is left to src/diag/rules_python.c. */
#ifndef CUDX_PYTHON_H
#define CUDX_PYTHON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "collect/inventory.h"

#define PY_MAX_ENVS 64          /* environments examined; more are listed as a note */
#define PY_MAX_SITE_ENTRIES 20000 /* entries of one site-packages directory */
#define PY_MAX_CONDA_ENVS 256

/* A pip/conda distribution in a site-packages dir that matters to the GPU stack. */
struct py_wheel {
	const char *name;     /* normalised: "nvidia-cudnn-cu12", "torch" */
	const char *version;  /* "9.1.0.70" */
	const char *dist_dir; /* the .dist-info / .egg-info path */
	const char *lib_dir;  /* nvidia-*: the directory its shared libraries are in (from RECORD), or NULL */
	const char **libs;    /* nvidia-*: library file names in lib_dir */
	size_t n_libs;
};

struct py_req {
	const char *name;    /* normalised */
	const char *op;      /* "==" */
	const char *version; /* "9.1.0.70" */
	const char *raw;     /* as written in METADATA */
	const char *extra;   /* only needed with this extra ("and-cuda"), or NULL */
	const struct py_wheel *installed; /* the wheel in the same environment, or NULL */
};

enum py_fw_kind { PY_FW_TORCH, PY_FW_TENSORFLOW, PY_FW_JAX, PY_FW_ONNXRUNTIME, PY_FW_CUPY, PY_FW_PADDLE, PY_FW_CTRANSLATE2, PY_FW_KINDS };

/* One library a framework will load, resolved the way it loads it. */
struct py_lib_use {
	const char *name;     /* "libcudnn.so.9" */
	const char *via;      /* "NEEDED of torch/lib/libtorch_cuda.so", "dlopen by TensorFlow" */
	const char *from;     /* the object whose search path applies, or NULL (plain dlopen) */
	const char *resolved; /* path inside the root, or NULL when the loader finds nothing */
	const char *how;      /* "runpath", "rpath", "LD_LIBRARY_PATH", "ld.so.cache", "default dir" */
	const char *version;  /* version of the resolved copy when known ("9.19.0.56") */
	const char *version_source;
	const char *wheel_copy; /* the copy in the environment's nvidia-* wheel, when one exists */
	const char *wheel_version;
	const char *wheel;      /* that wheel's name */
	const char **others;    /* when not found: other copies seen (other majors: libcudnn.so.9) */
	size_t n_others;
	bool optional;          /* the framework works without it (TensorRT, NCCL on one GPU) */
};

struct py_framework {
	enum py_fw_kind kind;
	const char *name;      /* distribution name: "torch", "tensorflow", "jax-cuda12-plugin" */
	const char *version;   /* "2.5.1+cu124" */
	const char *pkg_dir;   /* "…/site-packages/torch" */
	bool gpu_build;        /* built with CUDA */
	bool cpu_only;         /* a CPU-only build (torch +cpu, tensorflow-cpu, onnxruntime without -gpu) */
	bool gpu_optional;     /* one package for CPU and GPU (CTranslate2): its CUDA libraries matter only
				* on a machine with an NVIDIA GPU or driver */
	bool conda_build;      /* a conda package's CUDA build (conda-meta's build string): it uses the environment's CUDA libraries */
	const char *rocm;      /* torch.version.hip, when a ROCm build */
	const char *cuda;      /* CUDA it was built for: "12.4" (or the major "12" when only that is known) */
	const char *cuda_source; /* "torch/version.py", "build_info.py", "wheel name", "knowledge base" */
	const char *cudnn;     /* cuDNN it was built for: "9.1.0.70", "8" */
	const char *cudnn_source;
	const char **archs;    /* GPU code it carries ("sm_80", "compute_90") when the package says */
	size_t n_archs;
	const char *archs_source;
	struct py_req *reqs;   /* nvidia-* and cuda-* Requires-Dist that apply on this OS */
	size_t n_reqs;
	struct py_lib_use *libs;
	size_t n_libs;
	const char *problem;   /* what could not be read ("torch/version.py: cuda = <expression>") */
};

/* bitsandbytes (0.43 and later) loads libbitsandbytes_cuda<torch's CUDA, no dot> from its package
 * directory (BNB_CUDA_VERSION names another) and falls back to its CPU library when that file is
 * missing (bitsandbytes/cextension.py). */
struct py_bnb {
	const char *version;
	const char *pkg_dir;
	const char **cuda_libs; /* its libbitsandbytes_cuda* files ("libbitsandbytes_cuda121.so") */
	size_t n_cuda_libs;
	const char *problem;    /* the package directory could not be listed */
};

struct py_env {
	const char *prefix;    /* "/home/u/venv" or "/usr" */
	const char *kind;      /* "venv", "conda", "system", "user", "explicit" */
	const char *origin;    /* how it was found: "VIRTUAL_ENV", "PATH (/usr/bin/python3)", "--python" */
	const char *python;    /* "3.11" when known */
	const char *base;      /* venv: pyvenv.cfg home */
	bool active;           /* VIRTUAL_ENV / CONDA_PREFIX / first python on PATH */
	const char **site_dirs;
	size_t n_site_dirs;
	struct py_wheel *wheels;
	size_t n_wheels;
	struct py_framework *fws;
	size_t n_fws;
	const struct py_bnb *bnb; /* bitsandbytes, when installed */
	const char *problem;   /* unreadable prefix, ... */
	size_t cap_site, cap_wheels, cap_fws;
};

struct python_inventory {
	struct py_env *envs;
	size_t n_envs, cap_envs;
	const char **notes; /* "more than 64 environments: the rest were not read" */
	size_t n_notes, cap_notes;
};

const char *py_fw_kind_name(enum py_fw_kind k); /* "PyTorch" */
const char *py_fw_kind_id(enum py_fw_kind k);   /* "torch": the JSON framework value */
/* Find environments, read their frameworks and resolve their libraries (called by collect_python). */
void py_collect(struct cudx_ctx *ctx, struct inventory *inv, struct python_inventory *py);
/* Environments from PATH, VIRTUAL_ENV, CONDA_PREFIX, conda lists, --python (python_env.c) */
void py_find_envs(struct cudx_ctx *ctx, struct python_inventory *py);
/* Reading one environment (python_env.c) */
void py_scan_site(struct cudx_ctx *ctx, struct inventory *inv, struct py_env *env, const char *site);
/* Framework details (python_fw.c) */
void py_read_frameworks(struct cudx_ctx *ctx, struct inventory *inv, struct py_env *env);
/* bitsandbytes' native libraries (python_bnb.c) */
void py_read_bnb(struct cudx_ctx *ctx, struct py_env *env);
/* Library resolution (python_libs.c) */
void py_resolve_libs(struct cudx_ctx *ctx, struct inventory *inv, struct py_env *env,
		     struct py_framework *fw);
const struct py_wheel *py_env_wheel(const struct py_env *env, const char *name);

/* What the knowledge base says a release was built for (python_kb.c), for what its package does
 * not say. torch needs fw->cuda (one row per CUDA variant). */
struct py_kb_build {
	const char *cuda;   /* "12.2", or the major "12" when the kb states only that */
	const char *cudnn;  /* "8.9", "9", ">=9.8" (a minimum), or NULL */
	const char *source; /* "knowledge base (S12)" */
};
bool py_kb_build(struct cudx_ctx *ctx, const struct py_framework *fw, struct py_kb_build *out);
/* The Linux file name of a component ("cudart", "cufft", "cudnn") for a CUDA major (for "cudnn":
 * the cuDNN major); cuda ("11.0") picks among names that differ by CUDA minor. NULL when none. */
const char *py_kb_soname(const char *component, int major, const char *cuda);

/* Renderers (src/report/report_python.c) */
struct json_t;
void py_report_text(FILE *out, const struct cudx_ctx *ctx, const struct python_inventory *py);
struct json_t *py_report_json(const struct python_inventory *py);

#endif
