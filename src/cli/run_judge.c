/* cudx run: the findings about what the program loaded, and what its output says.
 *
 * Every rule runs over the inventory, as for check; the process family judges what each watched
 * process loaded and searched for (inv->run). The run's subject is the inventory's focus
 * (observed_collect adds it: the program, every GPU library a judged process loaded, every name
 * never found), and the findings about it are kept as why and tree keep theirs (diag/focus.h):
 * a finding naming one of those files or names, or a rule about the library family of one (the
 * driver's no-driver for a program that loaded or looked for libcuda). The rest of the machine's
 * findings are reported apart ("other findings"). */
#include <string.h>

#include "cli/run.h"
#include "diag/focus.h"
#include "diag/rule.h"
#include "kb/kb.h"

/* The evidence a kept finding gets: for each loaded file it is about (its subject or one of its
 * paths, compared by real path), which process loaded it and how. */
static void add_run_evidence(struct cudx_ctx *ctx, const struct run_observation *ro, struct finding *f)
{
	size_t added = 0;
	for (size_t k = 0; k < ro->n_judged && added < 3; k++) {
		const struct observed_process *p = &ro->procs.procs[ro->judged[k]];
		for (size_t i = 0; i < p->n_objs && added < 3; i++) {
			const struct observed_object *o = &p->objs[i];
			if (o->inherited || o->is_main || !*o->path ||
			    !kb_lib_classify(path_basename(o->path), OS_LINUX))
				continue;
			const char *real = observed_real_path(ctx, o->path);
			bool named = false;
			for (size_t n = 0; n <= f->n_paths && !named; n++) {
				const char *s = n < f->n_paths ? f->paths[n] : f->subject;
				if (!s || s[0] != '/')
					continue;
				const char *sr = observed_real_path(ctx, s);
				named = strcmp(s, o->path) == 0 || (real && sr && strcmp(sr, real) == 0);
			}
			if (!named)
				continue;
			const char *by = o->requested_by ? p->objs[o->requested_by - 1].path : NULL;
			finding_evidence(f, "cudx run: %s loaded %s%s%s%s%s%s%s%s", observed_proc_label(ctx->arena, p),
					 o->path, o->requested_as ? " (asked for " : "",
					 o->requested_as ? o->requested_as : "", by ? " by " : "", by ? by : "",
					 o->requested_as ? ", found through " : "",
					 o->requested_as ? observed_how_name(o->how) : "", o->requested_as ? ")" : "");
			added++;
		}
	}
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
		rep->dropped_messages += scan->dropped_msgs;
		for (size_t i = 0; i < scan->n_msgs; i++) {
			struct run_message *m = ARENA_PUSH(ctx->arena, rep->messages, rep->n_messages,
							   rep->cap_messages);
			m->msg = &scan->msgs[i];
			m->stream = names[s];
			for (size_t c = 0; c < m->msg->n_cands; c++)
				m->confirmed[c] = findings_has(&rep->findings, m->msg->cands[c].cause->finding);
		}
	}
}

void run_judge(struct cudx_ctx *ctx, struct run_report *rep)
{
	struct findings all;
	findings_init(&all, ctx->arena);
	struct diag_ctx d = { .ctx = ctx, .inv = rep->inv, .out = &all };
	diag_run(&d);
	findings_init(&rep->findings, ctx->arena);
	findings_init(&rep->other, ctx->arena);
	diag_focus_keep(ctx, rep->inv, &all, &rep->findings);
	/* the rest, in order: kept findings are copies of all's, in all's order */
	for (size_t i = 0, k = 0; i < all.n; i++) {
		if (k < rep->findings.n && rep->findings.v[k].summary == all.v[i].summary) {
			add_run_evidence(ctx, rep->ro, &rep->findings.v[k++]);
			continue;
		}
		*ARENA_PUSH(ctx->arena, rep->other.v, rep->other.n, rep->other.cap) = all.v[i];
	}
	read_output(ctx, rep);
}
