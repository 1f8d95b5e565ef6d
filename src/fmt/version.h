/* Dotted version numbers as NVIDIA writes them: driver "535.104.05", CUDA "12.4" / "12.4.1",
 * cuDNN "9.1.0.70", and the integer encodings some APIs return. */
#ifndef CUDX_VERSION_H
#define CUDX_VERSION_H

#include <stdbool.h>
#include <stddef.h>

#define VERSION_MAX_PARTS 4

struct version {
	int part[VERSION_MAX_PARTS]; /* missing parts are 0 */
	int n;                       /* parts present, 0 = invalid */
};

/* Parse the leading dotted number of s ("12.4.1", "535.104.05", "v12.4", "12.4-foo").
 * Returns false when s does not start with a number (after an optional 'v'). */
bool version_parse(const char *s, struct version *v);
/* Parse exactly len bytes; the whole range must be a dotted number. */
bool version_parse_n(const char *s, size_t len, struct version *v);
/* Compare the first `parts` parts (0 = all present in either). <0, 0, >0 like strcmp. */
int version_cmp(const struct version *a, const struct version *b);
int version_cmp_parts(const struct version *a, const struct version *b, int parts);
/* Compare two version strings; unparsable strings sort first. */
int version_strcmp(const char *a, const char *b);
/* Whether two version strings name different releases: they differ in a number both give.
 * "13.0" and "13.0.88" are one release (libnvrtc-builtins.so.13.0 and libnvrtc 13.0.88; CUDA 10.1's
 * cuBLAS is libcublas.so.10), "10.0" and "10.1" are two. Strings that do not parse differ when they
 * are not equal. */
bool version_other_release(const char *a, const char *b);
/* Format into buf as "a.b[.c[.d]]" with parts given (at least v->n); returns buf. */
char *version_format(const struct version *v, char *buf, size_t n);
/* Find a driver-style version (3 digits '.' 2-3 digits ['.' 2 digits]) inside free text, e.g.
 * "NVRM version: NVIDIA UNIX x86_64 Kernel Module  535.104.05  Sat Aug 19 01:15:15 UTC 2023".
 * Returns a pointer into text and the length, or NULL. */
const char *version_find_driver(const char *text, size_t n, size_t *len);
/* CUDA versions as the runtime/driver APIs encode them: 1000*major + 10*minor (12040 -> 12.4). */
struct version version_from_cuda_int(int encoded);

#endif
