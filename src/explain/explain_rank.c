/* Rank the causes of a message against the machine.
 *
 * The text gives the candidates, best first (explain_score.c). A cause is CONFIRMED when the
 * findings of the rules (the same rules and inventory as `check`) contain its finding id: its
 * evidence and fix then come from that finding, and an error finding puts it first, a warning
 * next (an informational finding, such as "no driver in this image", adds its evidence but moves
 * nothing). The loader confirms a missing library (with its trace of every place tried) or
 * another major of it. A cause is RULED_OUT when a machine check of the table below contradicts it
 * (e.g. "no driver" while a driver is loaded here): it goes last, with the reason. The rest keep
 * the text's order: the first is LIKELY, the others POSSIBLE, each with what to run where the
 * message happened. This assumes the message came from this machine (or the --root/--env/--pid
 * given); when the machine contradicts the message itself, r->elsewhere says so. A target that
 * shows nothing (an empty --root) confirms and contradicts nothing. */
#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "collect/python.h"
#include "collect/windows.h"
#include "diag/driver_checks.h"
#include "diag/rule.h"
#include "explain/explain_rank.h"
#include "fmt/version.h"
#include "kb/kb.h"
#include "util/ci.h"

const char *explain_conf_name(enum explain_conf c)
{
	static const char *const names[] = { "high", "medium", "low", "ruled-out" };
	return names[c];
}

static void add_kv(struct arena *a, struct explain_result *r, const char *k, const char *v)
{
	if (!v || !*v || explain_kv_get(r, k))
		return;
	*ARENA_PUSH(a, r->kv, r->n_kv, r->cap_kv) = (struct explain_kv){ k, v };
}

const char *explain_kv_get(const struct explain_result *r, const char *key)
{
	for (size_t i = 0; i < r->n_kv; i++)
		if (strcmp(r->kv[i].key, key) == 0)
			return r->kv[i].value;
	return NULL;
}

/* Case-insensitive helpers (util/ci.h: mingw lacks strcasestr). */
static bool ci_eq(const char *a, const char *b)
{
	while (*a && tolower((unsigned char)*a) == tolower((unsigned char)*b))
		a++, b++;
	return *a == 0 && *b == 0;
}


static void lib_kv(struct arena *a, struct explain_result *r, const struct explain_lib *l)
{
	if (!l->name)
		return;
	add_kv(a, r, "library", l->name);
	/* a family named by a word on a Windows line ("cublas library", read as libcublas.so) names
	 * no DLL: say which family */
	size_t family = explain_family_word_len(l->name);
	if (l->os == 'w')
		add_kv(a, r, "dll", family ? arena_printf(a, "a %.*s DLL", (int)family, l->name + 3) : l->name);
	if (l->os == 'w' && family)
		add_kv(a, r, "family_dll", "yes");
	if (l->major >= 0 && explain_kv_get(r, "library") == l->name)
		add_kv(a, r, "libmajor", arena_printf(a, "%d", l->major));
}

void explain_kv_fill(struct arena *a, const struct explain_message *m, struct explain_result *r)
{
	/* a program of a snap runs in the snap's own mount namespace (its base's /usr/lib, its
	 * loader cache): where the host's loader finds a library says nothing of that process */
	if (m->line && strstr(m->line, "/snap/"))
		add_kv(a, r, "sandboxed", "snap");
	/* the library a failure form is about says most; then any library the line names */
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < m->n_own; i++) {
			const struct explain_fact *f = &m->facts[i];
			if ((pass == 0 && f->kind == EXF_FORM && f->has_lib) || (pass == 1 && f->kind == EXF_LIB))
				lib_kv(a, r, &f->lib);
			/* a link-time failure ("ld: cannot find -lcurand"): ld.so's search has no say */
			if (pass == 0 && f->kind == EXF_FORM && f->form && strcmp(f->form, "link-not-found") == 0)
				add_kv(a, r, "link_time", "yes");
			/* a linker's own sentences (form linker): "libcuda.so.1, needed by X, not found" is
			 * about the build's environment, not about this loader */
			if (pass == 0 && f->kind == EXF_PHRASE && f->pattern && f->pattern->linker) {
				add_kv(a, r, "link_time", "yes");
				if (f->has_lib)
					lib_kv(a, r, &f->lib);
			}
			/* a run-time load that failed (not found, or found and not loadable) */
			if (pass == 0 && f->kind == EXF_FORM && f->has_lib && f->form &&
			    (strcmp(f->form, "not-found") == 0 || strcmp(f->form, "load-failed") == 0))
				add_kv(a, r, "load_failed", "yes");
		}
	for (size_t i = 0; i < m->n_facts; i++) {
		const struct explain_fact *f = &m->facts[i];
		if (f->kind == EXF_CODE)
			add_kv(a, r, "code", arena_printf(a, "%s (%s %ld)", f->code->name, f->code->api, f->code->code));
		else if (f->kind == EXF_FORM && f->symbol)
			add_kv(a, r, "symbol", f->symbol);
		else if (f->kind == EXF_VERSION)
			add_kv(a, r, f->role && strcmp(f->role, "kernel") != 0 ? f->role : f->what, f->value);
		else if (f->kind == EXF_ARCH)
			add_kv(a, r, "sm", arena_printf(a, "sm_%d", f->sm));
	}
}

/* Fill {key} placeholders from the facts; a missing fact reads as a neutral word. */
static const char *fill(struct arena *a, const struct explain_result *r, const char *tmpl)
{
	static const struct {
		const char *key, *dflt;
	} dflt[] = {
		{ "lib", "the library" },     { "dll", "the DLL" },         { "libmajor", "required" },
		{ "found", "an older version" }, { "built", "the build's version" },
		{ "cuda", "the required CUDA" }, { "symbol", "a symbol" },
	};
	char *out = arena_strdup(a, "");
	const char *s = tmpl;
	while (*s) {
		const char *open = strchr(s, '{');
		const char *close = open ? strchr(open, '}') : NULL;
		if (!open || !close) {
			out = arena_printf(a, "%s%s", out, s);
			break;
		}
		/* only {word} is a placeholder: a shell's ${VAR:-default} in a fix stays as written */
		bool placeholder = close > open + 1;
		for (const char *k = open + 1; k < close && placeholder; k++)
			placeholder = (*k >= 'a' && *k <= 'z') || *k == '_';
		if (!placeholder) {
			out = arena_printf(a, "%s%.*s", out, (int)(open + 1 - s), s);
			s = open + 1;
			continue;
		}
		char *key = arena_strndup(a, open + 1, (size_t)(close - open - 1));
		const char *v = explain_kv_get(r, strcmp(key, "lib") == 0 ? "library" : key);
		for (size_t i = 0; !v && i < sizeof dflt / sizeof dflt[0]; i++)
			if (strcmp(dflt[i].key, key) == 0)
				v = dflt[i].dflt;
		out = arena_printf(a, "%s%.*s%s", out, (int)(open - s), s, v ? v : key);
		s = close + 1;
	}
	return out;
}

static void push_str(struct arena *a, const char ***v, size_t *n, size_t *cap, const char *s)
{
	if (*n < 32)
		*ARENA_PUSH(a, *v, *n, *cap) = s;
}

/* ---- machine checks that contradict a cause (rule_out column) ---------------------------- */

/* Whether a copy was found on a loader search path (rather than only somewhere on disk). */
static bool origin_on_path(const char *origin)
{
	static const char *const on_path[] = { "ld.so.cache", "LD_LIBRARY_PATH", "default",
					       "PATH", "System32", "application", "RUNPATH", "RPATH" };
	if (!origin)
		return false;
	for (size_t i = 0; i < sizeof on_path / sizeof on_path[0]; i++)
		if (strstr(origin, on_path[i]))
			return true;
	return false;
}

/* Where a copy is: on no search path, on one, or on one whatever the process's environment (not only
 * through LD_LIBRARY_PATH, which the failing process need not have had). */
enum lib_where { LIB_OFF_PATH, LIB_ON_PATH, LIB_ON_FIXED_PATH };

static const struct lib_file *find_lib(const struct inventory *inv, const char *name, enum lib_where where)
{
	for (size_t i = 0; i < inv->n_libs; i++) {
		const struct lib_file *l = &inv->libs[i];
		if (l->broken_link || l->is_stub)
			continue;
		bool same = (l->name && ci_eq(l->name, name)) || (l->soname && ci_eq(l->soname, name));
		bool on_path = origin_on_path(l->origin);
		if (!same || on_path != (where != LIB_OFF_PATH))
			continue;
		if (where == LIB_ON_FIXED_PATH && strstr(l->origin, "LD_LIBRARY_PATH"))
			continue;
		return l;
	}
	return NULL;
}

static const char *check_lib_present(struct arena *a, const struct explain_machine *m,
				     struct explain_result *r)
{
	const char *lib = explain_kv_get(r, "library");
	/* a snap's own loader is not the one the tree shows */
	if (!lib || explain_kv_get(r, "sandboxed"))
		return NULL;
	const struct lib_file *l = find_lib(m->inv, lib, LIB_ON_FIXED_PATH);
	if (!l)
		return NULL;
	/* the linker reads no ld.so.cache: only a copy in a default directory is on its path */
	if (explain_kv_get(r, "link_time") && (!l->origin || strcmp(l->origin, "default dir") != 0))
		return NULL;
	r->elsewhere = arena_printf(
		a,
		"%s is on the search path here (%s, via %s): the message probably came from another "
		"environment (another container, virtual environment or shell). Inspect that process's "
		"environment (LD_LIBRARY_PATH, PATH, CONDA_PREFIX): cudx explain --pid PID, or --env FILE "
		"with its `env` output, or --root on its image.",
		lib, l->path, l->origin ? l->origin : "?");
	return arena_printf(a, "%s is found on the search path here: %s (%s)", lib, l->path,
			    l->origin ? l->origin : "?");
}

/* A versioned copy (libnvidia-ml.so.1) on the search path of an unversioned name the message
 * asks for (libnvidia-ml.so): the library is installed, only its development link is not. */
static const struct lib_file *versioned_copy(const struct inventory *inv, const char *lib)
{
	size_t n = strlen(lib);
	if (n < 4 || strcmp(lib + n - 3, ".so") != 0)
		return NULL;
	for (size_t i = 0; i < inv->n_libs; i++) {
		const struct lib_file *l = &inv->libs[i];
		if (!l->broken_link && !l->is_stub && l->name && strncasecmp(l->name, lib, n) == 0 && l->name[n] == '.' &&
		    origin_on_path(l->origin))
			return l;
	}
	return NULL;
}

static const char *check_versioned_copy_absent(struct arena *a, const struct explain_machine *m,
					       struct explain_result *r)
{
	const char *lib = explain_kv_get(r, "library");
	if (!lib || versioned_copy(m->inv, lib))
		return NULL;
	return arena_printf(a, "no versioned %s.N is on the search path here either: the library is missing, "
			       "not only its development link",
			    lib);
}

/* A Windows system's driver: its nvcuda.dll in System32 (no kernel module to read), when its version
 * resource names a driver release (a file without one is no evidence); NULL elsewhere. */
static const char *windows_driver(const struct explain_machine *m)
{
	const struct windows_inventory *w = m->os == OS_WINDOWS ? m->inv->windows : NULL;
	return w && w->nvcuda_path ? w->driver_version : NULL;
}

static const char *check_driver_present(struct arena *a, const struct explain_machine *m,
					struct explain_result *r)
{
	const struct driver_info *d = &m->inv->driver;
	if (d->kernel_version)
		return arena_printf(a, "the NVIDIA kernel driver %s is loaded here (/proc/driver/nvidia/version)",
				    d->kernel_version);
	if (d->wsl && !d->wsl1 && d->libcuda_path && !d->libcuda_is_stub)
		return arena_printf(a, "the WSL driver library is present here: %s", d->libcuda_path);
	const char *w = windows_driver(m);
	return w ? arena_printf(a, "the driver's nvcuda.dll is installed here: driver %s", w) : NULL;
}

/* The driver here: its version and the newest CUDA it supports (the kernel module's, else the
 * libcuda's); on a Windows system nvcuda.dll's version resource, there being no module to read.
 * false when unknown. */
static bool machine_driver(const struct explain_machine *m, const char **ver, const char **max_cuda)
{
	const struct driver_info *d = &m->inv->driver;
	*ver = d->effective_version;
	*max_cuda = d->max_cuda;
	if (!*ver && (*ver = windows_driver(m)))
		*max_cuda = kb_driver_max_cuda(*ver, OS_WINDOWS);
	return *ver && *max_cuda;
}

/* How the driver here compares with the CUDA the message needs: < 0 it supports an older one, >= 0
 * it covers it; INT_MIN when either is unknown. *cuda: the message's CUDA. */
static int driver_vs_message_cuda(const struct explain_machine *m, const struct explain_result *r, const char **cuda)
{
	*cuda = explain_kv_get(r, "cuda");
	const char *ver, *max_cuda;
	struct version want, have;
	if (!*cuda || !machine_driver(m, &ver, &max_cuda) || !version_parse(*cuda, &want) ||
	    !version_parse(max_cuda, &have))
		return INT_MIN;
	return version_cmp_parts(&have, &want, 2);
}

static const char *check_driver_new_enough(struct arena *a, const struct explain_machine *m,
					   struct explain_result *r)
{
	const char *cuda, *ver, *max_cuda;
	int c = driver_vs_message_cuda(m, r, &cuda);
	if (c == INT_MIN || c < 0 || !machine_driver(m, &ver, &max_cuda))
		return NULL;
	return arena_printf(a, "the driver here (%s) supports CUDA up to %s, which covers CUDA %s", ver, max_cuda, cuda);
}

/* The newest CUDA major the machine shows: of every CUDA library found (on a search path or not: a
 * program's own folder, a wheel, a toolkit; not the driver's own, not stubs) and of every
 * framework's build; 0 when none. */
static int newest_cuda_major(const struct inventory *inv, const char **which)
{
	int best = 0;
	for (size_t i = 0; i < inv->n_libs; i++) {
		const struct lib_file *l = &inv->libs[i];
		if (l->broken_link || l->is_stub || l->cuda_major <= best || (l->family && strcmp(l->family, "driver") == 0))
			continue;
		best = l->cuda_major;
		*which = l->path;
	}
	const struct python_inventory *py = inv->python;
	for (size_t e = 0; py && e < py->n_envs; e++)
		for (size_t i = 0; i < py->envs[e].n_fws; i++) {
			const struct py_framework *fw = &py->envs[e].fws[i];
			if (fw->cuda && atoi(fw->cuda) > best) {
				best = atoi(fw->cuda);
				*which = fw->pkg_dir;
			}
		}
	return best;
}

/* driver-new-enough, and where the message names no CUDA the machine's own: since CUDA 11 a runtime
 * runs on any driver of its major from the major's minor-version floor on, so a driver whose CUDA
 * major covers every CUDA library and framework build found here cannot be what error 35 means
 * (its JIT of newer PTX can still fail: ptx-too-new keeps driver-new-enough). Not where check found
 * a runtime the driver is too old for; a runtime linked statically into a program stays unseen. */
static const char *check_driver_covers_runtimes(struct arena *a, const struct explain_machine *m,
						struct explain_result *r)
{
	if (explain_kv_get(r, "cuda"))
		return check_driver_new_enough(a, m, r);
	if (m->fs && (findings_has(m->fs, "driver-too-old") || findings_has(m->fs, "framework-driver-too-old")))
		return NULL;
	const char *which = NULL, *ver, *max_cuda;
	int major = newest_cuda_major(m->inv, &which);
	struct version have, floor_v;
	if (major < 11 || !machine_driver(m, &ver, &max_cuda) || m->inv->driver.libcuda_is_stub ||
	    !driver_on_desktop_scale(&m->inv->driver) ||
	    !version_parse(max_cuda, &have) || have.part[0] < major)
		return NULL;
	const char *floor = kb_minor_compat_floor(major, m->os, NULL);
	struct version dv;
	if (!floor || !version_parse(floor, &floor_v) || !version_parse(ver, &dv) || version_cmp(&dv, &floor_v) < 0)
		return NULL;
	return arena_printf(a, "the driver here (%s) supports CUDA up to %s, and the newest CUDA found here is "
			       "of CUDA %d (%s), which runs on any driver from %s on (minor-version compatibility); "
			       "a runtime of the program's own (in its folder, or linked statically) is not seen: "
			       "name the program with --app",
			    ver, max_cuda, major, which, floor);
}

/* The converse of driver-new-enough: the driver here supports an older CUDA than the one the
 * message needs (the image's NVIDIA_REQUIRE_CUDA, the runtime a program was built with). */
static const char *driver_below_message_cuda(struct arena *a, const struct explain_machine *m,
					     const struct explain_result *r)
{
	const char *cuda, *ver, *max_cuda;
	int c = driver_vs_message_cuda(m, r, &cuda);
	if (c == INT_MIN || c >= 0 || !machine_driver(m, &ver, &max_cuda))
		return NULL;
	return arena_printf(a, "the driver here (%s) supports CUDA up to %s, older than CUDA %s", ver, max_cuda, cuda);
}

/* Every PyTorch on the machine is a CUDA build (torch/version.py names its CUDA): not a CPU wheel. */
static const char *check_torch_gpu_build(struct arena *a, const struct explain_machine *m,
					 struct explain_result *r)
{
	(void)r;
	const struct python_inventory *py = m->inv->python;
	const struct py_framework *seen = NULL;
	const char *prefix = NULL;
	for (size_t e = 0; py && e < py->n_envs; e++)
		for (size_t i = 0; i < py->envs[e].n_fws; i++) {
			const struct py_framework *fw = &py->envs[e].fws[i];
			if (fw->kind != PY_FW_TORCH)
				continue;
			if (!fw->gpu_build || fw->cpu_only || !fw->cuda)
				return NULL;
			seen = fw;
			prefix = py->envs[e].prefix;
		}
	if (!seen)
		return NULL;
	return arena_printf(a, "PyTorch %s in %s is built for CUDA %s (%s)", seen->version ? seen->version : "",
			    prefix, seen->cuda, seen->cuda_source ? seen->cuda_source : "its package");
}

/* The nvcc a build takes accepts the host compiler it would run (its host_config.h's newest GCC). */
static const char *check_host_compiler_supported(struct arena *a, const struct explain_machine *m,
						 struct explain_result *r)
{
	(void)r;
	const struct host_compiler *h = &m->inv->hostcc;
	const struct toolkit *tk = hostcc_toolkit(m->inv);
	if (!tk || !h->gcc_major || !tk->gcc_max_major || h->gcc_major > tk->gcc_max_major)
		return NULL;
	return arena_printf(a, "the nvcc a build takes here (%s) accepts GCC up to %d, and the compiler it would use, %s, is GCC %d",
			    tk->nvcc, tk->gcc_max_major, h->path, h->gcc_major);
}

static const char *check_gpu_present(struct arena *a, const struct explain_machine *m,
				     struct explain_result *r)
{
	/* a GPU the driver or the probe shows; one only named with --gpu says what is installed, not
	 * that the driver sees it ("No devices were found" on a laptop whose driver does not drive it) */
	for (size_t i = 0; i < m->inv->n_gpus; i++) {
		const struct gpu_info *g = &m->inv->gpus[i];
		if (g->source && strcmp(g->source, "--gpu") == 0)
			continue;
		return arena_printf(a, "a GPU is visible here: %s (%s)", g->name ? g->name : "GPU 0",
				    g->source ? g->source : "?");
	}
	return NULL;
}

static const char *check_not_wsl(struct arena *a, const struct explain_machine *m,
				 struct explain_result *r)
{
	if (m->inv->driver.wsl || m->os != OS_LINUX)
		return NULL;
	return "this system is not WSL (no /usr/lib/wsl/lib, no /dev/dxg)";
}

/* Whether the message carries a code whose knowledge-base row points at this finding. */
static bool message_code_says(const struct explain_result *r, const char *finding, bool only_cause)
{
	for (size_t i = 0; r->msg && i < r->msg->n_facts; i++) {
		const struct explain_fact *f = &r->msg->facts[i];
		if (f->kind == EXF_CODE && f->code->finding && strcmp(f->code->finding, finding) == 0 &&
		    !(only_cause && f->code->causes && strchr(f->code->causes, ',')))
			return true;
	}
	return false;
}

/* Whether a tool's own sentence in the message names the finding as its only cause
 * (nvidia-container-cli's "file exists": driver libraries baked into the image). */
static bool message_phrase_says(const struct explain_result *r, const char *finding)
{
	for (size_t i = 0; r->msg && i < r->msg->n_facts; i++) {
		const struct explain_fact *f = &r->msg->facts[i];
		if (f->kind == EXF_PHRASE && !f->context && !f->pattern->generic && f->pattern->n_causes == 1 &&
		    strcmp(f->pattern->causes[0]->finding, finding) == 0)
			return true;
	}
	return false;
}

static const char *check_no_stub(struct arena *a, const struct explain_machine *m,
				 struct explain_result *r)
{
	const struct driver_info *d = &m->inv->driver;
	if (!d->libcuda_path || d->libcuda_is_stub)
		return NULL;
	/* Only the stub returns 34 (CUDA_ERROR_STUB_LIBRARY): the process that printed it loaded one,
	 * through its own RUNPATH or by the unversioned name, whatever the default search finds */
	if (message_code_says(r, "stub-libcuda", false))
		return NULL;
	return arena_printf(a, "the libcuda the loader picks here is the driver's, not the stub: %s",
			    d->libcuda_path);
}

/* The loaded kernel module and the driver's user-space libraries are one release. */
/* Whether the loaded module and the libcuda.so.1 the loader picks are one release. */
static bool module_is_libcuda_release(const struct driver_info *d)
{
	return d->kernel_version && d->libcuda_version && !d->libcuda_is_stub &&
	       strcmp(d->kernel_version, d->libcuda_version) == 0;
}

static const char *check_driver_versions_agree(struct arena *a, const struct explain_machine *m,
					       struct explain_result *r)
{
	(void)r;
	const struct driver_info *d = &m->inv->driver;
	if (!module_is_libcuda_release(d) || (d->nvml_version && strcmp(d->nvml_version, d->kernel_version) != 0))
		return NULL;
	/* a container image with a toolkit's forward-compatibility libcuda: the NVIDIA container
	 * runtime mounts it over the host's when it is newer (libnvidia-container's CUDA compat
	 * mode), so the libcuda the process ran with need not be the one the tree's loader picks */
	if (m->inv->system.container && d->n_compat_dirs)
		return NULL;
	return arena_printf(a, "the loaded kernel module and the libcuda.so.1 the loader picks (%s) are one release, %s",
			    d->libcuda_path, d->kernel_version);
}

/* No forward-compatibility libcuda anywhere (no cuda-compat directory), and the libcuda the loader
 * picks is the loaded module's own release: CUDA meets no libcuda newer than the module, which is
 * what error 804 reports. Not in a container, whose compat libraries the NVIDIA runtime may mount
 * from outside the image. */
static const char *check_no_compat_lib(struct arena *a, const struct explain_machine *m, struct explain_result *r)
{
	(void)r;
	const struct driver_info *d = &m->inv->driver;
	if (d->n_compat_dirs || m->inv->system.container || !module_is_libcuda_release(d))
		return NULL;
	return arena_printf(a, "no forward-compatibility libcuda here (no cuda-compat directory), and the libcuda.so.1 "
			       "the loader picks (%s) is the loaded module's release, %s",
			    d->libcuda_path, d->kernel_version);
}

/* No stubs directory on LD_LIBRARY_PATH where it ran (the environment is known). */
static const char *check_no_stubs_on_path(struct arena *a, const struct explain_machine *m,
					  struct explain_result *r)
{
	(void)r;
	if (!m->env_origin || m->env_unknown)
		return NULL;
	const char *v = inventory_env(m->inv, "LD_LIBRARY_PATH");
	const char **dirs;
	size_t n = v ? env_split_path(a, v, ':', &dirs) : 0;
	for (size_t i = 0; i < n; i++)
		if (strcmp(path_basename(path_normalize(a, dirs[i])), "stubs") == 0)
			return NULL;
	return arena_printf(a, "LD_LIBRARY_PATH where it ran (%s) names no stubs directory%s", m->env_origin,
			    v ? "" : ": it is not set");
}

static bool finding_mentions(const struct finding *f, const char *what);

/* Windows: check looked for nvcuda.dll, which the NVIDIA display driver puts in System32, in every
 * directory Windows searches and found none, nor a copy anywhere else (dll-not-found of nvcuda.dll
 * whose summary does not read "is installed at ...": src/diag/rules_windows.c, diag_not_found):
 * no driver at all. */
static const struct finding *windows_no_nvcuda(const struct explain_machine *m)
{
	for (size_t i = 0; m->os == OS_WINDOWS && i < m->fs->n; i++) {
		const struct finding *f = &m->fs->v[i];
		if (strcmp(f->id, "dll-not-found") == 0 && finding_mentions(f, "nvcuda.dll") &&
		    !(f->summary && ci_has(f->summary, " is installed at ")))
			return f;
	}
	return NULL;
}

/* No driver is not an old one: the runtime returns 35 (insufficient driver) also when it finds no
 * driver library at all (data/errors.tsv's note on cudaErrorInsufficientDriver). */
static const char *check_some_driver(struct arena *a, const struct explain_machine *m, struct explain_result *r)
{
	(void)r;
	return windows_no_nvcuda(m) ? arena_printf(a, "no nvcuda.dll is on this system: no NVIDIA driver at all, "
						     "not an old one (the runtime says 35 when it finds none)")
				    : NULL;
}

/* Whether the message shows Linux: a shared object (.so), a /dev/nvidia* node, ld.so or its
 * variables, glibc's symbol versions, a Unix path or the linker's -l; on a Windows host such a
 * message came from WSL 2 or a Linux container (Docker Desktop), not from Windows. */
static bool windows_message(const struct explain_message *msg);

static bool linux_message(const struct explain_message *msg)
{
	if (windows_message(msg)) /* a DLL or a Windows code: Windows', whatever its paths look like */
		return false;
	static const char *const marks[] = { "/dev/nvidia",
					     "ld.so",
					     "nvidia-uvm",
					     "nvidia_uvm",
					     "ld_library_path",
					     "ldconfig",
					     "glibc",
					     "core dumped",
					     "/usr/bin/ld",
					     "cannot find -l",
					     "shared object",
					     "elfclass",
					     "wrong elf",
					     "version `",
					     "undefined symbol",
					     "error while loading shared libraries" };
	/* Unix directories, case as written: a Windows path with forward slashes has Lib, not lib */
	static const char *const dirs[] = { "/usr/", "/opt/", "/lib/", "/lib64/", "/home/", "/etc/" };
	for (size_t i = 0; i < msg->n_facts; i++)
		if (msg->facts[i].kind == EXF_LIB && msg->facts[i].lib.os == 'l')
			return true;
	for (size_t i = 0; msg->line && i < sizeof marks / sizeof marks[0]; i++)
		if (ci_has(msg->line, marks[i]))
			return true;
	for (size_t i = 0; msg->line && i < sizeof dirs / sizeof dirs[0]; i++)
		if (strstr(msg->line, dirs[i]))
			return true;
	return false;
}

/* A Windows system has no /dev/nvidia* nodes, no nvidia-uvm module and no ld.so: the causes made of
 * them cannot be its, unless the message itself is a Linux one (WSL 2, a Linux container). */
static const char *check_linux_system(struct arena *a, const struct explain_machine *m, struct explain_result *r)
{
	if (m->os != OS_WINDOWS || (r->msg && linux_message(r->msg)))
		return NULL;
	return arena_printf(a, "this is a Windows system: no /dev/nvidia* device nodes, kernel modules or ld.so to "
			       "be at fault");
}

static bool machine_known(const struct explain_machine *m);

/* The converse: a cause that exists only on native Windows (TensorFlow's CPU-only wheels there)
 * cannot be a Linux target's, WSL's included. */
static const char *check_windows_system(struct arena *a, const struct explain_machine *m, struct explain_result *r)
{
	(void)r;
	if (m->os == OS_WINDOWS || !(machine_known(m) || m->inv->driver.wsl))
		return NULL;
	return arena_printf(a, "this is a Linux system%s, not native Windows", m->inv->driver.wsl ? " (WSL)" : "");
}

/* check read GPU libraries here and found none that lacks glibc (neither glibc-on-musl nor no-libc):
 * glibc's programs can start on this system, it is no musl image. Nothing on an empty tree, nor on
 * a live host outside a container: a message from a container (an Alpine image) did not run here. */
static const char *check_glibc_present(struct arena *a, const struct explain_machine *m, struct explain_result *r)
{
	(void)r;
	if (!m->inv->n_libs || (m->inv->system.live && !m->inv->system.container))
		return NULL;
	for (size_t i = 0; i < m->fs->n; i++)
		if (strcmp(m->fs->v[i].id, "glibc-on-musl") == 0 || strcmp(m->fs->v[i].id, "no-libc") == 0)
			return NULL;
	return arena_printf(a, "check read %zu GPU librar%s here and none lacks glibc's program interpreter: this "
			       "system has glibc",
			    m->inv->n_libs, m->inv->n_libs == 1 ? "y" : "ies");
}

static const struct {
	const char *name;
	const char *(*check)(struct arena *a, const struct explain_machine *m, struct explain_result *r);
} rule_outs[] = {
	{ "lib-present", check_lib_present },   { "driver-present", check_driver_present },
	{ "driver-new-enough", check_driver_new_enough }, { "gpu-present", check_gpu_present },
	{ "not-wsl", check_not_wsl },           { "no-stub", check_no_stub },
	{ "versioned-copy-absent", check_versioned_copy_absent }, { "torch-gpu-build", check_torch_gpu_build },
	{ "host-compiler-supported", check_host_compiler_supported }, { "no-stubs-on-path", check_no_stubs_on_path },
	{ "driver-versions-agree", check_driver_versions_agree }, { "no-compat-lib", check_no_compat_lib },
	{ "driver-covers-runtimes", check_driver_covers_runtimes }, { "some-driver", check_some_driver },
	{ "linux-system", check_linux_system },   { "windows-system", check_windows_system },
	{ "glibc-present", check_glibc_present },
};

/* The next name of a comma-separated rule_out list at *s: its length, *s moved past its comma;
 * false at the end of the list. An empty name (a trailing or doubled comma) is returned as one. */
static bool next_rule_out(const char **s, const char *list, size_t *len)
{
	if (!*s || (!**s && *s == list)) /* past the last name; an empty list names nothing */
		return false;
	const char *comma = strchr(*s, ',');
	*len = comma ? (size_t)(comma - *s) : strlen(*s);
	return true;
}

/* Whether a cause's rule_out column (one check, or several separated by commas) names check. */
static bool rule_out_names(const struct explain_cause_def *c, const char *check)
{
	size_t len;
	for (const char *s = c->rule_out; next_rule_out(&s, c->rule_out, &len);) {
		if (len == strlen(check) && strncmp(s, check, len) == 0)
			return true;
		s = s[len] ? s + len + 1 : NULL;
	}
	return false;
}

bool explain_rule_out_known(const char *name)
{
	size_t len;
	for (const char *s = name; next_rule_out(&s, name, &len);) {
		bool known = false;
		for (size_t i = 0; i < sizeof rule_outs / sizeof rule_outs[0] && !known; i++)
			known = strlen(rule_outs[i].name) == len && strncmp(rule_outs[i].name, s, len) == 0;
		if (!known)
			return false;
		s = s[len] ? s + len + 1 : NULL;
	}
	return true;
}

/* ---- confirmation from findings ----------------------------------------------------------- */

static bool finding_mentions(const struct finding *f, const char *what)
{
	if ((f->summary && ci_has(f->summary, what)) || (f->subject && ci_has(f->subject, what)))
		return true;
	for (size_t i = 0; i < f->n_evidence; i++)
		if (ci_has(f->evidence[i], what))
			return true;
	return false;
}

/* Whether the library a per-library finding is about (its subject: "FILE", or "REQUESTER -> NAME"
 * for what a requester loads) begins with the name of a cause's library ("libcublas"). */
static bool finding_is_about(const struct finding *f, const char *about)
{
	if (!f->subject)
		return false;
	const char *arrow = strstr(f->subject, " -> ");
	const char *name = arrow ? arrow + 4 : strrchr(f->subject, '/') ? strrchr(f->subject, '/') + 1 : f->subject;
	return strncasecmp(name, about, strlen(about)) == 0;
}

/* The finding that confirms c, preferring one about the message's library, then the most severe.
 * A finding about one library (lib-*, dll-*) confirms only a message about that library:
 * "libnvrtc.so.12 not found" says nothing about the libcudnn.so.8 of the message. */
static const struct finding *confirming(const struct explain_machine *m, const char *finding_id, const char *lib,
					const char *about)
{
	const struct finding *best = NULL;
	bool best_named = false;
	bool per_library = strncmp(finding_id, "lib-", 4) == 0 || strncmp(finding_id, "dll-", 4) == 0;
	for (size_t i = 0; i < m->fs->n; i++) {
		const struct finding *f = &m->fs->v[i];
		if (strcmp(f->id, finding_id) != 0)
			continue;
		/* a cause about one library where the message names none (a cuBLAS status code) */
		if (per_library && !lib && about && *about && !finding_is_about(f, about))
			continue;
		bool named = lib && finding_mentions(f, lib);
		if (per_library && lib && !named)
			continue;
		if (!best || named > best_named || (named == best_named && f->severity > best->severity))
			best = f, best_named = named;
	}
	return best;
}

/* ---- support from the loader and the inventory ------------------------------------------- */

/* Another major of the library the message wants, on this machine: "libcublasLt.so.12" when
 * "libcublasLt.so.11" was asked for, "cublas64_12.dll" for "cublas64_11.dll". */
static const struct lib_file *other_major(const struct inventory *inv, const char *want)
{
	const char *so = strstr(want, ".so.");
	const char *us = strrchr(want, '_');
	size_t stem;
	if (so)
		stem = (size_t)(so - want) + 4;
	else if (us && ci_has(us, ".dll"))
		stem = (size_t)(us - want) + 1;
	else
		return NULL;
	for (size_t i = 0; i < inv->n_libs; i++) {
		const struct lib_file *l = &inv->libs[i];
		const char *n = l->soname ? l->soname : l->name;
		if (!n || l->is_stub || l->broken_link || strlen(n) <= stem)
			continue;
		bool same_stem = true;
		for (size_t k = 0; k < stem && same_stem; k++)
			same_stem = tolower((unsigned char)n[k]) == tolower((unsigned char)want[k]);
		/* the version tails ("10.1", "12", "110.dll") name another release: CUDA 10.1's cuBLAS is
		 * libcublas.so.10, the same library as libcublas.so.10.1, while 10.0 and 10.1 are two
		 * (CUDA 9 and 10 put the minor in the runtime's SONAME) */
		if (same_stem && !ci_eq(n, want) && isdigit((unsigned char)n[stem]) &&
		    isdigit((unsigned char)want[stem]) && version_other_release(n + stem, want + stem))
			return l;
	}
	return NULL;
}

enum support { SUPPORT_NONE, SUPPORT_CONFIRMS, SUPPORT_CONTRADICTS };

/* Whether path's directory is one binutils ld searches without -L: /lib, /usr/lib, /lib64,
 * /usr/lib64, /usr/local/lib and their multiarch subdirectories (/usr/lib/x86_64-linux-gnu). */
static bool linker_default_dir(struct arena *a, const char *path)
{
	static const char *const dirs[] = { "/lib", "/usr/lib", "/lib64", "/usr/lib64", "/usr/local/lib" };
	const char *dir = path_dirname(a, path);
	for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++) {
		size_t n = strlen(dirs[i]);
		if (strncmp(dir, dirs[i], n) != 0)
			continue;
		if (dir[n] == 0)
			return true;
		/* one multiarch level below: "/usr/lib/x86_64-linux-gnu" */
		if (dir[n] == '/' && !strchr(dir + n + 1, '/') && strstr(dir + n + 1, "-linux-gnu"))
			return true;
	}
	return false;
}

/* A library of the driver's family (libcuda.so.1, libnvidia-ml.so.1), by the knowledge base. */
static bool driver_library(const char *name)
{
	const struct kb_lib *k = kb_lib_classify(name, OS_LINUX);
	return k && k->family && strcmp(k->family, "driver") == 0;
}

/* A library a framework keeps beside its own modules and loads through their RUNPATH or by its
 * path: PyTorch's (torch/lib: libtorch*, libc10*), bitsandbytes' native libraries (loaded from
 * its package directory), which no search by name finds on any machine. */
static bool framework_private(const char *lib)
{
	return strncmp(lib, "libtorch", 8) == 0 || strncmp(lib, "libc10", 6) == 0 ||
	       strncmp(lib, "libbitsandbytes", 15) == 0;
}

/* check's lib-damaged finding about the empty file the search stopped at (rules_libs.c: an empty
 * file where a driver library's name leads, in front of the real library of the kernel module's
 * release beside it), by the file or the name that leads to it; NULL when check has none */
static const struct finding *empty_in_front(const struct explain_machine *m, const struct explain_resolution *res)
{
	for (size_t i = 0; res->available && res->placeholder && m->fs && i < m->fs->n; i++) {
		const struct finding *f = &m->fs->v[i];
		if (strcmp(f->id, "lib-damaged") != 0 || !f->subject)
			continue;
		bool about = strcmp(f->subject, res->placeholder) == 0;
		for (size_t k = 0; k < f->n_paths && !about; k++)
			about = strcmp(f->paths[k], res->placeholder) == 0;
		if (about)
			return f;
	}
	return NULL;
}

/* What the loader and the inventory say about a library cause. Returns the verdict and adds the
 * evidence (or sets *why when contradicted). */
static enum support library_support(struct arena *a, const struct explain_machine *m,
				    struct explain_result *r, const struct explain_resolution *res,
				    struct explain_cause_result *cr, const char **why)
{
	const char *lib = explain_kv_get(r, "library");
	const char *fid = cr->def->finding;
	if (lib && strcmp(fid, "lib-broken-symlink") == 0 && res->available) {
		if (res->dangling) {
			push_str(a, &cr->evidence, &cr->n_evidence, &cr->cap_evidence,
				 arena_printf(a, "the search for %s meets a link to a missing file: %s", lib,
					      res->dangling));
			return SUPPORT_CONFIRMS;
		}
		return SUPPORT_NONE;
	}
	/* in a container, the wanted name is an empty file where the NVIDIA runtime binds the host's
	 * library (the image was built or committed with the runtime's mounts; Jetson images keep such
	 * placeholders): the container ran without the runtime */
	const struct finding *in_front = empty_in_front(m, res);
	/* the runtime ran where the kernel module shows in the container beside the library it mounted */
	if (strcmp(fid, "container-no-gpu") == 0 && in_front && m->inv->system.container && m->inv->driver.kernel_version) {
		*why = arena_printf(a, "the NVIDIA runtime did run: the kernel module shows, and %s", in_front->summary);
		return SUPPORT_CONTRADICTS;
	}
	if (strcmp(fid, "lib-damaged") == 0 && in_front) {
		for (size_t k = 0; k < in_front->n_evidence; k++)
			push_str(a, &cr->evidence, &cr->n_evidence, &cr->cap_evidence, in_front->evidence[k]);
		for (size_t k = 0; k < in_front->n_fix; k++)
			push_str(a, &cr->fix, &cr->n_fix, &cr->cap_fix, in_front->fix[k]);
		return SUPPORT_CONFIRMS;
	}
	if (strcmp(fid, "container-no-gpu") == 0 && res->available && res->placeholder && m->inv->system.container) {
		push_str(a, &cr->evidence, &cr->n_evidence, &cr->cap_evidence,
			 arena_printf(a, "the search for %s stops at %s, an empty file: the mount point the NVIDIA "
					 "runtime binds the host's library onto, left empty because it did not run",
				      lib ? lib : "the library", res->placeholder));
		return SUPPORT_CONFIRMS;
	}
	bool not_found = strcmp(fid, "lib-not-found") == 0 || strcmp(fid, "dll-not-found") == 0;
	bool wrong_major = strcmp(fid, "lib-wrong-major") == 0 || strcmp(fid, "dll-wrong-major") == 0;
	/* an extension module whose missing import only PATH holds: Python 3.8+ does not search it */
	if (res->dep_path_only && strcmp(fid, "python-dll-directory") == 0) {
		push_str(a, &cr->evidence, &cr->n_evidence, &cr->cap_evidence, res->dep_missing);
		push_str(a, &cr->evidence, &cr->n_evidence, &cr->cap_evidence, res->dep_path_only);
		push_str(a, &cr->fix, &cr->n_fix, &cr->cap_fix,
			 arena_printf(a, "before the import: os.add_dll_directory(r'%s') (Python 3.8+ ignores PATH for an "
					 "extension's imports), or copy %s next to the .pyd",
				      res->dep_path_dir, res->dep_missing_name));
		return SUPPORT_CONFIRMS;
	}
	/* the import an extension module misses is nowhere Python 3.8+ looks, nor on PATH */
	if (res->python_ext && res->dep_missing_name && !res->dep_path_only &&
	    strcmp(fid, "dll-dependency-missing") == 0) {
		push_str(a, &cr->evidence, &cr->n_evidence, &cr->cap_evidence, res->dep_missing);
		push_str(a, &cr->fix, &cr->n_fix, &cr->cap_fix,
			 arena_printf(a, "install what provides %s (reinstall the package the module belongs to, or the "
					 "CUDA/cuDNN release it was built for: its DLL names say which)",
				      res->dep_missing_name));
		push_str(a, &cr->fix, &cr->n_fix, &cr->cap_fix,
			 "then make its folder one Python 3.8+ searches: os.add_dll_directory(r'FOLDER') before the "
			 "import, or copy the DLL next to the .pyd (PATH is not searched)");
		return SUPPORT_CONFIRMS;
	}
	/* the DLL the message names by its path is there; one of its imports is not */
	const char *dep = wrong_major ? res->dep_other_major
			  : strcmp(fid, "dll-dependency-missing") == 0 && !res->dep_path_only ? res->dep_missing : NULL;
	if (lib && dep) {
		push_str(a, &cr->evidence, &cr->n_evidence, &cr->cap_evidence, dep);
		return SUPPORT_CONFIRMS;
	}
	bool env_only = res->available && res->path && res->how && strcmp(res->how, "ld_library_path") == 0;
	/* a driver library the message could not load that only LD_LIBRARY_PATH reaches here (a search
	 * without it finds none): it sits off the default search path (Colab's /usr/lib64-nvidia,
	 * NixOS's /run/opengl-driver/lib), where a process without the variable (ffmpeg started by a
	 * notebook's shell, a service) does not find it. Not Singularity's and Apptainer's
	 * /.singularity.d/libs, where --nv binds the driver and whose own environment puts it on
	 * every process's LD_LIBRARY_PATH: a process that could not load it there met libraries --nv
	 * did not bind (set 19); an environment without it is check's driver-lib-off-path */
	if (lib && res->env_only && strcmp(fid, "driver-lib-off-path") == 0 && explain_kv_get(r, "load_failed") &&
	    driver_library(lib) && !strstr(res->path, "/.singularity.d/")) {
		push_str(a, &cr->evidence, &cr->n_evidence, &cr->cap_evidence,
			 arena_printf(a, "%s is found here only through LD_LIBRARY_PATH (%s): a search without it "
					 "(ld.so.cache, the default directories) finds no copy",
				      lib, res->path));
		return SUPPORT_CONFIRMS;
	}
	/* the linker searches -L, LIBRARY_PATH and its default directories: a driver library the
	 * loader reaches elsewhere (LD_LIBRARY_PATH, ld.so.cache) is off the linker's path */
	if (lib && res->path && strcmp(fid, "driver-lib-off-path") == 0 && explain_kv_get(r, "link_time") &&
	    driver_library(lib) && !linker_default_dir(a, res->path)) {
		push_str(a, &cr->evidence, &cr->n_evidence, &cr->cap_evidence,
			 arena_printf(a, "%s is here at %s (via %s), a directory ld does not search by default", lib,
				      res->path, res->how ? res->how : "?"));
		return SUPPORT_CONFIRMS;
	}
	if (!lib || !(not_found || wrong_major))
		return SUPPORT_NONE;
	/* PyTorch's own libraries (libtorch_cuda.so, libc10_cuda.so) are found through the RUNPATH of
	 * the module that needs them, in torch/lib: a search by name says nothing of that load */
	if (not_found && res->available && !res->path && framework_private(lib))
		return SUPPORT_NONE;
	/* a cause that holds only where the versioned library is installed */
	if (rule_out_names(cr->def, "versioned-copy-absent") && (*why = check_versioned_copy_absent(a, m, r)))
		return SUPPORT_CONTRADICTS;
	/* Found only through LD_LIBRARY_PATH: through the environment of the shell analysed (a
	 * profile's export), which the failing process need not have had (sudo, a service, an IDE,
	 * another shell). That does not rule out "not found" there; it is the likeliest story.
	 * Windows' PATH is the system's and the user's setting, which every new process gets: a DLL on
	 * it still rules "not found" out. */
	if (env_only && not_found && !explain_kv_get(r, "link_time")) {
		push_str(a, &cr->evidence, &cr->n_evidence, &cr->cap_evidence,
			 arena_printf(a, "%s is found here only through LD_LIBRARY_PATH (%s): a process started "
					 "without that environment (sudo, a service, an IDE, another shell) would not find it",
				      lib, res->path));
		if (!r->elsewhere)
			r->elsewhere = arena_printf(
				a,
				"%s resolves here only through the environment's LD_LIBRARY_PATH (%s): the failing "
				"process probably ran without it. Compare that process's environment: cudx explain "
				"--pid PID, or --env FILE with its `env` output.",
				lib, res->path);
		return SUPPORT_NONE;
	}
	/* the linker searches -L, LIBRARY_PATH and its default directories, not ld.so.cache or
	 * LD_LIBRARY_PATH; a snap's program has its own loader: a copy the loader here reaches only
	 * that way contradicts neither */
	bool loader_only = res->how && (strcmp(res->how, "ldcache") == 0 || strcmp(res->how, "ld_library_path") == 0);
	if (res->available && res->path &&
	    ((explain_kv_get(r, "link_time") && loader_only) || explain_kv_get(r, "sandboxed")))
		return SUPPORT_NONE;
	/* a family named by a word whose newest DLL is found: which release the program wanted, the
	 * message does not say, so that copy contradicts nothing */
	if (res->available && res->path && res->family_only)
		return SUPPORT_NONE;
	if (res->available && res->path) {
		*why = res->python_ext ? arena_printf(a, "the import's module is here: %s (%s)", res->path, res->how)
				       : arena_printf(a, "the loader finds %s here: %s (via %s)", lib, res->path,
						      res->how ? res->how : "?");
		if (res->dep_missing) /* found, and what fails is one of its imports: this machine shows it */
			return SUPPORT_CONTRADICTS;
		if (!r->elsewhere && res->loader && strcmp(res->loader, "Windows") == 0)
			r->elsewhere = arena_printf(
				a,
				"%s resolves here (%s): the message probably came from another process or "
				"environment (another PATH, a Python that ignores PATH for DLLs, a program folder "
				"without it). Run cudx explain with --env holding that shell's `set` output, or "
				"--app naming the program.",
				lib, res->path);
		else if (!r->elsewhere)
			r->elsewhere = arena_printf(
				a,
				"%s resolves here (%s): the message probably came from another environment "
				"(another container, virtual environment or shell). Inspect that process's "
				"environment (LD_LIBRARY_PATH, CONDA_PREFIX, the venv): cudx explain --pid PID, or "
				"--env FILE with its `env` output, or --root on its image.",
				lib, res->path);
		return SUPPORT_CONTRADICTS;
	}
	if (wrong_major && res->other_major) { /* the Windows search saw another major */
		push_str(a, &cr->evidence, &cr->n_evidence, &cr->cap_evidence,
			 res->family_only
				 ? arena_printf(a, "the message names no file; this machine's copy of the family is %s, "
						   "under a name the program did not look for (another CUDA release)",
						res->other_major)
				 : arena_printf(a, "%s is not installed here; another major is: %s", lib, res->other_major));
		return SUPPORT_CONFIRMS;
	}
	/* a family named by a word, found on the search path under another release's name: the
	 * program's search reached it and wanted another name, so "not in any directory" is not it */
	if (not_found && res->family_only && res->other_major)
		return SUPPORT_NONE;
	if (wrong_major) {
		const struct lib_file *o = other_major(m->inv, lib);
		if (!o)
			return SUPPORT_NONE;
		push_str(a, &cr->evidence, &cr->n_evidence, &cr->cap_evidence,
			 arena_printf(a, "%s is not installed here; another major is: %s (%s)", lib,
				      o->path, o->origin ? o->origin : "?"));
		return SUPPORT_CONFIRMS;
	}
	if (res->available) {
		push_str(a, &cr->evidence, &cr->n_evidence, &cr->cap_evidence,
			 arena_printf(a, "%s would not find %s here", res->loader ? res->loader : "ld.so", lib));
		for (size_t i = 0; i < res->n_tried; i++)
			push_str(a, &cr->evidence, &cr->n_evidence, &cr->cap_evidence, res->tried[i]);
		const struct lib_file *off = find_lib(m->inv, lib, LIB_OFF_PATH);
		if (off)
			push_str(a, &cr->evidence, &cr->n_evidence, &cr->cap_evidence,
				 arena_printf(a, "a copy exists at %s (%s), on no search path", off->path,
					      off->origin ? off->origin : "found on disk"));
		const struct lib_file *ver = versioned_copy(m->inv, lib);
		if (ver)
			push_str(a, &cr->evidence, &cr->n_evidence, &cr->cap_evidence,
				 arena_printf(a, "%s is on the search path (%s): only the unversioned development "
						 "link %s is missing, which runtime packages do not install",
					      ver->name, ver->path, lib));
		return SUPPORT_CONFIRMS;
	}
	/* no loader simulator: the inventory's copies */
	if (find_lib(m->inv, lib, LIB_ON_PATH))
		return SUPPORT_NONE; /* the rule_out check reports it */
	const struct lib_file *off = find_lib(m->inv, lib, LIB_OFF_PATH);
	if (!off)
		return SUPPORT_NONE;
	push_str(a, &cr->evidence, &cr->n_evidence, &cr->cap_evidence,
		 arena_printf(a, "%s exists at %s (%s) but on no search path of the loader", lib,
			      off->path, off->origin ? off->origin : "found on disk"));
	return SUPPORT_CONFIRMS;
}

/* Whether the text's first cause is a driver too old for the runtime (error 35 and its wordings). */
static bool lead_is_driver_too_old(const struct explain_result *r, size_t n_text)
{
	return n_text && (strcmp(r->causes[0].def->finding, "driver-too-old") == 0 ||
			  strcmp(r->causes[0].def->finding, "framework-driver-too-old") == 0);
}

/* Whether the message's undefined driver entry point (data/driver_symbols.tsv) is one the target's
 * driver exports: its CUDA release is the symbol's first or later. */
static bool driver_exports_symbol(const struct explain_message *msg, const struct explain_machine *m)
{
	const struct driver_info *drv = &m->inv->driver;
	const char *ver = drv->kernel_version ? drv->kernel_version : drv->effective_version;
	const char *cuda = !driver_on_desktop_scale(drv) ? drv->max_cuda : ver ? kb_driver_max_cuda(ver, OS_LINUX) : NULL;
	for (size_t i = 0; cuda && i < msg->n_own; i++) {
		const struct explain_fact *f = &msg->facts[i];
		const struct kb_driver_symbol *ds =
			f->kind == EXF_FORM && f->symbol ? kb_driver_symbol(f->symbol) : NULL;
		if (ds && version_strcmp(cuda, ds->seen_in) >= 0)
			return true;
	}
	return false;
}

static bool windows_message(const struct explain_message *msg)
{
	for (size_t i = 0; i < msg->n_own; i++) {
		const struct explain_fact *f = &msg->facts[i];
		if ((f->kind == EXF_LIB && f->lib.os == 'w') || (f->kind == EXF_FORM && strncmp(f->form, "win-", 4) == 0) ||
		    (f->kind == EXF_CODE && (strcmp(f->code->api, "win32") == 0 || strcmp(f->code->api, "ntstatus") == 0)))
			return true;
	}
	return false;
}

/* Whether the target shows anything at all: an empty --root is no machine to confirm or
 * contradict with (its "no driver" is an image's normal state). */
static bool machine_known(const struct explain_machine *m)
{
	const struct inventory *inv = m->inv;
	return inv->system.live || inv->system.os_name || inv->n_libs || inv->n_toolkits || inv->driver.kernel_version ||
	       inv->driver.libcuda_path || inv->n_gpus ||
	       (inv->windows && (inv->windows->n_installs || inv->windows->nvcuda_path));
}

/* A finding of the message rules (src/diag/rules_message.c) that only repeats what the message
 * says confirms nothing: the machine did not show it. One the machine backs names what it showed
 * as its subject. */
static bool message_only(const struct finding *f)
{
	return diag_finding_from(f, &rules_message) && !f->subject;
}

static void add_finding_evidence(struct arena *a, struct explain_cause_result *cr, const struct finding *f)
{
	push_str(a, &cr->evidence, &cr->n_evidence, &cr->cap_evidence,
		 arena_printf(a, "%s (%s): %s", f->id, severity_name(f->severity), f->summary));
	for (size_t e = 0; e < f->n_evidence; e++)
		push_str(a, &cr->evidence, &cr->n_evidence, &cr->cap_evidence, f->evidence[e]);
}

/* Whether the message carries error 804, the GPU refusing forward compatibility. */
static bool says_compat_refused(const struct explain_message *msg)
{
	for (size_t i = 0; msg && i < msg->n_facts; i++) {
		const struct explain_fact *f = &msg->facts[i];
		if (f->kind == EXF_CODE && f->code->code == 804 &&
		    (strcmp(f->code->api, "cudart") == 0 || strcmp(f->code->api, "cu") == 0))
			return true;
	}
	return false;
}

/* rank buckets: confirmed by an error (0), by a warning or the loader (1), open (2), ruled out (3);
 * the loader's "another major is installed" says more than "not found" and joins bucket 0 */
static int judge(struct arena *a, const struct explain_machine *m, struct explain_result *r,
		 const struct explain_resolution *res, struct explain_cause_result *cr)
{
	const struct explain_cause_def *c = cr->def;
	const char *lib = explain_kv_get(r, "library");
	/* error 804 where the libcuda the loader picks is a forward-compatibility one (cuda-compat): its
	 * age against the module is that mechanism's, whatever check calls the version pair. Only for
	 * 804: a compat libcuda is the supported setup on data-center GPUs, so in use it says nothing of
	 * other messages */
	const struct driver_info *drv = m ? &m->inv->driver : NULL;
	if (drv && strcmp(c->finding, "forward-compat-unsupported") == 0 && says_compat_refused(r->msg) &&
	    driver_libcuda_is_compat(m->inv)) {
		cr->conf = EXPLAIN_CONFIRMED;
		push_str(a, &cr->evidence, &cr->n_evidence, &cr->cap_evidence,
			 arena_printf(a, "the libcuda.so.1 the loader picks is a forward-compatibility copy: %s%s%s%s%s",
				      drv->libcuda_path, drv->libcuda_version ? " (driver " : "",
				      drv->libcuda_version ? drv->libcuda_version : "", drv->libcuda_version ? ")" : "",
				      drv->kernel_version ? arena_printf(a, ", the loaded module is %s", drv->kernel_version)
							  : ""));
		return 0;
	}
	/* on WSL 2, a libcuda the loader reaches in the directory Windows provides is the WSL driver's
	 * own: "not on the path" and "shadowed by a Linux copy" are both contradicted, whatever the
	 * system being WSL says */
	/* (only for a message that names libcuda: where it names none, WSL's other failures, an old
	 * Windows driver or a WSL kernel without GPU support, keep the WSL cause whatever libcuda the
	 * loader picks; seven of the eight such reports of sets 12-31 had a WSL cause while the loader
	 * picked the WSL driver's libcuda) */
	if (drv && !drv->wsl1 && strcmp(c->finding, "wsl-libcuda") == 0 && lib && strncmp(lib, "libcuda.so", 10) == 0 &&
	    res && res->available && res->path && strncmp(res->path, "/usr/lib/wsl/", 13) == 0) {
		cr->conf = EXPLAIN_RULED_OUT;
		cr->ruled_out_because = arena_printf(a, "the loader reaches the WSL driver's own %s here: %s", lib, res->path);
		return 3;
	}
	const struct finding *f = confirming(m, c->finding, lib, c->about);
	if (!f && strcmp(c->finding, "no-driver") == 0)
		f = windows_no_nvcuda(m); /* Windows' no-driver: check names it as the DLL it misses */
	if (f) {
		cr->finding = f;
		add_finding_evidence(a, cr, f);
		if (f->severity != SEV_INFO && !message_only(f)) {
			cr->conf = EXPLAIN_CONFIRMED;
			for (size_t e = 0; e < f->n_fix; e++)
				push_str(a, &cr->fix, &cr->n_fix, &cr->cap_fix, f->fix[e]);
			/* what the machine shows of the very library the message names comes before its
			 * findings about others ("couldn't find libnvidia-ml.so": that library's stale cache
			 * before the libcuda a utility-only container lacks) */
			if (lib && finding_mentions(f, lib))
				return -1;
			return f->severity == SEV_ERROR ? 0 : 1;
		}
	}
	/* a tree that shows nothing of the GPU stack is still a system when it has its C library: what
	 * its loader cannot find, a program there cannot load (the other checks need more) */
	bool known = machine_known(m);
	if (!known && !(res->available && res->system))
		return 2;
	const char *why = NULL;
	enum support sup = library_support(a, m, r, res, cr, &why);
	if (sup == SUPPORT_CONFIRMS) {
		cr->conf = EXPLAIN_CONFIRMED;
		/* another major installed, or the very file a dangling link: more than "not found" */
		return strstr(c->finding, "wrong-major") || strcmp(c->finding, "lib-broken-symlink") == 0 ||
				       strcmp(c->finding, "container-no-gpu") == 0
			       ? 0
			       : 1;
	}
	if (sup == SUPPORT_CONTRADICTS) {
		cr->conf = EXPLAIN_RULED_OUT;
		cr->ruled_out_because = why;
		return 3;
	}
	if (!known)
		return 2;
	for (size_t k = 0; k < sizeof rule_outs / sizeof rule_outs[0]; k++)
		if (rule_out_names(c, rule_outs[k].name) && (why = rule_outs[k].check(a, m, r))) {
			cr->conf = EXPLAIN_RULED_OUT;
			cr->ruled_out_because = why;
			return 3;
		}
	/* a cause that the driver's CUDA would rule out is confirmed where that CUDA falls short */
	if ((rule_out_names(c, "driver-new-enough") || rule_out_names(c, "driver-covers-runtimes")) &&
	    (why = driver_below_message_cuda(a, m, r))) {
		cr->conf = EXPLAIN_CONFIRMED;
		push_str(a, &cr->evidence, &cr->n_evidence, &cr->cap_evidence, why);
		return 0;
	}
	return 2;
}

/* The catalogue's cause for a finding id, or one made from the finding (an id explain has no row
 * for: lib-damaged, no-libc ...). */
static const struct explain_cause_def *cause_for_finding(struct arena *a, const struct explain_catalog *cat,
							 const struct finding *f)
{
	for (size_t k = 0; cat && k < cat->n_causes; k++)
		if (strcmp(cat->causes[k].finding, f->id) == 0)
			return &cat->causes[k];
	struct explain_cause_def *d = arena_calloc(a, 1, sizeof *d);
	*d = (struct explain_cause_def){ .key = f->id, .finding = f->id, .category = "", .summary = f->summary,
					 .fix = "", .check = "", .rule_out = "", .source = "cudx check" };
	return d;
}

/* The family of a finding ("driver", "cudnn"): the knowledge base's library family its rule is
 * about, else "driver" for a rule of the driver's family that names no library (driver-too-old's
 * subject is a runtime, which `why libcuda.so.1` must not keep), NULL when none. */
static const char *family_of(const char *finding_id)
{
	const struct rule *r = diag_rule(finding_id);
	if (!r)
		return NULL;
	if (r->about)
		return r->about;
	return rule_family_find(&rules_driver, finding_id) ? "driver" : NULL;
}

static bool family_among_causes(const struct explain_result *r, size_t n, const char *family)
{
	for (size_t i = 0; i < n; i++) {
		const char *c = family_of(r->causes[i].def->finding);
		if (c && strcmp(c, family) == 0)
			return true;
	}
	return false;
}

static bool cause_among(const struct explain_result *r, size_t n, const char *finding)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(r->causes[i].def->finding, finding) == 0)
			return true;
	return false;
}

/* A message names some problems of a family as its causes ("no CUDA-capable device": no driver,
 * a mismatch; "CUDNN_STATUS_NOT_INITIALIZED": cuDNN built for another CUDA), but any error of that
 * family stops the program the same way: an error of a cause's family on the target that no
 * candidate names joins them, confirmed (a Driver/library version mismatch behind "no
 * CUDA-capable device", a framework's cuDNN pin behind a cuDNN status). */
static void add_family_errors(struct arena *a, const struct explain_machine *m, struct explain_result *r, int *rank)
{
	/* a message whose own code or a tool's sentence names its first cause ("Driver/library
	 * version mismatch", 804, nvidia-container-cli's "file exists") keeps it first: the machine's
	 * other errors of its family follow the text's causes. A code names it only when it has no
	 * other cause: 35 (insufficient driver) is also what the runtime returns when it cannot load
	 * libcuda at all, so a driver the machine shows unreachable goes first (NixOS, set 15) */
	bool named_by_message = r->n_causes && (message_code_says(r, r->causes[0].def->finding, true) ||
					     message_phrase_says(r, r->causes[0].def->finding));
	size_t n_text = r->n_causes;
	for (size_t i = 0; i < m->fs->n && r->n_causes < EXPLAIN_MAX_CAUSES; i++) {
		const struct finding *f = &m->fs->v[i];
		const char *family = family_of(f->id);
		if (f->severity != SEV_ERROR || message_only(f) || !family || !family_among_causes(r, n_text, family))
			continue;
		/* a missing fabric manager makes CUDA say 802 or find no device: it does not join a
		 * message whose causes are others (999 "unknown error" is nvidia-uvm's, not its) */
		if (strcmp(f->id, "fabric-manager-not-running") == 0 && !cause_among(r, n_text, "no-device") &&
		    !cause_among(r, n_text, "no-driver") && !cause_among(r, n_text, "fabric-manager-not-running"))
			continue;
		/* nor does a driver that cannot drive the GPU, which makes CUDA find no device (100): it
		 * joins a message with no device or no driver among its causes, unless it leads with a
		 * driver too old for the runtime (set 10: a Blackwell machine's "InsufficientDriver") */
		if (strcmp(f->id, "driver-gpu-unsupported") == 0 &&
		    ((!cause_among(r, n_text, "no-device") && !cause_among(r, n_text, "no-driver")) ||
		     lead_is_driver_too_old(r, n_text)))
			continue;
		bool named = false;
		for (size_t k = 0; k < r->n_causes && !named; k++)
			named = strcmp(r->causes[k].def->finding, f->id) == 0;
		if (named)
			continue;
		struct explain_cause_result *cr = &r->causes[r->n_causes];
		memset(cr, 0, sizeof *cr);
		cr->def = cause_for_finding(a, m->cat, f);
		cr->conf = EXPLAIN_CONFIRMED;
		cr->because = arena_printf(a, "the target shows it, and like the message's own causes (%s) it stops "
					      "the program the same way",
					   family);
		cr->summary = f->summary;
		cr->finding = f;
		add_finding_evidence(a, cr, f);
		for (size_t e = 0; e < f->n_fix; e++)
			push_str(a, &cr->fix, &cr->n_fix, &cr->cap_fix, f->fix[e]);
		rank[r->n_causes++] = named_by_message ? 2 : 0;
	}
}

/* The path a line names a library by ("'x64\\yolo_gpu.dll'" -> x64\yolo_gpu.dll): the token that
 * ends with the name, or NULL. */
static const char *path_token(struct arena *a, const char *line, const char *lib)
{
	size_t n = strlen(lib), len = strlen(line);
	for (size_t i = 1; i + n <= len; i++) {
		if ((line[i - 1] != '\\' && line[i - 1] != '/') || !ci_has_n(line + i, n, lib))
			continue;
		size_t start = i - 1;
		while (start > 0 && !strchr(" \t'\"(<>=", line[start - 1]))
			start--;
		return arena_strndup(a, line + start, i + n - start);
	}
	return NULL;
}

/* Add cause c to r, judged against the machine m (NULL: the text's order); returns its bucket. */
static int add_candidate(struct arena *a, const struct explain_machine *m, struct explain_result *r,
			 const struct explain_resolution *res, const struct explain_cause_def *c, double score,
			 const char *because)
{
	struct explain_cause_result *cr = &r->causes[r->n_causes++];
	cr->def = c;
	cr->conf = EXPLAIN_POSSIBLE;
	cr->score = score;
	cr->because = because;
	cr->summary = fill(a, r, c->summary);
	cr->check = *c->check ? fill(a, r, c->check) : NULL;
	/* a family named by a word has no file name for `cudx why`: the Windows report lists the
	 * CUDA DLLs the search finds */
	if (cr->check && explain_kv_get(r, "family_dll") && strstr(c->check, "{dll}"))
		cr->check = "cudx check --os windows";
	int rank = m ? judge(a, m, r, res, cr) : 2;
	if (cr->n_fix == 0) {
		/* the catalogue's fix: steps separated by the two characters \n */
		const char *s = fill(a, r, c->fix);
		while (*s) {
			const char *sep = strstr(s, "\\n");
			size_t len = sep ? (size_t)(sep - s) : strlen(s);
			if (len)
				push_str(a, &cr->fix, &cr->n_fix, &cr->cap_fix, arena_strndup(a, s, len));
			if (!sep)
				break;
			s = sep + 2;
		}
	}
	return rank;
}

/* Add the catalogue's cause key, which what the loader met on the machine shows, unless a cause of
 * its finding is there already. */
static void add_resolution_cause(struct arena *a, const struct explain_machine *m, struct explain_result *r,
				 const struct explain_resolution *res, int *rank, const char *key, const char *because)
{
	const struct explain_cause_def *c = m->cat ? explain_cause_lookup(m->cat, key) : NULL;
	if (!c || r->n_causes == EXPLAIN_MAX_CAUSES)
		return;
	for (size_t i = 0; i < r->n_causes; i++)
		if (strcmp(r->causes[i].def->finding, c->finding) == 0)
			return;
	size_t k = r->n_causes;
	rank[k] = add_candidate(a, m, r, res, c, 0, because);
}

/* The module of Python's "DLL load failed while importing X" on the line, or NULL. */
static const char *imported_module(struct arena *a, const char *line)
{
	static const char key[] = "while importing ";
	for (const char *p = line; p && *p; p++) {
		if (strncasecmp(p, key, sizeof key - 1) != 0)
			continue;
		const char *w = p + sizeof key - 1;
		size_t n = 0;
		while (isalnum((unsigned char)w[n]) || w[n] == '_')
			n++;
		return n ? arena_strndup(a, w, n) : NULL;
	}
	return NULL;
}

void explain_rank(struct arena *a, const struct explain_machine *m, const struct explain_message *msg,
		  struct explain_result *r)
{
	memset(r, 0, sizeof *r);
	r->msg = msg;
	explain_kv_fill(a, msg, r);
	const char *lib = explain_kv_get(r, "library");
	bool machine = m && m->inv && m->fs;
	struct explain_resolution res = { 0 };
	/* a DLL the message names with its folder was loaded by that path, not searched for: where
	 * the search would find it says nothing of that load */
	bool dll_by_path = explain_kv_get(r, "dll") && msg->line &&
			   (ci_has(msg->line, arena_printf(a, "\\%s", lib)) || ci_has(msg->line, arena_printf(a, "/%s", lib)));
	/* Python's "DLL load failed while importing X" names the extension module, not a DLL: on a
	 * Windows target, its .pyd and what it imports */
	const char *module = !lib && machine && m->os == OS_WINDOWS ? imported_module(a, msg->line) : NULL;
	if (module && m->resolve) {
		m->resolve(m->cookie, a, arena_printf(a, "%s.pyd", module), &res);
		if (res.path) { /* the module's file is the subject the loader checks speak of */
			lib = path_basename(res.path);
			add_kv(a, r, "library", lib);
			add_kv(a, r, "dll", lib);
		}
	}
	if (machine && m->resolve && lib && !dll_by_path && !module)
		m->resolve(m->cookie, a, lib, &res);
	else if (machine && m->resolve && lib) { /* that file, and what it imports */
		const char *path = path_token(a, msg->line, lib);
		if (path)
			m->resolve(m->cookie, a, path, &res);
	}
	int rank[EXPLAIN_MAX_CAUSES];
	/* on a Windows system a library the message does not name as a .so is a DLL: each cause's
	 * Windows reading (the on_windows column: lib-not-found is dll-not-on-path there), unless the
	 * message shows Linux (WSL 2, a Linux container); such a message is not the Windows loader's:
	 * its DLL causes go (the Windows tree's DLL findings would confirm them for a message they are
	 * not about) */
	bool on_windows = machine && m->os == OS_WINDOWS;
	bool linux_on_windows = on_windows && linux_message(msg);
	bool windows_reading = on_windows && m->cat && !linux_on_windows;
	for (size_t i = 0; i < msg->n_cands; i++) {
		size_t k = r->n_causes;
		const struct explain_cause_def *c = msg->cands[i].cause;
		if (linux_on_windows && strncmp(c->finding, "dll-", 4) == 0)
			continue;
		const struct explain_cause_def *w =
			windows_reading && c->on_windows && *c->on_windows ? explain_cause_lookup(m->cat, c->on_windows) : NULL;
		bool dup = false;
		for (size_t j = 0; j < r->n_causes; j++)
			dup |= r->causes[j].def == (w ? w : c);
		if (dup)
			continue;
		rank[k] = add_candidate(a, machine ? m : NULL, r, &res, w ? w : c, msg->cands[i].score, msg->cands[i].because);
	}
	if (machine) {
		/* the DLL named by its path imports a CUDA DLL of a release that is not installed, while
		 * another is: whatever the named DLL's class lists, the program wants another CUDA */
		if (res.dep_other_major)
			add_resolution_cause(a, m, r, &res, rank, "cuda-dll-wrong-major",
					     "the DLL the message names imports a CUDA DLL of a release that is not installed");
		/* the search met the very name the message asks for as a link to a missing file: that is
		 * why it was not found, whatever the message's class lists (a package removed or upgraded
		 * under it) */
		if (res.dangling)
			add_resolution_cause(a, m, r, &res, rank, "lib-broken-link",
					     "the loader's search for the library the message names met a dangling link");
		if (empty_in_front(m, &res))
			add_resolution_cause(a, m, r, &res, rank, "lib-damaged",
					     "the library the message names is an empty file in front of the real one");
		else if (res.placeholder && machine && m->inv->system.container)
			add_resolution_cause(a, m, r, &res, rank, "container-no-gpu",
					     "in this container the library the message names is an empty file");
	}
	if (machine && machine_known(m)) {
		add_family_errors(a, m, r, rank);
		/* inside a container that the machine shows started without the GPUs, that is why no driver
		 * reaches it: both confirmed, the container's cause goes first (its fix is --gpus, not a
		 * driver install) */
		if (m->inv->system.container)
			for (size_t i = 0; i < r->n_causes; i++)
				if (rank[i] <= 0 && r->causes[i].conf == EXPLAIN_CONFIRMED &&
				    strcmp(r->causes[i].def->finding, "container-no-gpu") == 0)
					rank[i] = -2;
		/* a container that shows no driver at all (check's mild no-driver: neither the module's
		 * /proc entries nor the driver's libcuda, which the NVIDIA runtime mounts in with the
		 * devices) was started without the GPU: that goes before installing a driver */
		if (m->inv->system.container)
			for (size_t i = 0; i < r->n_causes; i++) {
				const struct finding *nd = r->causes[i].finding;
				if (!nd || strcmp(nd->id, "no-driver") != 0 || nd->severity != SEV_INFO)
					continue;
				for (size_t k = 0; k < r->n_causes; k++)
					if (rank[k] > 1 && rank[k] < 3 &&
					    strcmp(r->causes[k].def->finding, "container-no-gpu") == 0) {
						rank[k] = 1;
						push_str(a, &r->causes[k].evidence, &r->causes[k].n_evidence,
							 &r->causes[k].cap_evidence,
							 "this is a container (/.dockerenv, /run/.containerenv ...) that shows "
							 "neither the driver's /proc entries nor its libcuda.so.1, which the "
							 "NVIDIA runtime mounts in with the GPU");
					}
			}
		/* CUDA_VISIBLE_DEVICES names an index from 1 up where the machine lists no GPU and no
		 * /dev/nvidiaN (a tree without the driver's /proc entries): check cannot judge the index,
		 * yet it asks for a second GPU at least, which a one-GPU machine lacks; that goes before
		 * the text's order */
		const char *cvd = inventory_env(m->inv, "CUDA_VISIBLE_DEVICES");
		long index = cvd && isdigit((unsigned char)*cvd) ? strtol(cvd, NULL, 10) : 0;
		if (index >= 1 && inventory_visible_gpus(m->inv, NULL) == 0)
			for (size_t k = 0; k < r->n_causes; k++)
				if (rank[k] == 2 && strcmp(r->causes[k].def->finding, "cuda-visible-devices-hides") == 0) {
					rank[k] = 1;
					push_str(a, &r->causes[k].evidence, &r->causes[k].n_evidence, &r->causes[k].cap_evidence,
						 arena_printf(a, "CUDA_VISIBLE_DEVICES=%s where it ran: index %ld needs %ld GPUs or more "
							      "(how many the driver lists is not known here)",
							      cvd, index, index + 1));
				}
		/* a kernel module that is not loaded stops every CUDA call before any version matters:
		 * confirmed, it goes before the other confirmed causes (a driver too old for the runtime
		 * cannot be judged while none runs; set 15: Secure Boot behind "Insufficient driver").
		 * Not in a container: its /proc need not show the host's module, and the container's own
		 * cause goes first (above) */
		if (!m->inv->system.container && !m->inv->driver.kernel_version && !m->inv->driver.module_version)
			for (size_t i = 0; i < r->n_causes; i++)
				if (rank[i] == 0 && r->causes[i].finding &&
				    strcmp(r->causes[i].def->finding, "no-driver") == 0 &&
				    r->causes[i].finding->severity == SEV_ERROR)
					rank[i] = -1;
		/* an undefined driver entry point says the driver is too old only where the driver lacks
		 * it: where the target's driver is of a CUDA release that exports it, that reading falls,
		 * and its driver-too-old (a finding of its own, if any) goes behind the message's other
		 * confirmed causes (a stub first on LD_LIBRARY_PATH) */
		if (driver_exports_symbol(msg, m))
			for (size_t i = 0; i < r->n_causes; i++)
				if (strcmp(r->causes[i].def->finding, "driver-too-old") == 0 && rank[i] < 3)
					rank[i]++;
		/* a driver that cannot drive the GPU (a branch past the GPU's last, the open module before
		 * Turing) is why its module finds no device and does not load, or lists none: confirmed
		 * by the target, it goes before no-driver, whose symptom it causes; not where the
		 * message leads with a driver too old for the runtime (error 35), which it does not cause */
		for (size_t g = 0; g < r->n_causes && !lead_is_driver_too_old(r, r->n_causes); g++) {
			if (!r->causes[g].finding || r->causes[g].finding->severity != SEV_ERROR ||
			    strcmp(r->causes[g].def->finding, "driver-gpu-unsupported") != 0)
				continue;
			for (size_t i = 0; i < r->n_causes; i++)
				if (strcmp(r->causes[i].def->finding, "no-driver") == 0 && rank[g] >= rank[i])
					rank[g] = rank[i] > -2 ? rank[i] - 1 : -2;
		}
	}
	/* stable order by bucket; within one, the text's order */
	struct explain_cause_result sorted[EXPLAIN_MAX_CAUSES];
	size_t n = 0;
	for (int pass = -2; pass < 4; pass++)
		for (size_t i = 0; i < r->n_causes; i++)
			if (rank[i] == pass)
				sorted[n++] = r->causes[i];
	memcpy(r->causes, sorted, n * sizeof sorted[0]);
	/* words alone make no cause likely: they only order the possible ones */
	if (r->n_causes && r->causes[0].conf == EXPLAIN_POSSIBLE && !msg->from_words)
		r->causes[0].conf = EXPLAIN_LIKELY;
	if (!machine || !machine_known(m))
		return;
	if (m->os == OS_LINUX && windows_message(msg) && !r->elsewhere)
		r->elsewhere = "this is a Windows message and the system checked is Linux: nothing here "
			       "can confirm it. Run cudx explain on the Windows machine, or point --root at a "
			       "copy of its C: drive with --env holding its `set` output.";
	if (!r->elsewhere && r->n_causes && r->causes[0].conf == EXPLAIN_RULED_OUT)
		r->elsewhere = arena_printf(
			a, "every cause this message can have is contradicted here: it probably came from "
			   "another environment. Run cudx explain where it happened, or point cudx at it "
			   "(--pid PID, --env FILE, --root DIR); this run read the environment of %s.",
			m->env_origin ? m->env_origin : "this process");
}


/* Whether the message's own line is a warning a program printed ("UserWarning:", "WARNING!",
 * "[W] Warning:"): the word ends there, and the line says nothing failed (a Kubernetes event of type
 * Warning that reports "Failed ... Error:" is the failure itself). */
static bool warning_line(const struct explain_message *msg)
{
	if (!msg || !msg->line || ci_has(msg->line, "error") || ci_has(msg->line, "fail") || ci_has(msg->line, "fatal"))
		return false;
	for (const char *s = msg->line; *s; s++)
		if (strnlen(s, 7) == 7 && ci_has_n(s, 7, "warning") && !isalpha((unsigned char)s[7]))
			return true;
	return false;
}

static bool confirmed_lead(const struct explain_result *r)
{
	return r->n_causes && r->causes[0].conf == EXPLAIN_CONFIRMED &&
	       strcmp(r->causes[0].def->finding, "harmless-warning") != 0;
}

void explain_rank_order(struct explain_result *v, size_t n)
{
	if (n < 2 || !warning_line(v[0].msg) || confirmed_lead(&v[0]))
		return;
	for (size_t j = 1; j < n; j++)
		if (confirmed_lead(&v[j])) {
			struct explain_result lead = v[j];
			memmove(&v[1], &v[0], j * sizeof v[0]);
			v[0] = lead;
			return;
		}
}

/* The library and DLL names in the input (libcudnn.so.8, cudnn64_8.dll): leads the text gives even
 * when no message form in it was recognised. At most max, each at most 127 bytes. */
static size_t text_library_names(struct arena *a, const char *text, const char **out, size_t max)
{
	size_t n = 0;
	for (const char *p = text; p && *p && n < max;) {
		const char *q = p;
		while (isalnum((unsigned char)*q) || *q == '_' || *q == '.' || *q == '+' || *q == '-')
			q++;
		size_t len = (size_t)(q - p);
		while (len && strchr(".-+", p[len - 1])) /* the sentence's full stop is not the name's */
			len--;
		if (len >= 5 && len < 128 && (ci_has_n(p, len, ".so") || ci_has_n(p, len, ".dll")))
			out[n++] = arena_strndup(a, p, len); /* copied only when kept: a log may be megabytes */
		p = *q ? q + 1 : q;
	}
	return n;
}

static bool finding_mentions_any(const struct finding *f, const char *const *names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (finding_mentions(f, names[i]))
			return true;
	return false;
}

/* Add f as the next cause of an unrecognised text, unless a cause of its id is there already. */
static void add_unrecognised(struct arena *a, const struct explain_catalog *cat, const struct finding *f,
			     bool named, struct explain_result *r)
{
	for (size_t k = 0; k < r->n_causes; k++)
		if (strcmp(r->causes[k].def->finding, f->id) == 0)
			return;
	if (r->n_causes == EXPLAIN_MAX_CAUSES)
		return;
	struct explain_cause_result *cr = &r->causes[r->n_causes++];
	cr->def = cause_for_finding(a, cat, f);
	cr->conf = r->n_causes == 1 ? EXPLAIN_LIKELY : EXPLAIN_POSSIBLE;
	cr->because = named ? "the message was not recognised, but it names the library or framework this finding is about"
			    : "the message was not recognised; the target shows this";
	cr->summary = f->summary;
	cr->finding = f;
	add_finding_evidence(a, cr, f);
	for (size_t e = 0; e < f->n_fix; e++)
		push_str(a, &cr->fix, &cr->n_fix, &cr->cap_fix, f->fix[e]);
}

void explain_rank_unrecognised(struct arena *a, const struct explain_machine *m, const struct explain_catalog *cat,
			       const char *text, struct explain_result *r)
{
	memset(r, 0, sizeof *r);
	if (!m || !m->inv || !m->fs || !machine_known(m))
		return;
	const char *names[24];
	size_t n_names = text_library_names(a, text, names, 16);
	/* the frameworks cudx reads (src/collect/python_fw.c), as the text and the findings name them */
	static const char *const frameworks[] = { "tensorflow", "pytorch", "torch", "jax", "onnxruntime", "cupy",
						  "paddle", "ctranslate2" };
	for (size_t i = 0; text && i < sizeof frameworks / sizeof frameworks[0] && n_names < 24; i++)
		if (ci_has(text, frameworks[i]))
			names[n_names++] = frameworks[i];
	/* findings about what the text names first, in the order it names them (its first library is
	 * what it is about: "it needed cublas64_12.dll ... whereas CUDA 11.8 uses cublas64_11.dll"),
	 * errors before warnings for each; then the others, errors before warnings */
	for (size_t n = 0; n < n_names; n++)
		for (int sev = SEV_ERROR; sev >= SEV_WARNING; sev--)
			for (size_t i = 0; i < m->fs->n; i++) {
				const struct finding *f = &m->fs->v[i];
				if ((int)f->severity == sev && !message_only(f) && finding_mentions(f, names[n]))
					add_unrecognised(a, cat, f, true, r);
			}
	for (int sev = SEV_ERROR; sev >= SEV_WARNING; sev--)
		for (size_t i = 0; i < m->fs->n; i++) {
			const struct finding *f = &m->fs->v[i];
			if ((int)f->severity == sev && !message_only(f) && !finding_mentions_any(f, names, n_names))
				add_unrecognised(a, cat, f, false, r);
		}
}
