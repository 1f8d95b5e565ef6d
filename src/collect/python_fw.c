/* What each framework was built for, from the files its package carries (never by importing it):
 * torch/version.py and the nvidia-* pins of torch's METADATA, TensorFlow's build_info.py,
 * ONNX Runtime's capi/version_info.py, PaddlePaddle's version/__init__.py, the CUDA major in
 * jax/cupy wheel names; the knowledge base
 * (python_kb.c) fills what a package does not say, marked as such. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "collect/python.h"
#include "fmt/pymeta.h"
#include "fmt/version.h"
#include "kb/kb.h"

#define PY_MAX_MODULE (1u << 20) /* version.py / build_info.py are a few hundred bytes */
#define PY_MAX_METADATA (4u << 20)

static const struct {
	const char *name, *id;
} fw_kinds[PY_FW_KINDS] = {
	[PY_FW_TORCH] = { "PyTorch", "torch" }, [PY_FW_TENSORFLOW] = { "TensorFlow", "tensorflow" },
	[PY_FW_JAX] = { "JAX", "jax" },         [PY_FW_ONNXRUNTIME] = { "ONNX Runtime", "onnxruntime" },
	[PY_FW_CUPY] = { "CuPy", "cupy" },      [PY_FW_PADDLE] = { "PaddlePaddle", "paddle" },
	[PY_FW_CTRANSLATE2] = { "CTranslate2", "ctranslate2" },
};

const char *py_fw_kind_name(enum py_fw_kind k)
{
	return (unsigned)k < PY_FW_KINDS ? fw_kinds[k].name : "?";
}

const char *py_fw_kind_id(enum py_fw_kind k)
{
	return (unsigned)k < PY_FW_KINDS ? fw_kinds[k].id : "?";
}

/* A small module of the package (pkg_dir/rel: version.py, build_info.py); false with *why set (a
 * message) when absent or unreadable. */
static bool read_module(struct cudx_ctx *ctx, const struct py_framework *fw, const char *rel,
			struct span *s, const char **why)
{
	int err = 0;
	size_t len;
	const char *path = path_join(ctx->arena, fw->pkg_dir, rel);
	char *t = sysroot_read_text(&ctx->root, ctx->arena, path, PY_MAX_MODULE, &len, &err);
	if (!t) {
		*why = arena_printf(ctx->arena, "%s: %s", path, strerror(err));
		return false;
	}
	*s = span_make(t, len);
	return true;
}

/* cuda / cudnn read from a file of the package are attributed to it */
static void read_from(struct py_framework *fw, const char *file)
{
	if (fw->cuda)
		fw->cuda_source = file;
	if (fw->cudnn)
		fw->cudnn_source = file;
}

static const char *site_of(struct cudx_ctx *ctx, const struct py_wheel *w)
{
	return path_dirname(ctx->arena, w->dist_dir);
}

/* What the package did not say, from the knowledge base. */
static void fill_from_kb(struct cudx_ctx *ctx, struct py_framework *fw)
{
	struct py_kb_build b;
	if ((fw->cuda && fw->cudnn) || !py_kb_build(ctx, fw, &b))
		return;
	if (!fw->cuda)
		fw->cuda = b.cuda, fw->cuda_source = b.source;
	if (!fw->cudnn && b.cudnn)
		fw->cudnn = b.cudnn, fw->cudnn_source = b.source;
}

static void add_problem(struct cudx_ctx *ctx, struct py_framework *fw, const char *msg)
{
	fw->problem = fw->problem ? arena_printf(ctx->arena, "%s; %s", fw->problem, msg) : msg;
}

/* A string-or-None literal; anything else is a problem that names the file and what was there. */
static const char *str_value(struct cudx_ctx *ctx, struct py_framework *fw, struct span s,
			     const char *file, const char *key, bool *present)
{
	struct pymeta_value v;
	*present = pymeta_py_value(s, ctx->arena, key, &v);
	if (!*present)
		return NULL;
	switch (v.kind) {
	case PYLIT_STR:
	case PYLIT_NUMBER:
		return v.str;
	case PYLIT_NULL:
		return NULL;
	default:
		add_problem(ctx, fw, arena_printf(ctx->arena, "%s: %s = %s (not a literal cudx reads)", file,
						  key, v.str ? v.str : "?"));
		*present = false;
		return NULL;
	}
}

/* TensorFlow's Windows build_info.py writes its CUDA and cuDNN versions as "64_" and the version
 * without its dots ("64_112": CUDA 11.2, "64_110", "64_101", "64_8": cuDNN 8), the way its DLL names
 * were once built: the version those stand for; any other value as it is. */
static const char *win_dll_suffix_version(struct arena *a, const char *v)
{
	if (!v || strncmp(v, "64_", 3) != 0)
		return v;
	const char *d = v + 3;
	size_t n = strspn(d, "0123456789");
	if (n == 0 || d[n] != 0)
		return v;
	if (n == 1) /* a major alone: cuDNN's 64_8, CUDA 12's 64_12 is two digits */
		return d;
	if (n == 2 && d[0] == '1') /* 64_12, 64_13: CUDA 12 and later name the major only */
		return d;
	return arena_printf(a, "%.*s.%c", (int)(n - 1), d, d[n - 1]); /* 112 -> 11.2, 92 -> 9.2 */
}

/* Requires-Dist of the framework: nvidia-* and cuda-* pins that apply on this OS. Pins under an
 * extra count only when that extra looks installed (one of its packages is) and the pin is a
 * library wheel the catalogue knows: the extra's other packages may have come with another
 * framework (torch pulls the nvidia-* wheels jax[cuda13]'s extra lists), and a missing tool wheel
 * (nvidia-cuda-nvcc's ptxas, nvidia-nvvm) has fallbacks (the toolkit on PATH, the driver's JIT);
 * seen on a working H100 machine whose JAX lacked both. */
static void read_reqs(struct cudx_ctx *ctx, struct inventory *inv, struct py_env *env,
		      struct py_framework *fw, const struct py_wheel *w)
{
	const char *meta = path_join(ctx->arena, w->dist_dir, "METADATA");
	if (!sysroot_exists(&ctx->root, meta))
		meta = path_join(ctx->arena, w->dist_dir, "PKG-INFO");
	struct mapped_file m;
	int err = sysroot_map(&ctx->root, meta, &m);
	if (err) {
		add_problem(ctx, fw, arena_printf(ctx->arena, "%s: %s", meta, strerror(err)));
		return;
	}
	if (m.data.n > PY_MAX_METADATA) {
		add_problem(ctx, fw, arena_printf(ctx->arena, "%s: larger than 4 MiB, not read", meta));
		sysroot_unmap(&m);
		return;
	}
	struct pymeta_dist d;
	const char *perr;
	if (!pymeta_parse_metadata(m.data, ctx->arena, &d, &perr)) {
		add_problem(ctx, fw, arena_printf(ctx->arena, "%s: %s", meta, perr));
		sysroot_unmap(&m);
		return;
	}
	sysroot_unmap(&m);
	bool win = ctx->os == OS_WINDOWS;
	size_t cap = 0;
	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = 0; i < d.n_requires; i++) {
			struct pymeta_req r;
			if (!pymeta_parse_req(d.requires[i], ctx->arena, &r))
				continue;
			if (strncmp(r.name, "nvidia-", 7) != 0 && strncmp(r.name, "cuda-", 5) != 0)
				continue;
			if ((win && r.linux_only) || (!win && r.windows_only))
				continue;
			if ((pass == 0) != (r.extra == NULL))
				continue;
			const struct py_wheel *inst = py_env_wheel(env, r.name);
			if (r.extra && !inst) {
				if (!kb_wheel_ships_libs(r.name))
					continue;
				/* keep it only when another package of the same extra is installed */
				bool extra_installed = false;
				for (size_t j = 0; j < fw->n_reqs; j++)
					if (fw->reqs[j].extra && strcmp(fw->reqs[j].extra, r.extra) == 0 &&
					    fw->reqs[j].installed)
						extra_installed = true;
				for (size_t j = 0; j < d.n_requires && !extra_installed; j++) {
					struct pymeta_req o;
					if (pymeta_parse_req(d.requires[j], ctx->arena, &o) && o.extra &&
					    strcmp(o.extra, r.extra) == 0 && py_env_wheel(env, o.name))
						extra_installed = true;
				}
				if (!extra_installed)
					continue;
			}
			struct py_req *q = ARENA_PUSH(ctx->arena, fw->reqs, fw->n_reqs, cap);
			q->name = r.name;
			q->op = r.op;
			q->version = r.version;
			q->raw = d.requires[i];
			q->extra = r.extra;
			q->installed = inst;
		}
	}
}

/* The cuDNN a framework pins through its nvidia-cudnn-cuXX requirement. */
static const struct py_req *cudnn_pin(const struct py_framework *fw)
{
	for (size_t i = 0; i < fw->n_reqs; i++)
		if (strncmp(fw->reqs[i].name, "nvidia-cudnn-cu", 15) == 0 && fw->reqs[i].version)
			return &fw->reqs[i];
	return NULL;
}

static void torch_read(struct cudx_ctx *ctx, struct inventory *inv, struct py_env *env,
		       struct py_framework *fw, const struct py_wheel *w)
{
	fw->pkg_dir = path_join(ctx->arena, site_of(ctx, w), "torch");
	struct span s;
	const char *why;
	bool has_cuda = false, has_hip = false, has_ver;
	if (read_module(ctx, fw, "version.py", &s, &why)) {
		const char *v = str_value(ctx, fw, s, "torch/version.py", "__version__", &has_ver);
		if (v)
			fw->version = v;
		fw->cuda = str_value(ctx, fw, s, "torch/version.py", "cuda", &has_cuda);
		fw->rocm = str_value(ctx, fw, s, "torch/version.py", "hip", &has_hip);
		if (fw->cuda)
			fw->cuda_source = "torch/version.py";
		if (!has_cuda && !fw->problem)
			add_problem(ctx, fw, "torch/version.py has no `cuda = ...` line");
	} else {
		add_problem(ctx, fw, why);
	}
	read_reqs(ctx, inv, env, fw, w);
	bool plus_cpu = fw->version && strstr(fw->version, "+cpu");
	if (plus_cpu || (has_cuda && !fw->cuda && !fw->rocm)) {
		fw->cpu_only = true;
		return;
	}
	if (!fw->cuda && !fw->rocm) {
		/* version.py unreadable: the +cuXYZ tag or the nvidia pins still tell a CUDA build */
		const char *tag = fw->version ? strstr(fw->version, "+cu") : NULL;
		if (tag && strlen(tag) >= 6) {
			int digits = atoi(tag + 3);
			fw->cuda = arena_printf(ctx->arena, "%d.%d", digits / 10, digits % 10);
			fw->cuda_source = "wheel version tag";
		}
	}
	if (fw->rocm)
		return;
	fw->gpu_build = fw->cuda != NULL || cudnn_pin(fw) != NULL;
	const struct py_req *pin = cudnn_pin(fw);
	if (pin) {
		fw->cudnn = pin->version;
		fw->cudnn_source = arena_printf(ctx->arena, "METADATA Requires-Dist %s", pin->raw);
	} else if (fw->cuda) {
		fill_from_kb(ctx, fw);
	}
}

static void tf_read(struct cudx_ctx *ctx, struct inventory *inv, struct py_env *env,
		    struct py_framework *fw, const struct py_wheel *w)
{
	fw->pkg_dir = path_join(ctx->arena, site_of(ctx, w), "tensorflow");
	if (strcmp(w->name, "tensorflow-cpu") == 0) {
		fw->cpu_only = true;
		return;
	}
	/* TensorFlow 1.15, 2.0 and 2.1 keep their code in tensorflow_core/ (tensorflow/ only forwards to
	 * it): build_info.py and the native modules are there; for those releases it wins over a stale
	 * tensorflow/ another release left */
	const char *core = path_join(ctx->arena, site_of(ctx, w), "tensorflow_core");
	const char *tfv = w->version ? w->version : "";
	bool core_release = strncmp(tfv, "1.15", 4) == 0 || strncmp(tfv, "2.0.", 4) == 0 || strncmp(tfv, "2.1.", 4) == 0;
	bool in_core = sysroot_exists(&ctx->root, path_join(ctx->arena, core, "python/platform/build_info.py")) &&
		       (core_release ||
			!sysroot_exists(&ctx->root, path_join(ctx->arena, fw->pkg_dir, "python/platform/build_info.py")));
	if (in_core)
		fw->pkg_dir = core;
	read_reqs(ctx, inv, env, fw, w);
	struct span s;
	const char *why;
	if (read_module(ctx, fw, "python/platform/build_info.py", &s, &why)) {
		struct pymeta_value v;
		const char *file = "build_info.py";
		if (pymeta_py_value(s, ctx->arena, "is_cuda_build", &v) && v.kind == PYLIT_BOOL && !v.b) {
			fw->cpu_only = true;
			return;
		}
		bool present;
		fw->cuda = str_value(ctx, fw, s, file, "cuda_version", &present);
		if (!present)
			fw->cuda = str_value(ctx, fw, s, file, "cuda_version_number", &present);
		fw->cudnn = str_value(ctx, fw, s, file, "cudnn_version", &present);
		if (!present)
			fw->cudnn = str_value(ctx, fw, s, file, "cudnn_version_number", &present);
		fw->cuda = win_dll_suffix_version(ctx->arena, fw->cuda);
		fw->cudnn = win_dll_suffix_version(ctx->arena, fw->cudnn);
		read_from(fw, in_core ? "tensorflow_core/python/platform/build_info.py" : "tensorflow/python/platform/build_info.py");
		if (pymeta_py_value(s, ctx->arena, "cuda_compute_capabilities", &v) && v.kind == PYLIT_LIST) {
			fw->archs = v.items;
			fw->n_archs = v.n_items;
			fw->archs_source = "build_info.py cuda_compute_capabilities";
		}
	} else if (ctx->os != OS_WINDOWS) {
		add_problem(ctx, fw, why);
	}
	fill_from_kb(ctx, fw);
	/* tensorflow-gpu was the CUDA package until 2.11; releases before 1.x wrote no build_info.py */
	fw->gpu_build = fw->cuda != NULL || strcmp(w->name, "tensorflow-gpu") == 0;
}

static void ort_read(struct cudx_ctx *ctx, struct inventory *inv, struct py_env *env,
		     struct py_framework *fw, const struct py_wheel *w)
{
	fw->pkg_dir = path_join(ctx->arena, site_of(ctx, w), "onnxruntime");
	read_reqs(ctx, inv, env, fw, w);
	struct span s;
	const char *why;
	if (read_module(ctx, fw, "capi/version_info.py", &s, &why)) {
		bool present;
		fw->cuda = str_value(ctx, fw, s, "capi/version_info.py", "cuda_version", &present);
		fw->cudnn = str_value(ctx, fw, s, "capi/version_info.py", "cudnn_version", &present);
		if (fw->cuda && !*fw->cuda)
			fw->cuda = NULL;
		if (fw->cudnn && !*fw->cudnn)
			fw->cudnn = NULL;
		read_from(fw, "onnxruntime/capi/version_info.py");
	}
	fill_from_kb(ctx, fw);
	fw->gpu_build = fw->cuda != NULL;
}

/* jax-cuda12-plugin / jax-cuda13-plugin, and old jaxlib "0.4.23+cuda12.cudnn89" */
static void jax_read(struct cudx_ctx *ctx, struct inventory *inv, struct py_env *env,
		     struct py_framework *fw, const struct py_wheel *w)
{
	fw->pkg_dir = site_of(ctx, w);
	read_reqs(ctx, inv, env, fw, w);
	const char *tag = fw->version ? strstr(fw->version, "+cuda") : NULL;
	if (tag) {
		fw->cuda = arena_printf(ctx->arena, "%d", atoi(tag + 5));
		fw->cuda_source = "wheel version tag";
		const char *cd = strstr(tag, "cudnn");
		if (cd && strlen(cd) >= 7)
			fw->cudnn = arena_printf(ctx->arena, "%c.%c", cd[5], cd[6]),
			fw->cudnn_source = "wheel version tag";
	} else {
		fill_from_kb(ctx, fw);
		int major = 0;
		/* a plugin release the kb has no row for: its name still says the CUDA major */
		if (!fw->cuda && sscanf(w->name, "jax-cuda%d-plugin", &major) == 1 && major > 0)
			fw->cuda = arena_printf(ctx->arena, "%d", major), fw->cuda_source = "wheel name";
	}
	fw->gpu_build = fw->cuda != NULL;
}

/* "False" is how PaddlePaddle's generated version module writes "no CUDA" */
static bool paddle_none(const char *v)
{
	return !v || !*v || strcasecmp(v, "False") == 0 || strcasecmp(v, "None") == 0;
}

/* paddle/version/__init__.py (written by Paddle's setup.py; paddle/version.py before 2.5):
 * cuda_version = '11.7' and cudnn_version = '8.4.1', both 'False' in the CPU package. Unreadable, the distribution still
 * tells: paddlepaddle is the CPU package, paddlepaddle-gpu the CUDA one, whose 2.x versions carry
 * the CUDA as ".postXYZ" (2.5.1.post117: CUDA 11.7) and 1.x the CUDA and cuDNN majors
 * (1.5.1.post107: CUDA 10, cuDNN 7). */
static void paddle_read(struct cudx_ctx *ctx, struct inventory *inv, struct py_env *env, struct py_framework *fw,
			const struct py_wheel *w)
{
	fw->pkg_dir = path_join(ctx->arena, site_of(ctx, w), "paddle");
	read_reqs(ctx, inv, env, fw, w);
	const char *file = "paddle/version/__init__.py";
	struct span s;
	const char *why;
	bool found = read_module(ctx, fw, "version/__init__.py", &s, &why);
	if (!found && read_module(ctx, fw, "version.py", &s, &why)) {
		found = true;
		file = "paddle/version.py";
	}
	if (found) {
		bool present;
		const char *cuda = str_value(ctx, fw, s, file, "cuda_version", &present);
		if (present && paddle_none(cuda)) {
			fw->cpu_only = true;
			return;
		}
		const char *cudnn = str_value(ctx, fw, s, file, "cudnn_version", &present);
		fw->cuda = paddle_none(cuda) ? NULL : cuda;
		fw->cudnn = paddle_none(cudnn) ? NULL : cudnn;
		read_from(fw, file);
	} else if (strcmp(w->name, "paddlepaddle") == 0) {
		fw->cpu_only = true;
		return;
	}
	const char *post = fw->version ? strstr(fw->version, ".post") : NULL;
	int digits = post ? atoi(post + 5) : 0;
	bool one_x = fw->version && (strncmp(fw->version, "1.", 2) == 0 || strncmp(fw->version, "0.", 2) == 0);
	if (!fw->cuda && one_x && digits >= 70 && digits < 1000) {
		/* 1.x: .post{CUDA major}{cuDNN major} (1.5.1.post107: CUDA 10.0, cuDNN 7; post97: 9.0) */
		fw->cuda = arena_printf(ctx->arena, "%d.0", digits / 10);
		fw->cudnn = fw->cudnn ? fw->cudnn : arena_printf(ctx->arena, "%d", digits % 10);
		fw->cuda_source = "wheel version tag";
	} else if (!fw->cuda && digits >= 100 && digits < 1000) {
		fw->cuda = arena_printf(ctx->arena, "%d.%d", digits / 10, digits % 10);
		fw->cuda_source = "wheel version tag";
	}
	fw->gpu_build = fw->cuda != NULL || strcmp(w->name, "paddlepaddle-gpu") == 0;
	if (!fw->gpu_build)
		fw->cpu_only = true;
}

/* cupy-cuda12x -> 12; cupy-cuda117 -> 11.7 */
static void cupy_read(struct cudx_ctx *ctx, struct py_framework *fw, const struct py_wheel *w)
{
	fw->pkg_dir = path_join(ctx->arena, site_of(ctx, w), "cupy");
	const char *d = w->name + strlen("cupy-cuda");
	int n = atoi(d);
	if (n <= 0)
		return;
	if (strchr(d, 'x'))
		fw->cuda = arena_printf(ctx->arena, "%d", n);
	else
		fw->cuda = arena_printf(ctx->arena, "%d.%d", n / 10, n % 10);
	fw->cuda_source = "wheel name";
	fw->gpu_build = true;
}

/* The conda-meta record of distribution w in a conda environment (NAME-VERSION-BUILD.json: its name,
 * whose build string follows NAME-VERSION-), or NULL. */
static const char *conda_record(struct cudx_ctx *ctx, const struct py_env *env, const struct py_wheel *w)
{
	struct sysroot_dirent *ents;
	size_t n;
	if (!env->kind || strcmp(env->kind, "conda") != 0 || !w->version ||
	    sysroot_list_dir(&ctx->root, ctx->arena, path_join(ctx->arena, env->prefix, "conda-meta"), &ents, &n,
			     20000) != 0)
		return NULL;
	const char *head = arena_printf(ctx->arena, "%s-%s-", w->name, w->version);
	for (size_t i = 0; i < n; i++)
		if (strncmp(ents[i].name, head, strlen(head)) == 0)
			return ents[i].name;
	return NULL;
}

/* conda-forge's CUDA jaxlib keeps a plain version (0.4.3) and says its CUDA only in the build
 * string of its conda-meta record, jaxlib-0.4.3-cuda112py310h4bfa4fc_201.json ("cuda112": CUDA
 * 11.2, "cuda120": 12.0). Sets fw's CUDA major from it; false for no such record (a CPU build). */
static bool conda_cuda_build(struct cudx_ctx *ctx, const struct py_env *env, const struct py_wheel *w,
			     struct py_framework *fw)
{
	const char *rec = conda_record(ctx, env, w);
	int cu = 0;
	if (!rec || sscanf(rec + strlen(w->name) + strlen(w->version) + 2, "cuda%d", &cu) != 1 || cu < 10)
		return false;
	fw->pkg_dir = path_join(ctx->arena, site_of(ctx, w), "jaxlib");
	fw->cuda = arena_printf(ctx->arena, "%d", cu >= 100 ? cu / 10 : cu);
	fw->cuda_source = "conda build string";
	fw->gpu_build = true;
	fw->conda_build = true;
	return true;
}

/* ctranslate2: one wheel for CPU and GPU, whose CUDA and cuDNN majors are the release's
 * (data/frameworks.tsv). Only PyPI's Linux x86-64 and Windows wheels carry the CUDA code (the
 * WHEEL file's tags say which); a conda package links its own CUDA libraries from the
 * environment's lib (RUNPATH $ORIGIN) and is not judged. */
static void ct2_read(struct cudx_ctx *ctx, const struct py_env *env, struct py_framework *fw,
		     const struct py_wheel *w)
{
	fw->pkg_dir = path_join(ctx->arena, site_of(ctx, w), "ctranslate2");
	fw->gpu_optional = true;
	if (conda_record(ctx, env, w))
		return;
	size_t len;
	int err = 0;
	const char *tags = w->dist_dir ? sysroot_read_text(&ctx->root, ctx->arena, path_join(ctx->arena, w->dist_dir, "WHEEL"),
							 PY_MAX_MODULE, &len, &err)
				       : NULL;
	bool cuda_tag = tags && (strstr(tags, "win_amd64") || (strstr(tags, "linux") && strstr(tags, "x86_64")));
	if (tags && strstr(tags, "Tag:") && !cuda_tag)
		return; /* aarch64, macOS (macosx_*_x86_64 too): the CPU build */
	fill_from_kb(ctx, fw);
	fw->gpu_build = fw->cuda != NULL;
}

static bool jax_cuda_plugin(const struct py_env *env)
{
	for (size_t i = 0; i < env->n_wheels; i++)
		if (strncmp(env->wheels[i].name, "jax-cuda", 8) == 0)
			return true;
	return false;
}

void py_read_frameworks(struct cudx_ctx *ctx, struct inventory *inv, struct py_env *env)
{
	for (size_t i = 0; i < env->n_wheels; i++) {
		const struct py_wheel *w = &env->wheels[i];
		const char *n = w->name;
		struct py_framework fw = { 0 };
		fw.name = n;
		fw.version = w->version;
		if (strcmp(n, "torch") == 0) {
			fw.kind = PY_FW_TORCH;
			torch_read(ctx, inv, env, &fw, w);
		} else if (strcmp(n, "tensorflow") == 0 || strcmp(n, "tensorflow-gpu") == 0 ||
			   strcmp(n, "tensorflow-intel") == 0 || strcmp(n, "tensorflow-cpu") == 0 ||
			   strncmp(n, "tf-nightly", 10) == 0) {
			/* tensorflow-intel is what `tensorflow` pulls on Windows: one package dir */
			if (strcmp(n, "tensorflow-intel") == 0 && py_env_wheel(env, "tensorflow"))
				continue;
			fw.kind = PY_FW_TENSORFLOW;
			tf_read(ctx, inv, env, &fw, w);
		} else if (strcmp(n, "ctranslate2") == 0) {
			fw.kind = PY_FW_CTRANSLATE2;
			ct2_read(ctx, env, &fw, w);
		} else if (strcmp(n, "onnxruntime-gpu") == 0) {
			fw.kind = PY_FW_ONNXRUNTIME;
			ort_read(ctx, inv, env, &fw, w);
		} else if (strcmp(n, "onnxruntime") == 0) {
			/* the CPU package; next to onnxruntime-gpu it shares (and overwrites) its onnxruntime/ */
			fw.kind = PY_FW_ONNXRUNTIME;
			fw.pkg_dir = path_join(ctx->arena, site_of(ctx, w), "onnxruntime");
			fw.cpu_only = true;
		} else if (strcmp(n, "paddlepaddle") == 0 || strcmp(n, "paddlepaddle-gpu") == 0) {
			fw.kind = PY_FW_PADDLE;
			paddle_read(ctx, inv, env, &fw, w);
		} else if (strncmp(n, "jax-cuda", 8) == 0 && strstr(n, "-plugin")) {
			fw.kind = PY_FW_JAX;
			jax_read(ctx, inv, env, &fw, w);
		} else if (strcmp(n, "jaxlib") == 0 && w->version && strstr(w->version, "+cuda")) {
			fw.kind = PY_FW_JAX;
			jax_read(ctx, inv, env, &fw, w);
		} else if (strcmp(n, "jaxlib") == 0 && !jax_cuda_plugin(env) && conda_cuda_build(ctx, env, w, &fw)) {
			fw.kind = PY_FW_JAX;
		} else if (strcmp(n, "jaxlib") == 0 && !jax_cuda_plugin(env)) {
			/* an untagged jaxlib without a CUDA plugin beside it is JAX's CPU build */
			fw.kind = PY_FW_JAX;
			fw.pkg_dir = path_join(ctx->arena, site_of(ctx, w), "jaxlib");
			fw.cpu_only = true;
		} else if (strncmp(n, "cupy-cuda", 9) == 0) {
			fw.kind = PY_FW_CUPY;
			cupy_read(ctx, &fw, w);
		} else {
			continue;
		}
		struct py_framework *slot = ARENA_PUSH(ctx->arena, env->fws, env->n_fws, env->cap_fws);
		*slot = fw;
		if (slot->problem)
			inventory_note(ctx, inv, slot->pkg_dir ? slot->pkg_dir : w->dist_dir, "%s",
				       slot->problem);
		if (slot->gpu_build && !slot->cpu_only)
			py_resolve_libs(ctx, inv, env, slot);
	}
}
