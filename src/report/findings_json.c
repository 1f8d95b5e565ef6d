/* The findings array and the dump every --json output ends with: the part of the JSON report
 * that both builds compile (the native Windows build with src/win/shim/jansson.h, so only the
 * calls that shim provides are used here). */
#include <jansson.h>

#include "report/json_parts.h"
#include "report/report.h"

json_t *report_json_str(const char *s)
{
	return s ? json_string(s) : json_null();
}

json_t *report_json_strings(const char *const *v, size_t n)
{
	json_t *a = json_array();
	for (size_t i = 0; i < n; i++)
		json_array_append_new(a, json_string(v[i]));
	return a;
}

json_t *report_findings_json(const struct findings *fs)
{
	json_t *arr = json_array();
	for (size_t i = 0; i < fs->n; i++) {
		const struct finding *f = &fs->v[i];
		json_t *o = json_object();
		json_object_set_new(o, "id", json_string(f->id));
		json_object_set_new(o, "severity", json_string(severity_name(f->severity)));
		json_object_set_new(o, "summary", json_string(f->summary));
		json_object_set_new(o, "cause", report_json_str(f->cause));
		json_object_set_new(o, "evidence", report_json_strings(f->evidence, f->n_evidence));
		json_object_set_new(o, "fix", report_json_strings(f->fix, f->n_fix));
		json_object_set_new(o, "refs", report_json_strings(f->refs, f->n_refs));
		if (f->subject)
			json_object_set_new(o, "subject", json_string(f->subject));
		json_array_append_new(arr, o);
	}
	return arr;
}

void report_json_dump(FILE *out, json_t *v)
{
	json_dumpf(v, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_ENSURE_ASCII);
	fputc('\n', out);
}
