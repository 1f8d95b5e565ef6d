/* cudx run: which findings are about the program, and what its output says.
 *
 * The machine's findings come from the rules of check. Those about a file a watched process
 * loaded, or a name it searched for (subject or evidence naming it), are about the program; so
 * are the whole-machine causes every GPU program meets (no driver, no device nodes, devices
 * hidden) when it loaded a GPU library at all. The rest is reported as "other findings". */
#include <string.h>

#include "cli/run.h"
#include "diag/rule.h"
#include "kb/kb.h"

extern const struct rule_family rules_process;

/* Causes that stop any GPU program, whatever file it loaded. */
static const char *const machine_wide[] = {
	"no-driver", "driver-userspace-mismatch", "no-device-nodes", "device-node-permission",
	"cuda-visible-devices-hides",
};

struct loaded_path {
	const char *path, *real;
	size_t proc, obj;
};

struct judge {
	struct cudx_ctx *ctx;
	struct run_report *rep;
	struct loaded_path *paths;
	size_t n_paths, cap_paths;
	bool uses_gpu;
};

/* path occurs in text as a whole path (not as the prefix of a longer one) */
static bool mentions(const char *text, const char *path)
{
	size_t n = strlen(path);
	for (const char *p = text; n && (p = strstr(p, path)); p++) {
		char after = p[n];
		if (!after || strchr(" ),:;'\"\n]", after))
			return true;
	}
	return false;
}

static void collect_paths(struct judge *j)
{
	const struct run_observation *ro = j->rep->ro;
	for (size_t k = 0; k < ro->n_judged; k++) {
		const struct observed_process *p = &ro->procs.procs[ro->judged[k]];
		for (size_t i = 0; i < p->n_objs; i++) {
			const struct observed_object *o = &p->objs[i];
			if (o->inherited || o->is_main || !*o->path || !kb_lib_classify(path_basename(o->path), OS_LINUX))
				continue;
			j->uses_gpu = true;
			*ARENA_PUSH(j->ctx->arena, j->paths, j->n_paths, j->cap_paths) = (struct loaded_path){
				o->path, observed_real_path(j->ctx, o->path), ro->judged[k], i };
		}
	}
}

/* The driver libraries the program looked for and never found belong to the driver's findings
 * (check leaves them out of lib-not-found too). */
static void driver_searches(struct judge *j, struct finding *f)
{
	const struct run_observation *ro = j->rep->ro;
	for (size_t i = 0; i < ro->n_not_found; i++) {
		const struct run_not_found *nf = &ro->not_found[i];
		const struct kb_lib *k = kb_lib_classify(path_basename(nf->name), OS_LINUX);
		if (k && k->family && strcmp(k->family, "driver") == 0)
			finding_evidence(f, "cudx run: %s looked for %s%s%s and found none (%zu places tried)",
					 observed_proc_label(j->ctx->arena, &ro->procs.procs[nf->proc]), nf->name,
					 nf->requested_by ? ", asked by " : "", nf->requested_by ? nf->requested_by : "",
					 nf->search->n_tried + nf->search->more_tried);
	}
}

/* One evidence line per loaded file the finding names: which process loaded it, how. A finding
 * about a library (its subject is one) is about the program only through a loaded copy of that
 * same library: driver-too-old for the toolkit's cudart names the libcuda the program loaded as
 * its evidence, but is not about a program that loaded another cudart. */
static bool about_program(struct judge *j, struct finding *f)
{
	bool hit = false;
	size_t added = 0;
	const struct kb_lib *subject = f->subject ? kb_lib_classify(path_basename(f->subject), OS_LINUX) : NULL;
	for (size_t i = 0; i < j->n_paths && added < 3; i++) {
		const struct loaded_path *lp = &j->paths[i];
		bool named = (f->subject && (strcmp(f->subject, lp->path) == 0 || (lp->real && strcmp(f->subject, lp->real) == 0)));
		const struct kb_lib *k = kb_lib_classify(path_basename(lp->path), OS_LINUX);
		bool same_lib = !subject || (k && strcmp(k->component, subject->component) == 0);
		for (size_t e = 0; e < f->n_evidence && !named && same_lib; e++)
			named = mentions(f->evidence[e], lp->path) || (lp->real && mentions(f->evidence[e], lp->real));
		if (!named)
			continue;
		hit = true;
		const struct observed_process *p = &j->rep->ro->procs.procs[lp->proc];
		const struct observed_object *o = &p->objs[lp->obj];
		const char *by = o->requested_by ? p->objs[o->requested_by - 1].path : NULL;
		finding_evidence(f, "cudx run: %s loaded %s%s%s%s%s%s%s%s", observed_proc_label(j->ctx->arena, p), o->path,
				 o->requested_as ? " (asked for " : "", o->requested_as ? o->requested_as : "",
				 by ? " by " : "", by ? by : "", o->requested_as ? ", found through " : "",
				 o->requested_as ? observed_how_name(o->how) : "", o->requested_as ? ")" : "");
		added++;
	}
	if (hit)
		return true;
	const struct run_observation *ro = j->rep->ro;
	for (size_t i = 0; i < ro->n_not_found; i++) {
		const char *name = path_basename(ro->not_found[i].name);
		for (size_t e = 0; e < f->n_evidence; e++)
			if (strstr(f->evidence[e], name))
				return true;
		if (f->subject && strstr(f->subject, name))
			return true;
	}
	for (size_t i = 0; j->uses_gpu && i < sizeof machine_wide / sizeof machine_wide[0]; i++)
		if (strcmp(f->id, machine_wide[i]) == 0) {
			if (strcmp(f->id, "no-driver") == 0)
				driver_searches(j, f);
			return true;
		}
	return false;
}

static const struct rule *rule_by_id(const struct rule_family *fam, const char *id)
{
	for (size_t i = 0; i < fam->n_rules; i++)
		if (strcmp(fam->rules[i].id, id) == 0)
			return &fam->rules[i];
	return NULL;
}

/* Each watched process's loaded set is judged on its own: two releases in two processes are
 * fine, in one they are not. process-mixed-libs names the process by opt->pid. */
static void judge_processes(struct cudx_ctx *ctx, struct run_report *rep, struct findings *out)
{
	struct diag_ctx d = { ctx, rep->inv, out };
	for (size_t i = 0; i < rules_process.n_rules; i++)
		rules_process.rules[i].check(&d, &rules_process.rules[i]);
	const struct rule *mixed = rule_by_id(&rules_libs, "process-mixed-libs");
	const struct run_observation *ro = rep->ro;
	for (size_t k = 0; mixed && k < ro->n_judged; k++) {
		observed_fill_loaded(ctx, rep->inv, ro, ro->judged[k]);
		ctx->opt->pid = (int)ro->procs.procs[ro->judged[k]].pid;
		mixed->check(&d, mixed);
		ctx->opt->pid = 0;
	}
	/* inv->loaded keeps the first watched process's set for the report */
	if (ro->n_judged)
		observed_fill_loaded(ctx, rep->inv, ro, ro->judged[0]);
}

/* The output, read as `cudx explain` reads a log: the one call into explain's scanner. */
static void read_output(struct cudx_ctx *ctx, struct run_report *rep)
{
	const struct explain_catalog *cat = explain_catalog_builtin(ctx->arena);
	const struct runproc_stream *streams[2] = { &rep->proc.err, &rep->proc.out };
	const char *names[2] = { "stderr", "stdout" };
	for (int s = 0; s < 2; s++) {
		struct explain_scan *scan = arena_calloc(ctx->arena, 1, sizeof *scan);
		explain_scan_text(ctx->arena, cat, span_make(streams[s]->tail, streams[s]->kept), scan);
		rep->dropped_messages += scan->dropped_hits;
		for (size_t i = 0; i < scan->n_hits; i++) {
			struct run_message *m = ARENA_PUSH(ctx->arena, rep->messages, rep->n_messages, rep->cap_messages);
			m->hit = &scan->hits[i];
			m->stream = names[s];
			for (size_t c = 0; c < m->hit->def->n_causes; c++)
				m->confirmed[c] = findings_has(&rep->findings, m->hit->def->causes[c]->finding);
		}
	}
}

void run_judge(struct cudx_ctx *ctx, struct run_report *rep)
{
	struct findings machine;
	findings_init(&machine, ctx->arena);
	struct diag_ctx d = { ctx, rep->inv, &machine };
	diag_run(&d);
	findings_init(&rep->findings, ctx->arena);
	findings_init(&rep->other, ctx->arena);
	judge_processes(ctx, rep, &rep->findings);

	struct judge j = { .ctx = ctx, .rep = rep };
	collect_paths(&j);
	for (size_t i = 0; i < machine.n; i++) {
		struct finding *f = &machine.v[i];
		bool dup = false;
		for (size_t k = 0; k < rep->findings.n && !dup; k++)
			dup = strcmp(rep->findings.v[k].id, f->id) == 0 && rep->findings.v[k].subject && f->subject &&
			      strcmp(rep->findings.v[k].subject, f->subject) == 0;
		if (dup)
			continue;
		struct findings *to = about_program(&j, f) ? &rep->findings : &rep->other;
		*ARENA_PUSH(ctx->arena, to->v, to->n, to->cap) = *f; /* machine is not used again */
	}
	findings_sort(&rep->findings);
	findings_sort(&rep->other);
	read_output(ctx, rep);
}
