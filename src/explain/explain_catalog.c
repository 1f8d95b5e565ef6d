/* The catalogue reader: TSV files with a header row (causes, message forms, library classes, the
 * class x form table, symbol prefixes, further texts of error codes), plus the error codes of the
 * knowledge base. It is an input reader like any other (the files could be replaced), so it works
 * on spans, bounds every count and never trusts a field; tests/fuzz/fuzz_explain.c feeds it
 * garbage. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kb/kb.h"

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

#define EXPLAIN_MAX_ROWS 4096

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
	if (cat->n_causes >= EXPLAIN_MAX_ROWS) {
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
	c->on_windows = field(r, col_index(hdr, "on_windows"));
	c->about = field(r, col_index(hdr, "about"));
	c->source = field(r, col_index(hdr, "source"));
}

/* Every on_windows key names a cause of the table (checked once all rows are read). */
static void check_on_windows(struct arena *a, struct explain_catalog *cat)
{
	for (size_t i = 0; i < cat->n_causes; i++) {
		struct explain_cause_def *c = &cat->causes[i];
		if (*c->on_windows && !explain_cause_lookup(cat, c->on_windows)) {
			cat_error(a, cat, "explain_causes.tsv", 0,
				  arena_printf(a, "%s: on_windows names no cause: %s", c->key, c->on_windows));
			c->on_windows = "";
		}
	}
}

/* A comma-separated list of cause keys into out[] (at most EXPLAIN_MAX_CAUSES); unknown keys are
 * reported. Keys written !key go to against[] where the row may contradict causes (against not
 * NULL, *n_against counts them), and are an error elsewhere. Returns the count of out[]. */
static size_t parse_causes(struct arena *a, struct explain_catalog *cat, const char *cs, const char *file,
			   size_t line_no, const struct explain_cause_def **out, const struct explain_cause_def **against,
			   size_t *n_against)
{
	size_t n = 0;
	while (*cs) {
		const char *comma = strchr(cs, ',');
		size_t len = comma ? (size_t)(comma - cs) : strlen(cs);
		while (len && cs[0] == ' ')
			cs++, len--;
		while (len && cs[len - 1] == ' ')
			len--;
		bool neg = len && cs[0] == '!';
		if (neg && !against)
			cat_error(a, cat, file, line_no, "!key (a contradicted cause) only in a message or hint row");
		else if (neg && len == 1)
			cat_error(a, cat, file, line_no, "'!' without a cause key");
		else if (len > (size_t)neg) {
			char *key = arena_strndup(a, cs + neg, len - neg);
			const struct explain_cause_def *c = explain_cause_lookup(cat, key);
			size_t *k = neg ? n_against : &n;
			if (!c)
				cat_error(a, cat, file, line_no, arena_printf(a, "unknown cause key '%s'", key));
			else if (*k == EXPLAIN_MAX_CAUSES)
				cat_error(a, cat, file, line_no, "too many causes");
			else
				(neg ? against : out)[(*k)++] = c;
		}
		if (!comma)
			break;
		cs = comma + 1;
	}
	return n;
}

static bool known_form(const char *f)
{
	static const char *const forms[] = { "not-found", "load-failed", "undefined-symbol", "version-not-found",
					     "link-time-ref", "no-version-info", "wrong-elf-class", "damaged", "stub",
					     "link-not-found", "win-127", "denied" };
	for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++)
		if (strcmp(f, forms[i]) == 0)
			return true;
	return false;
}

#define EXPLAIN_VOCAB_WORDS 1024 /* longest word list of a vocabulary row */
#define EXPLAIN_PATTERN_MAX 4096 /* longest pattern once its {@name} groups are expanded */

static void vocab_row(struct arena *a, struct explain_catalog *cat, const struct tsv_row *hdr, const struct tsv_row *r,
		      const char *file, size_t line_no)
{
	const char *name = field(r, col_index(hdr, "name")), *words = field(r, col_index(hdr, "words"));
	bool ok = *name && *words && strlen(words) <= EXPLAIN_VOCAB_WORDS && !strpbrk(words, "{}") &&
		  !strpbrk(name, "{}|") && cat->n_vocab < EXPLAIN_MAX_ROWS;
	if (!ok) {
		cat_error(a, cat, file, line_no, "row needs name and words (a|b|c, at most 1024 bytes, no braces)");
		return;
	}
	*ARENA_PUSH(a, cat->vocab, cat->n_vocab,
		    cat->cap_vocab) = (struct explain_vocab_def){ name, words, field(r, col_index(hdr, "source")) };
}

static const struct explain_vocab_def *vocab_lookup(const struct explain_catalog *cat, const char *name, size_t n)
{
	for (size_t i = 0; i < cat->n_vocab; i++)
		if (strlen(cat->vocab[i].name) == n && strncmp(cat->vocab[i].name, name, n) == 0)
			return &cat->vocab[i];
	return NULL;
}

/* Replace every {@name} of a pattern by the vocabulary's group {w1|w2|...} (a one-word group
 * gets an empty alternative's '|' only if the row wrote one). Returns NULL with *err set when a
 * name is unknown or the result would be too long. */
static const char *expand_vocab(struct arena *a, const struct explain_catalog *cat, const char *text, const char **err)
{
	if (!strstr(text, "{@"))
		return text;
	char *out = arena_alloc(a, EXPLAIN_PATTERN_MAX + 1);
	size_t o = 0;
	for (const char *p = text; *p;) {
		const char *close = p[0] == '{' && p[1] == '@' ? strchr(p, '}') : NULL;
		const char *piece = p;
		size_t plen = 1;
		const struct explain_vocab_def *v = NULL;
		if (close) {
			v = vocab_lookup(cat, p + 2, (size_t)(close - p - 2));
			if (!v) {
				*err = arena_printf(a, "unknown vocabulary '%.*s'", (int)(close - p - 2), p + 2);
				return NULL;
			}
			piece = v->words;
			plen = strlen(v->words);
		}
		bool group = v && strchr(v->words, '|');
		if (o + plen + 2 > EXPLAIN_PATTERN_MAX) {
			*err = "pattern too long once its vocabulary is expanded";
			return NULL;
		}
		if (group)
			out[o++] = '{';
		memcpy(out + o, piece, plen);
		o += plen;
		if (group)
			out[o++] = '}';
		p = close ? close + 1 : p + 1;
	}
	out[o] = 0;
	return out;
}

static void pattern_row(struct arena *a, struct explain_catalog *cat, const struct tsv_row *hdr,
			const struct tsv_row *r, const char *file, size_t line_no)
{
	struct explain_pattern_def d;
	memset(&d, 0, sizeof d);
	d.id = field(r, col_index(hdr, "id"));
	d.text = field(r, col_index(hdr, "pattern"));
	d.source = field(r, col_index(hdr, "source"));
	const char *form = field(r, col_index(hdr, "form"));
	const char *w = field(r, col_index(hdr, "weight"));
	char *end;
	long wv = strtol(w, &end, 10);
	if (!*d.id || !*d.text || !*w || *end || wv < 0 || wv > 1000) {
		cat_error(a, cat, file, line_no, "row needs id, pattern and a weight 0..1000");
		return;
	}
	d.weight = (int)wv;
	d.hint = strcmp(form, "hint") == 0;
	d.gate = strcmp(form, "gate") == 0;
	d.cue = d.gate || strcmp(form, "cue") == 0;
	d.restates = strcmp(form, "restates") == 0;
	d.linker = strcmp(form, "linker") == 0;
	d.generic = strcmp(file, "explain_classes.tsv") == 0;
	if (d.hint || d.cue || d.restates || d.linker)
		form = "";
	if (*form && !known_form(form)) {
		cat_error(a, cat, file, line_no, arena_printf(a, "unknown form '%s'", form));
		return;
	}
	d.form = *form ? form : NULL;
	const char *err = NULL;
	const char *expanded = expand_vocab(a, cat, d.text, &err);
	if (!expanded) {
		cat_error(a, cat, file, line_no, err);
		return;
	}
	if (explain_pattern_compile(a, expanded, &d.pat, &err) != 0) {
		cat_error(a, cat, file, line_no, arena_printf(a, "bad pattern: %s", err));
		return;
	}
	const char *when = field(r, col_index(hdr, "when"));
	if (*when) {
		const char *eq = strchr(when, '=');
		d.when_not = eq && eq > when && eq[-1] == '!';
		size_t key_len = eq ? (size_t)(eq - when) - d.when_not : 0;
		if (!key_len) {
			cat_error(a, cat, file, line_no, "guard must read KEY=GLOB or KEY!=GLOB");
			return;
		}
		d.when_key = arena_strndup(a, when, key_len);
		d.when_glob = eq + 1;
	}
	/* a contradicted cause (!key) only where the row's words are a message or a hint: not a form
	 * (its library's class decides), a cue or a generic class */
	bool may_contradict = !d.form && !d.cue && !d.gate && !d.generic;
	d.n_causes = parse_causes(a, cat, field(r, col_index(hdr, "causes")), file, line_no, d.causes,
				  may_contradict ? d.against : NULL, may_contradict ? &d.n_against : NULL);
	for (size_t i = 0; i < d.n_against; i++)
		for (size_t k = 0; k < d.n_causes; k++)
			if (d.against[i] == d.causes[k])
				cat_error(a, cat, file, line_no,
					  arena_printf(a, "cause '%s' both named and contradicted", d.causes[k]->key));
	/* a hint may only carry versions (a framework's banner of the driver's and runtime's CUDA) */
	bool versions_hint = d.hint && d.pat.n_caps > 0;
	if (d.n_causes == 0 && d.n_against == 0 && !d.form && !d.gate && !versions_hint) {
		cat_error(a, cat, file, line_no, "a phrase without a known cause");
		return;
	}
	if (cat->n_patterns >= EXPLAIN_MAX_ROWS) {
		cat_error(a, cat, file, line_no, "too many patterns");
		return;
	}
	*ARENA_PUSH(a, cat->patterns, cat->n_patterns, cat->cap_patterns) = d;
}

static void libclass_row(struct arena *a, struct explain_catalog *cat, const struct tsv_row *hdr,
			 const struct tsv_row *r, const char *file, size_t line_no)
{
	const char *glob = field(r, col_index(hdr, "glob")), *klass = field(r, col_index(hdr, "class"));
	if (!*glob || !*klass || cat->n_libclasses >= EXPLAIN_MAX_ROWS) {
		cat_error(a, cat, file, line_no, "row needs glob and class");
		return;
	}
	*ARENA_PUSH(a, cat->libclasses, cat->n_libclasses, cat->cap_libclasses) =
		(struct explain_libclass_def){ glob, klass, field(r, col_index(hdr, "source")) };
}

static void libform_row(struct arena *a, struct explain_catalog *cat, const struct tsv_row *hdr,
			const struct tsv_row *r, const char *file, size_t line_no)
{
	struct explain_libform_def d;
	memset(&d, 0, sizeof d);
	d.klass = field(r, col_index(hdr, "class"));
	d.form = field(r, col_index(hdr, "form"));
	d.source = field(r, col_index(hdr, "source"));
	const char *major = field(r, col_index(hdr, "major")), *os = field(r, col_index(hdr, "os"));
	char *end;
	d.major = strcmp(major, "*") == 0 ? -1 : (int)strtol(major, &end, 10);
	bool bad_major = strcmp(major, "*") != 0 && (!*major || *end || d.major < 0 || d.major > 999);
	d.os = strcmp(os, "windows") == 0 ? 'w' : strcmp(os, "linux") == 0 ? 'l' : 0;
	bool bad_os = d.os == 0 && strcmp(os, "*") != 0;
	bool bad_form = strcmp(d.form, "*") != 0 && !known_form(d.form) && strncmp(d.form, "win-", 4) != 0;
	if (!*d.klass || bad_major || bad_os || bad_form || cat->n_libforms >= EXPLAIN_MAX_ROWS) {
		cat_error(a, cat, file, line_no, "row needs class, major (N or *), os (linux, windows or *) and a known form");
		return;
	}
	d.n_causes = parse_causes(a, cat, field(r, col_index(hdr, "causes")), file, line_no, d.causes, NULL, NULL);
	if (d.n_causes == 0) {
		cat_error(a, cat, file, line_no, "row without a known cause");
		return;
	}
	*ARENA_PUSH(a, cat->libforms, cat->n_libforms, cat->cap_libforms) = d;
}

static void symbol_row(struct arena *a, struct explain_catalog *cat, const struct tsv_row *hdr,
		       const struct tsv_row *r, const char *file, size_t line_no)
{
	const char *prefix = field(r, col_index(hdr, "prefix")), *comp = field(r, col_index(hdr, "component"));
	if (!*prefix || !*comp || strlen(prefix) > 64 || cat->n_symbols >= EXPLAIN_MAX_ROWS) {
		cat_error(a, cat, file, line_no, "row needs prefix and component");
		return;
	}
	*ARENA_PUSH(a, cat->symbols, cat->n_symbols, cat->cap_symbols) =
		(struct explain_symbol_def){ prefix, comp, field(r, col_index(hdr, "source")), strlen(prefix) };
}

static char *lower_dup(struct arena *a, const char *s)
{
	char *d = arena_strdup(a, s);
	for (char *p = d; *p; p++)
		*p = (char)((unsigned char)*p < 0x80 ? tolower((unsigned char)*p) : *p);
	return d;
}

/* Texts shorter than this, or plain words that other programs print too ("unknown error", "out of
 * memory"), count only on a line that names a GPU API. */
#define EXPLAIN_SHORT_TEXT 24

static void push_text(struct arena *a, struct explain_text_def **texts, size_t *n_texts, size_t *cap_texts,
		      const struct kb_error *e, const char *text)
{
	if (*n_texts >= EXPLAIN_MAX_ROWS)
		return;
	char *lc = lower_dup(a, text);
	size_t n = strlen(lc);
	while (n && (lc[n - 1] == '.' || lc[n - 1] == ' ')) /* "... unsupported toolchain." */
		lc[--n] = 0;
	if (n < 6)
		return;
	bool ascii = true;
	for (size_t i = 0; i < n; i++)
		ascii &= (unsigned char)lc[i] < 0x80;
	*ARENA_PUSH(a, *texts, *n_texts, *cap_texts) =
		(struct explain_text_def){ e, lc, n, ascii && n < EXPLAIN_SHORT_TEXT, -1, true, explain_pair_bits(lc, n) };
}

static void add_kb_text(struct arena *a, struct explain_kb_part *kb, const struct kb_error *e, const char *text)
{
	push_text(a, &kb->texts, &kb->n_texts, &kb->cap_texts, e, text);
}

static void text_row(struct arena *a, struct explain_catalog *cat, const struct tsv_row *hdr,
		     const struct tsv_row *r, const char *file, size_t line_no)
{
	const char *api = field(r, col_index(hdr, "api")), *code = field(r, col_index(hdr, "code"));
	const char *text = field(r, col_index(hdr, "text"));
	char *end;
	long c = strtol(code, &end, 10);
	const struct kb_error *e = *code && !*end ? kb_error_lookup(api, c) : NULL;
	if (!e || !*text) {
		cat_error(a, cat, file, line_no, "row needs an api and code of data/errors.tsv and a text");
		return;
	}
	push_text(a, &cat->texts, &cat->n_texts, &cat->cap_texts, e, text);
}

static void add_name(struct arena *a, struct explain_kb_part *kb, const struct kb_error *e, const char *name,
		     size_t len)
{
	if (len < 4 || len > 96)
		return;
	char *lc = lower_dup(a, arena_strndup(a, name, len));
	*ARENA_PUSH(a, kb->names, kb->n_names, kb->cap_names) = (struct explain_name_def){ lc, e };
}

static int name_cmp(const void *x, const void *y)
{
	const struct explain_name_def *a = x, *b = y;
	int c = strcmp(a->lc, b->lc);
	/* equal names (cuDNN 8 and 9): the table's first row first */
	return c ? c : (a->code < b->code ? -1 : a->code > b->code);
}

/* A long printed text is often quoted with its first words changed ("The PTX was compiled with an
 * unsupported toolchain" for "the provided PTX ..."): its tail, without one or two leading words,
 * stands for the code too while it keeps at least 5 words and 32 characters (long enough to be
 * the library's sentence, not a common phrase). */
#define TAIL_MIN_WORDS 5
#define TAIL_MIN_CHARS 32

/* Whether tail ends another printed text of the same API (rows[from..to), e's block of the
 * table): NCCL's "error (run with NCCL_DEBUG=INFO for details)" ends codes 1 and 2 alike, so it
 * names neither. */
static bool tail_shared(const struct kb_error *rows, size_t from, size_t to, const struct kb_error *e, const char *tail)
{
	size_t n = strlen(tail);
	for (size_t i = from; i < to; i++) {
		const struct kb_error *r = &rows[i];
		size_t m = r != e && r->verbatim && r->text ? strlen(r->text) : 0;
		if (m >= n && strcmp(r->text + m - n, tail) == 0)
			return true;
	}
	return false;
}

static void add_text_tails(struct arena *a, struct explain_kb_part *kb, const struct kb_error *rows, size_t n_rows,
			   size_t i)
{
	const struct kb_error *e = &rows[i];
	/* the table keeps each API's rows together */
	size_t from = i, to = i + 1;
	while (from > 0 && strcmp(rows[from - 1].api, e->api) == 0)
		from--;
	while (to < n_rows && strcmp(rows[to].api, e->api) == 0)
		to++;
	const char *p = e->text;
	for (int drop = 1; drop <= 2; drop++) {
		const char *sp = strchr(p, ' ');
		if (!sp)
			return;
		p = sp + 1;
		size_t words = 1, len = strlen(p);
		for (const char *q = p; *q; q++)
			words += *q == ' ';
		if (words < TAIL_MIN_WORDS || len < TAIL_MIN_CHARS || tail_shared(rows, from, to, e, p))
			return;
		add_kb_text(a, kb, e, p);
	}
}

/* Programs that wrap the driver API print its names without the CUDA_ prefix (CUDA.jl:
 * "ERROR_NOT_INITIALIZED", "ERROR_JIT_COMPILER_NOT_FOUND"), and NVML's Go binding NVML's without
 * NVML_: each CUDA_ERROR_* and NVML_ERROR_* also answers to its short name unless another code's
 * full name is that (Windows' ERROR_FILE_NOT_FOUND). */
static int str_ptr_cmp(const void *x, const void *y)
{
	return strcmp(*(const char *const *)x, *(const char *const *)y);
}

static void add_driver_short_names(struct arena *a, struct explain_kb_part *kb, const struct kb_error *rows, size_t n)
{
	/* the table's names sorted once, so that each short name is one search (the catalogue is
	 * parsed on every run of explain) */
	const char **names = arena_calloc(a, n ? n : 1, sizeof *names);
	for (size_t i = 0; i < n; i++)
		names[i] = rows[i].name;
	qsort(names, n, sizeof *names, str_ptr_cmp);
	for (size_t i = 0; i < n; i++) {
		const struct kb_error *e = &rows[i];
		/* NVML's Go binding (go-nvml: the device plugin, GPU Feature Discovery, DCGM's exporters)
		 * prints NVML's codes the same way ("ERROR_LIBRARY_NOT_FOUND"); where a driver API code has
		 * the same short name (ERROR_UNKNOWN), the reader takes NVML's on a line naming NVML */
		bool cu = strcmp(e->api, "cu") == 0 && strncmp(e->name, "CUDA_ERROR_", 11) == 0;
		bool nvml = strcmp(e->api, "nvml") == 0 && strncmp(e->name, "NVML_ERROR_", 11) == 0;
		if (e->code == 0 || (!cu && !nvml))
			continue;
		const char *shortname = e->name + 5;
		if (!bsearch(&shortname, names, n, sizeof *names, str_ptr_cmp))
			add_name(a, kb, e, shortname, strlen(shortname));
		if (!cu)
			continue;
		/* bindings that turn the enum into a type name (Rust: Cuda(NoBinaryForGpu)) print it in
		 * CamelCase: stored as "~" + the words without '_', found only for a CamelCase token */
		char camel[100];
		size_t k = 0;
		camel[k++] = '~';
		for (const char *c = e->name + 11; *c && k < sizeof camel - 1; c++)
			if (*c != '_')
				camel[k++] = (char)tolower((unsigned char)*c);
		if (strchr(e->name + 11, '_'))
			add_name(a, kb, e, camel, k);
	}
	/* the runtime's names the same way without their prefix (cutlass' Python DSL: "CUDAError
	 * InsufficientDriver"): "~insufficientdriver"; the reader asks for two capitals at least, so a
	 * one-word rest (cudaErrorUnknown) never matches a plain word */
	for (size_t i = 0; i < n; i++) {
		const struct kb_error *e = &rows[i];
		if (e->code == 0 || strcmp(e->api, "cudart") != 0 || strncmp(e->name, "cudaError", 9) != 0 ||
		    strlen(e->name) + 1 - 9 > 100)
			continue;
		char camel[100];
		camel[0] = '~';
		size_t k = 1;
		for (const char *c = e->name + 9; *c; c++)
			camel[k++] = (char)tolower((unsigned char)*c);
		add_name(a, kb, e, camel, k);
	}
}

/* Texts several APIs share ("unknown error"): the reader looks for the first row of a text and
 * picks among the chain of the others, in table order. Rows sorted by text, then row: a run of
 * equal texts is one chain (pairwise comparison was quadratic in the ~1,000 rows, and the
 * catalogue is parsed on every run). The knowledge base's rows are linked once, when its part is
 * built; a parse links the files' rows and joins each of their chains to the kb's chain of the
 * same text. */
static int text_key_cmp(const void *x, const void *y)
{
	const struct explain_text_key *a = x, *b = y;
	if (a->len != b->len)
		return a->len < b->len ? -1 : 1;
	int c = memcmp(a->lc, b->lc, a->len);
	return c ? c : (a->row < b->row ? -1 : a->row > b->row);
}

/* Links rows t[0..n) among themselves; returns the first row of each text, sorted by text. */
static struct explain_text_key *link_rows(struct arena *a, struct explain_text_def *t, size_t n, size_t *n_heads)
{
	struct explain_text_key *o = arena_calloc(a, n ? n : 1, sizeof *o);
	for (size_t i = 0; i < n; i++)
		o[i] = (struct explain_text_key){ t[i].lc, t[i].len, i };
	qsort(o, n, sizeof *o, text_key_cmp);
	size_t h = 0;
	for (size_t i = 0; i < n; i++)
		if (i && o[i].len == o[i - 1].len && memcmp(o[i].lc, o[i - 1].lc, o[i].len) == 0) {
			t[o[i].row].first = false;
			t[o[i - 1].row].next_same = (long)o[i].row;
		} else {
			o[h++] = o[i];
		}
	*n_heads = h;
	return o;
}

static int text_head_cmp(const void *key, const void *elem)
{
	const struct explain_text_key *a = key, *b = elem;
	if (a->len != b->len)
		return a->len < b->len ? -1 : 1;
	return memcmp(a->lc, b->lc, a->len);
}

/* The catalogue's texts: the files' rows (already in cat), then the kb's, linked. */
static void add_kb_texts(struct arena *a, struct explain_catalog *cat, const struct explain_kb_part *kb)
{
	size_t n_file = cat->n_texts, n_heads;
	const struct explain_text_key *heads = link_rows(a, cat->texts, n_file, &n_heads);
	size_t n_kb = kb->n_texts;
	if (n_kb > EXPLAIN_MAX_ROWS - n_file)
		n_kb = n_file < EXPLAIN_MAX_ROWS ? EXPLAIN_MAX_ROWS - n_file : 0;
	/* room for all of them at once: pushed one by one, ~1,000 rows were copied ten times */
	if (cat->cap_texts < n_file + n_kb) {
		cat->texts = arena_grow(a, cat->texts, n_file, n_file + n_kb, sizeof *cat->texts);
		cat->cap_texts = n_file + n_kb;
	}
	for (size_t i = 0; i < n_kb; i++) {
		struct explain_text_def *d = &cat->texts[cat->n_texts++];
		*d = kb->texts[i];
		if (d->next_same >= 0)
			d->next_same += (long)n_file;
	}
	/* a chain cut by the row limit ends at the limit */
	for (size_t i = n_file; i < cat->n_texts; i++)
		if (cat->texts[i].next_same >= (long)cat->n_texts)
			cat->texts[i].next_same = -1;
	for (size_t h = 0; h < n_heads; h++) {
		const struct explain_text_key *k = bsearch(&heads[h], kb->heads, kb->n_heads, sizeof *kb->heads, text_head_cmp);
		if (!k || n_file + k->row >= cat->n_texts)
			continue;
		size_t last = heads[h].row;
		while (cat->texts[last].next_same >= 0)
			last = (size_t)cat->texts[last].next_same;
		cat->texts[last].next_same = (long)(n_file + k->row);
		cat->texts[n_file + k->row].first = false;
	}
}

/* The error codes of the knowledge base: names and aliases for lookup by token, the texts the
 * libraries print (verbatim rows) for lookup in the line. Success codes are no error. */
void explain_kb_part_build(struct arena *a, struct explain_kb_part *kb)
{
	memset(kb, 0, sizeof *kb);
	const struct kb_error *rows;
	size_t n = kb_errors(&rows);
	for (size_t i = 0; i < n; i++) {
		const struct kb_error *e = &rows[i];
		if (e->code == 0)
			continue;
		add_name(a, kb, e, e->name, strlen(e->name));
		for (const char *s = e->aliases; s && *s;) {
			const char *comma = strchr(s, ',');
			size_t len = comma ? (size_t)(comma - s) : strlen(s);
			add_name(a, kb, e, s, len);
			s = comma ? comma + 1 : NULL;
		}
		if (e->verbatim && e->text && strcmp(e->text, e->name) != 0 && strncmp(e->text, "0x", 2) != 0) {
			add_kb_text(a, kb, e, e->text);
			add_text_tails(a, kb, rows, n, i);
		}
	}
	add_driver_short_names(a, kb, rows, n);
	if (kb->n_names > 1)
		qsort(kb->names, kb->n_names, sizeof kb->names[0], name_cmp);
	kb->heads = link_rows(a, kb->texts, kb->n_texts, &kb->n_heads);
}

const struct explain_cause_def *explain_cause_lookup(const struct explain_catalog *cat, const char *key)
{
	for (size_t i = 0; i < cat->n_causes; i++)
		if (strcmp(cat->causes[i].key, key) == 0)
			return &cat->causes[i];
	return NULL;
}

size_t explain_code_causes(const struct explain_catalog *cat, const struct kb_error *e,
			   const struct explain_cause_def **out, size_t max)
{
	size_t n = 0;
	for (const char *s = e->causes; s && *s && n < max;) {
		const char *comma = strchr(s, ',');
		size_t len = comma ? (size_t)(comma - s) : strlen(s);
		for (size_t i = 0; i < cat->n_causes; i++)
			if (strlen(cat->causes[i].key) == len && strncmp(cat->causes[i].key, s, len) == 0) {
				out[n++] = &cat->causes[i];
				break;
			}
		s = comma ? comma + 1 : NULL;
	}
	return n;
}

void explain_catalog_parse_with(struct arena *a, const struct explain_files *f, const struct explain_kb_part *kb,
				struct explain_catalog *cat)
{
	memset(cat, 0, sizeof *cat);
	tsv_walk(a, cat, f->causes, "explain_causes.tsv", cause_row);
	check_on_windows(a, cat);
	tsv_walk(a, cat, f->vocab, "explain_vocab.tsv", vocab_row);
	tsv_walk(a, cat, f->patterns, "explain_patterns.tsv", pattern_row);
	tsv_walk(a, cat, f->classes, "explain_classes.tsv", pattern_row);
	tsv_walk(a, cat, f->libclass, "explain_libclass.tsv", libclass_row);
	tsv_walk(a, cat, f->libforms, "explain_libforms.tsv", libform_row);
	tsv_walk(a, cat, f->symbols, "explain_symbols.tsv", symbol_row);
	tsv_walk(a, cat, f->texts, "explain_texts.tsv", text_row);
	/* the kb's names are shared (read only after this); its texts are copied after the files'
	 * rows, so that a text both print is found as the file's row first */
	cat->names = kb->names;
	cat->n_names = cat->cap_names = kb->n_names;
	add_kb_texts(a, cat, kb);
}

void explain_catalog_parse(struct arena *a, const struct explain_files *f, struct explain_catalog *cat)
{
	struct explain_kb_part kb;
	explain_kb_part_build(a, &kb);
	explain_catalog_parse_with(a, f, &kb, cat);
}
