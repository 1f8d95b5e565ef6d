/* The header of a PTX text file (ptx_text.h). */
#include <ctype.h>
#include <string.h>

#include "fmt/ptx_text.h"

struct cursor {
	const uint8_t *p;
	size_t n, i;
};

/* Whitespace and comments, // to the end of the line and C-style blocks. False on an unclosed
 * block comment. */
static bool skip_blank(struct cursor *c)
{
	while (c->i < c->n) {
		uint8_t ch = c->p[c->i];
		if (ch == ' ' || ch == '\t' || ch == '\r' || ch == '\n') {
			c->i++;
		} else if (ch == '/' && c->i + 1 < c->n && c->p[c->i + 1] == '/') {
			while (c->i < c->n && c->p[c->i] != '\n')
				c->i++;
		} else if (ch == '/' && c->i + 1 < c->n && c->p[c->i + 1] == '*') {
			c->i += 2;
			while (c->i + 1 < c->n && !(c->p[c->i] == '*' && c->p[c->i + 1] == '/'))
				c->i++;
			if (c->i + 1 >= c->n)
				return false;
			c->i += 2;
		} else {
			return true;
		}
	}
	return true;
}

static bool keyword(struct cursor *c, const char *kw)
{
	size_t k = strlen(kw);
	if (c->n - c->i < k + 1 || memcmp(c->p + c->i, kw, k) != 0 || (c->p[c->i + k] != ' ' && c->p[c->i + k] != '\t'))
		return false;
	c->i += k;
	while (c->i < c->n && (c->p[c->i] == ' ' || c->p[c->i] == '\t'))
		c->i++;
	return true;
}

/* A decimal number of at most 4 digits. */
static bool number(struct cursor *c, uint32_t *v)
{
	size_t s = c->i;
	*v = 0;
	while (c->i < c->n && isdigit(c->p[c->i]) && c->i - s < 4)
		*v = *v * 10 + (uint32_t)(c->p[c->i++] - '0');
	return c->i > s && (c->i >= c->n || !isdigit(c->p[c->i]));
}

bool ptx_text_header(struct span f, struct ptx_text_header *out)
{
	memset(out, 0, sizeof *out);
	struct cursor c = { f.p, f.n < PTX_TEXT_HEAD ? f.n : PTX_TEXT_HEAD, 0 };
	uint32_t ma, mi, sm;
	if (!skip_blank(&c) || !keyword(&c, ".version") || !number(&c, &ma) || c.i >= c.n || c.p[c.i++] != '.' ||
	    !number(&c, &mi))
		return false;
	if (!skip_blank(&c) || !keyword(&c, ".target") || c.n - c.i < 4 || memcmp(c.p + c.i, "sm_", 3) != 0)
		return false;
	c.i += 3;
	if (!number(&c, &sm))
		return false;
	char variant = 0;
	if (c.i < c.n && (c.p[c.i] == 'a' || c.p[c.i] == 'f'))
		variant = (char)c.p[c.i++];
	/* the target ends the word: a modifier list, a comment or the line's end follows */
	if (c.i < c.n && (isalnum(c.p[c.i]) || c.p[c.i] == '_'))
		return false;
	if (ma == 0 || ma > 99 || mi > 99 || sm < 10)
		return false;
	*out = (struct ptx_text_header){ (uint16_t)ma, (uint16_t)mi, sm, variant };
	return true;
}
