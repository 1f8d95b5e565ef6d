/* Tiny JSON writer behind shim/jansson.h (native Windows build only). Values are built by cudx
 * itself, never parsed from input, so nesting depth is cudx's own and recursion is bounded by it. */
#include <stdlib.h>
#include <string.h>

#include "jansson.h"

enum jtype { J_OBJ, J_ARR, J_STR, J_INT, J_REAL, J_TRUE, J_FALSE, J_NULL };

struct json_t {
	enum jtype t;
	char *s;          /* string value */
	json_int_t i;
	double r;
	char **keys;      /* object keys */
	json_t **items;   /* object values / array items */
	size_t n, cap;
};

static json_t *mk(enum jtype t)
{
	json_t *v = calloc(1, sizeof *v);
	if (!v)
		abort();
	v->t = t;
	return v;
}

json_t *json_object(void) { return mk(J_OBJ); }
json_t *json_array(void) { return mk(J_ARR); }
json_t *json_null(void) { return mk(J_NULL); }
json_t *json_true(void) { return mk(J_TRUE); }
json_t *json_false(void) { return mk(J_FALSE); }
json_t *json_boolean(bool b) { return mk(b ? J_TRUE : J_FALSE); }

json_t *json_string(const char *s)
{
	if (!s)
		return NULL;
	json_t *v = mk(J_STR);
	v->s = strdup(s);
	return v;
}

json_t *json_integer(json_int_t i)
{
	json_t *v = mk(J_INT);
	v->i = i;
	return v;
}

json_t *json_real(double r)
{
	json_t *v = mk(J_REAL);
	v->r = r;
	return v;
}

static void push(json_t *c, char *key, json_t *v)
{
	if (c->n == c->cap) {
		c->cap = c->cap ? c->cap * 2 : 8;
		c->items = realloc(c->items, c->cap * sizeof *c->items);
		c->keys = realloc(c->keys, c->cap * sizeof *c->keys);
		if (!c->items || !c->keys)
			abort();
	}
	c->keys[c->n] = key;
	c->items[c->n++] = v;
}

int json_object_set_new(json_t *o, const char *key, json_t *v)
{
	if (!o || o->t != J_OBJ || !v)
		return -1;
	for (size_t i = 0; i < o->n; i++)
		if (strcmp(o->keys[i], key) == 0) {
			json_decref(o->items[i]);
			o->items[i] = v;
			return 0;
		}
	push(o, strdup(key), v);
	return 0;
}

int json_array_append_new(json_t *a, json_t *v)
{
	if (!a || a->t != J_ARR || !v)
		return -1;
	push(a, NULL, v);
	return 0;
}

void json_decref(json_t *v)
{
	if (!v)
		return;
	for (size_t i = 0; i < v->n; i++) {
		free(v->keys[i]);
		json_decref(v->items[i]);
	}
	free(v->keys);
	free(v->items);
	free(v->s);
	free(v);
}

/* UTF-8 -> JSON string with \uXXXX for everything outside printable ASCII (JSON_ENSURE_ASCII). */
static void put_str(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	fputc('"', f);
	while (*p) {
		unsigned c = *p++;
		if (c == '"' || c == '\\') {
			fputc('\\', f);
			fputc((int)c, f);
		} else if (c == '\n')
			fputs("\\n", f);
		else if (c == '\r')
			fputs("\\r", f);
		else if (c == '\t')
			fputs("\\t", f);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else if (c < 0x80)
			fputc((int)c, f);
		else {
			unsigned cp = 0, more = 0;
			if ((c & 0xe0) == 0xc0)
				cp = c & 0x1f, more = 1;
			else if ((c & 0xf0) == 0xe0)
				cp = c & 0x0f, more = 2;
			else if ((c & 0xf8) == 0xf0)
				cp = c & 0x07, more = 3;
			else
				cp = 0xfffd;
			for (unsigned k = 0; k < more && (*p & 0xc0) == 0x80; k++)
				cp = cp << 6 | (*p++ & 0x3f);
			if (cp >= 0x10000) {
				cp -= 0x10000;
				fprintf(f, "\\u%04x\\u%04x", 0xd800 + (cp >> 10), 0xdc00 + (cp & 0x3ff));
			} else
				fprintf(f, "\\u%04x", cp);
		}
	}
	fputc('"', f);
}

static void dump(const json_t *v, FILE *f, int indent, int level)
{
	switch (v->t) {
	case J_STR: put_str(f, v->s); return;
	case J_INT: fprintf(f, "%lld", v->i); return;
	case J_REAL: fprintf(f, "%.17g", v->r); return;
	case J_TRUE: fputs("true", f); return;
	case J_FALSE: fputs("false", f); return;
	case J_NULL: fputs("null", f); return;
	default: break;
	}
	bool obj = v->t == J_OBJ;
	if (v->n == 0) {
		fputs(obj ? "{}" : "[]", f);
		return;
	}
	fputc(obj ? '{' : '[', f);
	for (size_t i = 0; i < v->n; i++) {
		fprintf(f, "%s\n%*s", i ? "," : "", indent * (level + 1), "");
		if (obj) {
			put_str(f, v->keys[i]);
			fputs(": ", f);
		}
		dump(v->items[i], f, indent, level + 1);
	}
	fprintf(f, "\n%*s%c", indent * level, "", obj ? '}' : ']');
}

int json_dumpf(const json_t *v, FILE *out, size_t flags)
{
	if (!v)
		return -1;
	dump(v, out, (int)(flags & 0x1f), 0);
	return 0;
}
