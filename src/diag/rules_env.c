/* The environment family: variables that hide GPUs or steer the loader to the wrong place. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "diag/rule.h"

static void check_visible_devices(struct diag_ctx *d, const struct rule *self)
{
	const char *v = envsnap_get(&d->ctx->env, "CUDA_VISIBLE_DEVICES");
	if (!v)
		return;
	bool by_nodes;
	size_t n_gpus = inventory_visible_gpus(d->inv, &by_nodes);
	/* CUDA stops at the first invalid entry: "0,7,1" with 2 GPUs exposes only GPU 0 */
	bool hides_all = false, hides_some = false;
	const char *why = NULL;
	const char *p = v;
	while (*p == ' ')
		p++;
	if (!*p) {
		hides_all = true;
		why = "it is set but empty";
	} else if (strcmp(p, "-1") == 0 || strcasecmp(p, "none") == 0 || strcasecmp(p, "NoDevFiles") == 0) {
		hides_all = true;
		why = "it asks for no device";
	} else if (isdigit((unsigned char)*p) && n_gpus) {
		size_t valid = 0;
		for (const char *q = p; *q;) {
			char *end;
			long idx = strtol(q, &end, 10);
			if (end == q || idx < 0 || (size_t)idx >= n_gpus) {
				why = valid ? "an index past the last GPU stops the list there" : "its first index does not exist";
				break;
			}
			valid++;
			q = *end == ',' ? end + 1 : end;
			if (end == q && *q)
				break;
		}
		if (why && valid == 0)
			hides_all = true;
		else if (why)
			hides_some = true;
	} else if (*p == '-') {
		hides_all = true;
		why = "a negative index hides every device";
	}
	if (!hides_all && !hides_some)
		return;
	struct finding *f = rule_emit(d, self, "CUDA_VISIBLE_DEVICES=\"%s\" hides %s GPUs", v, hides_all ? "all" : "some");
	if (!hides_all)
		finding_mild(f);
	finding_cause(f, "CUDA only shows the devices listed in CUDA_VISIBLE_DEVICES, and %s. Programs then report "
			 "no CUDA-capable device (error 100) or fewer GPUs than the machine has.",
		      why);
	finding_evidence(f, "CUDA_VISIBLE_DEVICES=\"%s\" (from %s)", v, d->ctx->env.origin);
	if (n_gpus)
		finding_evidence(f, by_nodes ? "GPU device nodes (/dev/nvidiaN): %zu" : "GPUs the driver lists: %zu", n_gpus);
	finding_fix(f, "unset CUDA_VISIBLE_DEVICES, or set it to valid indices or GPU UUIDs (nvidia-smi -L)");
}

/* The loader walks a path list past any length, but a finding per element does not scale: a 10 MB
 * variable of "/a:/a:..." once gave millions of findings. Only the first LDPATH_MAX_ELEMENTS elements
 * are judged, and an element equal (once normalised) to an earlier one is judged only there. */
enum { LDPATH_MAX_ELEMENTS = 256 };

/* Whether dirs[i] repeats one of dirs[0..i-1]; keys[] holds their normalised forms. The empty
 * element keeps "" as its key: path_normalize would make it ".", which is a different element. */
static bool ldpath_seen(struct arena *a, const char **dirs, const char **keys, size_t i)
{
	keys[i] = *dirs[i] ? path_normalize(a, dirs[i]) : "";
	for (size_t j = 0; j < i; j++)
		if (strcmp(keys[j], keys[i]) == 0)
			return true;
	return false;
}

/* The first LDPATH_MAX_ELEMENTS elements of the variable, split: the rest is never copied. */
static size_t ldpath_head(struct diag_ctx *d, const char ***dirs)
{
	const char *v = envsnap_get(&d->ctx->env, "LD_LIBRARY_PATH");
	const char *end = v;
	for (size_t k = 0; end && k < LDPATH_MAX_ELEMENTS; k++)
		if ((end = strchr(end, ':')))
			end++;
	if (end) /* more elements than the cap: split the prefix without its last ':' */
		v = arena_strndup(d->ctx->arena, v, (size_t)(end - 1 - v));
	return env_split_path(d->ctx->arena, v, ':', dirs);
}

/* NVIDIA's CUDA images set LD_LIBRARY_PATH=/usr/local/nvidia/lib:/usr/local/nvidia/lib64 for the
 * volume nvidia-docker 1 mounted there; the NVIDIA Container Toolkit puts the driver libraries in the
 * system directories instead, so in every such container these two are absent, and harmless. */
static bool nvidia_image_dir(const char *dir)
{
	return strcmp(dir, "/usr/local/nvidia/lib") == 0 || strcmp(dir, "/usr/local/nvidia/lib64") == 0;
}

enum ldpath_check { LDPATH_STUBS, LDPATH_EMPTY, LDPATH_MISSING };

static void check_ld_library_path(struct diag_ctx *d, const struct rule *self, enum ldpath_check what)
{
	const char **dirs;
	size_t n = ldpath_head(d, &dirs);
	if (n > LDPATH_MAX_ELEMENTS) /* keys[] below holds that many */
		n = LDPATH_MAX_ELEMENTS;
	const char *keys[LDPATH_MAX_ELEMENTS];
	for (size_t i = 0; i < n; i++) {
		const char *dir = dirs[i];
		if (ldpath_seen(d->ctx->arena, dirs, keys, i))
			continue;
		if (what == LDPATH_STUBS) {
			const char *base = path_basename(keys[i]);
			bool has_stub = sysroot_exists(&d->ctx->root, path_join(d->ctx->arena, dir, "libcuda.so"));
			if (strcmp(base, "stubs") != 0 || !has_stub)
				continue;
			struct finding *f = rule_emit(d, self, "LD_LIBRARY_PATH contains the toolkit's stubs directory %s",
						      dir);
			finding_subject(f, dir);
			finding_cause(f, "The stubs directory holds link-time stand-ins for driver libraries (libcuda.so, "
					 "libnvidia-ml.so). They belong on the linker's -L path at build time only; at run time "
					 "they shadow the real driver for anything that loads them by these names, and every "
					 "call returns CUDA_ERROR_STUB_LIBRARY (34).");
			finding_evidence(f, "LD_LIBRARY_PATH element %zu: %s", i + 1, dir);
			finding_fix(f, "export LD_LIBRARY_PATH=$(echo \"$LD_LIBRARY_PATH\" | tr ':' '\\n' | grep -v '/stubs$' | paste -sd:)");
			finding_fix(f, "when building, pass the stubs directory to the linker instead: -L%s", dir);
			continue;
		}
		if (!*dir) {
			if (what != LDPATH_EMPTY)
				continue;
			struct finding *f = rule_emit(d, self, "LD_LIBRARY_PATH has an empty element (the current directory)");
			finding_cause(f, "An empty element (a leading or trailing ':' or '::') makes the loader search the "
					 "current working directory, so what loads depends on where a program is started.");
			finding_evidence(f, "LD_LIBRARY_PATH=%s", envsnap_get(&d->ctx->env, "LD_LIBRARY_PATH"));
			finding_fix(f, "remove the stray ':' from LD_LIBRARY_PATH");
			continue;
		}
		if (what != LDPATH_MISSING || dir[0] != '/' || sysroot_is_dir(&d->ctx->root, dir) || nvidia_image_dir(keys[i]))
			continue;
		struct finding *f = rule_emit(d, self, "LD_LIBRARY_PATH names a directory that does not exist: %s", dir);
		finding_subject(f, dir);
		finding_cause(f, "The directory %s is on LD_LIBRARY_PATH but does not exist%s. Often a toolkit or cuDNN "
				 "was removed or upgraded (cuda-11.8 -> cuda-12.x) and the shell profile still points at the "
				 "old location, so the libraries the user meant to provide are not there.",
			      dir, d->inv->system.live ? "" : " in the analysed tree");
		finding_evidence(f, "LD_LIBRARY_PATH element %zu: %s (from %s)", i + 1, dir, d->ctx->env.origin);
		finding_fix(f, "remove %s from LD_LIBRARY_PATH (check ~/.bashrc, ~/.profile, /etc/environment, module files)",
			    dir);
	}
}

static void check_stub_dirs(struct diag_ctx *d, const struct rule *self)
{
	check_ld_library_path(d, self, LDPATH_STUBS);
}

static void check_empty_elements(struct diag_ctx *d, const struct rule *self)
{
	check_ld_library_path(d, self, LDPATH_EMPTY);
}

static void check_missing_dirs(struct diag_ctx *d, const struct rule *self)
{
	check_ld_library_path(d, self, LDPATH_MISSING);
}

static const struct rule rules[] = {
	{ "cuda-visible-devices-hides", SEV_ERROR, check_visible_devices,
	  .cause = "CUDA only shows the devices listed in CUDA_VISIBLE_DEVICES; an empty value, -1 or an index "
		   "that does not exist hides GPUs (error 100, no CUDA-capable device).",
	  .fix = "unset CUDA_VISIBLE_DEVICES, or set it to valid indices or GPU UUIDs (nvidia-smi -L)",
	  .mild = SEV_WARNING, .mild_when = "it hides some GPUs, not all" },
};

/* LD_LIBRARY_PATH means nothing to the Windows loader: its own family, judged on Linux only */
static const struct rule ldpath_rules[] = {
	{ "ld-library-path-stubs", SEV_ERROR, check_stub_dirs,
	  .cause = "The toolkit's stubs directory (link-time stand-ins for libcuda and NVML) is on LD_LIBRARY_PATH: "
		   "at run time the stubs shadow the real driver, and every call returns CUDA_ERROR_STUB_LIBRARY (34).",
	  .fix = "remove the stubs directory from LD_LIBRARY_PATH; pass it to the linker (-L) at build time only" },
	{ "ld-library-path-missing-dir", SEV_WARNING, check_missing_dirs,
	  .cause = "An LD_LIBRARY_PATH element names a directory that does not exist: the libraries it was meant to "
		   "provide are not there.",
	  .fix = "remove the element from LD_LIBRARY_PATH (check ~/.bashrc, ~/.profile, /etc/environment)" },
	/* Its own finding, not a missing directory: the current directory exists, and a stray ':' says
	 * nothing about a library the user meant to provide (explain must not take it for one). */
	{ "ld-library-path-empty-element", SEV_INFO, check_empty_elements,
	  .cause = "An empty LD_LIBRARY_PATH element (a leading or trailing ':' or '::') makes the loader search the "
		   "current directory, so what loads depends on where a program is started.",
	  .fix = "remove the stray ':' from LD_LIBRARY_PATH" },
};

RULE_FAMILY(rules_env, "env", rules);
RULE_FAMILY(rules_ldpath, "ldpath", ldpath_rules);
