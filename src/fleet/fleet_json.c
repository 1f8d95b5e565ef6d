/* The JSON scanner of `cudx compare` (see fleet_json.h for why it is not a jansson tree). Every
 * read is checked against s.n; the only state that grows with the input is the nesting depth,
 * which is bounded by FLEET_JSON_MAX_DEPTH. */
#include "fleet/fleet_json.h"

#include <jansson.h>
#include <string.h>

#include "util/arena.h"

void fleet_json_init(struct fleet_json *j, struct span s)
{
	j->s = s;
	j->off = 0;
	j->err = NULL;
	j->err_off = 0;
}

static bool fail(struct fleet_json *j, const char *what)
{
	if (!j->err) {
		j->err = what;
		j->err_off = j->off;
	}
	return false;
}

static void skip_ws(struct fleet_json *j)
{
	while (j->off < j->s.n) {
		uint8_t c = j->s.p[j->off];
		if (c != ' ' && c != '\t' && c != '\n' && c != '\r')
			return;
		j->off++;
	}
}

int fleet_json_peek(struct fleet_json *j)
{
	skip_ws(j);
	return j->off < j->s.n ? j->s.p[j->off] : 0;
}

bool fleet_json_at_end(struct fleet_json *j)
{
	return fleet_json_peek(j) == 0 && j->off >= j->s.n;
}

static bool is_hex(uint8_t c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/* off at '"'; leaves off past the closing quote. *escaped: a backslash was seen. Bytes >= 0x80 are
 * not checked here (UTF-8 is judged when a string is decoded). */
static bool scan_string(struct fleet_json *j, bool *escaped)
{
	const uint8_t *p = j->s.p;
	size_t n = j->s.n, i = j->off + 1;
	*escaped = false;
	while (i < n) {
		uint8_t c = p[i];
		if (c == '"') {
			j->off = i + 1;
			return true;
		}
		if (c < 0x20) {
			j->off = i;
			return fail(j, "control character in a string");
		}
		if (c != '\\') {
			i++;
			continue;
		}
		*escaped = true;
		if (i + 1 >= n)
			break;
		c = p[i + 1];
		if (c == 'u') {
			/* i+2 .. i+5 must exist and be hex digits */
			if (n - i < 6 || !is_hex(p[i + 2]) || !is_hex(p[i + 3]) || !is_hex(p[i + 4]) || !is_hex(p[i + 5])) {
				j->off = i;
				return fail(j, "bad \\u escape in a string");
			}
			i += 6;
		} else if (strchr("\"\\/bfnrt", c) && c) {
			i += 2;
		} else {
			j->off = i;
			return fail(j, "bad escape in a string");
		}
	}
	j->off = n;
	return fail(j, "unterminated string");
}

static size_t scan_digits(struct fleet_json *j)
{
	size_t start = j->off;
	while (j->off < j->s.n && j->s.p[j->off] >= '0' && j->s.p[j->off] <= '9')
		j->off++;
	return j->off - start;
}

/* RFC 8259: -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)? */
static bool scan_number(struct fleet_json *j)
{
	const uint8_t *p = j->s.p;
	if (p[j->off] == '-')
		j->off++;
	if (j->off < j->s.n && p[j->off] == '0')
		j->off++;
	else if (!scan_digits(j))
		return fail(j, "bad number");
	if (j->off < j->s.n && p[j->off] == '.') {
		j->off++;
		if (!scan_digits(j))
			return fail(j, "bad number");
	}
	if (j->off < j->s.n && (p[j->off] == 'e' || p[j->off] == 'E')) {
		j->off++;
		if (j->off < j->s.n && (p[j->off] == '+' || p[j->off] == '-'))
			j->off++;
		if (!scan_digits(j))
			return fail(j, "bad number");
	}
	return true;
}

static bool scan_literal(struct fleet_json *j, const char *word)
{
	size_t len = strlen(word);
	if (!span_has(j->s, j->off, len) || memcmp(j->s.p + j->off, word, len) != 0)
		return fail(j, "unexpected character");
	j->off += len;
	return true;
}

/* A scalar at off (not '{' or '['). */
static bool scan_scalar(struct fleet_json *j)
{
	bool esc;
	switch (j->s.p[j->off]) {
	case '"':
		return scan_string(j, &esc);
	case 't':
		return scan_literal(j, "true");
	case 'f':
		return scan_literal(j, "false");
	case 'n':
		return scan_literal(j, "null");
	default:
		if (j->s.p[j->off] == '-' || (j->s.p[j->off] >= '0' && j->s.p[j->off] <= '9'))
			return scan_number(j);
		return fail(j, "unexpected character");
	}
}

/* "key" then ':' (whitespace around both). */
static bool scan_key(struct fleet_json *j)
{
	bool esc;
	skip_ws(j);
	if (j->off >= j->s.n)
		return fail(j, "unexpected end of input");
	if (j->s.p[j->off] != '"')
		return fail(j, "expected a key (a string)");
	if (!scan_string(j, &esc))
		return false;
	skip_ws(j);
	if (j->off >= j->s.n || j->s.p[j->off] != ':')
		return fail(j, "expected ':' after a key");
	j->off++;
	return true;
}

/* Iterative: the stack holds the open brackets, so the input's nesting never reaches the C stack. */
bool fleet_json_skip(struct fleet_json *j)
{
	uint8_t open[FLEET_JSON_MAX_DEPTH];
	size_t depth = 0;
	for (;;) {
		/* a value */
		skip_ws(j);
		if (j->off >= j->s.n)
			return fail(j, "unexpected end of input");
		uint8_t c = j->s.p[j->off];
		if (c == '{' || c == '[') {
			if (depth == FLEET_JSON_MAX_DEPTH)
				return fail(j, "nested deeper than 64 levels");
			open[depth++] = c;
			j->off++;
			skip_ws(j);
			if (j->off < j->s.n && j->s.p[j->off] == (c == '{' ? '}' : ']')) {
				j->off++;
				depth--;
			} else {
				if (c == '{' && !scan_key(j))
					return false;
				continue;
			}
		} else if (!scan_scalar(j))
			return false;
		/* after a value: a comma, or closing brackets */
		for (;;) {
			if (depth == 0)
				return true;
			skip_ws(j);
			if (j->off >= j->s.n)
				return fail(j, "unexpected end of input");
			c = j->s.p[j->off];
			uint8_t close = open[depth - 1] == '{' ? '}' : ']';
			if (c == close) {
				j->off++;
				depth--;
				continue;
			}
			if (c != ',')
				return fail(j, close == '}' ? "expected ',' or '}'" : "expected ',' or ']'");
			j->off++;
			if (open[depth - 1] == '{' && !scan_key(j))
				return false;
			break;
		}
	}
}

/* The separator before the next item of a container: '{'/'[' on the first call, else ',' — or the
 * closing bracket. Returns 1 for an item, 0 at the end, -1 on error. */
static int next_item(struct fleet_json *j, struct fleet_json_iter *it, uint8_t open, uint8_t close)
{
	skip_ws(j);
	if (!it->started) {
		if (j->off >= j->s.n || j->s.p[j->off] != open)
			return fail(j, open == '{' ? "expected an object" : "expected an array"), -1;
		it->started = true;
		j->off++;
		skip_ws(j);
		if (j->off < j->s.n && j->s.p[j->off] == close) {
			j->off++;
			return 0;
		}
		return 1;
	}
	if (j->off >= j->s.n)
		return fail(j, "unexpected end of input"), -1;
	if (j->s.p[j->off] == close) {
		j->off++;
		return 0;
	}
	if (j->s.p[j->off] != ',')
		return fail(j, close == '}' ? "expected ',' or '}'" : "expected ',' or ']'"), -1;
	j->off++;
	return 1;
}

int fleet_json_member(struct fleet_json *j, struct fleet_json_iter *it, struct span *key, bool *key_escaped)
{
	int r = next_item(j, it, '{', '}');
	if (r <= 0)
		return r;
	skip_ws(j);
	if (j->off >= j->s.n || j->s.p[j->off] != '"')
		return fail(j, "expected a key (a string)"), -1;
	size_t start = j->off + 1;
	if (!scan_string(j, key_escaped))
		return -1;
	*key = span_make(j->s.p + start, j->off - 1 - start);
	skip_ws(j);
	if (j->off >= j->s.n || j->s.p[j->off] != ':')
		return fail(j, "expected ':' after a key"), -1;
	j->off++;
	return 1;
}

int fleet_json_element(struct fleet_json *j, struct fleet_json_iter *it)
{
	return next_item(j, it, '[', ']');
}

bool fleet_json_key_is(struct span key, bool escaped, const char *name)
{
	size_t len = strlen(name);
	return !escaped && key.n == len && memcmp(key.p, name, len) == 0;
}

int fleet_json_string(struct fleet_json *j, char *out, size_t cap)
{
	out[0] = '\0';
	int c = fleet_json_peek(j);
	if (c == 'n') {
		if (!scan_literal(j, "null"))
			return -1;
		return 0;
	}
	if (c != '"') {
		size_t at = j->off;
		if (c == 0)
			fail(j, "unexpected end of input");
		else if (fleet_json_skip(j)) {
			fail(j, "expected a string");
			j->err_off = at; /* where the value starts, not where it ends */
		}
		return -1;
	}
	size_t start = j->off;
	bool esc;
	if (!scan_string(j, &esc))
		return -1;
	struct span raw = span_make(j->s.p + start + 1, j->off - start - 2);
	bool ascii = !esc;
	for (size_t i = 0; ascii && i < raw.n; i++)
		ascii = raw.p[i] < 0x80;
	if (ascii) {
		if (raw.n >= cap)
			return fail(j, "string too long"), -1;
		memcpy(out, raw.p, raw.n);
		out[raw.n] = '\0';
		return 1;
	}
	/* escapes or non-ASCII bytes: jansson decodes, checks UTF-8 and refuses \u0000 */
	json_error_t e;
	json_t *v = json_loadb((const char *)j->s.p + start, j->off - start, JSON_DECODE_ANY, &e);
	int rc = -1;
	if (!v)
		fail(j, "invalid UTF-8 or escape in a string");
	else if (json_string_length(v) >= cap)
		fail(j, "string too long");
	else {
		memcpy(out, json_string_value(v), json_string_length(v) + 1);
		rc = 1;
	}
	json_decref(v);
	if (rc < 0)
		j->err_off = start;
	return rc;
}

char *fleet_json_text(struct arena *a, const char *s)
{
	char *copy = arena_strdup(a, s);
	bool ascii = true;
	for (const char *p = s; *p && ascii; p++)
		ascii = (unsigned char)*p < 0x80;
	if (ascii)
		return copy;
	json_t *v = json_string(s); /* NULL when s is not UTF-8 */
	if (v) {
		json_decref(v);
		return copy;
	}
	for (unsigned char *p = (unsigned char *)copy; *p; p++)
		if (*p >= 0x80)
			*p = '?';
	return copy;
}
