/* A bounds-checked view of bytes. Every reader of an external format takes one of these and
 * never touches memory outside [p, p+n). Offsets and sizes read from the input are checked with
 * span_has() before use; span_has() is written so that off+len cannot overflow. */
#ifndef CUDX_SPAN_H
#define CUDX_SPAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct span {
	const uint8_t *p;
	size_t n;
};

static inline struct span span_make(const void *p, size_t n)
{
	return (struct span){ (const uint8_t *)p, n };
}

/* true when [off, off+len) lies inside s */
static inline bool span_has(struct span s, uint64_t off, uint64_t len)
{
	return off <= s.n && len <= s.n - off;
}

/* The sub-span [off, off+len), or an empty span with p == NULL when out of bounds. */
static inline struct span span_sub(struct span s, uint64_t off, uint64_t len)
{
	if (!span_has(s, off, len))
		return (struct span){ NULL, 0 };
	return (struct span){ s.p + off, (size_t)len };
}

/* The rest of s from off on (empty when off is past the end). */
static inline struct span span_from(struct span s, uint64_t off)
{
	if (off > s.n)
		return (struct span){ NULL, 0 };
	return (struct span){ s.p + off, s.n - (size_t)off };
}

/* The readers below write *v on failure too (0), so a caller's variable is never left
 * uninitialised. */
static inline bool span_u8(struct span s, uint64_t off, uint8_t *v)
{
	*v = 0;
	if (!span_has(s, off, 1))
		return false;
	*v = s.p[off];
	return true;
}

static inline bool span_u16le(struct span s, uint64_t off, uint16_t *v)
{
	*v = 0;
	if (!span_has(s, off, 2))
		return false;
	*v = (uint16_t)(s.p[off] | (s.p[off + 1] << 8));
	return true;
}

static inline bool span_u32le(struct span s, uint64_t off, uint32_t *v)
{
	*v = 0;
	if (!span_has(s, off, 4))
		return false;
	*v = (uint32_t)s.p[off] | (uint32_t)s.p[off + 1] << 8 | (uint32_t)s.p[off + 2] << 16 |
	     (uint32_t)s.p[off + 3] << 24;
	return true;
}

static inline bool span_u64le(struct span s, uint64_t off, uint64_t *v)
{
	uint32_t lo, hi;
	*v = 0;
	if (!span_u32le(s, off, &lo) || !span_u32le(s, off + 4, &hi))
		return false;
	*v = (uint64_t)hi << 32 | lo;
	return true;
}

static inline bool span_u16be(struct span s, uint64_t off, uint16_t *v)
{
	*v = 0;
	if (!span_has(s, off, 2))
		return false;
	*v = (uint16_t)(s.p[off] << 8 | s.p[off + 1]);
	return true;
}

static inline bool span_u32be(struct span s, uint64_t off, uint32_t *v)
{
	*v = 0;
	if (!span_has(s, off, 4))
		return false;
	*v = (uint32_t)s.p[off] << 24 | (uint32_t)s.p[off + 1] << 16 | (uint32_t)s.p[off + 2] << 8 |
	     (uint32_t)s.p[off + 3];
	return true;
}

static inline bool span_u64be(struct span s, uint64_t off, uint64_t *v)
{
	uint32_t hi, lo;
	*v = 0;
	if (!span_u32be(s, off, &hi) || !span_u32be(s, off + 4, &lo))
		return false;
	*v = (uint64_t)hi << 32 | lo;
	return true;
}

/* A NUL-terminated string starting at off, at most max bytes long (excluding the NUL).
 * Returns its length, or -1 when off is out of bounds or no NUL is found in time. */
static inline long span_cstr(struct span s, uint64_t off, size_t max, const char **out)
{
	if (off >= s.n)
		return -1;
	size_t room = s.n - (size_t)off;
	if (room > max + 1)
		room = max + 1;
	const uint8_t *nul = memchr(s.p + off, 0, room);
	if (!nul)
		return -1;
	*out = (const char *)(s.p + off);
	return (long)(nul - (s.p + off));
}

/* Find needle in s starting at from; returns offset or -1. */
static inline long long span_find(struct span s, uint64_t from, const void *needle, size_t nlen)
{
	if (nlen == 0 || from > s.n || s.n - from < nlen)
		return -1;
	const uint8_t *hay = s.p + from, *end = s.p + s.n - nlen + 1;
	const uint8_t first = *(const uint8_t *)needle;
	while (hay < end) {
		hay = memchr(hay, first, (size_t)(end - hay));
		if (!hay)
			return -1;
		if (memcmp(hay, needle, nlen) == 0)
			return (long long)(hay - s.p);
		hay++;
	}
	return -1;
}

#endif
