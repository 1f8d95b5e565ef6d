#include "fmt/auditrec.h"

#include <string.h>

#include "util/hex.h"

/* What each line type carries after "<type> <pid>": the number of numeric fields and whether the
 * escaped text field follows. */
static const struct line_kind {
	char type;
	int n_nums;
	bool text;
} kinds[] = {
	{ 'V', 2, true }, { 'G', 0, true },  { 'E', 0, true },  { 'F', 1, false }, { 'S', 2, true },
	{ 'O', 2, true }, { 'C', 1, false }, { 'A', 1, false }, { 'P', 0, false }, { 'T', 0, false },
};

static const struct line_kind *kind_of(char c)
{
	for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
		if (kinds[i].type == c)
			return &kinds[i];
	return NULL;
}

/* A decimal number (optional '-') at *p, then a space or the end of the line. */
static bool take_num(const char **p, const char *end, long long *v)
{
	const char *s = *p;
	bool neg = s < end && *s == '-';
	s += neg;
	unsigned long long acc = 0;
	const char *digits = s;
	while (s < end && *s >= '0' && *s <= '9') {
		if (acc > (unsigned long long)9e17) /* 18 digits at most: no overflow */
			return false;
		acc = acc * 10 + (unsigned long long)(*s++ - '0');
	}
	if (s == digits || (s < end && *s != ' '))
		return false;
	*v = neg ? -(long long)acc : (long long)acc;
	*p = s < end ? s + 1 : s;
	return true;
}

/* Undo the writer's escapes; an unknown escape is kept as it stands. */
static const char *unescape(struct arena *a, const char *s, const char *end)
{
	char *out = arena_alloc(a, (size_t)(end - s) + 1), *o = out;
	while (s < end) {
		if (*s != '\\' || s + 1 == end) {
			*o++ = *s++;
			continue;
		}
		if (s[1] == '\\' || s[1] == 'n') {
			*o++ = s[1] == 'n' ? '\n' : '\\';
			s += 2;
		} else if (s[1] == 'x' && end - s >= 4 && hex_digit(s[2]) >= 0 && hex_digit(s[3]) >= 0) {
			*o++ = (char)(hex_digit(s[2]) << 4 | hex_digit(s[3]));
			s += 4;
		} else
			*o++ = *s++;
	}
	*o = '\0';
	return out;
}

static void bad(struct auditrec *r, size_t line, const char *why)
{
	if (!r->bad_lines++) {
		r->first_bad_line = line;
		r->first_bad = why;
	}
}

static void parse_line(struct arena *a, const char *s, const char *end, size_t line_no, struct auditrec *r)
{
	if (end - s < 3 || s[1] != ' ') {
		bad(r, line_no, "not '<type> <pid> ...'");
		return;
	}
	const struct line_kind *k = kind_of(s[0]);
	if (!k) {
		bad(r, line_no, "unknown line type");
		return;
	}
	struct auditrec_event e = { .type = k->type, .line = line_no };
	const char *p = s + 2;
	long long nums[2] = { 0, 0 };
	if (!take_num(&p, end, &e.pid) || e.pid <= 0) {
		bad(r, line_no, "bad process id");
		return;
	}
	for (int i = 0; i < k->n_nums; i++)
		if (p >= end || !take_num(&p, end, &nums[i])) {
			bad(r, line_no, "bad number");
			return;
		}
	e.a = nums[0];
	e.b = nums[1];
	if (k->text) {
		/* the writer puts a space before the text even when it is empty: "O 12 1 0 " */
		e.text = unescape(a, p, end);
	} else if (p != end) {
		bad(r, line_no, "unexpected text");
		return;
	}
	if (e.type == 'T')
		r->full = true;
	if (r->n == AUDITREC_MAX_EVENTS) {
		r->dropped++;
		return;
	}
	*ARENA_PUSH(a, r->ev, r->n, r->cap) = e;
}

void auditrec_parse(struct arena *a, struct span s, struct auditrec *out)
{
	memset(out, 0, sizeof *out);
	if (!s.n)
		return;
	const char *p = (const char *)s.p, *end = p + s.n;
	size_t line_no = 0;
	while (p && p < end) {
		line_no++;
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl) {
			/* a last line without its newline was cut while being written: not an event */
			out->incomplete_last = true;
			break;
		}
		if ((size_t)(nl - p) > AUDITREC_MAX_LINE)
			bad(out, line_no, "line too long");
		else if (memchr(p, '\0', (size_t)(nl - p)))
			bad(out, line_no, "NUL byte in a line");
		else
			parse_line(a, p, nl, line_no, out);
		p = nl + 1;
	}
}
