/* The probe report as JSON: built here, printed by the caller with report_json_dump(). */
#include <jansson.h>

#include "kb/kb.h"
#include "probe/probe.h"

static void set_str(json_t *o, const char *k, const char *v)
{
	if (v)
		json_object_set_new(o, k, json_string(v));
}

json_t *probe_report_json(const struct probe_report *rep)
{
	json_t *o = json_object();
	json_object_set_new(o, "ran", json_boolean(rep->ran));
	set_str(o, "not_run", rep->not_run);
	if (!rep->ran)
		return o;
	set_str(o, "ld_library_path", rep->ld_library_path);
	json_object_set_new(o, "ms", json_real(rep->ms));
	json_t *runs = json_array();
	for (size_t i = 0; i < rep->n_runs; i++) {
		const struct probe_run *r = &rep->runs[i];
		json_t *j = json_object();
		set_str(j, "stage", r->stage);
		set_str(j, "target", r->target);
		set_str(j, "end", probe_run_end_name(r->end));
		if (r->end == PROBE_RUN_CRASHED)
			json_object_set_new(j, "signal", json_integer(r->signal));
		if (r->end == PROBE_RUN_EXITED)
			json_object_set_new(j, "exit_status", json_integer(r->exit_status));
		set_str(j, "last_step", r->last_step);
		set_str(j, "problem", r->problem);
		json_object_set_new(j, "ms", json_real(r->ms));
		json_array_append_new(runs, j);
	}
	json_object_set_new(o, "runs", runs);
	json_t *steps = json_array();
	for (size_t i = 0; i < rep->n_steps; i++) {
		const struct probe_step *s = &rep->steps[i];
		json_t *j = json_object();
		set_str(j, "stage", s->stage);
		set_str(j, "target", s->target);
		set_str(j, "step", s->name);
		set_str(j, "outcome", probe_outcome_name(s->outcome));
		if (s->has_code) {
			json_object_set_new(j, "code", json_integer(s->code));
			const struct kb_error *e = s->api ? kb_error_lookup(s->api, s->code) : NULL;
			set_str(j, "api", s->api);
			set_str(j, "code_name", e && e->name ? e->name : s->lib_code_name);
			set_str(j, "code_text", e && e->text ? e->text : s->lib_code_text);
		}
		set_str(j, "library", s->library);
		set_str(j, "value", s->value);
		json_object_set_new(j, "ms", json_real(s->ms));
		json_array_append_new(steps, j);
	}
	json_object_set_new(o, "steps", steps);
	json_t *facts = json_array();
	for (size_t i = 0; i < rep->n_facts; i++) {
		const struct probe_fact *f = &rep->facts[i];
		json_t *j = json_object();
		set_str(j, "stage", f->stage);
		set_str(j, "target", f->target);
		set_str(j, "key", f->key);
		set_str(j, "value", f->value);
		json_array_append_new(facts, j);
	}
	json_object_set_new(o, "facts", facts);
	const struct probe_sandbox *sb = &rep->sandbox;
	if (sb->reported) {
		json_t *j = json_object();
		json_object_set_new(j, "complete", json_boolean(probe_sandbox_complete(sb)));
		json_object_set_new(j, "no_new_privs", json_boolean(sb->no_new_privs));
		json_object_set_new(j, "capabilities_dropped", json_boolean(sb->caps_dropped));
		json_object_set_new(j, "dev_readonly", sb->dev_needed ? json_boolean(sb->dev_readonly) : json_null());
		json_t *failed = json_array();
		for (size_t i = 0; i < sb->n_failed; i++)
			json_array_append_new(failed, json_string(sb->failed[i]));
		json_object_set_new(j, "failed", failed);
		json_object_set_new(o, "sandbox", j);
	}
	return o;
}
