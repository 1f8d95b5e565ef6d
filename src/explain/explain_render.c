/* Text and JSON for `cudx explain`. The most relevant message comes first with its facts and its
 * causes, best first; a long log shows the first few in full and the rest one line each. */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "explain/explain_render.h"
#include "report/report.h"

#define EXPLAIN_FULL_MESSAGES 5

static void text_cause(FILE *out, const struct cudx_ctx *ctx, const struct explain_cause_result *c,
		       bool first)
{
	const char *col = c->conf == EXPLAIN_CONFIRMED   ? style_red(ctx)
			  : c->conf == EXPLAIN_RULED_OUT ? style_dim(ctx)
							 : style_yellow(ctx);
	fprintf(out, "  %s%s[%s] %s%s: %s\n", first ? style_bold(ctx) : "", col,
		explain_conf_name(c->conf), c->def->finding, style_reset(ctx), c->summary);
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

void explain_render_text(FILE *out, const struct cudx_ctx *ctx, const struct explain_report *r)
{
	const struct explain_scan *sc = r->scan;
	if (r->truncated)
		fprintf(out, "note: input longer than %u MiB; only the first %u MiB were read\n",
			EXPLAIN_MAX_INPUT >> 20, EXPLAIN_MAX_INPUT >> 20);
	if (sc->long_lines)
		fprintf(out, "note: %zu line(s) longer than %u KiB were cut\n", sc->long_lines,
			EXPLAIN_MAX_LINE >> 10);
	if (sc->binary_lines)
		fprintf(out, "note: %zu line(s) look like binary data, not text\n", sc->binary_lines);
	if (r->n_results == 0) {
		fprintf(out, "%sNo known GPU-stack error message recognised%s in the input (%zu line(s)).\n",
			style_bold(ctx), style_reset(ctx), sc->lines);
		if (r->check) {
			fprintf(out, "Checking %s instead:\n\n", r->machine_desc);
			report_findings_text(out, ctx, r->check);
		}
		return;
	}
	if (r->n_results > 1)
		fprintf(out, "%zu distinct messages recognised (most relevant first)%s\n\n", r->n_results,
			r->machine ? "" : "");
	for (size_t m = 0; m < r->n_results; m++) {
		const struct explain_result *res = &r->results[m];
		const struct explain_hit *h = res->hit;
		if (m >= EXPLAIN_FULL_MESSAGES) {
			fprintf(out, "  line %zu: %s -> %s (%s)\n", h->line_no, h->line,
				res->causes[0].def->finding, explain_conf_name(res->causes[0].conf));
			continue;
		}
		fprintf(out, "%sMessage%s (line %zu%s): %s\n", style_bold(ctx), style_reset(ctx), h->line_no,
			h->count > 1 ? arena_printf(ctx->arena, ", seen %zu times", h->count) : "", h->line);
		fprintf(out, "  recognised: %s (%s)\n", h->def->id, h->def->category);
		if (res->n_facts) {
			fprintf(out, "  facts:");
			for (size_t i = 0; i < res->n_facts; i++)
				fprintf(out, " %s=%s", res->facts[i].key, res->facts[i].value);
			fprintf(out, "\n");
		}
		if (res->elsewhere)
			fprintf(out, "  %snote:%s %s\n", style_yellow(ctx), style_reset(ctx), res->elsewhere);
		fprintf(out, "  causes, most likely first (checked against %s):\n", r->machine_desc);
		for (size_t i = 0; i < res->n_causes; i++)
			text_cause(out, ctx, &res->causes[i], i == 0);
		if (m + 1 < r->n_results && m + 1 < EXPLAIN_FULL_MESSAGES)
			fprintf(out, "\n");
		else if (m + 1 == EXPLAIN_FULL_MESSAGES && r->n_results > EXPLAIN_FULL_MESSAGES)
			fprintf(out, "\nfurther messages:\n");
	}
	if (sc->dropped_hits)
		fprintf(out, "(%zu further distinct messages not shown)\n", sc->dropped_hits);
}

static json_t *str_array(const char *const *v, size_t n)
{
	json_t *a = json_array();
	for (size_t i = 0; i < n; i++)
		json_array_append_new(a, json_string(v[i]));
	return a;
}

/* jansson refuses invalid UTF-8: messages from logs may hold any bytes */
static json_t *jstr(const char *s)
{
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

static json_t *result_json(const struct explain_result *res)
{
	json_t *o = json_object();
	json_object_set_new(o, "message", jstr(res->hit->line));
	json_object_set_new(o, "line", json_integer((json_int_t)res->hit->line_no));
	json_object_set_new(o, "count", json_integer((json_int_t)res->hit->count));
	json_object_set_new(o, "pattern", json_string(res->hit->def->id));
	json_object_set_new(o, "category", json_string(res->hit->def->category));
	json_t *facts = json_object();
	for (size_t i = 0; i < res->n_facts; i++)
		json_object_set_new(facts, res->facts[i].key, jstr(res->facts[i].value));
	json_object_set_new(o, "facts", facts);
	json_t *causes = json_array();
	for (size_t i = 0; i < res->n_causes; i++) {
		const struct explain_cause_result *c = &res->causes[i];
		json_t *cj = json_object();
		json_object_set_new(cj, "id", json_string(c->def->finding));
		json_object_set_new(cj, "cause", json_string(c->def->key));
		json_object_set_new(cj, "category", json_string(c->def->category));
		json_object_set_new(cj, "confidence", json_string(explain_conf_name(c->conf)));
		json_object_set_new(cj, "summary", jstr(c->summary));
		json_object_set_new(cj, "evidence", str_array(c->evidence, c->n_evidence));
		json_object_set_new(cj, "fix", str_array(c->fix, c->n_fix));
		json_object_set_new(cj, "ruled_out_because",
				    c->ruled_out_because ? jstr(c->ruled_out_because) : json_null());
		json_object_set_new(cj, "check_where_it_happened", c->check ? jstr(c->check) : json_null());
		json_object_set_new(cj, "source", json_string(c->def->source));
		json_array_append_new(causes, cj);
	}
	json_object_set_new(o, "causes", causes);
	json_object_set_new(o, "elsewhere", res->elsewhere ? jstr(res->elsewhere) : json_null());
	return o;
}

json_t *explain_render_json(const struct explain_report *r)
{
	json_t *root = json_object();
	json_object_set_new(root, "recognised", json_boolean(r->n_results > 0));
	if (r->n_results) {
		/* the most relevant message at the top level, all of them under "messages" */
		json_t *first = result_json(&r->results[0]);
		json_object_update(root, first);
		json_decref(first);
	} else {
		json_object_set_new(root, "message", json_null());
		json_object_set_new(root, "facts", json_object());
		json_object_set_new(root, "causes", json_array());
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
	json_object_set_new(in, "dropped_messages", json_integer((json_int_t)r->scan->dropped_hits));
	json_object_set_new(root, "input", in);
	json_object_set_new(root, "checked_against", json_string(r->machine_desc));
	if (r->n_results == 0 && r->check)
		json_object_set_new(root, "findings", (json_t *)report_findings_json(r->check));
	return root;
}
