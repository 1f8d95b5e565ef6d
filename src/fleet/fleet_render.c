/* `cudx compare` output: the command's own render code (text and JSON). */
#include "fleet/fleet_render.h"

#include <jansson.h>
#include <string.h>

#include "fleet/fleet_words.h"
#include "report/json_parts.h"
#include "report/report.h"

#define NAMES_SHOWN 10 /* node names listed after a minority group in the text output */

/* --- text ---------------------------------------------------------------------------------- */

static void text_group_names(FILE *out, const struct fleet *f, const size_t *order, size_t *pos, uint32_t value,
			     enum fleet_dim d)
{
	size_t shown = 0, total = f->values[value].count[d];
	for (; *pos < f->n_nodes && f->nodes[order[*pos]].v[d] == value; (*pos)++)
		if (shown < NAMES_SHOWN)
			fprintf(out, "%s%s", shown++ ? " " : ": ", f->nodes[order[*pos]].name);
	if (total > shown)
		fprintf(out, " (+%zu more)", total - shown);
}

static void text_dimension(struct cudx_ctx *ctx, const struct fleet *f, enum fleet_dim d)
{
	FILE *out = ctx->out;
	uint32_t *groups;
	size_t n = fleet_groups(f, d, &groups);
	size_t *order = fleet_node_order(f, d);
	const char **words = arena_calloc(ctx->arena, n + 1, sizeof *words);
	int width = 0, digits = snprintf(NULL, 0, "%zu", f->n_nodes);
	for (size_t g = 0; g < n; g++) {
		words[g] = fleet_value_words(ctx->arena, d, f->values[groups[g]].s);
		int len = (int)strlen(words[g]);
		width = len > width ? len : width;
	}
	width = width > 40 ? 40 : width;
	fprintf(out, "%s%s%s\n", style_bold(ctx), fleet_dim_title[d], style_reset(ctx));
	for (size_t g = 0, pos = 0; g < n; g++) {
		uint32_t c = f->values[groups[g]].count[d];
		fprintf(out, "  %-*s  %*u node%s", width, words[g], digits, c, c == 1 ? "" : "s");
		if (groups[g] == f->majority[d] && !f->tied[d]) {
			/* the majority's names are every other node: not listed */
			pos += c;
		} else
			text_group_names(out, f, order, &pos, groups[g], d);
		fputc('\n', out);
	}
}

void fleet_render_text(struct cudx_ctx *ctx, const struct fleet *f)
{
	FILE *out = ctx->out;
	fprintf(out, "cudx compare: %zu node%s", f->n_nodes, f->n_nodes == 1 ? "" : "s");
	if (f->n_outliers)
		fprintf(out, ", %s%zu differ%s from the majority%s", style_yellow(ctx), f->n_outliers,
			f->n_outliers == 1 ? "s" : "", style_reset(ctx));
	else if (f->n_nodes)
		fprintf(out, ", %sall alike%s", style_green(ctx), style_reset(ctx));
	if (f->n_bad)
		fprintf(out, ", %s%zu report%s unreadable%s", style_red(ctx), f->n_bad, f->n_bad == 1 ? "" : "s",
			style_reset(ctx));
	fputs("\n", out);
	if (f->n_nodes) {
		fputc('\n', out);
		for (int d = 0; d < FLEET_NDIM; d++)
			text_dimension(ctx, f, (enum fleet_dim)d);
	}
	if (f->n_outliers) {
		fprintf(out, "\n%sNodes that differ from the majority%s\n", style_bold(ctx), style_reset(ctx));
		/* in input order: a directory is read in name order (node2 before node10) */
		for (size_t i = 0; i < f->n_nodes; i++) {
			const struct fleet_node *n = &f->nodes[i];
			if (fleet_node_is_outlier(f, n))
				fprintf(out, "  %s%s%s: %s\n", style_yellow(ctx), n->name, style_reset(ctx),
					fleet_outlier_line(f, n));
		}
	}
	if (f->n_bad) {
		fprintf(out, "\n%sUnreadable reports%s\n", style_bold(ctx), style_reset(ctx));
		for (size_t i = 0; i < f->n_bad; i++)
			fprintf(out, "  %s: %s\n", f->bad[i].file, f->bad[i].error);
	}
}

/* --- JSON ---------------------------------------------------------------------------------- */

static json_t *ids_json(const char *set)
{
	json_t *a = json_array();
	if (strcmp(set, "none") == 0)
		return a;
	for (const char *p = set; *p;) {
		size_t len = strcspn(p, " ");
		json_array_append_new(a, json_stringn(p, len));
		p += len;
		p += *p == ' ';
	}
	return a;
}

static json_t *dimension_json(const struct fleet *f, enum fleet_dim d)
{
	uint32_t *groups;
	size_t n = fleet_groups(f, d, &groups);
	size_t *order = fleet_node_order(f, d);
	json_t *o = json_object(), *arr = json_array();
	json_object_set_new(o, "majority", json_string(f->values[f->majority[d]].s));
	json_object_set_new(o, "tied", json_boolean(f->tied[d]));
	for (size_t g = 0, pos = 0; g < n; g++) {
		const struct fleet_value *v = &f->values[groups[g]];
		json_t *go = json_object(), *names = json_array();
		json_object_set_new(go, "value", json_string(v->s));
		if (d == FLEET_FINDINGS)
			json_object_set_new(go, "ids", ids_json(v->s));
		json_object_set_new(go, "count", json_integer(v->count[d]));
		for (; pos < f->n_nodes && f->nodes[order[pos]].v[d] == groups[g]; pos++)
			json_array_append_new(names, json_string(f->nodes[order[pos]].name));
		json_object_set_new(go, "nodes", names);
		json_array_append_new(arr, go);
	}
	json_object_set_new(o, "groups", arr);
	return o;
}

static json_t *outlier_json(const struct fleet *f, const struct fleet_node *n)
{
	json_t *o = json_object(), *diffs = json_array();
	json_object_set_new(o, "node", json_string(n->name));
	json_object_set_new(o, "file", report_json_str(n->file));
	json_object_set_new(o, "hostname", report_json_str(n->hostname));
	for (int d = 0; d < FLEET_FINDINGS; d++) {
		if (!fleet_node_differs(f, n, (enum fleet_dim)d))
			continue;
		json_t *x = json_object();
		json_object_set_new(x, "dimension", json_string(fleet_dim_key[d]));
		json_object_set_new(x, "value", json_string(f->values[n->v[d]].s));
		json_object_set_new(x, "majority", json_string(f->values[f->majority[d]].s));
		json_object_set_new(x, "majority_count", json_integer(f->values[f->majority[d]].count[d]));
		json_array_append_new(diffs, x);
	}
	json_object_set_new(o, "differences", diffs);
	const char **extra, **missing;
	size_t n_extra, n_missing;
	fleet_findings_diff(f, n, &extra, &n_extra, &missing, &n_missing);
	json_object_set_new(o, "extra_findings", report_json_strings(extra, n_extra));
	json_object_set_new(o, "missing_findings", report_json_strings(missing, n_missing));
	json_object_set_new(o, "summary", json_string(fleet_outlier_line(f, n)));
	return o;
}

void fleet_render_json(struct cudx_ctx *ctx, const struct inventory *inv, const struct fleet *f,
		       const struct findings *fs)
{
	json_t *root = report_envelope_json(ctx, inv, "compare", fs);
	json_object_set_new(root, "nodes", json_integer((json_int_t)f->n_nodes));
	json_object_set_new(root, "outlier_count", json_integer((json_int_t)f->n_outliers));
	json_t *dims = json_object();
	for (int d = 0; d < FLEET_NDIM && f->n_nodes; d++)
		json_object_set_new(dims, fleet_dim_key[d], dimension_json(f, (enum fleet_dim)d));
	json_object_set_new(root, "dimensions", dims);
	json_t *outliers = json_array();
	for (size_t i = 0; i < f->n_nodes; i++)
		if (fleet_node_is_outlier(f, &f->nodes[i]))
			json_array_append_new(outliers, outlier_json(f, &f->nodes[i]));
	json_object_set_new(root, "outliers", outliers);
	json_t *bad = json_array();
	for (size_t i = 0; i < f->n_bad; i++) {
		json_t *b = json_object();
		json_object_set_new(b, "file", report_json_str(f->bad[i].file));
		json_object_set_new(b, "error", json_string(f->bad[i].error));
		json_array_append_new(bad, b);
	}
	json_object_set_new(root, "unreadable", bad);
	report_json_dump(ctx->out, root);
	json_decref(root);
}
