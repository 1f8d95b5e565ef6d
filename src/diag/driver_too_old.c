/* driver-too-old: is the driver new enough for each CUDA runtime here? A Linux system compares the
 * driver's version with each cudart copy's release (data/cuda_driver.tsv, with minor-version
 * compatibility); a Jetson compares its L4T release's CUDA (data/l4t.tsv); a Windows tree compares
 * nvcuda.dll's version with the runtime DLLs its simulated loads reach. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collect/windows.h"
#include "diag/driver_checks.h"
#include "fmt/version.h"
#include "kb/kb.h"
#include "loader/win_path.h"

#define REF_COMPAT "https://docs.nvidia.com/deploy/cuda-compatibility/"
#define REF_MINOR "https://docs.nvidia.com/deploy/cuda-compatibility/minor-version-compatibility.html"

/* "S1,S3" -> one evidence line per source with its title and link (data/sources.tsv) */
static void add_sources(struct finding *f, const char *keys)
{
	char key[16];
	for (const char *p = keys; p && *p;) {
		size_t n = strcspn(p, ",");
		if (n && n < sizeof key) {
			memcpy(key, p, n);
			key[n] = '\0';
			const struct kb_source *s = kb_source(key);
			if (s && s->url)
				finding_ref(f, s->url);
			finding_evidence(f, "source %s: %s", key, s && s->title ? s->title : "(unknown source key)");
		}
		p += n + (p[n] == ',');
	}
}

/* The CUDA release of a runtime (cudart copy): major.minor from its version, else the major alone. */
static bool runtime_cuda(const struct lib_file *l, char cuda[32])
{
	struct version rv;
	if (strcmp(l->component, "cudart") != 0 || l->broken_link)
		return false;
	if (l->version && version_parse(l->version, &rv) && rv.n >= 2)
		snprintf(cuda, 32, "%d.%d", rv.part[0], rv.part[1]);
	else if (l->cuda_major)
		snprintf(cuda, 32, "%d.0", l->cuda_major);
	else
		return false;
	return true;
}

/* A Jetson: its driver is the L4T release's and runs CUDA up to that JetPack's (data/l4t.tsv). Only
 * on the Jetson itself; in a container the release file is the image's. Thor's unified driver
 * (openrm) is judged by the CUDA major alone: whether it runs a later 13.x by minor-version
 * compatibility, as a desktop driver does, is not confirmed, so only a newer major is called too new. */
static void check_jetson_too_old(struct diag_ctx *d, const struct rule *self)
{
	const struct inventory *inv = d->inv;
	const struct driver_info *drv = &inv->driver;
	const struct kb_l4t *l4t = drv->l4t;
	/* a cuda-compat libcuda first on the path runs the newer CUDA by design (Orin) */
	if (!l4t || !drv->max_cuda || inv->system.container || driver_in_compat_dir(drv, drv->libcuda_path))
		return;
	for (size_t i = 0; i < inv->n_libs; i++) {
		const struct lib_file *l = &inv->libs[i];
		char cuda[32];
		if (!runtime_cuda(l, cuda) ||
		    (l4t->openrm ? atoi(cuda) <= atoi(drv->max_cuda) : version_strcmp(cuda, drv->max_cuda) <= 0))
			continue;
		struct finding *f = rule_emit(d, self, "L4T R%s (JetPack %s) runs CUDA up to %s, not the CUDA %s runtime",
					      drv->l4t_release, l4t->jetpack, drv->max_cuda, cuda);
		finding_subject(f, l->path);
		finding_cause(f, "A Jetson's GPU driver is part of its L4T release: R%s belongs to JetPack %s, whose "
				 "driver runs CUDA up to %s. The CUDA %s runtime %s needs a newer driver, so every call "
				 "fails with error 35: \"CUDA driver version is insufficient for CUDA runtime version\".",
			      drv->l4t_release, l4t->jetpack, drv->max_cuda, cuda, l->path);
		finding_evidence(f, "/etc/nv_tegra_release: L4T R%s = JetPack %s with CUDA %s (knowledge-base "
				    "sources %s%s)",
				 drv->l4t_release, l4t->jetpack, l4t->cuda, l4t->fact.source,
				 l4t->fact.unconfirmed ? ", unconfirmed" : "");
		finding_evidence(f, "CUDA runtime: %s (%s)", l->path, l->version ? l->version : cuda);
		finding_fix(f, "use software built for CUDA %s (NVIDIA's Jetson builds for JetPack %s), or flash a "
			       "JetPack whose CUDA is %s or newer with SDK Manager",
			    drv->max_cuda, l4t->jetpack, cuda);
		if (atoi(drv->l4t_release) >= 34 && !l4t->openrm) /* JetPack 5 and 6, the releases Orin runs */
			finding_fix(f, "on Jetson Orin, the CUDA %s toolkit's compatibility package (cuda-compat) runs it "
				       "on this JetPack: put its compat directory first on LD_LIBRARY_PATH",
				    cuda);
		finding_ref(f, REF_COMPAT);
		return; /* one finding: a second runtime would repeat the same advice */
	}
}

/* The CUDA release a Windows runtime DLL stands for, from the library catalogue (data/libs.tsv):
 * cudart64_100.dll is 10.0 (its cuda_versions); from 11 on one name serves a major
 * (cudart64_110.dll, cudart64_12.dll): "11", "12". NULL for another DLL. */
static const char *windows_cudart_cuda(struct arena *a, const char *name)
{
	const struct kb_lib *k = kb_lib_classify(name, OS_WINDOWS);
	if (!k || strcmp(k->component, "cudart") != 0 || !k->cuda_major)
		return NULL;
	return k->cuda_versions && !strchr(k->cuda_versions, ',') ? k->cuda_versions : arena_printf(a, "%d", k->cuda_major);
}

/* A Windows tree: each CUDA runtime DLL the simulated loads reached (a toolkit's, an application's
 * own copy) against the driver nvcuda.dll's version resource gives (or --driver). */
static void check_windows_too_old(struct diag_ctx *d, const struct rule *self)
{
	const struct inventory *inv = d->inv;
	const struct windows_inventory *w = inv->windows;
	const char *drv = inv->driver.effective_version ? inv->driver.effective_version : w->driver_version;
	if (!drv)
		return;
	const char *seen[16];
	size_t n_seen = 0;
	for (size_t q = 0; q < w->n_queries; q++)
		for (size_t i = 0; i < w->queries[q].tree.n; i++) {
			const struct win_node *nd = &w->queries[q].tree.nodes[i];
			const struct win_candidate *c = win_chosen(&nd->res);
			const char *cuda = c && !nd->repeat ? windows_cudart_cuda(d->ctx->arena, nd->name) : NULL;
			if (!cuda)
				continue;
			bool dup = false;
			for (size_t k = 0; k < n_seen; k++)
				dup |= strcmp(seen[k], cuda) == 0;
			if (dup || n_seen == 16)
				continue;
			seen[n_seen++] = cuda;
			/* 8.0 to 10.2: that release's own minimum; 11 on: the major's minor-compat floor */
			const struct kb_cuda_release *rel = strchr(cuda, '.') ? kb_cuda_release(cuda) : NULL;
			const char *need = rel ? rel->windows_driver : kb_minor_compat_floor(atoi(cuda), OS_WINDOWS, NULL);
			if (!need || version_strcmp(drv, need) >= 0)
				continue;
			const char *where = win_path_from_root(d->ctx->arena, c->path);
			struct finding *f = rule_emit(d, self, "driver %s is too old for the CUDA %s runtime %s (needs >= %s)", drv,
						      cuda, nd->name, need);
			finding_subject(f, c->path);
			const char *max = kb_driver_max_cuda(drv, OS_WINDOWS);
			finding_cause(f, "%s is a CUDA %s%s runtime, which needs driver %s or newer on Windows. Driver %s "
					 "supports CUDA up to %s, so every call fails with error 35: \"CUDA driver version "
					 "is insufficient for CUDA runtime version\".",
				      where, cuda, strchr(cuda, '.') ? "" : ".x", need, drv, max ? max : "an older release");
			finding_evidence(f, "driver: %s (%s)", drv,
					 inv->driver.effective_version ? "--driver"
					 : w->nvcuda_version ? arena_printf(d->ctx->arena, "nvcuda.dll file version %s", w->nvcuda_version)
							     : "nvcuda.dll");
			finding_evidence(f, "CUDA runtime: %s (%s)", where, w->queries[q].reason);
			finding_fix(f, "upgrade the NVIDIA driver to >= %s (https://www.nvidia.com/Download/index.aspx)", need);
			finding_ref(f, REF_COMPAT);
		}
}

/* The CUDA runtimes on this system (cudart copies), each with the driver it needs. */
void driver_check_too_old(struct diag_ctx *d, const struct rule *self)
{
	const struct inventory *inv = d->inv;
	const char *drv = inv->driver.effective_version;
	if ((inv->driver.tegra && !drv) || !driver_on_desktop_scale(&inv->driver)) {
		check_jetson_too_old(d, self);
		return;
	}
	if (d->ctx->os == OS_WINDOWS && inv->windows) {
		check_windows_too_old(d, self);
		return;
	}
	if (!drv || inv->driver.libcuda_is_stub)
		return;
	struct version dv;
	if (!version_parse(drv, &dv))
		return;
	const char *seen[64];
	size_t n_seen = 0;
	for (size_t i = 0; i < inv->n_libs; i++) {
		const struct lib_file *l = &inv->libs[i];
		char cuda[32];
		if (!runtime_cuda(l, cuda))
			continue;
		bool dup = false;
		for (size_t s = 0; s < n_seen; s++)
			dup |= strcmp(seen[s], cuda) == 0;
		if (dup || n_seen == 64)
			continue;
		seen[n_seen++] = arena_strdup(d->ctx->arena, cuda);

		const struct kb_cuda_release *rel = kb_cuda_release(cuda);
		if (!rel || !rel->linux_driver)
			continue;
		struct version need;
		if (!version_parse(d->ctx->os == OS_WINDOWS && rel->windows_driver ? rel->windows_driver : rel->linux_driver,
				   &need) ||
		    version_cmp(&dv, &need) >= 0)
			continue;
		struct version major_v;
		version_parse(cuda, &major_v);
		struct kb_fact ff = { 0 };
		const char *floor = kb_minor_compat_floor(major_v.part[0], d->ctx->os, &ff);
		struct version fv;
		bool minor_ok = floor && version_parse(floor, &fv) && version_cmp(&dv, &fv) >= 0;
		struct finding *f;
		if (minor_ok) {
			f = rule_emit(d, rule_family_find(&rules_driver, "driver-minor-compat"),
				      "CUDA %s runtime runs on driver %s only through minor-version compatibility", cuda, drv);
			finding_cause(f, "CUDA %s's own driver requirement is %s, and driver %s is older. Within CUDA %d.x, "
					 "minor-version compatibility lets it run on any driver >= %s, but features that need "
					 "the newer driver are unavailable, and PTX compiled by the newer toolkit cannot be "
					 "JIT-compiled by this driver (error 222, cudaErrorUnsupportedPtxVersion).",
				      cuda, rel->linux_driver, drv, major_v.part[0], floor);
			finding_fix(f, "upgrade the driver to >= %s to remove the limitation", rel->linux_driver);
			finding_ref(f, REF_MINOR);
		} else {
			/* what suffices: the floor of minor-version compatibility, or the release's own minimum
			 * where that is lower (CUDA 11.0's 450.51.05 below 11.x's 450.80.02) */
			const char *need_v = floor && major_v.part[0] && version_strcmp(floor, rel->linux_driver) < 0
						     ? floor
						     : rel->linux_driver;
			f = rule_emit(d, self, "driver %s is too old for the CUDA %s runtime (needs >= %s)", drv, cuda, need_v);
			/* the minor-compat floor is worth saying only when it is lower than the release's own */
			bool lower_floor = floor && version_strcmp(floor, rel->linux_driver) < 0;
			finding_cause(f, "The CUDA %s runtime needs driver >= %s%s%s%s. Driver %s supports CUDA up to %s. "
					 "cudaGetDeviceCount and every other call fail with error 35: \"CUDA driver version "
					 "is insufficient for CUDA runtime version\".",
				      cuda, rel->linux_driver, lower_floor ? " (>= " : "", lower_floor ? floor : "",
				      lower_floor ? " with minor-version compatibility)" : "", drv,
				      inv->driver.max_cuda ? inv->driver.max_cuda : "an older release only");
			finding_fix(f, "upgrade the NVIDIA driver to >= %s (branch R%d or newer; Ubuntu: sudo apt install "
				       "nvidia-driver-%d-server, Debian: the nvidia-driver package of a matching release)",
				    need_v, atoi(need_v), atoi(need_v));
			if (inv->driver.max_cuda)
				finding_fix(f, "or use software built for CUDA <= %s (e.g. a PyTorch wheel for that CUDA "
					       "version)", inv->driver.max_cuda);
			if (major_v.part[0] >= 10) /* cuda-compat packages begin with CUDA 10.0 */
				finding_fix(f, "or, on data-center GPUs, install the forward-compatibility package "
					       "cuda-compat-%d-%d and put /usr/local/cuda-%s/compat first on LD_LIBRARY_PATH",
					    major_v.part[0], major_v.part[1], cuda);
			finding_ref(f, REF_COMPAT);
		}
		finding_subject(f, l->path);
		finding_evidence(f, "driver: %s (%s)", drv,
				 inv->driver.simulated ? "--driver" : inv->driver.libcuda_version ? inv->driver.libcuda_path
												 : "kernel module");
		for (size_t k = 0; k < inv->n_libs; k++) {
			const struct lib_file *o = &inv->libs[k];
			if (strcmp(o->component, "cudart") == 0 && !o->broken_link && o->cuda_major == major_v.part[0] &&
			    (!o->version || strncmp(o->version, cuda, strlen(cuda)) == 0)) {
				finding_evidence(f, "CUDA runtime: %s (%s%s%s%s)", o->path, o->version ? "version " : "CUDA ",
						 o->version ? o->version : cuda, o->version_source ? ", from " : "",
						 o->version_source ? o->version_source : "");
				finding_path(f, o->path); /* every copy of that release: an app's own copy too */
			}
		}
		if (floor && version_strcmp(floor, rel->linux_driver) != 0)
			finding_evidence(f, "minimum driver: %s for CUDA %s itself, %s for any CUDA %d.x (minor-version "
					    "compatibility)%s",
					 rel->linux_driver, cuda, floor, major_v.part[0], ff.unconfirmed ? " [unconfirmed]" : "");
		else if (floor)
			finding_evidence(f, "minimum driver: %s for CUDA %s (also the floor of minor-version compatibility "
					    "for CUDA %d.x)%s",
					 rel->linux_driver, cuda, major_v.part[0], ff.unconfirmed ? " [unconfirmed]" : "");
		else /* before CUDA 11 each minor release needs its own driver */
			finding_evidence(f, "minimum driver: %s for CUDA %s (CUDA %d.x has no minor-version compatibility)",
					 rel->linux_driver, cuda, major_v.part[0]);
		add_sources(f, rel->fact.source);
	}
}
