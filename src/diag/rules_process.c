/* The process family: what processes really loaded. A load set comes from a running process's
 * memory map (--pid, inv->loaded) or from the real loader watched by `cudx run` (inv->run, one set
 * per watched process): two releases of one library family in one process are
 * process-mixed-libs. From `cudx run` also: names a process searched for and never got are the
 * loader's lib-not-found, with the places the loader really tried; a missing driver library
 * adds its searches to no-driver; a program that could not be watched says why
 * (run-not-audited). The libraries a process loaded are judged by the other families too: they
 * are copies in inv->libs. */
#include <string.h>

#include "collect/observed_inventory.h"
#include "diag/rule.h"
#include "fmt/version.h"
#include "kb/kb.h"

/* --- process-mixed-libs ---------------------------------------------------------------------- */

/* Two copies of one library family in one process (`who`: "process 123", "pid 123 (app)"): the
 * "crash after libcudnn.so.7 loaded fine" case, a framework's bundled copy and a system copy both
 * mapped, each half calling into the other's data structures. One finding per process. */
static void mixed_in(struct diag_ctx *d, const struct rule *self, long long pid, const char *who,
		     const struct loaded_lib *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const struct loaded_lib *a = &v[i];
		if (!a->family || strcmp(a->family, "driver") == 0)
			continue;
		for (size_t k = i + 1; k < n; k++) {
			const struct loaded_lib *b = &v[k];
			if (!b->family || strcmp(a->family, b->family) != 0 || strcmp(a->path, b->path) == 0)
				continue;
			bool majors = a->major && b->major && a->major != b->major;
			bool versions = a->version && b->version && version_other_release(a->version, b->version);
			bool same_lib = strcmp(a->component, b->component) == 0;
			/* two distinct files of one component, or of one family from two releases */
			if (!majors && !versions && !same_lib)
				continue;
			struct finding *f = rule_emit(d, self, "%s has two %s %s loaded: %s and %s", who, a->family,
						      majors || versions ? "releases" : "copies",
						      a->version ? a->version : path_basename(a->path),
						      b->version ? b->version : path_basename(b->path));
			/* the same release twice is odd but less dangerous than two releases */
			if (!majors && !versions)
				finding_mild(f);
			finding_path(f, a->path);
			finding_path(f, b->path);
			finding_subject(f, arena_printf(d->ctx->arena, "pid %lld %s", pid, a->family));
			finding_cause(
				f,
				"Two copies of %s%s are mapped into the same process. Each half of the program "
				"calls the copy it found first, and objects made by one are handed to the other: "
				"typical results are crashes or CUDNN_STATUS/CUBLAS_STATUS errors after a library "
				"\"loaded successfully\". Usually a framework brings its own copy while another "
				"module loads the system's.",
				a->family, majors || versions ? " from different releases" : "");
			finding_evidence(f, "%s (%s%s%s)", a->path, a->component, a->version ? " " : "",
					 a->version ? a->version : "");
			finding_evidence(f, "%s (%s%s%s)", b->path, b->component, b->version ? " " : "",
					 b->version ? b->version : "");
			finding_fix(f,
				    "load one release only: remove the other copy's directory from LD_LIBRARY_PATH, or "
				    "import the framework that bundles %s first so its copy wins",
				    a->family);
			return;
		}
	}
}

/* Each load set on its own: two releases in two processes are fine, in one they are not. */
static void check_process_mixed(struct diag_ctx *d, const struct rule *self)
{
	const struct inventory *inv = d->inv;
	if (inv->n_loaded)
		mixed_in(d, self, inv->loaded_pid, arena_printf(d->ctx->arena, "process %lld", inv->loaded_pid),
			 inv->loaded, inv->n_loaded);
	const struct run_observation *ro = inv->run;
	for (size_t k = 0; ro && k < ro->n_judged; k++) {
		const struct observed_process *p = &ro->procs.procs[ro->judged[k]];
		size_t n;
		const struct loaded_lib *v = observed_loaded(d->ctx, inv, ro, ro->judged[k], &n);
		mixed_in(d, self, p->pid, observed_proc_label(d->ctx->arena, p), v, n);
	}
}

/* --- lib-not-found from the real loader ------------------------------------------------------- */

#define SHOW_TRIED 8 /* candidate paths shown as evidence; the count says the rest */

/* A usable copy of the library name asks for in the inventory (the i-th one from *i), or NULL. */
static const struct lib_file *next_copy(const struct inventory *inv, const char *name, size_t *i)
{
	const char *base = path_basename(name);
	for (; *i < inv->n_libs; (*i)++) {
		const struct lib_file *l = &inv->libs[*i];
		if (!l->broken_link && !l->is_stub &&
		    (strcmp(l->name, base) == 0 || (l->soname && strcmp(l->soname, base) == 0)))
			return &inv->libs[(*i)++];
	}
	return NULL;
}

static void not_found_copies(struct diag_ctx *d, struct finding *f, const char *name)
{
	size_t shown = 0, i = 0;
	const struct lib_file *l;
	while (shown < 3 && (l = next_copy(d->inv, name, &i))) {
		finding_evidence(f, "a copy exists off the search path: %s (%s%s%s)", l->path, l->origin,
				 l->version ? ", version " : "", l->version ? l->version : "");
		if (!shown++)
			finding_fix(
				f,
				"export LD_LIBRARY_PATH=%s${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}  # the directory of "
				"that copy, for this program",
				l->dir);
	}
}

/* The loader also tries subdirectories of each directory: glibc-hwcaps/x86-64-v3 (glibc >= 2.33)
 * and the legacy hardware-capability ones (tls, the platform and hwcap names). A candidate in
 * such a subdirectory of another tried directory is left out of the evidence. */
static bool in_tried_subdir(struct arena *a, const struct observed_search *se, size_t i)
{
	static const char *const subdirs[] = { "glibc-hwcaps", "tls",  "x86_64",  "haswell", "xeon_phi",
					       "avx512_1",     "i686", "aarch64", "power9",  "z15" };
	const char *dir = path_dirname(a, se->tried[i]);
	for (size_t k = 0; k < se->n_tried; k++) {
		const char *other = path_dirname(a, se->tried[k]);
		size_t n = strlen(other);
		if (k == i || strncmp(dir, other, n) != 0 || dir[n] != '/')
			continue;
		size_t len = strcspn(dir + n + 1, "/");
		for (size_t s = 0; s < sizeof subdirs / sizeof subdirs[0]; s++)
			if (strlen(subdirs[s]) == len && strncmp(dir + n + 1, subdirs[s], len) == 0)
				return true;
	}
	return false;
}

static void emit_not_found(struct diag_ctx *d, const struct run_observation *ro, const struct run_not_found *nf)
{
	const struct observed_process *p = &ro->procs.procs[nf->proc];
	const char *who = observed_proc_label(d->ctx->arena, p);
	struct finding *f = rule_emit(d, diag_rule("lib-not-found"), "%s was searched for and never found (%s %s)",
				      nf->name, nf->at_runtime ? "dlopen in" : "needed at start-up by", who);
	/* a start-up dependency ends the program; a GPU library missing at run time is what cudx is
	 * asked about; other run-time probes are often optional (the program goes on without them) */
	if (nf->at_runtime && !nf->gpu)
		finding_mild(f);
	finding_subject(f, arena_printf(d->ctx->arena, "pid %lld %s", p->pid, nf->name));
	finding_path(f, nf->name); /* first, as the loader family's: the name a command is about */
	finding_path(f, nf->requested_by);
	finding_cause(f, "%s asked the dynamic loader for %s%s%s and the loader found no usable file%s. %s", who,
		      nf->name, nf->requested_by ? " on behalf of " : "", nf->requested_by ? nf->requested_by : "",
		      nf->times > 1 ? arena_printf(d->ctx->arena, " (%zu times)", nf->times) : "",
		      nf->at_runtime ? "A dlopen that fails returns NULL: the program either goes on without the "
				       "library or fails later with an error of its own (\"cannot open shared object "
				       "file\", \"Could not load library ...\")."
				     : "A library needed at start-up that is missing stops the program before main: "
				       "\"error while loading shared libraries: ... cannot open shared object file\".");
	const struct observed_search *se = nf->search;
	size_t shown = 0;
	for (size_t i = 0; i < se->n_tried && shown < SHOW_TRIED; i++)
		if (!in_tried_subdir(d->ctx->arena, se, i)) {
			finding_evidence(f, "tried %s (%s)", se->tried[i], observed_how_name(se->tried_how[i]));
			shown++;
		}
	if (se->n_tried + se->more_tried > shown)
		finding_evidence(f,
				 "... and %zu more places: subdirectories of those (glibc-hwcaps, tls, platform) "
				 "and the rest (cudx run --json lists them all)",
				 se->n_tried + se->more_tried - shown);
	if (!se->n_tried)
		finding_evidence(f, "%s", strchr(nf->name, '/') ? "opened as a path: no search" : "no place was tried");
	if (nf->existing) {
		finding_evidence(f, "%s exists but was not taken: %s", nf->existing, nf->existing_why);
		finding_fix(f, "replace %s with a build for this program's machine and ELF class", nf->existing);
	}
	not_found_copies(d, f, nf->name);
	const struct kb_lib *k = kb_lib_classify(path_basename(nf->name), OS_LINUX);
	if (k && k->pip_wheel)
		finding_fix(f, "pip install %s (then its lib directory holds %s)", k->pip_wheel, k->name);
	finding_fix(f, "cudx why %s shows every place the loader looks and the copies on this machine",
		    path_basename(nf->name));
}

static bool driver_library(const char *name)
{
	const struct kb_lib *k = kb_lib_classify(path_basename(name), OS_LINUX);
	return k && k->family && strcmp(k->family, "driver") == 0;
}

/* The walker of the run's failed searches: each (process, name) once. As in check
 * (rules_loader.c), a driver library that exists nowhere is the driver family's finding: its
 * searches become evidence of no-driver. */
static void check_searched_not_found(struct diag_ctx *d, const struct rule *self)
{
	(void)self;
	const struct run_observation *ro = d->inv->run;
	for (size_t i = 0; ro && i < ro->n_not_found; i++) {
		const struct run_not_found *nf = &ro->not_found[i];
		size_t c = 0;
		if (!driver_library(nf->name) || next_copy(d->inv, nf->name, &c)) {
			emit_not_found(d, ro, nf);
			continue;
		}
		if (!findings_has(d->out, "no-driver"))
			continue;
		struct finding *f = rule_join(d, diag_rule("no-driver"), NULL, NULL, "no NVIDIA driver");
		finding_path(f, nf->name);
		finding_evidence(f, "cudx run: %s looked for %s%s%s and found none (%zu places tried)",
				 observed_proc_label(d->ctx->arena, &ro->procs.procs[nf->proc]), nf->name,
				 nf->requested_by ? ", asked by " : "", nf->requested_by ? nf->requested_by : "",
				 nf->search->n_tried + nf->search->more_tried);
	}
}

/* --- run-not-audited ------------------------------------------------------------------------ */

static void check_not_audited(struct diag_ctx *d, const struct rule *self)
{
	const struct run_observation *ro = d->inv->run;
	if (!ro || ro->top || !ro->not_audited)
		return;
	struct finding *f = rule_emit(d, self, "the dynamic loader of the command could not be watched: %s",
				      ro->not_audited);
	finding_subject(f, ro->command);
	finding_evidence(f, "%s", ro->not_audited);
	if (ro->record_problem)
		finding_evidence(f, "audit record: %s", ro->record_problem);
}

static const struct rule rules[] = {
	{ "process-mixed-libs", SEV_ERROR, check_process_mixed,
	  .cause = "Two copies of one library family are mapped into the same process; objects made by one release "
		   "are handed to the other, and the program crashes or fails after the library \"loaded\".",
	  .fix = "load one release only: remove the other copy's directory from LD_LIBRARY_PATH", .mild = SEV_WARNING,
	  .mild_when = "the two copies are of the same release" },
	{ .check = check_searched_not_found }, /* walker: lib-not-found (loader family), no-driver (driver) */
	{ "run-not-audited", SEV_WARNING, check_not_audited,
	  .cause = "cudx run learns what a program loads from an LD_AUDIT library that the dynamic loader itself "
		   "calls. The loader ignores LD_AUDIT for statically linked programs (there is no loader), and for "
		   "set-user-ID, set-group-ID or file-capability programs (secure mode drops audit libraries given "
		   "by path). Nothing the program loaded could be judged; the findings come from its output and "
		   "this machine only.",
	  .fix = "cudx tree PROGRAM predicts what a dynamically linked program loads without running it\n"
		 "for a set-user-ID program, run a copy without the set-user-ID bit (as the user it runs as)" },
};

RULE_FAMILY(rules_process, "process", rules);
