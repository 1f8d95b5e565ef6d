/* The process family: what `cudx run` saw the real loader do (inv->run). Names a process searched
 * for and never got are lib-not-found with the places the loader really tried; a program that
 * could not be watched at all says why. The libraries a process did load are judged by the other
 * families: they are copies in inv->libs and, per process, inv->loaded (process-mixed-libs). */
#include <string.h>

#include "collect/observed_inventory.h"
#include "diag/rule.h"
#include "kb/kb.h"

#define SHOW_TRIED 8 /* candidate paths shown as evidence; the count says the rest */

static void not_found_copies(struct diag_ctx *d, struct finding *f, const char *name)
{
	const char *base = path_basename(name);
	size_t shown = 0;
	for (size_t i = 0; i < d->inv->n_libs && shown < 3; i++) {
		const struct lib_file *l = &d->inv->libs[i];
		if (l->broken_link || l->is_stub || (strcmp(l->name, base) != 0 && !(l->soname && strcmp(l->soname, base) == 0)))
			continue;
		finding_evidence(f, "a copy exists off the search path: %s (%s%s%s)", l->path, l->origin,
				 l->version ? ", version " : "", l->version ? l->version : "");
		if (!shown++)
			finding_fix(f, "export LD_LIBRARY_PATH=%s${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}  # the directory of "
				       "that copy, for this program",
				    l->dir);
	}
}

/* The loader also tries subdirectories of each directory: glibc-hwcaps/x86-64-v3 (glibc >= 2.33)
 * and the legacy hardware-capability ones (tls, the platform and hwcap names). A candidate in
 * such a subdirectory of another tried directory is left out of the evidence. */
static bool in_tried_subdir(struct arena *a, const struct observed_search *se, size_t i)
{
	static const char *const subdirs[] = { "glibc-hwcaps", "tls", "x86_64", "haswell", "xeon_phi",
					       "avx512_1", "i686", "aarch64", "power9", "z15" };
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

static void emit_not_found(struct diag_ctx *d, const struct rule *self, const struct run_observation *ro,
			   const struct run_not_found *nf)
{
	const struct observed_process *p = &ro->procs.procs[nf->proc];
	const char *who = observed_proc_label(d->ctx->arena, p);
	/* a start-up dependency ends the program; a GPU library missing at run time is what cudx is
	 * asked about; other run-time probes are often optional (the program goes on without them) */
	enum severity sev = !nf->at_runtime || nf->gpu ? SEV_ERROR : SEV_WARNING;
	struct finding *f = finding_add(d->out, self->id, sev, "%s was searched for and never found (%s %s)",
					nf->name, nf->at_runtime ? "dlopen in" : "needed at start-up by", who);
	finding_subject(f, arena_printf(d->ctx->arena, "pid %lld %s", p->pid, nf->name));
	finding_cause(f, "%s asked the dynamic loader for %s%s%s and the loader found no usable file%s. %s",
		      who, nf->name, nf->requested_by ? " on behalf of " : "", nf->requested_by ? nf->requested_by : "",
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
		finding_evidence(f, "... and %zu more places: subdirectories of those (glibc-hwcaps, tls, platform) "
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

static void check_searched_not_found(struct diag_ctx *d, const struct rule *self)
{
	const struct run_observation *ro = d->inv->run;
	if (!ro)
		return;
	for (size_t i = 0; i < ro->n_not_found; i++) {
		/* as in check (rules_loader.c): a missing driver library is the driver family's finding
		 * (no-driver), which cudx run completes with these searches */
		const struct kb_lib *k = kb_lib_classify(path_basename(ro->not_found[i].name), OS_LINUX);
		if (k && k->family && strcmp(k->family, "driver") == 0)
			continue;
		emit_not_found(d, self, ro, &ro->not_found[i]);
	}
}

static void check_not_audited(struct diag_ctx *d, const struct rule *self)
{
	const struct run_observation *ro = d->inv->run;
	if (!ro || ro->top || !ro->not_audited)
		return;
	struct finding *f = rule_emit(d, self, "the dynamic loader of the command could not be watched: %s",
				      ro->not_audited);
	finding_cause(f, "cudx run learns what a program loads from an LD_AUDIT library that the dynamic "
			 "loader itself calls. The loader ignores LD_AUDIT for statically linked programs (there is "
			 "no loader), and for set-user-ID, set-group-ID or file-capability programs (secure mode "
			 "drops audit libraries given by path). Nothing the program loaded could be judged; the "
			 "findings come from its output and this machine only.");
	finding_evidence(f, "%s", ro->not_audited);
	if (ro->record_problem)
		finding_evidence(f, "audit record: %s", ro->record_problem);
	finding_fix(f, "cudx tree PROGRAM predicts what a dynamically linked program loads without running it");
	finding_fix(f, "for a set-user-ID program, run a copy without the set-user-ID bit (as the user it runs as)");
}

static const struct rule rules[] = {
	{ "lib-not-found", SEV_ERROR, check_searched_not_found },
	{ "run-not-audited", SEV_WARNING, check_not_audited },
};

RULE_FAMILY(rules_process, "process", rules);
