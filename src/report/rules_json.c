/* The rule registry as data (`cudx kb findings`): every finding id, the family that owns it, its
 * severity (and the milder one with the fact that makes it so), and its default cause and fix. */
#include <jansson.h>
#include <string.h>

#include "diag/rule.h"
#include "report/json_parts.h"
#include "report/report.h"

static json_t *rule_json(const struct rule_family *fam, const struct rule *r)
{
	json_t *o = json_object();
	json_object_set_new(o, "id", json_string(r->id));
	json_object_set_new(o, "family", json_string(fam->name));
	json_object_set_new(o, "severity", json_string(severity_name(r->severity)));
	json_object_set_new(o, "mild_severity", r->mild_when ? json_string(severity_name(r->mild)) : json_null());
	json_object_set_new(o, "mild_when", report_json_str(r->mild_when));
	json_object_set_new(o, "about", report_json_str(r->about));
	json_object_set_new(o, "cause", report_json_str(r->cause));
	json_t *fix = json_array();
	for (const char *p = r->fix; p && *p;) {
		size_t n = strcspn(p, "\n");
		json_array_append_new(fix, json_stringn(p, n));
		p += n + (p[n] == '\n');
	}
	json_object_set_new(o, "fix", fix);
	json_object_set_new(o, "ref", report_json_str(r->ref));
	return o;
}

json_t *report_rules_json(const char *only_id)
{
	json_t *arr = json_array();
	size_t n;
	const struct rule_family *const *fams = diag_families(&n);
	for (size_t f = 0; f < n; f++)
		for (size_t i = 0; i < fams[f]->n_rules; i++) {
			const struct rule *r = &fams[f]->rules[i];
			if (r->id && (!only_id || strcmp(only_id, r->id) == 0))
				json_array_append_new(arr, rule_json(fams[f], r));
		}
	json_t *o = json_object();
	json_object_set_new(o, "query", report_json_str(only_id));
	json_object_set_new(o, "found", json_boolean(json_array_size(arr) > 0));
	if (!json_array_size(arr))
		json_object_set_new(o, "message", json_sprintf("no finding id '%s' (cudx kb findings lists them)", only_id));
	json_object_set_new(o, "findings", arr);
	return o;
}
