/* The libraries a framework will load, resolved the way it loads them: the NEEDED entries and
 * run-time dlopen names of its CUDA-facing object (torch/lib/libtorch_cuda.so,
 * tensorflow/libtensorflow_framework.so.2, ...) searched with that object's RPATH/RUNPATH
 * ($ORIGIN into the nvidia/<pkg>/lib dirs of the wheels), LD_LIBRARY_PATH, ld.so.cache and the
 * default directories, in glibc's order. Each result is compared with the copy the environment's
 * nvidia-* wheel provides. */
#include <stdlib.h>
#include <string.h>

#include "collect/python.h"
#include "collect/python_facts.h"
#include "collect/python_resolve.h"
#include "fmt/elf.h"

#define PY_MAX_OBJECT (1u << 30) /* libtorch_cuda.so is ~1 GB with its fat binaries */

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
	for (size_t i = 0; i < env->n_wheels; i++) {
		const char *ld = env->wheels[i].lib_dir;
		if (ld && (strcmp(ld, dir) == 0 || strcmp(py_canon(ctx, ld), py_canon(ctx, dir)) == 0))
			return &env->wheels[i];
	}
	return NULL;
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
	const char *base = path_basename(real);
	const char *so = strstr(base, ".so.");
	if (so && strchr(so + 4, '.')) {
		*version = arena_strdup(ctx->arena, so + 4);
		*source = "file name";
	}
}

/* Component list "cudart,cublas,cudnn" -> file names for the framework's CUDA and cuDNN majors. */
static size_t component_names(struct cudx_ctx *ctx, const char *list, int cuda_major, int cudnn_major,
			      const char ***out)
{
	size_t n = 0, cap = 0;
	*out = NULL;
	const char *p = list;
	while (p && *p) {
		const char *comma = strchr(p, ',');
		size_t l = comma ? (size_t)(comma - p) : strlen(p);
		char *comp = arena_strndup(ctx->arena, p, l);
		int major = strcmp(comp, "cudnn") == 0 ? cudnn_major : cuda_major;
		const char *name = major > 0 ? py_fact_soname(comp, major) : NULL;
		if (name)
			*ARENA_PUSH(ctx->arena, *out, n, cap) = name;
		p = comma ? comma + 1 : NULL;
	}
	return n;
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
		     struct py_lib_use *u, const struct py_object *from)
{
	struct py_resolution r;
	py_resolve(ctx, from, u->name, &r);
	u->resolved = r.path;
	u->how = r.how;
	u->from = from ? from->path : NULL;
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
		u->n_others = py_other_majors(ctx, from, u->name, &u->others);
	}
}

void py_resolve_libs(struct cudx_ctx *ctx, struct inventory *inv, struct py_env *env,
		     struct py_framework *fw)
{
	if (ctx->os == OS_WINDOWS)
		return; /* DLL search is the windows module's; only what the package says is reported */
	const struct py_fact *loads = py_fact_loads(fw->name);
	if (!loads)
		return;
	int cuda_major = fw->cuda ? atoi(fw->cuda) : 0;
	const char *cd = fw->cudnn;
	while (cd && (*cd == '>' || *cd == '='))
		cd++;
	int cudnn_major = cd ? atoi(cd) : 0;
	/* pkg_dir is site-packages/<package>, except for JAX whose plugin spans several dirs */
	const char *site = fw->kind == PY_FW_JAX ? fw->pkg_dir : path_dirname(ctx->arena, fw->pkg_dir);
	struct py_object obj;
	const char *obj_path = path_join(ctx->arena, site, loads->version);
	const char *why = NULL;
	bool have_obj = py_object_open(ctx, obj_path, &obj, &why);
	if (!have_obj && why)
		inventory_note(ctx, inv, obj_path, "%s: libraries resolved as a plain dlopen", why);
	size_t cap = 0;
	/* what the object links against (torch, ORT) first, then what it dlopens by name (TF, JAX) */
	if (have_obj) {
		for (size_t i = 0; i < obj.n_needed; i++) {
			if (!is_cuda_lib(obj.needed[i]))
				continue;
			struct py_lib_use *u = add_use(ctx, fw, &cap, obj.needed[i]);
			if (u)
				u->via = arena_printf(ctx->arena, "NEEDED of %s", obj_path);
		}
	}
	const char **names;
	size_t n = component_names(ctx, loads->extra, cuda_major, cudnn_major, &names);
	for (size_t i = 0; i < n; i++) {
		struct py_lib_use *u = add_use(ctx, fw, &cap, names[i]);
		if (u)
			u->via = have_obj ? arena_printf(ctx->arena, "dlopen by %s", obj_path)
					  : arena_printf(ctx->arena, "dlopen by %s", py_fw_kind_name(fw->kind));
	}
	for (size_t i = 0; i < fw->n_libs; i++)
		fill_use(ctx, inv, env, &fw->libs[i], have_obj ? &obj : NULL);
	/* the driver, as cudart loads it (dlopen("libcuda.so.1") from libcudart: no RUNPATH of its own) */
	struct py_lib_use *drv = add_use(ctx, fw, &cap, "libcuda.so.1");
	if (drv) {
		drv->via = "dlopen by libcudart";
		drv->optional = true; /* reported by the driver checks, not as a framework library */
		fill_use(ctx, inv, env, drv, NULL);
	}
}
