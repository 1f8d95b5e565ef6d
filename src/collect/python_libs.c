/* The libraries a framework will load, resolved the way it loads them: the NEEDED entries and
 * run-time dlopen names of its CUDA-facing object (torch/lib/libtorch_cuda.so,
 * tensorflow/libtensorflow_framework.so.2, ...) searched with that object's RPATH/RUNPATH
 * ($ORIGIN into the nvidia/<pkg>/lib dirs of the wheels), LD_LIBRARY_PATH, ld.so.cache and the
 * default directories, in glibc's order. Each result is compared with the copy the environment's
 * nvidia-* wheel provides. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "collect/libversion.h"
#include "collect/python.h"
#include "collect/python_resolve.h"
#include "collect/arch.h"
#include "kb/kb.h"

/* The wheel copy of a library: a wheel in this environment whose RECORD lists that file name. */
static const struct py_wheel *wheel_with(const struct py_env *env, const char *name)
{
	for (size_t i = 0; i < env->n_wheels; i++)
		for (size_t j = 0; j < env->wheels[i].n_libs; j++)
			if (strcmp(env->wheels[i].libs[j], name) == 0)
				return &env->wheels[i];
	return NULL;
}

/* A resolved file inside a wheel's lib dir carries that wheel's version. */
static const struct py_wheel *wheel_of_path(struct cudx_ctx *ctx, const struct py_env *env,
					    const char *path)
{
	const char *dir = path_dirname(ctx->arena, path);
	const char *base = path_basename(path);
	const struct py_wheel *any = NULL;
	for (size_t i = 0; i < env->n_wheels; i++) {
		const struct py_wheel *w = &env->wheels[i];
		if (!w->lib_dir ||
		    (strcmp(w->lib_dir, dir) != 0 && strcmp(py_canon(ctx, w->lib_dir), py_canon(ctx, dir)) != 0))
			continue;
		/* CUDA 13 wheels share nvidia/cu13/lib: the wheel that lists the file owns it */
		for (size_t j = 0; j < w->n_libs; j++)
			if (strcmp(w->libs[j], base) == 0)
				return w;
		if (!any)
			any = w;
	}
	return any;
}

/* Best version of a copy found outside the wheels: the inventory's (the libs collector reads
 * dist-info, embedded strings, file names), else the full version in the real file name
 * (libcudnn.so.9.1.0 -> 9.1.0). */
static void version_of(struct cudx_ctx *ctx, const struct inventory *inv, const char *path,
		       const char **version, const char **source)
{
	const char *real = py_canon(ctx, path);
	for (size_t i = 0; i < inv->n_libs; i++) {
		const struct lib_file *l = &inv->libs[i];
		if (!l->version)
			continue;
		if (strcmp(l->path, path) == 0 || (l->real_path && strcmp(l->real_path, real) == 0)) {
			*version = l->version;
			*source = l->version_source ? l->version_source : "inventory";
			return;
		}
	}
	/* the same reading as the inventory's: not Jetson's libcuda.so.1.1, a revision of the soname */
	const struct kb_lib *k = kb_lib_classify(path_basename(real), OS_LINUX);
	struct lib_file tmp = { .real_path = real, .component = k ? k->component : NULL };
	libversion_from_name(ctx, &tmp);
	if (tmp.version) {
		*version = tmp.version;
		*source = tmp.version_source;
	}
}

/* Component list "cudart,cublas,cudnn" -> file names for the framework's CUDA and cuDNN majors. */
static size_t component_names(struct cudx_ctx *ctx, const char *list, const char *cuda, int cudnn_major,
			      const char ***out)
{
	size_t n = 0, cap = 0;
	*out = NULL;
	const char *p = list;
	while (p && *p) {
		const char *comma = strchr(p, ',');
		size_t l = comma ? (size_t)(comma - p) : strlen(p);
		char *comp = arena_strndup(ctx->arena, p, l);
		int major = strcmp(comp, "cudnn") == 0 ? cudnn_major : cuda ? atoi(cuda) : 0;
		const char *name = major > 0 ? py_kb_soname(comp, major, cuda) : NULL;
		if (name)
			*ARENA_PUSH(ctx->arena, *out, n, cap) = name;
		p = comma ? comma + 1 : NULL;
	}
	return n;
}

/* A wheel's copy renamed by auditwheel, its content hash before ".so" (libcudart-a7b20f20.so.10.2, as
 * PyTorch's self-contained wheels bundle the CUDA runtime): the library's own name
 * (libcudart.so.10.2). Other names come back as they are. */
static const char *unhashed(struct cudx_ctx *ctx, const char *name)
{
	const char *so = strstr(name, ".so");
	if (!so || so - name < 10 || so[-9] != '-')
		return name;
	for (const char *h = so - 8; h < so; h++)
		if (!isxdigit((unsigned char)*h) || isupper((unsigned char)*h))
			return name;
	return arena_printf(ctx->arena, "%.*s%s", (int)(so - 9 - name), name, so);
}

static bool is_cuda_lib(const char *name)
{
	static const char *const stems[] = { "libcudart.", "libcublas", "libcudnn", "libcufft.",
					     "libcusolver.", "libcusparse.", "libcurand.", "libnccl.",
					     "libnvrtc.", "libnvJitLink.", "libcupti." };
	for (size_t i = 0; i < sizeof stems / sizeof stems[0]; i++)
		if (strncmp(name, stems[i], strlen(stems[i])) == 0)
			return true;
	return false;
}

static struct py_lib_use *add_use(struct cudx_ctx *ctx, struct py_framework *fw, size_t *cap,
				  const char *name)
{
	for (size_t i = 0; i < fw->n_libs; i++)
		if (strcmp(fw->libs[i].name, name) == 0)
			return NULL;
	struct py_lib_use *u = ARENA_PUSH(ctx->arena, fw->libs, fw->n_libs, *cap);
	u->name = name;
	return u;
}

static void fill_use(struct cudx_ctx *ctx, const struct inventory *inv, const struct py_env *env,
		     struct py_proc *proc, struct py_lib_use *u, const struct py_object *from,
		     struct loader_object *from_lo, bool dlopen, struct loader_object **got)
{
	struct py_resolution r;
	py_resolve(proc, from, from_lo, u->name, dlopen, &r);
	if (got)
		*got = r.object;
	/* the loader keeps the path as ld.so forms it (".../torch/lib/../../nvidia/..."): shown normalised */
	u->resolved = r.path ? path_normalize(ctx->arena, r.path) : NULL;
	u->how = r.how;
	u->from = from_lo ? from_lo->path : from ? from->path : NULL;
	const struct py_wheel *w = wheel_with(env, u->name);
	if (w) {
		u->wheel = w->name;
		u->wheel_copy = path_join(ctx->arena, w->lib_dir, u->name);
		u->wheel_version = w->version;
	}
	if (u->resolved) {
		const struct py_wheel *rw = wheel_of_path(ctx, env, u->resolved);
		if (rw) {
			u->version = rw->version;
			u->version_source = arena_printf(ctx->arena, "wheel %s", rw->name);
		} else {
			version_of(ctx, inv, u->resolved, &u->version, &u->version_source);
		}
	} else {
		u->n_others = py_other_majors(proc, from, u->name, &u->others);
	}
}

/* The GPU code the framework's object carries (its fat binaries), read only when there is a GPU to
 * judge it against (--gpu or a detected one): libtorch_cuda.so is ~1 GB. */
static void read_archs(struct cudx_ctx *ctx, struct inventory *inv, struct py_framework *fw,
		       const char *obj_path)
{
	if (fw->n_archs || (inv->n_gpus == 0 && ctx->opt->n_gpus == 0))
		return;
	struct arch_inventory ai = { 0 };
	arch_inventory_init(ctx, inv, &ai);
	if (ai.n_gpus == 0)
		return;
	struct arch_file *af = arch_analyze_file(ctx, &ai, obj_path, NULL);
	if (!af || af->error || af->summary.n_targets == 0)
		return;
	size_t cap = 0;
	for (size_t i = 0; i < af->summary.n_targets; i++) {
		const struct arch_target *t = &af->summary.targets[i];
		const char *pre = t->kind == FATBIN_KIND_ELF ? "sm_" : t->kind == FATBIN_KIND_PTX ? "compute_" : NULL;
		if (!pre)
			continue;
		char v[2] = { t->variant, 0 };
		*ARENA_PUSH(ctx->arena, fw->archs, fw->n_archs, cap) =
			arena_printf(ctx->arena, "%s%u%s", pre, t->sm, v);
	}
	fw->archs_source = arena_printf(ctx->arena, "fat binaries in %s", obj_path);
}

void py_resolve_libs(struct cudx_ctx *ctx, struct inventory *inv, struct py_env *env,
		     struct py_framework *fw)
{
	if (ctx->os == OS_WINDOWS)
		return; /* DLL search is the windows module's; only what the package says is reported */
	const struct kb_framework_load *rows[4];
	size_t n_rows = kb_framework_loads(fw->name, rows, 4);
	if (n_rows == 0)
		return;
	if (n_rows > 4)
		n_rows = 4;
	const char *cd = fw->cudnn;
	while (cd && (*cd == '>' || *cd == '='))
		cd++;
	int cudnn_major = cd ? atoi(cd) : 0;
	/* pkg_dir is site-packages/<package>, except for JAX whose plugin spans several dirs */
	const char *site = fw->kind == PY_FW_JAX ? fw->pkg_dir : path_dirname(ctx->arena, fw->pkg_dir);
	struct py_proc proc;
	py_proc_init(&proc, ctx);
	/* the first object of the framework's rows that is installed: a release may keep its CUDA code
	 * in another object (onnxruntime-gpu before its CUDA provider became a library of its own) */
	const struct kb_framework_load *loads = rows[0];
	for (size_t i = 0; i < n_rows; i++)
		if (sysroot_exists(&ctx->root, path_join(ctx->arena, site, rows[i]->object))) {
			loads = rows[i];
			break;
		}
	struct py_object obj;
	/* "none": the framework's loader has no fixed object (CTranslate2's library is bundled under
	 * auditwheel's hashed name, with no path into the wheels): a plain dlopen by name */
	bool no_obj = strcmp(loads->object, "none") == 0;
	const char *obj_path = no_obj ? NULL : path_join(ctx->arena, site, loads->object);
	const char *why = NULL;
	bool have_obj = !no_obj && py_object_open(&proc, ctx, obj_path, &obj, &why);
	if (!have_obj && why)
		inventory_note(ctx, inv, obj_path, "%s: libraries resolved as a plain dlopen", why);
	size_t cap = 0;
	/* what the object links against (torch, ORT) first, then what it dlopens by name (TF, JAX) */
	if (have_obj) {
		for (size_t i = 0; i < obj.n_needed; i++) {
			if (!is_cuda_lib(unhashed(ctx, obj.needed[i])))
				continue;
			struct py_lib_use *u = add_use(ctx, fw, &cap, obj.needed[i]);
			if (u)
				u->via = arena_printf(ctx->arena, "NEEDED of %s", obj_path);
		}
	}
	const char **names;
	size_t n = component_names(ctx, loads->components, fw->cuda, cudnn_major, &names);
	/* a self-contained wheel (PyTorch 1.x from PyPI) links the CUDA libraries it bundles under
	 * auditwheel's hashed names and has the rest (cuBLAS, cuDNN) linked statically: it loads no
	 * plain name */
	bool self_contained = false;
	for (size_t k = 0; have_obj && k < obj.n_needed && !self_contained; k++) {
		const char *plain = unhashed(ctx, obj.needed[k]);
		self_contained = plain != obj.needed[k] && is_cuda_lib(plain);
	}
	for (size_t i = 0; i < n && !self_contained; i++) {
		struct py_lib_use *u = add_use(ctx, fw, &cap, names[i]);
		if (u)
			u->via = have_obj ? arena_printf(ctx->arena, "dlopen by %s", obj_path)
					  : arena_printf(ctx->arena, "dlopen by %s", py_fw_kind_name(fw->kind));
	}
	/* NEEDED entries are loaded first (at import), then the run-time loads, in this order */
	struct loader_object *cudart = NULL;
	for (size_t i = 0; i < fw->n_libs; i++) {
		struct py_lib_use *u = &fw->libs[i];
		bool needed = strncmp(u->via, "NEEDED", 6) == 0;
		struct loader_object *got = NULL;
		fill_use(ctx, inv, env, &proc, u, have_obj ? &obj : NULL, NULL, !needed, &got);
		if (strncmp(unhashed(ctx, u->name), "libcudart.so.", 13) == 0)
			cudart = got;
	}
	if (have_obj)
		read_archs(ctx, inv, fw, obj_path);
	/* the driver, as cudart loads it: dlopen("libcuda.so.1") from libcudart */
	struct py_lib_use *drv = add_use(ctx, fw, &cap, "libcuda.so.1");
	if (drv) {
		drv->via = cudart ? "dlopen by libcudart" : "dlopen";
		drv->optional = true; /* reported by the driver checks, not as a framework library */
		fill_use(ctx, inv, env, &proc, drv, NULL, cudart, true, NULL);
	}
}
