/* A validating JSON scanner over a span: it walks a document and hands out the raw text of the
 * values a caller asks for by key, without building a tree. `cudx compare` reads thousands of
 * `cudx check --json` reports and needs a handful of fields from each; jansson builds every object
 * of a report (45 MB/s here, 0.5 ms for a 22 KB report: 5 s for 10,000), this skips what it does
 * not need at several hundred MB/s. Strings that are kept are decoded by jansson
 * (fleet_json_string), so escapes and UTF-8 are judged by the library.
 *
 * Everything that is skipped is still checked against RFC 8259's grammar (strings, escapes,
 * numbers, literals, brackets, commas, colons), nesting is bounded (FLEET_JSON_MAX_DEPTH) and
 * nothing recurses, so garbage gives an error with its byte offset, never a crash or a hang. */
#ifndef CUDX_FLEET_JSON_H
#define CUDX_FLEET_JSON_H

#include <stdbool.h>
#include <stddef.h>

#include "util/span.h"

#define FLEET_JSON_MAX_DEPTH 64

struct fleet_json {
	struct span s;
	size_t off;      /* next byte to read */
	const char *err; /* first error, a static string; NULL while all is well */
	size_t err_off;  /* where it was found */
};

/* Members of an object or elements of an array, one at a time. */
struct fleet_json_iter {
	bool started;
};

void fleet_json_init(struct fleet_json *j, struct span s);
/* Skip one value (checked), leaving off past it. */
bool fleet_json_skip(struct fleet_json *j);
/* True when only whitespace is left. */
bool fleet_json_at_end(struct fleet_json *j);
/* The next value's first byte ('{', '[', '"', 't', ...), or 0 at the end of input. */
int fleet_json_peek(struct fleet_json *j);

/* With off at '{': each call returns 1 with *key the raw bytes between the key's quotes and off at
 * the member's value, which the caller must consume (skip, or read); 0 after the closing '}';
 * -1 on error. *key_escaped says the key holds a backslash (compare it decoded, or not at all). */
int fleet_json_member(struct fleet_json *j, struct fleet_json_iter *it, struct span *key, bool *key_escaped);
/* With off at '[': 1 with off at the next element, 0 after ']', -1 on error. */
int fleet_json_element(struct fleet_json *j, struct fleet_json_iter *it);

/* A key as the scanner gave it equals name (keys with escapes never do: cudx writes none). */
bool fleet_json_key_is(struct span key, bool escaped, const char *name);

/* Read a string value at off into out (NUL-terminated, at most cap-1 bytes). Returns 1, 0 when
 * the value is null (out = ""), -1 when it is neither, longer than cap-1 bytes decoded, or not
 * valid UTF-8 / holds a NUL (then j->err says which). ASCII without escapes is copied; anything
 * else is decoded by jansson. */
int fleet_json_string(struct fleet_json *j, char *out, size_t cap);

/* A copy of s in the arena that JSON can carry: s itself when it is valid UTF-8, else s with every
 * byte >= 0x80 as '?' (file names need not be UTF-8, and a message cut at a byte bound may end
 * inside a character). */
struct arena;
char *fleet_json_text(struct arena *a, const char *s);

#endif
