/* cudx run's own render code: text for people, JSON ("command": "run", docs/json.md) for programs. */
#include <jansson.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "cli/run.h"
#include "kb/kb.h"
#include "report/json_parts.h"
#include "report/report.h"
#include "util/utf8.h"

#define TEXT_MAX_NOT_FOUND 20
#define TEXT_MAX_DIFFS 10

static const char *signal_name(int sig)
{
	const char *d = sigabbrev_np(sig);
	return d ? d : "?";
}

static const char *command_line(struct arena *a, const struct run_report *rep)
{
	const char *s = "";
	for (int i = 0; i < rep->argc && strlen(s) < 200; i++)
		s = arena_printf(a, "%s%s%s", s, i ? " " : "", rep->argv[i]);
	return s;
}

/* "exited with status 1", "was killed by signal 11 (SIGSEGV, core dumped)", ... */
static const char *ending(struct arena *a, const struct run_report *rep)
{
	const struct runproc_result *r = &rep->proc;
	const char *how = r->exited   ? arena_printf(a, "exited with status %d", r->exit_code)
			  : r->signal ? arena_printf(a, "was killed by signal %d (SIG%s%s)", r->signal,
						     signal_name(r->signal), r->core_dumped ? ", core dumped" : "")
				      : "ended in an unknown way";
	if (r->timed_out)
		how = arena_printf(a, "ran past --timeout %g s and was stopped (%s)", rep->timeout, how);
	return arena_printf(a, "%s after %.1f s", how, r->seconds);
}

static size_t gpu_objects(const struct observed_process *p)
{
	size_t n = 0;
	for (size_t i = 0; i < p->n_objs; i++)
		n += !p->objs[i].inherited && kb_lib_classify(path_basename(p->objs[i].path), OS_LINUX) != NULL;
	return n;
}

static void text_process(FILE *out, struct cudx_ctx *ctx, const struct run_report *rep, size_t pi)
{
	const struct observed_process *p = &rep->ro->procs.procs[pi];
	fprintf(out, "%sLoaded by %s%s: %zu objects, %zu GPU libraries\n", style_bold(ctx),
		observed_proc_label(ctx->arena, p), style_reset(ctx), p->n_objs, gpu_objects(p));
	for (size_t i = 0; i < p->n_objs; i++) {
		const struct observed_object *o = &p->objs[i];
		const struct kb_lib *k = kb_lib_classify(path_basename(o->path), OS_LINUX);
		if ((!k && ctx->opt->verbose == 0) || o->inherited)
			continue;
		const struct lib_file *copy = k ? observed_copy(ctx, rep->inv, o->path) : NULL;
		const char *version = copy ? (copy->is_stub ? "stub" : copy->version) : NULL;
		fprintf(out, "  %3zu  %-48s %s%s%s%s", o->id, o->path, k ? k->component : "", version ? " " : "",
			version ? version : "", o->closed ? "  (closed again)" : "");
		if (o->requested_as)
			fprintf(out, "  %s[%s %s%s%s, %s]%s", style_dim(ctx), o->at_runtime ? "dlopen" : "needed",
				o->requested_as, o->requested_by ? " by " : "",
				o->requested_by ? path_basename(p->objs[o->requested_by - 1].path) : "",
				observed_how_name(o->how), style_reset(ctx));
		if (o->lmid)
			fprintf(out, "  namespace %lld", o->lmid);
		fputc('\n', out);
	}
}

static void text_not_found(FILE *out, struct cudx_ctx *ctx, const struct run_report *rep)
{
	const struct run_observation *ro = rep->ro;
	if (!ro->n_not_found)
		return;
	fprintf(out, "%sSearched for and never found%s\n", style_bold(ctx), style_reset(ctx));
	for (size_t i = 0; i < ro->n_not_found && i < TEXT_MAX_NOT_FOUND; i++) {
		const struct run_not_found *nf = &ro->not_found[i];
		fprintf(out, "  %s%-28s%s pid %lld, %s%s%s, %zu places tried\n", nf->gpu ? style_red(ctx) : "",
			nf->name, nf->gpu ? style_reset(ctx) : "", ro->procs.procs[nf->proc].pid,
			nf->at_runtime ? "dlopen" : "start-up", nf->requested_by ? " by " : "",
			nf->requested_by ? path_basename(nf->requested_by) : "",
			nf->search->n_tried + nf->search->more_tried);
	}
	if (ro->n_not_found > TEXT_MAX_NOT_FOUND || ro->more_not_found)
		fprintf(out, "  ... %zu more (--json lists them)\n",
			ro->n_not_found + ro->more_not_found -
				(ro->n_not_found > TEXT_MAX_NOT_FOUND ? TEXT_MAX_NOT_FOUND : ro->n_not_found));
}

static void text_messages(FILE *out, struct cudx_ctx *ctx, const struct run_report *rep)
{
	if (!rep->n_messages)
		return;
	fprintf(out, "%sMessages in its output%s (as cudx explain reads them)\n", style_bold(ctx), style_reset(ctx));
	for (size_t i = 0; i < rep->n_messages; i++) {
		const struct run_message *m = &rep->messages[i];
		fprintf(out, "  %s line %zu%s: %.200s\n", m->stream, m->msg->line_no,
			m->msg->count > 1 ? arena_printf(ctx->arena, " (and %zu more)", m->msg->count - 1) : "",
			m->msg->line);
		for (size_t c = 0; c < m->msg->n_cands; c++)
			fprintf(out, "      %s %s%s\n",
				m->confirmed[c] ? "confirmed:" : "can mean: ", m->msg->cands[c].cause->finding,
				m->confirmed[c] ? " (a finding above)" : "");
	}
}

static void text_prediction(FILE *out, struct cudx_ctx *ctx, const struct run_report *rep)
{
	const struct run_prediction *pr = &rep->ro->prediction;
	if (!pr->agreed && !pr->n_diffs)
		return;
	fprintf(out, "%sLoader prediction%s: cudx's simulator picks the same file for %zu of %zu names searched%s\n",
		style_bold(ctx), style_reset(ctx), pr->agreed, pr->agreed + pr->n_diffs,
		pr->skipped ? arena_printf(ctx->arena, " (%zu not replayed)", pr->skipped) : "");
	for (size_t i = 0; i < pr->n_diffs && i < TEXT_MAX_DIFFS; i++) {
		const struct run_difference *d = &pr->diffs[i];
		fprintf(out, "  %s%s%s: the loader %s%s%s%s, cudx predicted %s%s%s%s\n", d->search->name,
			d->requested_by ? " for " : "", d->requested_by ? path_basename(d->requested_by) : "",
			d->observed ? "opened " : "found nothing", d->observed ? d->observed : "",
			d->observed_how ? arena_printf(ctx->arena, " (%s)", d->observed_how) : "", "",
			d->predicted ? d->predicted : "nothing", d->predicted_how ? " (" : "",
			d->predicted_how ? d->predicted_how : "", d->predicted_how ? ")" : "");
	}
	if (pr->n_diffs > TEXT_MAX_DIFFS)
		fprintf(out, "  ... %zu more differences (--json lists them)\n", pr->n_diffs - TEXT_MAX_DIFFS);
}

void run_render_text(FILE *out, struct cudx_ctx *ctx, const struct run_report *rep)
{
	const struct run_observation *ro = rep->ro;
	fprintf(out, "\n%scudx run:%s %s %s\n", style_bold(ctx), style_reset(ctx), command_line(ctx->arena, rep),
		ending(ctx->arena, rep));
	if (rep->sandbox) {
		const struct probe_sandbox *sb = &rep->proc.sandbox;
		fprintf(out, "  sandbox: %s, %s, %s\n",
			sb->no_new_privs ? "no new privileges" : "privileges NOT locked",
			sb->caps_dropped ? "host-changing capabilities dropped" : "capabilities NOT dropped",
			sb->dev_readonly ? "/dev read-only" : "/dev writable (not root, or no mount namespace)");
		for (size_t i = 0; i < sb->n_failed; i++)
			fprintf(out, "    could not apply %s\n", sb->failed[i]);
	}
	if (rep->proc.out.total > rep->proc.out.kept || rep->proc.err.total > rep->proc.err.kept)
		fprintf(out, "  (its output was longer than cudx keeps: the last %u KiB of each stream were read)\n",
			RUNPROC_KEEP >> 10);
	if (ro->rec.bad_lines || ro->rec.full || ro->procs.dropped_procs)
		fprintf(out, "  audit record: %zu bad lines%s%s\n", ro->rec.bad_lines,
			ro->rec.full ? ", cut at its size limit" : "",
			ro->procs.dropped_procs
				? arena_printf(ctx->arena, ", %zu processes not kept", ro->procs.dropped_procs)
				: "");
	fputc('\n', out);
	for (size_t j = 0; j < ro->n_judged; j++) {
		text_process(out, ctx, rep, ro->judged[j]);
		fputc('\n', out);
	}
	if (ro->procs.n_procs > ro->n_judged)
		fprintf(out,
			"%zu more program image%s (a child, or what an exec replaced) loaded no GPU library "
			"(--json lists %s)\n\n",
			ro->procs.n_procs - ro->n_judged, ro->procs.n_procs - ro->n_judged == 1 ? "" : "s",
			ro->procs.n_procs - ro->n_judged == 1 ? "it" : "them");
	text_not_found(out, ctx, rep);
	if (ro->n_not_found)
		fputc('\n', out);
	if (rep->findings.n) {
		fprintf(out, "%sFindings%s\n", style_bold(ctx), style_reset(ctx));
		report_findings_text(out, ctx, &rep->findings);
	}
	text_messages(out, ctx, rep);
	if (rep->n_messages)
		fputc('\n', out);
	text_prediction(out, ctx, rep);
	if (rep->other.n) {
		fprintf(out,
			"\n%zu more finding%s on this machine not about what the program loaded (cudx check shows "
			"them):",
			rep->other.n, rep->other.n == 1 ? "" : "s");
		for (size_t i = 0; i < rep->other.n && i < 12; i++)
			fprintf(out, " %s", rep->other.v[i].id);
		fputc('\n', out);
	}
	size_t counts[3] = { 0 };
	for (size_t i = 0; i < rep->findings.n; i++)
		counts[rep->findings.v[i].severity]++;
	fprintf(out, "\n%zu error%s, %zu warning%s, %zu note%s about what the program loaded\n", counts[SEV_ERROR],
		counts[SEV_ERROR] == 1 ? "" : "s", counts[SEV_WARNING], counts[SEV_WARNING] == 1 ? "" : "s",
		counts[SEV_INFO], counts[SEV_INFO] == 1 ? "" : "s");
}

/* --- JSON ------------------------------------------------------------------------------------ */

/* Paths, arguments and the program's output are bytes, not necessarily UTF-8: a byte that is not
 * part of valid UTF-8 becomes '?', so the document stays valid JSON (the output tail may hold NUL
 * bytes, hence the length; report_json_str does the same for NUL-terminated text). */
static json_t *jstrn(const char *s, size_t n)
{
	if (!s)
		return json_null();
	json_t *j = json_stringn(s, n);
	if (j)
		return j;
	char *copy = utf8_sanitized(s, n);
	j = copy ? json_stringn(copy, n) : NULL;
	free(copy);
	return j ? j : json_null();
}

static json_t *stream_json(const struct runproc_stream *s)
{
	json_t *o = json_object();
	json_object_set_new(o, "bytes", json_integer((json_int_t)s->total));
	json_object_set_new(o, "kept", json_integer((json_int_t)s->kept));
	json_object_set_new(o, "tail", jstrn(s->tail, s->kept));
	return o;
}

static json_t *exit_json(const struct run_report *rep)
{
	const struct runproc_result *r = &rep->proc;
	json_t *o = json_object();
	json_object_set_new(o, "pid", json_integer((json_int_t)r->pid));
	json_object_set_new(o, "status", r->exited ? json_integer(r->exit_code) : json_null());
	json_object_set_new(o, "signal", r->signal ? json_integer(r->signal) : json_null());
	json_object_set_new(o, "signal_name", r->signal ? json_sprintf("SIG%s", signal_name(r->signal)) : json_null());
	json_object_set_new(o, "core_dumped", json_boolean(r->core_dumped));
	json_object_set_new(o, "timed_out", json_boolean(r->timed_out));
	json_object_set_new(o, "seconds", json_real(r->seconds));
	return o;
}

static json_t *search_tried_json(const struct observed_search *s)
{
	json_t *a = json_array();
	for (size_t i = 0; i < s->n_tried; i++) {
		json_t *c = json_object();
		json_object_set_new(c, "path", report_json_str(s->tried[i]));
		json_object_set_new(c, "how", json_string(observed_how_name(s->tried_how[i])));
		json_array_append_new(a, c);
	}
	return a;
}

static json_t *process_json(struct cudx_ctx *ctx, const struct run_report *rep, size_t pi)
{
	const struct observed_process *p = &rep->ro->procs.procs[pi];
	json_t *o = json_object();
	json_object_set_new(o, "pid", json_integer((json_int_t)p->pid));
	json_object_set_new(o, "ppid", json_integer((json_int_t)p->ppid));
	json_object_set_new(o, "forked_from", p->parent_pid ? json_integer((json_int_t)p->parent_pid) : json_null());
	json_object_set_new(o, "exe", report_json_str(p->exe));
	json_object_set_new(o, "args", report_json_str(p->args));
	json_object_set_new(o, "ld_library_path", report_json_str(p->ld_library_path));
	json_object_set_new(o, "ld_preload", report_json_str(p->ld_preload));
	bool judged = false;
	for (size_t j = 0; j < rep->ro->n_judged; j++)
		judged |= rep->ro->judged[j] == pi;
	json_object_set_new(o, "judged", json_boolean(judged));
	json_t *objs = json_array();
	for (size_t i = 0; i < p->n_objs; i++) {
		const struct observed_object *ob = &p->objs[i];
		const struct kb_lib *k = kb_lib_classify(path_basename(ob->path), OS_LINUX);
		json_t *j = json_object();
		json_object_set_new(j, "order", json_integer((json_int_t)ob->id));
		json_object_set_new(j, "path", report_json_str(ob->path));
		json_object_set_new(j, "real_path", report_json_str(observed_real_path(ctx, ob->path)));
		/* the SONAME as the inventory read it: GPU libraries only (cudx reads no other file) */
		const struct lib_file *copy = k ? observed_copy(ctx, rep->inv, ob->path) : NULL;
		json_object_set_new(j, "soname", report_json_str(copy ? copy->soname : NULL));
		json_object_set_new(j, "component", k ? json_string(k->component) : json_null());
		json_object_set_new(j, "family", k ? json_string(k->family) : json_null());
		json_object_set_new(j, "namespace", json_integer((json_int_t)ob->lmid));
		json_object_set_new(j, "requested_as", report_json_str(ob->requested_as));
		json_object_set_new(j, "requested_by",
				    ob->requested_by ? json_integer((json_int_t)p->objs[ob->requested_by - 1].id)
						     : json_null());
		json_object_set_new(j, "how", ob->requested_as ? json_string(observed_how_name(ob->how)) : json_null());
		json_object_set_new(j, "at_runtime", json_boolean(ob->at_runtime));
		json_object_set_new(j, "closed", json_boolean(ob->closed));
		json_object_set_new(j, "inherited", json_boolean(ob->inherited));
		json_object_set_new(j, "main", json_boolean(ob->is_main));
		json_array_append_new(objs, j);
	}
	json_object_set_new(o, "objects", objs);
	json_t *nf = json_array();
	for (size_t i = 0; i < rep->ro->n_not_found; i++) {
		const struct run_not_found *n = &rep->ro->not_found[i];
		if (n->proc != pi)
			continue;
		json_t *j = json_object();
		json_object_set_new(j, "name", report_json_str(n->name));
		json_object_set_new(j, "requested_by", report_json_str(n->requested_by));
		json_object_set_new(j, "at_runtime", json_boolean(n->at_runtime));
		json_object_set_new(j, "gpu_library", json_boolean(n->gpu));
		json_object_set_new(j, "times", json_integer((json_int_t)n->times));
		json_object_set_new(j, "tried", search_tried_json(n->search));
		json_object_set_new(j, "more_tried", json_integer((json_int_t)n->search->more_tried));
		json_object_set_new(j, "existing", report_json_str(n->existing));
		json_object_set_new(j, "existing_problem", report_json_str(n->existing_why));
		json_array_append_new(nf, j);
	}
	json_object_set_new(o, "not_found", nf);
	return o;
}

static json_t *prediction_json(const struct run_report *rep)
{
	const struct run_prediction *pr = &rep->ro->prediction;
	json_t *o = json_object();
	json_object_set_new(o, "agreed", json_integer((json_int_t)pr->agreed));
	json_object_set_new(o, "skipped", json_integer((json_int_t)pr->skipped));
	json_t *a = json_array();
	for (size_t i = 0; i < pr->n_diffs; i++) {
		const struct run_difference *d = &pr->diffs[i];
		json_t *j = json_object();
		json_object_set_new(j, "pid", json_integer((json_int_t)rep->ro->procs.procs[d->proc].pid));
		json_object_set_new(j, "name", report_json_str(d->search->name));
		json_object_set_new(j, "requested_by", report_json_str(d->requested_by));
		json_object_set_new(j, "loaded", report_json_str(d->observed));
		json_object_set_new(j, "loaded_how", report_json_str(d->observed_how));
		json_object_set_new(j, "predicted", report_json_str(d->predicted));
		json_object_set_new(j, "predicted_how", report_json_str(d->predicted_how));
		json_array_append_new(a, j);
	}
	json_object_set_new(o, "differences", a);
	return o;
}

/* The catalogue row a message was recognised by (its first form or phrase), or its first code's name. */
static const char *message_pattern(const struct explain_message *msg)
{
	for (size_t i = 0; i < msg->n_own; i++)
		if (msg->facts[i].pattern && (msg->facts[i].kind == EXF_FORM || msg->facts[i].kind == EXF_PHRASE))
			return msg->facts[i].pattern->id;
	for (size_t i = 0; i < msg->n_own; i++)
		if (msg->facts[i].kind == EXF_CODE)
			return msg->facts[i].code->name;
	return NULL;
}

static json_t *messages_json(const struct run_report *rep)
{
	json_t *a = json_array();
	for (size_t i = 0; i < rep->n_messages; i++) {
		const struct run_message *m = &rep->messages[i];
		json_t *j = json_object();
		json_object_set_new(j, "pattern", report_json_str(message_pattern(m->msg)));
		json_object_set_new(j, "category", report_json_str(explain_message_category(m->msg)));
		json_object_set_new(j, "stream", json_string(m->stream));
		json_object_set_new(j, "line_no", json_integer((json_int_t)m->msg->line_no));
		json_object_set_new(j, "line", report_json_str(m->msg->line));
		json_object_set_new(j, "count", json_integer((json_int_t)m->msg->count));
		json_t *causes = json_array();
		for (size_t c = 0; c < m->msg->n_cands; c++) {
			json_t *cj = json_object();
			json_object_set_new(cj, "finding", json_string(m->msg->cands[c].cause->finding));
			json_object_set_new(cj, "confirmed", json_boolean(m->confirmed[c]));
			json_array_append_new(causes, cj);
		}
		json_object_set_new(j, "causes", causes);
		json_array_append_new(a, j);
	}
	return a;
}

void run_render_json(FILE *out, struct cudx_ctx *ctx, const struct run_report *rep)
{
	const struct run_observation *ro = rep->ro;
	json_t *root = report_envelope_json(ctx, rep->inv, "run", &rep->findings);
	json_t *argv = json_array();
	for (int i = 0; i < rep->argc; i++)
		json_array_append_new(argv, report_json_str(rep->argv[i]));
	json_object_set_new(root, "argv", argv);
	json_object_set_new(root, "exit", exit_json(rep));
	json_t *sb = json_null();
	if (rep->sandbox) {
		sb = json_object();
		json_object_set_new(sb, "no_new_privs", json_boolean(rep->proc.sandbox.no_new_privs));
		json_object_set_new(sb, "caps_dropped", json_boolean(rep->proc.sandbox.caps_dropped));
		json_object_set_new(sb, "dev_readonly", json_boolean(rep->proc.sandbox.dev_readonly));
		json_t *failed = json_array();
		for (size_t i = 0; i < rep->proc.sandbox.n_failed; i++)
			json_array_append_new(failed, report_json_str(rep->proc.sandbox.failed[i]));
		json_object_set_new(sb, "failed", failed);
	}
	json_object_set_new(root, "sandbox", sb);
	json_t *audit = json_object();
	json_object_set_new(audit, "library", report_json_str(rep->audit_lib));
	json_object_set_new(audit, "record_bytes", json_integer((json_int_t)ro->record_bytes));
	json_object_set_new(audit, "events", json_integer((json_int_t)ro->rec.n));
	json_object_set_new(audit, "bad_lines", json_integer((json_int_t)ro->rec.bad_lines));
	json_object_set_new(audit, "first_bad",
			    ro->rec.first_bad ? json_sprintf("line %zu: %s", ro->rec.first_bad_line, ro->rec.first_bad)
					      : json_null());
	json_object_set_new(audit, "full", json_boolean(ro->rec.full));
	json_object_set_new(audit, "dropped_processes", json_integer((json_int_t)ro->procs.dropped_procs));
	json_object_set_new(audit, "not_audited", report_json_str(ro->top ? NULL : ro->not_audited));
	json_object_set_new(root, "audit", audit);
	json_t *procs = json_array();
	for (size_t i = 0; i < ro->procs.n_procs; i++)
		json_array_append_new(procs, process_json(ctx, rep, i));
	json_object_set_new(root, "processes", procs);
	json_object_set_new(root, "prediction", prediction_json(rep));
	json_object_set_new(root, "messages", messages_json(rep));
	json_t *output = json_object();
	json_object_set_new(output, "stdout", stream_json(&rep->proc.out));
	json_object_set_new(output, "stderr", stream_json(&rep->proc.err));
	json_object_set_new(root, "output", output);
	json_object_set_new(root, "other_findings", report_findings_json(&rep->other));
	report_json_dump(out, root);
	json_decref(root);
}
