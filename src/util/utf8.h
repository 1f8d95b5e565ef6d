/* UTF-8 checks for text that comes from the system as bytes (paths, arguments, a program's
 * output): JSON needs valid UTF-8, and jansson refuses anything else. */
#ifndef CUDX_UTIL_UTF8_H
#define CUDX_UTIL_UTF8_H

#include <stddef.h>

/* The length of the valid UTF-8 sequence at s (at most n bytes, n > 0), 0 when there is none:
 * overlong forms, surrogates and code points above U+10FFFF are not valid. */
size_t utf8_seq_len(const unsigned char *s, size_t n);

/* A malloc'd copy of the n bytes at s with every byte that is not part of valid UTF-8 replaced
 * by '?' (same length, NUL-terminated; embedded NULs are kept). NULL when out of memory. */
char *utf8_sanitized(const char *s, size_t n);

#endif
