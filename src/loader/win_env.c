#include "loader/win_env.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

/* One line [start, end) of text beginning at *pos; false at the end. Strips "\r". */
static bool next_line(struct span t, size_t *pos, const char **line, size_t *len)
{
	if (*pos >= t.n)
		return false;
	const char *s = (const char *)t.p + *pos;
	const char *nl = memchr(s, '\n', t.n - *pos);
	size_t l = nl ? (size_t)(nl - s) : t.n - *pos;
	*pos += l + (nl ? 1 : 0);
	if (l && s[l - 1] == '\r')
		l--;
	*line = s;
	*len = l;
	return true;
}

static bool is_blank(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] != ' ' && s[i] != '\t')
			return false;
	return true;
}

/* Header "Name<spaces>Value": returns the column where Value starts, or 0. */
static size_t header_value_col(const char *s, size_t n)
{
	if (n < 10 || strncmp(s, "Name", 4) != 0)
		return 0;
	size_t i = 4;
	while (i < n && s[i] == ' ')
		i++;
	if (i == 4 || n - i < 5 || strncmp(s + i, "Value", 5) != 0)
		return 0;
	return i;
}

static bool is_rule(const char *s, size_t n)
{
	return n >= 6 && strncmp(s, "----", 4) == 0 && memchr(s, ' ', n) != NULL;
}

bool win_env_is_pstable(struct span t)
{
	size_t pos = 0, len;
	const char *line;
	/* the header comes within the first few lines (after blank ones) */
	for (int i = 0; i < 8 && next_line(t, &pos, &line, &len); i++) {
		if (is_blank(line, len))
			continue;
		if (!header_value_col(line, len))
			return false;
		return next_line(t, &pos, &line, &len) && is_rule(line, len);
	}
	return false;
}

size_t win_env_parse_pstable(struct envsnap *e, struct arena *a, struct span t, const char *origin,
			     size_t *truncated)
{
	size_t pos = 0, len, col = 0, cap = e->n;
	const char *line;
	size_t cut = 0;
	e->origin = origin;
	e->case_insensitive = true;
	while (next_line(t, &pos, &line, &len)) {
		if (!col) {
			col = header_value_col(line, len);
			if (col && !(next_line(t, &pos, &line, &len) && is_rule(line, len)))
				col = 0;
			continue;
		}
		if (is_blank(line, len))
			continue;
		/* A name never holds spaces; the value starts at the header's column. Long names push the
		 * value right, so fall back to "name, spaces, value" when the column is not a gap. */
		size_t nl = 0;
		while (nl < len && line[nl] != ' ')
			nl++;
		if (nl == 0 || nl == len)
			continue; /* a wrapped continuation line or a name with an empty value */
		size_t v = nl;
		while (v < len && line[v] == ' ')
			v++;
		if (nl < col && v < col && col <= len)
			v = col;
		const char *val = line + v;
		size_t vlen = len - v;
		while (vlen && val[vlen - 1] == ' ')
			vlen--;
		if ((vlen >= 3 && memcmp(val + vlen - 3, "...", 3) == 0) ||
		    (vlen >= 3 && memcmp(val + vlen - 3, "\xe2\x80\xa6", 3) == 0))
			cut++;
		if (e->n >= ENVSNAP_MAX_VARS) {
			e->dropped++;
			continue;
		}
		struct env_var *slot = ARENA_PUSH(a, e->vars, e->n, cap);
		slot->name = arena_strndup(a, line, nl);
		slot->value = arena_strndup(a, val, vlen);
	}
	/* later duplicates win, as with envsnap_parse; names compare without case (one linear pass) */
	envsnap_fold_case(e, a);
	if (truncated)
		*truncated = cut;
	return e->n;
}

struct span win_env_to_utf8(struct arena *a, struct span raw)
{
	if (raw.n < 2 || raw.p[0] != 0xff || raw.p[1] != 0xfe)
		return raw;
	size_t units = (raw.n - 2) / 2;
	char *out = arena_alloc(a, units * 3 + 1);
	size_t o = 0;
	for (size_t i = 0; i < units; i++) {
		uint16_t c = 0;
		if (!span_u16le(raw, 2 + 2 * i, &c))
			break;
		if (c < 0x80) {
			out[o++] = (char)c;
		} else if (c < 0x800) {
			out[o++] = (char)(0xc0 | c >> 6);
			out[o++] = (char)(0x80 | (c & 0x3f));
		} else if (c >= 0xd800 && c < 0xe000) {
			out[o++] = '?';
		} else {
			out[o++] = (char)(0xe0 | c >> 12);
			out[o++] = (char)(0x80 | ((c >> 6) & 0x3f));
			out[o++] = (char)(0x80 | (c & 0x3f));
		}
	}
	out[o] = 0;
	return span_make(out, o);
}

int win_env_load(struct envsnap *e, struct arena *a, const char *path, size_t *truncated)
{
	if (truncated)
		*truncated = 0;
	FILE *f = fopen(path, "rb");
	if (!f)
		return errno;
	/* size first, so a small file costs a small buffer; cut at WIN_ENV_MAX_FILE */
	long size = fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
	rewind(f);
	size_t want = size < 0 || (unsigned long)size > WIN_ENV_MAX_FILE ? WIN_ENV_MAX_FILE : (size_t)size;
	char *buf = arena_alloc(a, want + 1);
	size_t n = fread(buf, 1, want, f);
	int rerr = ferror(f) ? EIO : 0;
	fclose(f);
	if (rerr)
		return rerr;
	struct span t = win_env_to_utf8(a, span_make(buf, n));
	const char *origin = arena_printf(a, "file %s", path);
	memset(e, 0, sizeof *e);
	if (win_env_is_pstable(t))
		win_env_parse_pstable(e, a, t, origin, truncated);
	else
		envsnap_parse(e, a, t, origin);
	e->case_insensitive = true;
	return 0;
}

const char *win_env_get(const struct envsnap *e, const char *name)
{
	const char *v = NULL;
	for (size_t i = 0; i < e->n; i++)
		if (strcasecmp(e->vars[i].name, name) == 0)
			v = e->vars[i].value;
	return v;
}
