/* Scan text for known messages: line by line, bounded (EXPLAIN_MAX_INPUT bytes, lines cut at
 * EXPLAIN_MAX_LINE), blank runs collapsed so that patterns need not care about spacing. Each line
 * yields at most one message: the most specific (highest weight) pattern that matches it (the
 * catalogue is sorted by weight, so that is the first). Equal
 * messages (same pattern, same captured values) are counted, not repeated. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "explain/explain.h"

#define EXPLAIN_SHOW_LINE 1024

const char *explain_hit_get(const struct explain_hit *h, const char *key)
{
	for (size_t i = 0; i < h->n_caps; i++)
		if (strcmp(h->caps[i].key, key) == 0)
			return h->caps[i].value;
	return NULL;
}

/* Normalise raw into norm/lc: control characters and tabs become spaces, blank runs one space,
 * leading blanks dropped. Returns the new length and counts the non-text bytes. */
static size_t normalise(const uint8_t *raw, size_t n, char *norm, char *lc, size_t *nontext)
{
	size_t k = 0;
	*nontext = 0;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = raw[i];
		if (c < 0x20 || c == 0x7f) {
			if (c != '\t' && c != '\r' && c != 0x1b)
				(*nontext)++;
			c = ' ';
		}
		if (c == ' ' && (k == 0 || norm[k - 1] == ' '))
			continue;
		norm[k] = (char)c;
		lc[k] = (char)(c >= 'A' && c <= 'Z' ? c + 32 : c); /* ASCII only, no locale call */
		k++;
	}
	while (k && norm[k - 1] == ' ')
		k--;
	norm[k] = lc[k] = 0;
	return k;
}

static bool same_caps(const struct explain_hit *h, const struct explain_capture *caps, size_t n)
{
	if (h->n_caps != n)
		return false;
	for (size_t i = 0; i < n; i++)
		if (strcmp(h->caps[i].value, caps[i].value) != 0)
			return false;
	return true;
}

static int hit_cmp(const void *x, const void *y)
{
	const struct explain_hit *a = x, *b = y;
	if (a->def->weight != b->def->weight)
		return a->def->weight > b->def->weight ? -1 : 1;
	return a->line_no < b->line_no ? -1 : a->line_no > b->line_no;
}

/* A cheap pre-filter: which byte pairs occur in the line (hashed into 4096 bits). A pattern whose
 * longest literal has a pair the line lacks cannot match, and most patterns are rejected so,
 * without searching the line at all. */
#define PAIR_BITS 4096u
static unsigned pair_hash(unsigned char a, unsigned char b)
{
	return ((unsigned)a * 31u + b) & (PAIR_BITS - 1);
}

static void pairs_of(struct span lc, uint64_t *bits)
{
	memset(bits, 0, PAIR_BITS / 8);
	for (size_t i = 0; i + 1 < lc.n; i++) {
		unsigned h = pair_hash(lc.p[i], lc.p[i + 1]);
		bits[h / 64] |= (uint64_t)1 << (h % 64);
	}
}

static bool may_contain(const uint64_t *bits, const char *lit, size_t n)
{
	for (size_t i = 0; i + 1 < n; i++) {
		unsigned h = pair_hash((unsigned char)lit[i], (unsigned char)lit[i + 1]);
		if (!(bits[h / 64] & ((uint64_t)1 << (h % 64))))
			return false;
	}
	return true;
}

/* bufs[0] and bufs[1]: the values of the current try and of the best match so far, swapped */
static void scan_line(struct arena *a, struct explain_capbuf *bufs, const struct explain_catalog *cat,
		      struct span line, struct span lc, size_t line_no, struct explain_scan *out)
{
	const struct explain_pattern_def *best = NULL;
	struct explain_capture best_caps[EXPLAIN_MAX_CAPS], caps[EXPLAIN_MAX_CAPS];
	struct explain_capbuf *cur = &bufs[0], *kept = &bufs[1];
	size_t best_n = 0, n;
	uint64_t pairs[PAIR_BITS / 64];
	pairs_of(lc, pairs);
	for (size_t i = 0; i < cat->n_patterns; i++) {
		const struct explain_pattern_def *d = &cat->patterns[i];
		if (d->pat.anchor && !may_contain(pairs, d->pat.anchor, d->pat.anchor_len))
			continue;
		if (!explain_pattern_match(&d->pat, line, lc, cur, caps, &n))
			continue;
		if (d->when_key) {
			const char *v = NULL;
			for (size_t c = 0; c < n; c++)
				if (strcmp(caps[c].key, d->when_key) == 0)
					v = caps[c].value;
			if (!v || !explain_glob(d->when_glob, v))
				continue;
		}
		best = d;
		best_n = n;
		memcpy(best_caps, caps, n * sizeof caps[0]);
		struct explain_capbuf *t = cur;
		cur = kept, kept = t;
		break; /* the catalogue is sorted by weight: nothing later can beat it */
	}
	if (!best)
		return;
	for (size_t h = 0; h < out->n_hits; h++)
		if (out->hits[h].def == best && same_caps(&out->hits[h], best_caps, best_n)) {
			out->hits[h].count++;
			return;
		}
	if (out->n_hits == EXPLAIN_MAX_HITS) {
		out->dropped_hits++;
		return;
	}
	struct explain_hit *h = ARENA_PUSH(a, out->hits, out->n_hits, out->cap_hits);
	h->def = best;
	h->line_no = line_no;
	h->count = 1;
	h->line = arena_strndup(a, (const char *)line.p,
				line.n > EXPLAIN_SHOW_LINE ? EXPLAIN_SHOW_LINE : line.n);
	h->n_caps = best_n;
	for (size_t c = 0; c < best_n; c++)
		h->caps[c] = (struct explain_capture){ arena_strdup(a, best_caps[c].key),
						       arena_strdup(a, best_caps[c].value) };
}

void explain_scan_text(struct arena *a, const struct explain_catalog *cat, struct span text,
		       struct explain_scan *out)
{
	memset(out, 0, sizeof *out);
	if (text.n > EXPLAIN_MAX_INPUT)
		text.n = EXPLAIN_MAX_INPUT;
	out->bytes = text.n;
	/* line and capture buffers reused for every line: only a new distinct message allocates, so
	 * memory stays bounded however long the log */
	char *norm = arena_alloc(a, EXPLAIN_MAX_LINE + 1), *lc = arena_alloc(a, EXPLAIN_MAX_LINE + 1);
	struct explain_capbuf *bufs = arena_alloc(a, 2 * sizeof *bufs);
	size_t off = 0;
	while (off < text.n) {
		const uint8_t *nl = memchr(text.p + off, '\n', text.n - off);
		size_t len = nl ? (size_t)(nl - (text.p + off)) : text.n - off;
		const uint8_t *raw = text.p + off;
		off += len + (nl ? 1 : 0);
		out->lines++;
		if (len > EXPLAIN_MAX_LINE) {
			len = EXPLAIN_MAX_LINE;
			out->long_lines++;
		}
		size_t nontext;
		size_t k = normalise(raw, len, norm, lc, &nontext);
		if (len >= 16 && nontext * 4 > len)
			out->binary_lines++;
		if (k == 0)
			continue;
		scan_line(a, bufs, cat, span_make(norm, k), span_make(lc, k), out->lines, out);
	}
	if (out->n_hits > 1)
		qsort(out->hits, out->n_hits, sizeof out->hits[0], hit_cmp);
}
