/* Text and JSON for `cudx explain`. The most relevant message comes first with its facts and its
 * causes, best first; a long log shows the first few in full and the rest one line each. The JSON
 * starts with the envelope every command prints (report_envelope_json: schema, command, tool,
 * system, findings). */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "explain/explain_render.h"
#include "report/json_parts.h"
#include "report/report.h"

#define EXPLAIN_FULL_MESSAGES 5

const char *explain_fact_describe(struct arena *a, const struct explain_fact *f)
{
	const char *s = "";
	switch (f->kind) {
	case EXF_CODE:
		s = arena_printf(a, "%s (%s %ld, by %s)", f->code->name, f->code->api, f->code->code, f->how);
		break;
	case EXF_LIB: {
		const struct explain_lib *l = &f->lib;
		s = arena_printf(a, "library %s", l->name);
		if (l->kb)
			s = arena_printf(a, "%s (%s%s%s)", s, l->kb->component,
					 l->major >= 0 ? arena_printf(a, " %d", l->major) : "",
					 l->kb->cuda_major && !l->unversioned ? arena_printf(a, ", CUDA %d", l->kb->cuda_major)
									      : "");
		else if (l->klass)
			s = arena_printf(a, "%s (%s)", s, l->klass);
		break;
	}
	case EXF_FORM: {
		const char *about = f->symbol ? f->symbol : f->has_lib && f->lib.name ? f->lib.name : NULL;
		const char *cls = f->component ? f->component
				  : f->has_lib ? (f->lib.klass ? f->lib.klass : f->lib.kb ? f->lib.kb->family : NULL)
					       : NULL;
		s = arena_printf(a, "%s%s%s%s%s%s", f->form, about ? " " : "", about ? about : "", cls ? " (" : "",
				 cls ? cls : "", cls ? ")" : "");
		break;
	}
	case EXF_PHRASE:
		s = arena_printf(a, "\"%s\"", f->pattern->id);
		break;
	case EXF_HINT:
		s = arena_printf(a, "environment \"%s\"", f->pattern->id);
		break;
	case EXF_CUE:
		s = arena_printf(a, "words \"%s\"", f->pattern->id);
		break;
	case EXF_VERSION:
		s = arena_printf(a, "%s %s%s%s", f->what, f->value, f->role ? " " : "", f->role ? f->role : "");
		break;
	case EXF_ARCH:
		s = arena_printf(a, "sm_%d", f->sm);
		break;
	}
	return f->context ? arena_printf(a, "%s (line %zu)", s, f->line_no) : s;
}

static void text_cause(FILE *out, const struct cudx_ctx *ctx, const struct explain_cause_result *c, bool first)
{
	const char *col = c->conf == EXPLAIN_CONFIRMED   ? style_red(ctx)
			  : c->conf == EXPLAIN_RULED_OUT ? style_dim(ctx)
							 : style_yellow(ctx);
	fprintf(out, "  %s%s[%s] %s%s: %s\n", first ? style_bold(ctx) : "", col, explain_conf_name(c->conf),
		c->def->finding, style_reset(ctx), c->summary);
	if (c->because)
		fprintf(out, "      why: %s\n", c->because);
	if (c->conf == EXPLAIN_RULED_OUT) {
		fprintf(out, "      ruled out because %s\n", c->ruled_out_because);
		return;
	}
	for (size_t i = 0; i < c->n_evidence; i++)
		fprintf(out, "      evidence: %s\n", c->evidence[i]);
	if (c->conf != EXPLAIN_CONFIRMED && c->check)
		fprintf(out, "      not seen here; where it happened run: %s\n", c->check);
	if (first || c->conf == EXPLAIN_CONFIRMED)
		for (size_t i = 0; i < c->n_fix; i++)
			fprintf(out, "      fix: %s\n", c->fix[i]);
}

static void text_facts(FILE *out, const struct cudx_ctx *ctx, const struct explain_message *m)
{
	const char *sep = "  facts: ";
	for (size_t i = 0; i < m->n_facts; i++) {
		/* a library a form already names is said once */
		const struct explain_fact *f = &m->facts[i];
		bool shown = false;
		for (size_t k = 0; k < m->n_own && f->kind == EXF_LIB; k++)
			shown |= m->facts[k].kind == EXF_FORM && m->facts[k].has_lib && m->facts[k].lib.name &&
				 strcmp(m->facts[k].lib.name, f->lib.name) == 0;
		if (shown)
			continue;
		fprintf(out, "%s%s", sep, explain_fact_describe(ctx->arena, f));
		sep = "; ";
	}
	if (*sep == ';')
		fprintf(out, "\n");
}

void explain_render_text(FILE *out, const struct cudx_ctx *ctx, const struct explain_report *r)
{
	const struct explain_scan *sc = r->scan;
	if (r->truncated)
		fprintf(out, "note: input longer than %u MiB; only the first %u MiB were read\n", EXPLAIN_MAX_INPUT >> 20,
			EXPLAIN_MAX_INPUT >> 20);
	if (sc->long_lines)
		fprintf(out, "note: %zu line(s) longer than %u KiB were cut\n", sc->long_lines, EXPLAIN_MAX_LINE >> 10);
	if (sc->binary_lines)
		fprintf(out, "note: %zu line(s) look like binary data, not text\n", sc->binary_lines);
	if (r->n_results == 0) {
		fprintf(out, "%sNo known GPU-stack error message recognised%s in the input (%zu line(s)).\n",
			style_bold(ctx), style_reset(ctx), sc->lines);
		if (r->check) {
			if (r->unrecognised && r->unrecognised->n_causes)
				fprintf(out, "Checking %s instead: its %s %s is the first thing to fix.\n\n", r->machine_desc,
					severity_name(r->unrecognised->causes[0].finding->severity),
					r->unrecognised->causes[0].def->finding);
			else
				fprintf(out, "Checking %s instead:\n\n", r->machine_desc);
			report_findings_text(out, ctx, r->check);
		}
		return;
	}
	if (r->n_results > 1)
		fprintf(out, "%zu distinct messages recognised (most relevant first)\n\n", r->n_results);
	for (size_t m = 0; m < r->n_results; m++) {
		const struct explain_result *res = &r->results[m];
		const struct explain_message *msg = res->msg;
		if (m >= EXPLAIN_FULL_MESSAGES) {
			fprintf(out, "  line %zu: %s -> %s (%s)\n", msg->line_no, msg->line,
				res->n_causes ? res->causes[0].def->finding : "no cause in the GPU stack",
				res->n_causes ? explain_conf_name(res->causes[0].conf) : "-");
			continue;
		}
		fprintf(out, "%sMessage%s (line %zu%s): %s\n", style_bold(ctx), style_reset(ctx), msg->line_no,
			msg->count > 1 ? arena_printf(ctx->arena, ", seen %zu times", msg->count) : "", msg->line);
		text_facts(out, ctx, msg);
		if (res->elsewhere)
			fprintf(out, "  %snote:%s %s\n", style_yellow(ctx), style_reset(ctx), res->elsewhere);
		if (res->n_causes == 0) {
			const char *code = explain_kv_get(res, "code");
			fprintf(out, "  no cause in the GPU stack is known for these facts: the error is raised by the "
				     "program itself (a bug, a wrong argument) or by hardware%s%.*s\n",
				code ? "; the code's meaning: cudx kb error " : "", code ? (int)strcspn(code, " ") : 0,
				code ? code : "");
		}
		else
			fprintf(out, "  causes, most likely first (checked against %s):\n", r->machine_desc);
		for (size_t i = 0; i < res->n_causes; i++)
			text_cause(out, ctx, &res->causes[i], i == 0);
		if (m + 1 < r->n_results && m + 1 < EXPLAIN_FULL_MESSAGES)
			fprintf(out, "\n");
		else if (m + 1 == EXPLAIN_FULL_MESSAGES && r->n_results > EXPLAIN_FULL_MESSAGES)
			fprintf(out, "\nfurther messages:\n");
	}
	if (sc->dropped_msgs)
		fprintf(out, "(%zu further distinct messages not shown)\n", sc->dropped_msgs);
}

/* jansson refuses invalid UTF-8: messages from logs may hold any bytes */
static json_t *jstr(const char *s)
{
	if (!s)
		return json_null();
	json_t *j = json_string(s);
	if (!j) {
		size_t n = strlen(s);
		char *clean = malloc(n + 1);
		if (!clean)
			return json_null();
		for (size_t i = 0; i <= n; i++)
			clean[i] = (unsigned char)s[i] >= 0x80 ? '?' : s[i];
		j = json_string(clean);
		free(clean);
	}
	return j ? j : json_null();
}

static void lib_json(json_t *o, const struct explain_lib *l)
{
	json_object_set_new(o, "library", jstr(l->name));
	json_object_set_new(o, "class", jstr(l->klass));
	json_object_set_new(o, "component", jstr(l->kb ? l->kb->component : NULL));
	json_object_set_new(o, "family", jstr(l->kb ? l->kb->family : NULL));
	json_object_set_new(o, "major", l->major >= 0 ? json_integer(l->major) : json_null());
	json_object_set_new(o, "cuda_major",
			    l->kb && l->kb->cuda_major && !l->unversioned ? json_integer(l->kb->cuda_major) : json_null());
	json_object_set_new(o, "os", l->os == 'w' ? json_string("windows") : l->os == 'l' ? json_string("linux") : json_null());
}

static json_t *fact_json(const struct explain_fact *f)
{
	static const char *const kinds[] = { "code", "library", "form", "phrase", "version", "arch", "hint", "words" };
	json_t *o = json_object();
	json_object_set_new(o, "kind", json_string(kinds[f->kind]));
	json_object_set_new(o, "text", jstr(f->text));
	json_object_set_new(o, "line", json_integer((json_int_t)f->line_no));
	json_object_set_new(o, "context", json_boolean(f->context));
	/* a Windows code a DLL's form speaks for, a form a phrase interprets: shown, not counted */
	json_object_set_new(o, "absorbed", json_boolean(f->role && strcmp(f->role, "absorbed") == 0));
	switch (f->kind) {
	case EXF_CODE:
		json_object_set_new(o, "api", json_string(f->code->api));
		json_object_set_new(o, "code", json_integer(f->code->code));
		json_object_set_new(o, "name", json_string(f->code->name));
		json_object_set_new(o, "how", json_string(f->how));
		break;
	case EXF_LIB:
		lib_json(o, &f->lib);
		break;
	case EXF_FORM:
		json_object_set_new(o, "form", json_string(f->form));
		json_object_set_new(o, "pattern", json_string(f->pattern->id));
		json_object_set_new(o, "symbol", jstr(f->symbol));
		json_object_set_new(o, "exported_by", jstr(f->component));
		if (f->has_lib)
			lib_json(o, &f->lib);
		break;
	case EXF_PHRASE:
	case EXF_HINT:
	case EXF_CUE:
		json_object_set_new(o, "pattern", json_string(f->pattern->id));
		break;
	case EXF_VERSION:
		json_object_set_new(o, "what", json_string(f->what));
		json_object_set_new(o, "value", jstr(f->value));
		json_object_set_new(o, "role", jstr(f->role));
		break;
	case EXF_ARCH:
		json_object_set_new(o, "sm", json_integer(f->sm));
		break;
	}
	return o;
}

static json_t *causes_json(const struct explain_result *res)
{
	json_t *causes = json_array();
	for (size_t i = 0; i < res->n_causes; i++) {
		const struct explain_cause_result *c = &res->causes[i];
		json_t *cj = json_object();
		json_object_set_new(cj, "id", json_string(c->def->finding));
		json_object_set_new(cj, "cause", json_string(c->def->key));
		json_object_set_new(cj, "category", json_string(c->def->category));
		json_object_set_new(cj, "confidence", json_string(explain_conf_name(c->conf)));
		json_object_set_new(cj, "score", json_real(c->score));
		json_object_set_new(cj, "because", jstr(c->because));
		json_object_set_new(cj, "summary", jstr(c->summary));
		json_object_set_new(cj, "confirmed_by", c->finding ? json_string(c->finding->id) : json_null());
		json_object_set_new(cj, "evidence", report_json_strings(c->evidence, c->n_evidence));
		json_object_set_new(cj, "fix", report_json_strings(c->fix, c->n_fix));
		json_object_set_new(cj, "ruled_out_because", jstr(c->ruled_out_because));
		json_object_set_new(cj, "check_where_it_happened", jstr(c->check));
		json_object_set_new(cj, "source", json_string(c->def->source));
		json_array_append_new(causes, cj);
	}
	return causes;
}

static json_t *result_json(const struct explain_result *res)
{
	const struct explain_message *m = res->msg;
	json_t *o = json_object();
	json_object_set_new(o, "message", jstr(m->line));
	json_object_set_new(o, "line", json_integer((json_int_t)m->line_no));
	json_object_set_new(o, "count", json_integer((json_int_t)m->count));
	json_object_set_new(o, "category", jstr(res->n_causes ? res->causes[0].def->category : NULL));
	json_t *facts = json_array();
	for (size_t i = 0; i < m->n_facts; i++)
		json_array_append_new(facts, fact_json(&m->facts[i]));
	json_object_set_new(o, "facts", facts);
	json_t *values = json_object();
	for (size_t i = 0; i < res->n_kv; i++)
		json_object_set_new(values, res->kv[i].key, jstr(res->kv[i].value));
	json_object_set_new(o, "values", values);
	json_object_set_new(o, "causes", causes_json(res));
	json_object_set_new(o, "elsewhere", jstr(res->elsewhere));
	return o;
}

json_t *explain_render_json(const struct cudx_ctx *ctx, const struct explain_report *r)
{
	json_t *root = report_envelope_json(ctx, r->inv, "explain", r->check);
	json_object_set_new(root, "recognised", json_boolean(r->n_results > 0));
	if (r->n_results) {
		/* the most relevant message at the top level, all of them under "messages" */
		json_t *first = result_json(&r->results[0]);
		const char *key;
		json_t *v;
		json_object_foreach(first, key, v)
			json_object_set(root, key, v);
		json_decref(first);
	} else {
		json_object_set_new(root, "message", json_null());
		json_object_set_new(root, "category", r->unrecognised && r->unrecognised->n_causes
							      ? jstr(r->unrecognised->causes[0].def->category)
							      : json_null());
		json_object_set_new(root, "facts", json_array());
		json_object_set_new(root, "values", json_object());
		json_object_set_new(root, "causes",
				    r->unrecognised ? causes_json(r->unrecognised) : json_array());
		json_object_set_new(root, "elsewhere", json_null());
	}
	json_t *msgs = json_array();
	for (size_t i = 0; i < r->n_results; i++)
		json_array_append_new(msgs, result_json(&r->results[i]));
	json_object_set_new(root, "messages", msgs);
	json_t *in = json_object();
	json_object_set_new(in, "bytes", json_integer((json_int_t)r->scan->bytes));
	json_object_set_new(in, "lines", json_integer((json_int_t)r->scan->lines));
	json_object_set_new(in, "truncated", json_boolean(r->truncated));
	json_object_set_new(in, "long_lines", json_integer((json_int_t)r->scan->long_lines));
	json_object_set_new(in, "binary_lines", json_integer((json_int_t)r->scan->binary_lines));
	json_object_set_new(in, "dropped_messages", json_integer((json_int_t)r->scan->dropped_msgs));
	json_object_set_new(root, "input", in);
	json_object_set_new(root, "checked_against", jstr(r->machine_desc));
	return root;
}
