/* Scan text for messages: line by line, bounded (EXPLAIN_MAX_INPUT bytes, lines cut at
 * EXPLAIN_MAX_LINE), blank runs collapsed so that patterns need not care about spacing. A line
 * with a code, a failure form or a catalogue phrase is a message; the facts of the
 * EXPLAIN_CONTEXT_LINES lines before and after it are its context (a traceback's other lines, the
 * second line of a two-line error). Equal messages (the same facts) are counted, not repeated.
 * Memory: the facts of the last few lines in a ring of fixed buffers; only a new distinct message
 * allocates, so a long log costs no more than its first EXPLAIN_MAX_HITS distinct messages. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "explain/explain.h"

#define EXPLAIN_SHOW_LINE 1024
#define RING (EXPLAIN_CONTEXT_LINES + 1)

/* Normalise raw into norm/lc: control characters and tabs become spaces, blank runs one space,
 * leading blanks dropped. Returns the new length and counts the non-text bytes. */
static size_t normalise(const uint8_t *raw, size_t n, char *norm, char *lc, size_t *nontext)
{
	size_t k = 0;
	*nontext = 0;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = raw[i];
		/* typographic quotes (U+2018/2019/201C/201D, UTF-8 E2 80 98..9D) as ASCII ones: text
		 * pasted from a web page or chat says "don’t", the tables say "don't" */
		if (c == 0xe2 && i + 2 < n && raw[i + 1] == 0x80 && raw[i + 2] >= 0x98 && raw[i + 2] <= 0x9d) {
			c = raw[i + 2] <= 0x9b ? '\'' : '"';
			i += 2;
		}
		/* backslashes that escape a quote (a message quoted inside a JSON string or a Go error:
		 * exec: \"nvidia-smi\": ..., however often it was escaped) are dropped */
		if (c == '\\') {
			size_t j = i;
			while (j < n && raw[j] == '\\')
				j++;
			if (j < n && (raw[j] == '"' || raw[j] == '\'')) {
				i = j;
				c = raw[j];
			}
		}
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

/* Whether a line stops short of its end: a Python prompt with an expression (its value is the
 * next line), or a last character or word that needs more (a program wrapping its sentence:
 * "pytorch-gpu >=2.0 is not installable because it requires" / "__cuda, which is missing"). */
static bool ends_open(const char *lc, size_t k)
{
	static const char *const words[] = { "requires", "require", "required", "which", "with", "of", "for",
					     "to", "the", "and", "or", "from", "by", "because", "in", "is", "are",
					     "was", "were", "needs", "need", "found", "not" };
	if (k > 4 && memcmp(lc, ">>> ", 4) == 0)
		return true;
	if (k == 0 || strchr(",:(", lc[k - 1]))
		return k > 0;
	size_t w = k;
	while (w > 0 && lc[w - 1] != ' ')
		w--;
	for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
		if (strlen(words[i]) == k - w && memcmp(lc + w, words[i], k - w) == 0)
			return true;
	return false;
}

static bool primary(const struct explain_fact *f)
{
	return f->kind == EXF_CODE || f->kind == EXF_FORM || f->kind == EXF_PHRASE;
}

/* Whether the line is a message (it has a fact signature() keeps). */
static bool has_primary(const struct explain_linefacts *lf)
{
	for (size_t i = 0; i < lf->n; i++)
		if (primary(&lf->v[i]))
			return true;
	return false;
}

/* What makes two lines the same message: their codes, forms (with what they are about) and
 * phrases. NULL when the line has none. */
static const char *signature(struct arena *a, const struct explain_linefacts *lf)
{
	char buf[1024];
	size_t n = 0;
	for (size_t i = 0; i < lf->n && n < sizeof buf - 1; i++) {
		const struct explain_fact *f = &lf->v[i];
		if (!primary(f))
			continue;
		int w;
		if (f->kind == EXF_CODE)
			w = snprintf(buf + n, sizeof buf - n, "c:%s:%ld|", f->code->api, f->code->code);
		else
			w = snprintf(buf + n, sizeof buf - n, "%s:%s:%s|", f->pattern->id, f->symbol ? f->symbol : "",
				     f->has_lib && f->lib.name ? f->lib.name : "");
		if (w < 0)
			break;
		n += (size_t)w < sizeof buf - n ? (size_t)w : sizeof buf - n - 1;
	}
	return n ? arena_strndup(a, buf, n) : NULL;
}

static const char *dup_or_null(struct arena *a, const char *s)
{
	return s ? arena_strdup(a, s) : NULL;
}

/* Whether v holds a fact of row d (a row gives facts of one kind only). */
static bool has_pattern(const struct explain_fact *v, size_t n, const struct explain_pattern_def *d)
{
	for (size_t i = 0; i < n; i++)
		if (v[i].pattern == d)
			return true;
	return false;
}

/* Keep f in v (at most EXPLAIN_MAX_HINTS, one per row), its strings copied out of the line
 * buffer; false when it was there already or v is full. */
static bool keep_once(struct arena *a, struct explain_fact *v, size_t *n, const struct explain_fact *f)
{
	if (*n >= EXPLAIN_MAX_HINTS || has_pattern(v, *n, f->pattern))
		return false;
	struct explain_fact *d = &v[(*n)++];
	*d = *f;
	d->text = dup_or_null(a, f->text);
	return true;
}

/* The log's environment hints, one per row, wherever they stand (a setting at the top of a long
 * log still holds for the error at its end). */
static void keep_hints(struct arena *a, struct explain_scan *out, const struct explain_linefacts *lf)
{
	/* a hint row that names no cause and only carries versions ("Driver API Version: 12.2, Runtime
	 * API Version: 12.4"): the versions of its own captures join every message */
	const struct explain_pattern_def *banner = NULL;
	for (size_t i = 0; i < lf->n; i++)
		if (lf->v[i].kind == EXF_HINT) {
			keep_once(a, out->hints, &out->n_hints, &lf->v[i]);
			const struct explain_pattern_def *p = lf->v[i].pattern;
			if (p->n_causes == 0 && p->n_against == 0 && p->pat.n_caps > 0)
				banner = p;
		}
	for (size_t i = 0; banner && i < lf->n; i++) {
		const struct explain_fact *f = &lf->v[i];
		bool seen = f->kind != EXF_VERSION || f->row != banner || out->n_hint_versions == EXPLAIN_MAX_HINTS;
		for (size_t k = 0; !seen && k < out->n_hint_versions; k++)
			seen = strcmp(out->hint_versions[k].what, f->what) == 0;
		if (seen)
			continue; /* the first banner of a log speaks for its process */
		struct explain_fact *d = &out->hint_versions[out->n_hint_versions++];
		*d = *f;
		d->text = dup_or_null(a, f->text);
		d->value = dup_or_null(a, f->value);
	}
}

/* Copy a fact out of a line buffer into the arena (its strings point into the buffer). */
static void add_fact(struct arena *a, struct explain_message *m, const struct explain_fact *f, bool context)
{
	if (m->n_facts == EXPLAIN_MAX_FACTS)
		return;
	struct explain_fact *d = ARENA_PUSH(a, m->facts, m->n_facts, m->cap_facts);
	*d = *f;
	d->context = context;
	d->text = dup_or_null(a, f->text);
	d->symbol = dup_or_null(a, f->symbol);
	d->lib.name = dup_or_null(a, f->lib.name);
	d->value = dup_or_null(a, f->value);
}

static void add_context(struct arena *a, struct explain_message *m, const struct explain_linefacts *lf)
{
	for (size_t i = 0; i < lf->n; i++)
		if (lf->v[i].kind != EXF_LIB && lf->v[i].kind != EXF_CUE)
			add_fact(a, m, &lf->v[i], true);
}

/* The input's cues, one per row, and the first line that had one: only from lines a gate row
 * matches too (words that say something went wrong: "the desktop is a black screen", not "the
 * desktop runs at 4K"). */
static void keep_cues(struct arena *a, struct explain_scan *out, const struct explain_linefacts *lf, struct span line)
{
	bool gated = false;
	for (size_t i = 0; i < lf->n && !gated; i++)
		gated = lf->v[i].kind == EXF_CUE && lf->v[i].pattern->gate;
	for (size_t i = 0; gated && i < lf->n; i++) {
		const struct explain_fact *f = &lf->v[i];
		if (f->kind != EXF_CUE || f->pattern->gate || !keep_once(a, out->cues, &out->n_cues, f))
			continue;
		if (!out->cue_line) {
			out->cue_line_no = lf->line_no;
			out->cue_line = arena_strndup(a, (const char *)line.p,
						      line.n > EXPLAIN_SHOW_LINE ? EXPLAIN_SHOW_LINE : line.n);
		}
	}
}

static int msg_cmp(const void *x, const void *y)
{
	const struct explain_message *a = x, *b = y;
	if (a->weight != b->weight)
		return a->weight > b->weight ? -1 : 1;
	return a->line_no < b->line_no ? -1 : a->line_no > b->line_no;
}

/* A line's facts: a new message, another sighting of a known one, or nothing. */
static void take_line(struct arena *a, struct explain_scan *out, struct explain_linefacts *ring,
		      const struct explain_linefacts *lf, struct span line)
{
	const char *sig = signature(a, lf);
	if (!sig)
		return;
	for (size_t i = 0; i < out->n_msgs; i++)
		if (strcmp(out->msgs[i].sig, sig) == 0) {
			out->msgs[i].count++;
			return;
		}
	if (out->n_msgs == EXPLAIN_MAX_HITS) {
		out->dropped_msgs++;
		return;
	}
	struct explain_message *m = ARENA_PUSH(a, out->msgs, out->n_msgs, out->cap_msgs);
	m->line_no = lf->line_no;
	m->count = 1;
	m->sig = sig;
	m->line = arena_strndup(a, (const char *)line.p, line.n > EXPLAIN_SHOW_LINE ? EXPLAIN_SHOW_LINE : line.n);
	for (size_t i = 0; i < lf->n; i++)
		if (lf->v[i].kind != EXF_CUE)
			add_fact(a, m, &lf->v[i], false);
	m->n_own = m->n_facts;
	/* the lines before it, oldest first */
	for (size_t back = EXPLAIN_CONTEXT_LINES; back >= 1; back--) {
		if (lf->line_no <= back)
			continue;
		const struct explain_linefacts *p = &ring[(lf->line_no - back) % RING];
		if (p->line_no == lf->line_no - back)
			add_context(a, m, p);
	}
	m->ctx_until = lf->line_no + EXPLAIN_CONTEXT_LINES;
}

/* Whether the line ends with the library's name (a path to it, quoted or not, a colon after it): a
 * loader's sentence whose reason follows on the next line. */
static bool ends_with_library(const char *line, const char *lib)
{
	size_t n = strlen(line), k = strlen(lib);
	while (n && strchr("\"':`.,;) ", line[n - 1]))
		n--;
	return k && n >= k && strncasecmp(line + n - k, lib, k) == 0;
}

/* Whether the line says nothing but the code's text ("Access is denied.", a box-drawing border and
 * punctuation around it) after what it shares with the line before (a log's timestamp and level):
 * letters and digits outside the text, at most a few. */
static bool line_is_the_code(struct span lc, const char *before, const struct explain_fact *code)
{
	size_t shared = 0;
	while (shared < lc.n && before[shared] &&
	       tolower((unsigned char)before[shared]) == ((const char *)lc.p)[shared])
		shared++;
	size_t words = 0, own = 0;
	for (size_t i = shared; i < lc.n; i++)
		words += isalnum((unsigned char)((const char *)lc.p)[i]) != 0;
	for (const char *c = code->text; c && *c; c++)
		own += isalnum((unsigned char)*c) != 0;
	return words <= own + 3;
}

/* A Windows loader code alone on the line after a load whose sentence ends with the library (Julia's
 * `could not load library "X"`, then "Access is denied."): the code says how that load failed, as it
 * would on the same line. Not a code of another sentence (pip's "[WinError 5] Access is denied:
 * 'X.dll'" after cuDNN's "Could not locate Y.dll. Please ..."). */
static void refine_previous_load(struct explain_scan *out, struct explain_linefacts *ring,
				 const struct explain_linefacts *lf, struct span lc)
{
	const struct explain_fact *code = NULL;
	for (size_t i = 0; i < lf->n; i++) {
		if (lf->v[i].kind == EXF_FORM || lf->v[i].kind == EXF_LIB)
			return;
		if (!code && explain_code_refines_form(&lf->v[i]))
			code = &lf->v[i];
	}
	if (!code || lf->line_no < 2)
		return;
	const char *form = explain_code_refines_form(code);
	for (size_t i = 0; i < out->n_msgs; i++) {
		struct explain_message *m = &out->msgs[i];
		if (m->line_no + 1 != lf->line_no || !line_is_the_code(lc, m->line, code))
			continue;
		bool refined = false;
		for (size_t k = 0; k < m->n_own; k++)
			if (explain_form_is_a_load(&m->facts[k]) && m->facts[k].has_lib && m->facts[k].lib.name &&
			    ends_with_library(m->line, m->facts[k].lib.name)) {
				m->facts[k].form = form;
				refined = true;
			}
		/* the line before as this line's message takes it for context */
		struct explain_linefacts *p = &ring[(lf->line_no - 1) % RING];
		for (size_t k = 0; refined && p->line_no + 1 == lf->line_no && k < p->n; k++)
			if (explain_form_is_a_load(&p->v[k]))
				p->v[k].form = form;
	}
}

void explain_scan_text(struct arena *a, const struct explain_catalog *cat, struct span text,
		       struct explain_scan *out)
{
	memset(out, 0, sizeof *out);
	if (text.n > EXPLAIN_MAX_INPUT)
		text.n = EXPLAIN_MAX_INPUT;
	out->bytes = text.n;
	/* buffers reused for every line, sized by the longest line this text can have, and not
	 * zeroed: each line writes its own before reading (a line's facts are read back only by its
	 * number, set below before any line is read) */
	size_t max_line = text.n < EXPLAIN_MAX_LINE ? text.n : EXPLAIN_MAX_LINE;
	char *norm = arena_alloc_uninit(a, max_line + 1), *lc = arena_alloc_uninit(a, max_line + 1);
	struct explain_linefacts *ring = arena_alloc_uninit(a, RING * sizeof *ring);
	for (size_t i = 0; i < RING; i++) {
		ring[i].line_no = 0;
		ring[i].n = 0;
	}
	struct explain_reader *reader = explain_reader_new(a, cat, max_line);
	/* the line before, kept while it said nothing and ends open (or held a code's text that needs
	 * its API named); both lines joined when this one says nothing either */
	char *prev = arena_alloc_uninit(a, max_line + 1), *prev_lc = arena_alloc_uninit(a, max_line + 1);
	char *both = arena_alloc_uninit(a, max_line + 1), *both_lc = arena_alloc_uninit(a, max_line + 1);
	size_t prev_k = 0;
	bool blank_before = false;
	struct explain_linefacts *alone = arena_alloc_uninit(a, sizeof *alone);
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
		struct explain_linefacts *lf = &ring[out->lines % RING];
		lf->n = 0;
		lf->line_no = out->lines;
		size_t open_k = prev_k;
		prev_k = 0;
		if (k == 0) {
			/* one blank line keeps the open line for the next: CMake sets the target its
			 * sentence is about on a line of its own between blank lines */
			if (!blank_before)
				prev_k = open_k;
			blank_before = true;
			continue;
		}
		blank_before = false;
		explain_line_facts(reader, span_make(norm, k), span_make(lc, k), out->lines, lf);
		bool wants_api_word = explain_line_wants_api_word(reader);
		struct span shown = span_make(norm, k);
		if (!has_primary(lf) && open_k && open_k + 1 + k <= max_line) {
			memcpy(both, prev, open_k);
			memcpy(both_lc, prev_lc, open_k);
			both[open_k] = both_lc[open_k] = ' ';
			memcpy(both + open_k + 1, norm, k);
			memcpy(both_lc + open_k + 1, lc, k);
			both[open_k + 1 + k] = both_lc[open_k + 1 + k] = 0; /* as normalise() ends a line */
			/* read into lf itself (its facts' strings live in its own buffer); kept aside, the
			 * line's own facts come back whole when the two lines say nothing more together */
			*alone = *lf;
			explain_line_facts_joined(reader, span_make(both, open_k + 1 + k),
						  span_make(both_lc, open_k + 1 + k), out->lines, lf);
			if (has_primary(lf))
				shown = span_make(both, open_k + 1 + k);
			else
				*lf = *alone;
		}
		if (!has_primary(lf) && (ends_open(lc, k) || wants_api_word)) {
			memcpy(prev, norm, k);
			memcpy(prev_lc, lc, k);
			prev_k = k;
		}
		if (lf->n == 0)
			continue;
		refine_previous_load(out, ring, lf, span_make(lc, k));
		/* the messages of the lines before take this line's facts as context */
		for (size_t i = 0; i < out->n_msgs; i++)
			if (out->msgs[i].ctx_until >= out->lines && out->msgs[i].line_no < out->lines)
				add_context(a, &out->msgs[i], lf);
		take_line(a, out, ring, lf, shown);
		keep_hints(a, out, lf);
		keep_cues(a, out, lf, shown);
	}
	for (size_t i = 0; i < out->n_msgs; i++) {
		struct explain_message *m = &out->msgs[i];
		for (size_t h = 0; h < out->n_hints; h++)
			if (!has_pattern(m->facts, m->n_facts, out->hints[h].pattern))
				add_fact(a, m, &out->hints[h], true);
		for (size_t h = 0; h < out->n_hint_versions; h++)
			add_fact(a, m, &out->hint_versions[h], true);
		explain_score(a, cat, m);
	}
	if (out->n_msgs > 1)
		qsort(out->msgs, out->n_msgs, sizeof out->msgs[0], msg_cmp);
}

bool explain_scan_cues(struct arena *a, const struct explain_catalog *cat, struct explain_scan *sc)
{
	if (sc->n_msgs || !sc->n_cues)
		return false;
	struct explain_message *m = ARENA_PUSH(a, sc->msgs, sc->n_msgs, sc->cap_msgs);
	m->line_no = sc->cue_line_no;
	m->count = 1;
	m->sig = "words";
	m->from_words = true;
	m->line = sc->cue_line;
	for (size_t i = 0; i < sc->n_cues; i++)
		add_fact(a, m, &sc->cues[i], sc->cues[i].line_no != sc->cue_line_no);
	m->n_own = m->n_facts;
	for (size_t h = 0; h < sc->n_hints; h++)
		add_fact(a, m, &sc->hints[h], true);
	explain_score(a, cat, m);
	return true;
}

const char *explain_message_category(const struct explain_message *m)
{
	return m->n_cands ? m->cands[0].cause->category : NULL;
}
