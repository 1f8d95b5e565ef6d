/* The findings array and the dump every --json output ends with: the part of the JSON report
 * that both builds compile (the native Windows build with src/win/shim/jansson.h, so only the
 * calls that shim provides are used here). */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "report/json_parts.h"
#include "report/report.h"
#include "util/utf8.h"

json_t *report_json_str(const char *s)
{
	if (!s)
		return json_null();
	json_t *j = json_string(s);
	if (j)
		return j;
	/* not UTF-8 (a path or a version read from a file is bytes): jansson refuses it, and a NULL
	 * value would drop the key silently, so invalid bytes become '?' */
	char *copy = utf8_sanitized(s, strlen(s));
	j = copy ? json_string(copy) : NULL;
	free(copy);
	return j ? j : json_null();
}

json_t *report_json_strings(const char *const *v, size_t n)
{
	json_t *a = json_array();
	for (size_t i = 0; i < n; i++)
		json_array_append_new(a, report_json_str(v[i]));
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
		json_object_set_new(o, "summary", report_json_str(f->summary));
		json_object_set_new(o, "cause", report_json_str(f->cause));
		json_object_set_new(o, "evidence", report_json_strings(f->evidence, f->n_evidence));
		json_object_set_new(o, "fix", report_json_strings(f->fix, f->n_fix));
		json_object_set_new(o, "refs", report_json_strings(f->refs, f->n_refs));
		if (f->subject)
			json_object_set_new(o, "subject", report_json_str(f->subject));
		json_array_append_new(arr, o);
	}
	return arr;
}

void report_json_dump(FILE *out, json_t *v)
{
	json_dumpf(v, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_ENSURE_ASCII);
	fputc('\n', out);
}
