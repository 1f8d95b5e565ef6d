/* The catalogue reader: two TSV files with a header row. It is an input reader like any other
 * (the files could be replaced), so it works on spans, bounds every count and never trusts a
 * field; tests/fuzz/fuzz_explain.c feeds it garbage. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "explain/explain.h"

#define TSV_MAX_COLS 16

struct tsv_row {
	const char *f[TSV_MAX_COLS];
	size_t n;
};

static void cat_error(struct arena *a, struct explain_catalog *cat, const char *file, size_t line,
		      const char *what)
{
	if (cat->n_errors >= 256) /* enough to fix a file; more would only cost memory */
		return;
	*ARENA_PUSH(a, cat->errors, cat->n_errors, cat->cap_errors) =
		arena_printf(a, "%s:%zu: %s", file, line, what);
}

/* Split one line (without its newline) on tabs into arena strings. */
static void tsv_split(struct arena *a, const char *p, size_t n, struct tsv_row *row)
{
	row->n = 0;
	size_t start = 0;
	for (size_t i = 0; i <= n && row->n < TSV_MAX_COLS; i++) {
		if (i == n || p[i] == '\t') {
			size_t len = i - start;
			if (len && p[start + len - 1] == '\r')
				len--;
			row->f[row->n++] = arena_strndup(a, p + start, len);
			start = i + 1;
		}
	}
}

static int col_index(const struct tsv_row *hdr, const char *name)
{
	for (size_t i = 0; i < hdr->n; i++)
		if (strcmp(hdr->f[i], name) == 0)
			return (int)i;
	return -1;
}

static const char *field(const struct tsv_row *r, int idx)
{
	return idx >= 0 && (size_t)idx < r->n ? r->f[idx] : "";
}

/* Walk the lines of a TSV: calls row_fn for every data row with the header at hand. */
typedef void (*row_fn)(struct arena *a, struct explain_catalog *cat, const struct tsv_row *hdr,
		       const struct tsv_row *row, const char *file, size_t line_no);

static void tsv_walk(struct arena *a, struct explain_catalog *cat, struct span s, const char *file,
		     row_fn fn)
{
	if (s.n > EXPLAIN_MAX_TSV) {
		cat_error(a, cat, file, 0, "file too large, ignored");
		return;
	}
	struct tsv_row hdr = { { 0 }, 0 }, row;
	bool have_hdr = false;
	size_t off = 0, line_no = 0;
	while (off < s.n) {
		const uint8_t *nl = memchr(s.p + off, '\n', s.n - off);
		size_t len = nl ? (size_t)(nl - (s.p + off)) : s.n - off;
		const char *p = (const char *)s.p + off;
		off += len + (nl ? 1 : 0);
		line_no++;
		if (len == 0 || p[0] == '#' || (len == 1 && p[0] == '\r'))
			continue;
		if (memchr(p, 0, len)) {
			cat_error(a, cat, file, line_no, "NUL byte in row, skipped");
			continue;
		}
		if (!have_hdr) {
			tsv_split(a, p, len, &hdr);
			have_hdr = true;
			continue;
		}
		tsv_split(a, p, len, &row);
		fn(a, cat, &hdr, &row, file, line_no);
	}
}

static void cause_row(struct arena *a, struct explain_catalog *cat, const struct tsv_row *hdr,
		      const struct tsv_row *r, const char *file, size_t line_no)
{
	const char *key = field(r, col_index(hdr, "key"));
	const char *finding = field(r, col_index(hdr, "finding"));
	if (!*key || !*finding) {
		cat_error(a, cat, file, line_no, "row without key or finding");
		return;
	}
	if (explain_cause_lookup(cat, key)) {
		cat_error(a, cat, file, line_no, "duplicate cause key");
		return;
	}
	if (cat->n_causes >= 4096) {
		cat_error(a, cat, file, line_no, "too many causes");
		return;
	}
	struct explain_cause_def *c = ARENA_PUSH(a, cat->causes, cat->n_causes, cat->cap_causes);
	c->key = key;
	c->finding = finding;
	c->category = field(r, col_index(hdr, "category"));
	c->summary = field(r, col_index(hdr, "summary"));
	c->fix = field(r, col_index(hdr, "fix"));
	c->check = field(r, col_index(hdr, "check"));
	c->rule_out = field(r, col_index(hdr, "rule_out"));
	c->source = field(r, col_index(hdr, "source"));
}

static void pattern_row(struct arena *a, struct explain_catalog *cat, const struct tsv_row *hdr,
			const struct tsv_row *r, const char *file, size_t line_no)
{
	struct explain_pattern_def d;
	memset(&d, 0, sizeof d);
	d.id = field(r, col_index(hdr, "id"));
	d.category = field(r, col_index(hdr, "category"));
	d.text = field(r, col_index(hdr, "pattern"));
	d.source = field(r, col_index(hdr, "source"));
	const char *w = field(r, col_index(hdr, "weight"));
	char *end;
	long wv = strtol(w, &end, 10);
	if (!*d.id || !*d.text || !*w || *end || wv < 0 || wv > 1000) {
		cat_error(a, cat, file, line_no, "row needs id, pattern and a weight 0..1000");
		return;
	}
	d.weight = (int)wv;
	const char *err;
	if (explain_pattern_compile(a, d.text, &d.pat, &err) != 0) {
		cat_error(a, cat, file, line_no, arena_printf(a, "bad pattern: %s", err));
		return;
	}
	const char *when = field(r, col_index(hdr, "when"));
	if (*when) {
		const char *eq = strchr(when, '=');
		if (!eq || eq == when) {
			cat_error(a, cat, file, line_no, "guard must read KEY=GLOB");
			return;
		}
		d.when_key = arena_strndup(a, when, (size_t)(eq - when));
		d.when_glob = eq + 1;
	}
	/* causes: comma-separated keys of explain_causes.tsv, most likely first */
	const char *cs = field(r, col_index(hdr, "causes"));
	while (*cs) {
		const char *comma = strchr(cs, ',');
		size_t len = comma ? (size_t)(comma - cs) : strlen(cs);
		while (len && cs[0] == ' ')
			cs++, len--;
		while (len && cs[len - 1] == ' ')
			len--;
		if (len) {
			char *key = arena_strndup(a, cs, len);
			const struct explain_cause_def *c = explain_cause_lookup(cat, key);
			if (!c)
				cat_error(a, cat, file, line_no,
					  arena_printf(a, "unknown cause key '%s'", key));
			else if (d.n_causes == EXPLAIN_MAX_CAUSES)
				cat_error(a, cat, file, line_no, "too many causes");
			else
				d.causes[d.n_causes++] = c;
		}
		if (!comma)
			break;
		cs = comma + 1;
	}
	if (d.n_causes == 0) {
		cat_error(a, cat, file, line_no, "pattern without a known cause");
		return;
	}
	if (cat->n_patterns >= 4096) {
		cat_error(a, cat, file, line_no, "too many patterns");
		return;
	}
	*ARENA_PUSH(a, cat->patterns, cat->n_patterns, cat->cap_patterns) = d;
}

const struct explain_cause_def *explain_cause_lookup(const struct explain_catalog *cat,
						     const char *key)
{
	for (size_t i = 0; i < cat->n_causes; i++)
		if (strcmp(cat->causes[i].key, key) == 0)
			return &cat->causes[i];
	return NULL;
}

void explain_catalog_parse(struct arena *a, struct span causes_tsv, struct span patterns_tsv,
			   struct explain_catalog *cat)
{
	memset(cat, 0, sizeof *cat);
	tsv_walk(a, cat, causes_tsv, "explain_causes.tsv", cause_row);
	tsv_walk(a, cat, patterns_tsv, "explain_patterns.tsv", pattern_row);
	/* highest weight first (stable: file order within a weight), so the scanner can stop at the
	 * first pattern that matches a line */
	for (size_t i = 1; i < cat->n_patterns; i++) {
		struct explain_pattern_def d = cat->patterns[i];
		size_t j = i;
		while (j > 0 && cat->patterns[j - 1].weight < d.weight) {
			cat->patterns[j] = cat->patterns[j - 1];
			j--;
		}
		cat->patterns[j] = d;
	}
}
