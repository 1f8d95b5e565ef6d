#include "fmt/pymeta.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>

/* A line cursor over a span: every access is checked against s.n. */
struct cursor {
	struct span s;
	size_t off;
};

/* Next line without its "\n" / "\r\n"; false at the end. */
static bool next_line(struct cursor *c, const char **p, size_t *len)
{
	if (c->off >= c->s.n)
		return false;
	const uint8_t *start = c->s.p + c->off;
	size_t room = c->s.n - c->off;
	const uint8_t *nl = memchr(start, '\n', room);
	size_t l = nl ? (size_t)(nl - start) : room;
	c->off += nl ? l + 1 : l;
	if (l > 0 && start[l - 1] == '\r')
		l--;
	*p = (const char *)start;
	*len = l;
	return true;
}

static void trim(const char **p, size_t *len)
{
	while (*len && isspace((unsigned char)**p))
		(*p)++, (*len)--;
	while (*len && isspace((unsigned char)(*p)[*len - 1]))
		(*len)--;
}

/* Text files we read must not contain NUL: a binary or corrupt file is refused as a whole. */
static bool looks_text(struct span s)
{
	return s.n == 0 || memchr(s.p, 0, s.n) == NULL;
}

char *pymeta_normalize(struct arena *a, const char *name, size_t len)
{
	char *out = arena_alloc(a, len + 1);
	size_t o = 0;
	for (size_t i = 0; i < len; i++) {
		char ch = name[i];
		if (ch == '-' || ch == '_' || ch == '.') {
			if (o && out[o - 1] != '-')
				out[o++] = '-';
			continue;
		}
		out[o++] = (char)tolower((unsigned char)ch);
	}
	while (o && out[o - 1] == '-')
		o--;
	out[o] = 0;
	return out;
}

bool pymeta_parse_metadata(struct span s, struct arena *a, struct pymeta_dist *out, const char **err)
{
	memset(out, 0, sizeof *out);
	*err = NULL;
	if (!looks_text(s)) {
		*err = "binary data (NUL bytes) where text metadata was expected";
		return false;
	}
	struct cursor c = { s, 0 };
	const char *p;
	size_t len;
	size_t cap = 0;
	bool saw_header = false;
	const char **last = NULL; /* the value a continuation line extends */
	while (next_line(&c, &p, &len)) {
		if (len == 0)
			break; /* end of headers: the body (description) follows */
		if (len > PYMETA_MAX_LINE) {
			len = PYMETA_MAX_LINE;
			out->truncated = true;
		}
		if (*p == ' ' || *p == '\t') {
			/* RFC 822 continuation: only meaningful for the last header we kept */
			if (last && *last) {
				const char *q = p;
				size_t ql = len;
				trim(&q, &ql);
				if (strlen(*last) + ql < PYMETA_MAX_LINE)
					*last = arena_printf(a, "%s %.*s", *last, (int)ql, q);
			}
			continue;
		}
		last = NULL;
		const char *colon = memchr(p, ':', len);
		if (!colon)
			continue; /* not a header line: skipped, the rest may still be good */
		size_t klen = (size_t)(colon - p);
		const char *v = colon + 1;
		size_t vlen = len - klen - 1;
		trim(&v, &vlen);
		if (klen == 4 && strncasecmp(p, "Name", 4) == 0) {
			out->name = arena_strndup(a, v, vlen);
			last = &out->name;
			saw_header = true;
		} else if (klen == 7 && strncasecmp(p, "Version", 7) == 0) {
			out->version = arena_strndup(a, v, vlen);
			last = &out->version;
		} else if (klen == 16 && strncasecmp(p, "Metadata-Version", 16) == 0) {
			saw_header = true;
		} else if (klen == 13 && strncasecmp(p, "Requires-Dist", 13) == 0) {
			if (out->n_requires >= PYMETA_MAX_REQUIRES) {
				out->truncated = true;
				continue;
			}
			const char **slot = ARENA_PUSH(a, out->requires, out->n_requires, cap);
			*slot = arena_strndup(a, v, vlen);
			last = slot;
		}
	}
	if (!saw_header) {
		*err = "no Metadata-Version or Name header";
		return false;
	}
	return true;
}

/* --- PEP 508 requirements ----------------------------------------------------------------- */

static bool is_name_char(char ch)
{
	return isalnum((unsigned char)ch) || ch == '-' || ch == '_' || ch == '.';
}

/* Look for `word == "value"` / `word=='value'` in a marker; returns the value or NULL. */
static const char *marker_eq(struct arena *a, const char *marker, const char *word)
{
	size_t wl = strlen(word);
	for (const char *m = strstr(marker, word); m; m = strstr(m + 1, word)) {
		if (m > marker && is_name_char(m[-1]))
			continue;
		const char *q = m + wl;
		while (*q == ' ')
			q++;
		if (q[0] != '=' || q[1] != '=')
			continue;
		q += 2;
		while (*q == ' ')
			q++;
		char quote = *q;
		if (quote != '"' && quote != '\'')
			continue;
		const char *end = strchr(q + 1, quote);
		if (!end)
			return NULL;
		return arena_strndup(a, q + 1, (size_t)(end - q - 1));
	}
	return NULL;
}

bool pymeta_parse_req(const char *s, struct arena *a, struct pymeta_req *out)
{
	memset(out, 0, sizeof *out);
	if (!s)
		return false;
	while (*s == ' ' || *s == '\t')
		s++;
	size_t nl = 0;
	while (s[nl] && is_name_char(s[nl]))
		nl++;
	if (nl == 0)
		return false;
	out->name = pymeta_normalize(a, s, nl);
	if (!*out->name)
		return false;
	const char *rest = s + nl;
	const char *semi = strchr(rest, ';');
	size_t speclen = semi ? (size_t)(semi - rest) : strlen(rest);
	/* the version part: skip extras "[...]", spaces and the old "( ... )" wrapping */
	const char *sp = rest;
	const char *spend = rest + speclen;
	while (sp < spend && (*sp == ' ' || *sp == '('))
		sp++;
	if (sp < spend && *sp == '[') {
		const char *cb = memchr(sp, ']', (size_t)(spend - sp));
		sp = cb ? cb + 1 : spend;
		while (sp < spend && (*sp == ' ' || *sp == '('))
			sp++;
	}
	while (spend > sp && (spend[-1] == ' ' || spend[-1] == ')'))
		spend--;
	if (spend > sp) {
		out->spec = arena_strndup(a, sp, (size_t)(spend - sp));
		const char *o = sp;
		size_t ol = 0;
		while (o + ol < spend && strchr("=<>!~", o[ol]))
			ol++;
		if (ol > 0 && ol <= 3) {
			out->op = arena_strndup(a, o, ol);
			const char *v = o + ol;
			while (v < spend && *v == ' ')
				v++;
			size_t vl = 0;
			while (v + vl < spend && v[vl] != ',' && v[vl] != ' ')
				vl++;
			if (vl)
				out->version = arena_strndup(a, v, vl);
		}
	}
	if (semi) {
		const char *m = semi + 1;
		while (*m == ' ')
			m++;
		out->marker = arena_strdup(a, m);
		out->extra = marker_eq(a, out->marker, "extra");
		const char *ps = marker_eq(a, out->marker, "platform_system");
		const char *sy = marker_eq(a, out->marker, "sys_platform");
		if ((ps && strcmp(ps, "Linux") == 0) || (sy && strcmp(sy, "linux") == 0))
			out->linux_only = true;
		if ((ps && strcmp(ps, "Windows") == 0) || (sy && strcmp(sy, "win32") == 0))
			out->windows_only = true;
	}
	return true;
}

/* --- literals in generated Python modules -------------------------------------------------- */

/* Read a quoted string at s[*i]; returns it (arena) and advances past the closing quote. Escapes
 * are kept as written: the generated files we read do not use them. */
static const char *read_quoted(struct span s, size_t *i, struct arena *a)
{
	if (*i >= s.n)
		return NULL;
	char q = (char)s.p[*i];
	if (q != '\'' && q != '"')
		return NULL;
	size_t start = *i + 1;
	const uint8_t *end = memchr(s.p + start, q, s.n - start);
	if (!end)
		return NULL;
	size_t len = (size_t)(end - (s.p + start));
	if (memchr(s.p + start, '\n', len))
		return NULL; /* a string literal does not span lines */
	*i = start + len + 1;
	return arena_strndup(a, (const char *)s.p + start, len);
}

static void skip_blank(struct span s, size_t *i)
{
	while (*i < s.n && (s.p[*i] == ' ' || s.p[*i] == '\t'))
		(*i)++;
}

static bool word_at(struct span s, size_t i, const char *w)
{
	size_t wl = strlen(w);
	if (!span_has(s, i, wl) || memcmp(s.p + i, w, wl) != 0)
		return false;
	return i + wl >= s.n || !(isalnum(s.p[i + wl]) || s.p[i + wl] == '_');
}

static void read_value(struct span s, size_t i, struct arena *a, struct pymeta_value *out)
{
	skip_blank(s, &i);
	memset(out, 0, sizeof *out);
	if (i >= s.n) {
		out->kind = PYLIT_OTHER;
		out->str = "";
		return;
	}
	char ch = (char)s.p[i];
	if (ch == '\'' || ch == '"') {
		const char *v = read_quoted(s, &i, a);
		if (v) {
			out->kind = PYLIT_STR;
			out->str = v;
			return;
		}
	} else if (word_at(s, i, "None")) {
		out->kind = PYLIT_NULL;
		return;
	} else if (word_at(s, i, "True") || word_at(s, i, "False")) {
		out->kind = PYLIT_BOOL;
		out->b = s.p[i] == 'T';
		return;
	} else if (isdigit((unsigned char)ch)) {
		size_t l = 0;
		while (i + l < s.n && (isdigit(s.p[i + l]) || s.p[i + l] == '.') && l < 32)
			l++;
		out->kind = PYLIT_NUMBER;
		out->str = arena_strndup(a, (const char *)s.p + i, l);
		return;
	} else if (ch == '[') {
		/* a list of strings, possibly over several lines; anything else makes it OTHER */
		size_t j = i + 1, cap = 0;
		out->kind = PYLIT_LIST;
		while (j < s.n) {
			while (j < s.n && (isspace(s.p[j]) || s.p[j] == ','))
				j++;
			if (j >= s.n)
				break;
			if (s.p[j] == ']')
				return;
			const char *item = read_quoted(s, &j, a);
			if (!item)
				break;
			if (out->n_items < PYMETA_MAX_LIST)
				*ARENA_PUSH(a, out->items, out->n_items, cap) = item;
		}
		out->items = NULL;
		out->n_items = 0;
	}
	/* not a literal we read: keep what was written (one line, bounded) for the message */
	size_t l = 0;
	while (i + l < s.n && s.p[i + l] != '\n' && l < 60)
		l++;
	out->kind = PYLIT_OTHER;
	out->str = arena_strndup(a, (const char *)s.p + i, l);
}

bool pymeta_py_value(struct span s, struct arena *a, const char *key, struct pymeta_value *out)
{
	memset(out, 0, sizeof *out);
	size_t kl = strlen(key);
	if (kl == 0 || !looks_text(s))
		return false;
	for (size_t i = 0; i + kl <= s.n; i++) {
		if (memcmp(s.p + i, key, kl) != 0)
			continue;
		size_t after = i + kl;
		bool quoted = i > 0 && (s.p[i - 1] == '\'' || s.p[i - 1] == '"');
		if (quoted) {
			/* 'key': v  |  ('key', v)  |  ['key'] = v */
			if (after >= s.n || s.p[after] != s.p[i - 1])
				continue;
			size_t j = after + 1;
			skip_blank(s, &j);
			if (j < s.n && s.p[j] == ']') {
				j++;
				skip_blank(s, &j);
				if (j >= s.n || s.p[j] != '=' || (j + 1 < s.n && s.p[j + 1] == '='))
					continue;
			} else if (j < s.n && s.p[j] == ',') {
				/* a tuple ('key', v) only: in a list ['a', 'key', 'b'] the next item is no value */
				size_t b = i - 1;
				while (b > 0 && (s.p[b - 1] == ' ' || s.p[b - 1] == '\t'))
					b--;
				if (b == 0 || s.p[b - 1] != '(')
					continue;
			} else if (j >= s.n || s.p[j] != ':') {
				continue;
			}
			read_value(s, j + 1, a, out);
			return true;
		}
		/* key = v  |  key: Type = v, at the start of a line (module level) */
		if (i > 0 && s.p[i - 1] != '\n')
			continue;
		size_t j = after;
		skip_blank(s, &j);
		if (j < s.n && s.p[j] == ':') {
			const uint8_t *eq = memchr(s.p + j, '=', s.n - j);
			const uint8_t *nl = memchr(s.p + j, '\n', s.n - j);
			if (!eq || (nl && nl < eq))
				continue;
			j = (size_t)(eq - s.p);
		}
		if (j >= s.n || s.p[j] != '=' || (j + 1 < s.n && s.p[j + 1] == '='))
			continue;
		read_value(s, j + 1, a, out);
		return true;
	}
	return false;
}

const char *pymeta_cfg_value(struct span s, struct arena *a, const char *key)
{
	if (!looks_text(s))
		return NULL;
	struct cursor c = { s, 0 };
	const char *p;
	size_t len;
	size_t kl = strlen(key);
	while (next_line(&c, &p, &len)) {
		const char *eq = memchr(p, '=', len);
		if (!eq)
			continue;
		const char *k = p;
		size_t klen = (size_t)(eq - p);
		trim(&k, &klen);
		if (klen != kl || strncasecmp(k, key, kl) != 0)
			continue;
		const char *v = eq + 1;
		size_t vlen = len - (size_t)(eq - p) - 1;
		trim(&v, &vlen);
		return arena_strndup(a, v, vlen);
	}
	return NULL;
}

/* Each line of a text file that pick() keeps, as the piece it selects (copied); at most max. */
static size_t collect_lines(struct span s, struct arena *a, const char ***out, size_t max,
			    bool (*pick)(const char **p, size_t *len))
{
	struct cursor c = { s, 0 };
	const char *p;
	size_t len, n = 0, cap = 0;
	*out = NULL;
	if (!looks_text(s))
		return 0;
	while (n < max && next_line(&c, &p, &len))
		if (pick(&p, &len))
			*ARENA_PUSH(a, *out, n, cap) = arena_strndup(a, p, len);
	return n;
}

/* a line of a list file (conda environments.txt): not blank, not a comment */
static bool pick_listed_line(const char **p, size_t *len)
{
	trim(p, len);
	return *len != 0 && **p != '#' && *len <= 4096;
}

size_t pymeta_lines(struct span s, struct arena *a, const char ***out, size_t max)
{
	return collect_lines(s, a, out, max, pick_listed_line);
}

static bool is_lib_name(const char *p, size_t len)
{
	const char *base = p;
	for (size_t i = 0; i < len; i++)
		if (p[i] == '/' || p[i] == '\\')
			base = p + i + 1;
	size_t bl = len - (size_t)(base - p);
	if (bl > 3 && memcmp(base + bl - 3, ".so", 3) == 0)
		return true;
	if (bl > 4 && strncasecmp(base + bl - 4, ".dll", 4) == 0)
		return true;
	for (size_t i = 0; i + 4 <= bl; i++)
		if (memcmp(base + i, ".so.", 4) == 0)
			return true;
	return false;
}

/* a RECORD row's path (first CSV field, maybe quoted) when it names a shared library */
static bool pick_record_lib(const char **pp, size_t *len)
{
	const char *p = *pp, *path = p;
	size_t pl;
	if (*len && *p == '"') {
		const char *q = memchr(p + 1, '"', *len - 1);
		if (!q)
			return false;
		path = p + 1;
		pl = (size_t)(q - path);
	} else {
		const char *comma = memchr(p, ',', *len);
		pl = comma ? (size_t)(comma - p) : *len;
	}
	if (pl == 0 || pl > 4096 || !is_lib_name(path, pl))
		return false;
	*pp = path;
	*len = pl;
	return true;
}

size_t pymeta_record_libs(struct span s, struct arena *a, const char ***out, size_t max)
{
	return collect_lines(s, a, out, max, pick_record_lib);
}
