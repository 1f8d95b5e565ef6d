/* The pattern matcher: see explain_match.h for the syntax and the cost bound. The scanner hands
 * it lines whose blank runs are already collapsed to one space, so literals compare with memcmp
 * against the lower-cased copy. */
#include <ctype.h>
#include <string.h>

#include "explain/explain_match.h"

static const struct {
	const char *name;
	enum explain_item_kind kind;
} cap_types[] = {
	{ "lib", EI_LIB }, { "dll", EI_DLL }, { "num", EI_NUM },   { "ver", EI_VER },   { "sm", EI_SM },
	{ "word", EI_WORD }, { "name", EI_NAME }, { "text", EI_TEXT }, { "*", EI_ANY },
};

static bool is_gap(enum explain_item_kind k)
{
	return k == EI_TEXT || k == EI_ANY;
}

/* Compile the body of a {a|b|c} group into an EI_ALT item: lower-cased alternatives with blank
 * runs as one space, sorted longest first so that "devices" is tried before "device". */
static int compile_alts(struct arena *a, const char *body, size_t len, struct explain_item *it, const char **err)
{
	const char **alts = arena_alloc(a, EXPLAIN_MAX_ALTS * sizeof *alts);
	size_t *lens = arena_alloc(a, EXPLAIN_MAX_ALTS * sizeof *lens);
	size_t n = 0, start = 0;
	for (size_t i = 0; i <= len; i++) {
		if (i < len && body[i] != '|')
			continue;
		if (n == EXPLAIN_MAX_ALTS) {
			*err = "too many alternatives";
			return -1;
		}
		char *lit = arena_alloc(a, i - start + 1);
		size_t ll = 0;
		for (size_t k = start; k < i; k++) {
			unsigned char c = (unsigned char)body[k];
			if (isspace(c)) {
				if (ll == 0 || lit[ll - 1] != ' ')
					lit[ll++] = ' ';
			} else {
				lit[ll++] = (char)tolower(c);
			}
		}
		lit[ll] = 0;
		size_t at = n++; /* insertion: longest first, equal lengths in the row's order */
		while (at && lens[at - 1] < ll) {
			alts[at] = alts[at - 1];
			lens[at] = lens[at - 1];
			at--;
		}
		alts[at] = lit;
		lens[at] = ll;
		start = i + 1;
	}
	bool optional = false;
	for (size_t k = 0; k < n; k++)
		optional |= lens[k] == 0;
	*it = (struct explain_item){ EI_ALT, NULL, 0, NULL, alts, lens, n, optional };
	return 0;
}

/* Compile into p with p->items pointing at room for EXPLAIN_MAX_ITEMS items. */
static int compile_items(struct arena *a, const char *src, struct explain_pattern *p, const char **err)
{
	size_t n = strlen(src);
	char *lit = arena_alloc(a, n + 1);
	size_t ll = 0;
	*err = NULL;

#define FLUSH_LIT() \
	do { \
		if (ll) { \
			if (p->n_items == EXPLAIN_MAX_ITEMS) { \
				*err = "too many items"; \
				return -1; \
			} \
			lit[ll] = 0; \
			p->items[p->n_items++] = (struct explain_item){ \
				EI_LIT, arena_strndup(a, lit, ll), ll, NULL, NULL, NULL, 0, false \
			}; \
			ll = 0; \
		} \
	} while (0)

	for (size_t i = 0; i < n;) {
		char c = src[i];
		if (c == '{' && i + 1 < n && src[i + 1] == '{') {
			lit[ll++] = '{';
			i += 2;
			continue;
		}
		if (c == '{') {
			const char *close = strchr(src + i, '}');
			if (!close) {
				*err = "unclosed '{'";
				return -1;
			}
			size_t len = (size_t)(close - (src + i + 1));
			const char *body = src + i + 1;
			if (memchr(body, '|', len)) {
				FLUSH_LIT();
				if (p->n_items == EXPLAIN_MAX_ITEMS) {
					*err = "too many items";
					return -1;
				}
				if (compile_alts(a, body, len, &p->items[p->n_items], err) != 0)
					return -1;
				p->n_items++;
				i += len + 2;
				continue;
			}
			if (len == 3 && memcmp(body, "end", 3) == 0) {
				FLUSH_LIT();
				if (p->n_items == EXPLAIN_MAX_ITEMS) {
					*err = "too many items";
					return -1;
				}
				p->items[p->n_items++] = (struct explain_item){ EI_END, NULL, 0, NULL,
										NULL,   NULL, 0, false };
				i += len + 2;
				continue;
			}
			const char *colon = memchr(body, ':', len);
			size_t tlen = colon ? (size_t)(colon - body) : len;
			enum explain_item_kind kind = EI_LIT;
			const char *tname = NULL;
			for (size_t t = 0; t < sizeof cap_types / sizeof cap_types[0]; t++)
				if (strlen(cap_types[t].name) == tlen &&
				    strncmp(cap_types[t].name, body, tlen) == 0) {
					kind = cap_types[t].kind;
					tname = cap_types[t].name;
				}
			if (kind == EI_LIT) {
				*err = "unknown capture type";
				return -1;
			}
			FLUSH_LIT();
			if (p->n_items && is_gap(kind) && is_gap(p->items[p->n_items - 1].kind)) {
				*err = "two gaps in a row";
				return -1;
			}
			if (p->n_items == EXPLAIN_MAX_ITEMS) {
				*err = "too many items";
				return -1;
			}
			const char *key = colon ? arena_strndup(a, colon + 1, len - tlen - 1) : tname;
			if (kind != EI_ANY) {
				if (p->n_caps == EXPLAIN_MAX_CAPS) {
					*err = "too many captures";
					return -1;
				}
				p->n_caps++;
			}
			p->items[p->n_items++] = (struct explain_item){ kind, NULL, 0, key, NULL, NULL, 0, false };
			i += len + 2;
			continue;
		}
		if (isspace((unsigned char)c)) {
			/* one space stands for any blank run (the scanner collapsed the input's) */
			if (ll == 0 || lit[ll - 1] != ' ')
				lit[ll++] = ' ';
			i++;
			continue;
		}
		lit[ll++] = (char)tolower((unsigned char)c);
		i++;
	}
	FLUSH_LIT();
#undef FLUSH_LIT
	if (p->n_items == 0) {
		*err = "empty pattern";
		return -1;
	}
	for (size_t i = 0; i < p->n_items; i++)
		if (p->items[i].kind == EI_LIT && p->items[i].lit_len > p->anchor_len) {
			p->anchor = p->items[i].lit;
			p->anchor_len = p->items[i].lit_len;
		}
	p->anchor_bits = p->anchor ? explain_pair_bits(p->anchor, p->anchor_len) : 0;
	return 0;
}

int explain_pattern_compile(struct arena *a, const char *src, struct explain_pattern *p,
			    const char **err)
{
	/* items are compiled into room for the most a pattern may have, then kept at their number
	 * (a catalogue holds hundreds of patterns; most have a few items) */
	struct explain_item room[EXPLAIN_MAX_ITEMS];
	memset(p, 0, sizeof *p);
	p->items = room;
	if (compile_items(a, src, p, err) != 0) {
		p->items = NULL;
		p->n_items = 0;
		return -1;
	}
	struct explain_item *kept = arena_alloc_uninit(a, p->n_items * sizeof *kept);
	memcpy(kept, p->items, p->n_items * sizeof *kept);
	p->items = kept;
	return 0;
}

uint64_t explain_pair_bits(const char *lc, size_t n)
{
	uint64_t bits = 0;
	for (size_t i = 0; i + 1 < n; i++)
		bits |= (uint64_t)1 << (explain_pair_hash((unsigned char)lc[i], (unsigned char)lc[i + 1]) & 63u);
	return bits;
}

long explain_find_lc(struct span lc, size_t from, const char *needle, size_t nlen)
{
	if (nlen == 0)
		return from <= lc.n ? (long)from : -1;
	long long r = span_find(lc, from, needle, nlen);
	return r < 0 ? -1 : (long)r;
}

static bool cls_name(unsigned char c)
{
	return isalnum(c) || c == '_' || c == '.' || c == '+' || c == '-';
}
static bool cls_lib(unsigned char c)
{
	return cls_name(c) || c == '/';
}
static bool cls_word(unsigned char c)
{
	return isalnum(c) || c == '_';
}

/* Whether the UTF-8 character at lc[q] (a byte >= 0x80) is part of a word, for {end}: Chinese and
 * Japanese write no blank between words, so a character after a phrase continues it ("不存在问题",
 * "there is no problem", is not "不存在", "does not exist"); their punctuation (U+3000..U+303F,
 * the fullwidth ，！：；（）, U+2000..U+206F with “ ” …) ends it. */
static bool utf8_word(struct span lc, size_t q)
{
	const uint8_t *p = lc.p + q;
	size_t left = lc.n - q;
	if (p[0] < 0x80)
		return false;
	if (left < 3 || (p[0] & 0xf0) != 0xe0)
		return (p[0] & 0xc0) == 0xc0; /* two- and four-byte characters: letters of other scripts */
	unsigned cp = (unsigned)(p[0] & 0x0f) << 12 | (unsigned)(p[1] & 0x3f) << 6 | (unsigned)(p[2] & 0x3f);
	bool fullwidth_alnum = (cp >= 0xff10 && cp <= 0xff19) || (cp >= 0xff21 && cp <= 0xff3a) ||
			       (cp >= 0xff41 && cp <= 0xff5a);
	bool punct = (cp >= 0x2000 && cp <= 0x206f) || (cp >= 0x3000 && cp <= 0x303f) ||
		     (cp >= 0xff00 && cp <= 0xff65 && !fullwidth_alnum);
	return !punct;
}

static bool has_sub_lc(const uint8_t *p, size_t n, const char *sub)
{
	size_t m = strlen(sub);
	for (size_t i = 0; i + m <= n; i++)
		if (memcmp(p + i, sub, m) == 0)
			return true;
	return false;
}

/* Copy n bytes into the capture buffer; n <= EXPLAIN_CAP_MAX and at most EXPLAIN_MAX_CAPS
 * values per match keep it inside data[]. */
static const char *cap_store(struct explain_capbuf *b, const char *s, size_t n)
{
	if (n > EXPLAIN_CAP_MAX)
		n = EXPLAIN_CAP_MAX;
	if (sizeof b->data - b->used < n + 1)
		return "";
	char *d = b->data + b->used;
	memcpy(d, s, n);
	d[n] = 0;
	b->used += n + 1;
	return d;
}

/* Read a typed token at pos. Returns its length (0 = no token); *val gets a normalised copy when
 * it differs from the raw bytes (version tuples). */
static size_t read_token(enum explain_item_kind kind, struct span line, struct span lc, size_t pos,
			 struct explain_capbuf *b, const char **val)
{
	const uint8_t *s = line.p + pos, *l = lc.p + pos;
	size_t room = line.n - pos, k = 0;
	if (room > EXPLAIN_CAP_MAX + 1)
		room = EXPLAIN_CAP_MAX + 1;
	*val = NULL;
	switch (kind) {
	case EI_LIB:
		while (k < room && cls_lib(s[k]))
			k++;
		while (k && (s[k - 1] == '.' || s[k - 1] == '-')) /* sentence end, not the name */
			k--;
		return k <= EXPLAIN_CAP_MAX && has_sub_lc(l, k, ".so") ? k : 0;
	case EI_DLL:
		while (k < room && cls_name(s[k]))
			k++;
		while (k > 4 && memcmp(l + k - 4, ".dll", 4) != 0 && (s[k - 1] == '.' || s[k - 1] == '-'))
			k--;
		return k <= EXPLAIN_CAP_MAX && k > 4 && memcmp(l + k - 4, ".dll", 4) == 0 ? k : 0;
	case EI_NUM:
		if (k < room && s[k] == '-')
			k++;
		while (k < room && isdigit(s[k]))
			k++;
		return k <= EXPLAIN_CAP_MAX && k && isdigit(s[k - 1]) ? k : 0;
	case EI_VER: {
		if (room && s[0] == '(') { /* Python tuple: (8, 5, 0) */
			char buf[64];
			size_t bl = 0;
			k = 1;
			while (k < room && k < 48 && (isdigit(s[k]) || s[k] == ',' || s[k] == ' ')) {
				if (isdigit(s[k]))
					buf[bl++] = (char)s[k];
				else if (s[k] == ',' && bl && buf[bl - 1] != '.')
					buf[bl++] = '.';
				k++;
			}
			if (k >= room || s[k] != ')' || bl == 0 || buf[bl - 1] == '.')
				return 0;
			*val = cap_store(b, buf, bl);
			return k + 1;
		}
		while (k < room && isdigit(s[k])) {
			while (k < room && isdigit(s[k]))
				k++;
			if (k + 1 < room && s[k] == '.' && isdigit(s[k + 1]))
				k++;
		}
		return k <= EXPLAIN_CAP_MAX ? k : 0;
	}
	case EI_SM:
		if (room >= 3 && memcmp(l, "sm_", 3) == 0)
			k = 3;
		else if (room >= 8 && memcmp(l, "compute_", 8) == 0)
			k = 8;
		{
			size_t d = k;
			while (k < room && isdigit(s[k]))
				k++;
			if (k == d)
				return 0;
			if (k + 1 < room && s[k] == '.' && isdigit(s[k + 1]))
				k += 2;
			if (k < room && (l[k] == 'a' || l[k] == 'f') && !(k + 1 < room && cls_word(s[k + 1])))
				k++;
		}
		return k <= EXPLAIN_CAP_MAX ? k : 0;
	case EI_WORD:
		while (k < room && cls_word(s[k]))
			k++;
		return k <= EXPLAIN_CAP_MAX ? k : 0;
	case EI_NAME:
		while (k < room && cls_name(s[k]))
			k++;
		while (k && s[k - 1] == '.')
			k--;
		return k <= EXPLAIN_CAP_MAX ? k : 0;
	default:
		return 0;
	}
}

static bool token_class(enum explain_item_kind kind, unsigned char c)
{
	switch (kind) {
	case EI_LIB:
		return cls_lib(c);
	case EI_DLL:
	case EI_NAME:
		return cls_name(c);
	case EI_NUM:
	case EI_VER:
	case EI_SM:
	case EI_WORD:
		return cls_word(c);
	default:
		return false;
	}
}

/* The length of the first alternative of an EI_ALT item that matches at pos, or -1. At the start
 * of a block (the pattern's start or after a gap) one that begins with a word character must begin
 * a word; glued to the item before it ("device{s|}") it continues that item's word. */
static long match_alt(const struct explain_item *it, struct span lc, size_t pos, bool block_start)
{
	bool in_word = block_start && pos > 0 && cls_word(lc.p[pos - 1]);
	for (size_t k = 0; k < it->n_alts; k++) {
		size_t n = it->alt_lens[k];
		if (n && in_word && cls_word((unsigned char)it->alts[k][0]))
			continue;
		if (lc.n - pos >= n && memcmp(lc.p + pos, it->alts[k], n) == 0)
			return (long)n;
	}
	return -1;
}

/* The first position at or after s where an alternative of a required group occurs, each
 * alternative searched for with the fast substring search and its position remembered in next[]
 * until s passes it: linear in the line per alternative, however many positions are tried. */
static long next_alt(const struct explain_item *it, struct span lc, size_t s, long *next)
{
	long best = -1;
	for (size_t k = 0; k < it->n_alts; k++) {
		if (next[k] == -1)
			continue;
		if (next[k] < (long)s)
			next[k] = explain_find_lc(lc, s, it->alts[k], it->alt_lens[k]);
		if (next[k] >= 0 && (best < 0 || next[k] < best))
			best = next[k];
	}
	return best;
}

/* Match items [b, e) (no gaps) anchored at pos. Returns the end offset or -1. Captures go to
 * caps[*nc...]; on failure *nc is restored by the caller. */
static long match_block(const struct explain_pattern *p, size_t from, size_t e, struct span line,
			struct span lc, size_t pos, struct explain_capbuf *b,
			struct explain_capture *caps, size_t *nc)
{
	for (size_t i = from; i < e; i++) {
		const struct explain_item *it = &p->items[i];
		if (it->kind == EI_LIT) {
			if (line.n - pos < it->lit_len || memcmp(lc.p + pos, it->lit, it->lit_len) != 0)
				return -1;
			pos += it->lit_len;
			continue;
		}
		if (it->kind == EI_END) {
			size_t q = pos;
			while (q < lc.n && lc.p[q] == ' ')
				q++;
			if (q < lc.n && (cls_word(lc.p[q]) || utf8_word(lc, q)))
				return -1;
			continue;
		}
		if (it->kind == EI_ALT) {
			long k = match_alt(it, lc, pos, i == from);
			if (k < 0)
				return -1;
			pos += (size_t)k;
			continue;
		}
		const char *val;
		size_t k = read_token(it->kind, line, lc, pos, b, &val);
		if (k == 0)
			return -1; /* the caller gives back what this try stored */
		if (*nc < EXPLAIN_MAX_CAPS)
			caps[(*nc)++] = (struct explain_capture){
				it->key, val ? val : cap_store(b, (const char *)line.p + pos, k)
			};
		pos += k;
	}
	return (long)pos;
}

bool explain_pattern_match(const struct explain_pattern *p, struct span line, struct span lc,
			   struct explain_capbuf *b, struct explain_capture *caps, size_t *n_caps)
{
	*n_caps = 0;
	b->used = 0;
	if (p->anchor && explain_find_lc(lc, 0, p->anchor, p->anchor_len) < 0)
		return false;
	size_t cursor = 0, i = 0;
	const struct explain_item *gap = NULL; /* the gap before the current block */
	while (i < p->n_items) {
		if (is_gap(p->items[i].kind)) {
			gap = &p->items[i++];
			if (i == p->n_items) { /* trailing gap: the rest of the line */
				if (gap->kind == EI_TEXT && *n_caps < EXPLAIN_MAX_CAPS) {
					size_t len = line.n - cursor;
					if (len > EXPLAIN_CAP_MAX)
						len = EXPLAIN_CAP_MAX;
					caps[(*n_caps)++] = (struct explain_capture){
						gap->key, cap_store(b, (const char *)line.p + cursor, len)
					};
				}
				return true;
			}
			continue;
		}
		size_t e = i;
		while (e < p->n_items && !is_gap(p->items[e].kind))
			e++;
		const struct explain_item *first = &p->items[i];
		size_t gap_slot = *n_caps;
		if (gap && gap->kind == EI_TEXT)
			(*n_caps)++; /* reserve: filled once the block's start is known */
		long end = -1;
		size_t s = cursor;
		long next[EXPLAIN_MAX_ALTS]; /* where each alternative occurs next (-2: not looked yet) */
		for (size_t k = 0; k < EXPLAIN_MAX_ALTS; k++)
			next[k] = -2;
		while (s <= line.n) {
			if (first->kind == EI_LIT) {
				long f = explain_find_lc(lc, s, first->lit, first->lit_len);
				if (f < 0)
					break;
				s = (size_t)f;
			} else if (first->kind == EI_ALT && !first->optional) {
				long f = next_alt(first, lc, s, next);
				if (f < 0)
					break;
				s = (size_t)f;
			} else if (s > 0 && s < line.n && token_class(first->kind, line.p[s - 1]) &&
				   token_class(first->kind, line.p[s])) {
				s++; /* a typed capture starts at a token boundary */
				continue;
			}
			size_t nc = *n_caps, mark = b->used;
			end = match_block(p, i, e, line, lc, s, b, caps, &nc);
			if (end >= 0) {
				*n_caps = nc;
				break;
			}
			b->used = mark; /* a failed try gives its room back */
			s++;
		}
		if (end < 0)
			return false;
		if (gap && gap->kind == EI_TEXT) {
			size_t len = s - cursor;
			if (len > EXPLAIN_CAP_MAX)
				len = EXPLAIN_CAP_MAX;
			caps[gap_slot] = (struct explain_capture){
				gap->key, cap_store(b, (const char *)line.p + cursor, len)
			};
		}
		cursor = (size_t)end;
		gap = NULL;
		i = e;
	}
	return true;
}

/* One glob item at g against c: '?', a class "[a-f0-9]" (ranges, case-insensitive; a class with no
 * closing ']' is a literal '['), or a character. *len is the item's length in g. */
static bool glob_item(const char *g, unsigned char c, size_t *len)
{
	int lc = tolower(c);
	if (*g == '?') {
		*len = 1;
		return true;
	}
	const char *close = *g == '[' ? strchr(g + 1, ']') : NULL;
	if (!close || close == g + 1) {
		*len = 1;
		return tolower((unsigned char)*g) == lc;
	}
	*len = (size_t)(close - g) + 1;
	for (const char *p = g + 1; p < close; p++) {
		int lo = tolower((unsigned char)*p), hi = lo;
		if (p + 2 < close && p[1] == '-') {
			hi = tolower((unsigned char)p[2]);
			p += 2;
		}
		if (lc >= lo && lc <= hi)
			return true;
	}
	return false;
}

bool explain_glob(const char *g, const char *s)
{
	/* iterative wildcard match with one back-track point: O(|g| * |s|) at worst */
	const char *star = NULL, *ss = NULL;
	size_t len;
	while (*s) {
		if (*g == '*') {
			star = g++;
			ss = s;
		} else if (*g && glob_item(g, (unsigned char)*s, &len)) {
			g += len;
			s++;
		} else if (star) {
			g = star + 1;
			s = ++ss;
		} else {
			return false;
		}
	}
	while (*g == '*')
		g++;
	return *g == 0;
}
