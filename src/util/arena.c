#include "util/arena.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ARENA_BLOCK_MIN (64 * 1024)

struct arena_block {
	struct arena_block *next;
	size_t used, cap;
	max_align_t data[];
};

void arena_init(struct arena *a)
{
	a->head = NULL;
	a->total = 0;
}

void arena_free(struct arena *a)
{
	struct arena_block *b = a->head;
	while (b) {
		struct arena_block *next = b->next;
		free(b);
		b = next;
	}
	a->head = NULL;
	a->total = 0;
}

void *arena_alloc(struct arena *a, size_t size)
{
	void *p = arena_alloc_uninit(a, size);
	memset(p, 0, size);
	return p;
}

void *arena_alloc_uninit(struct arena *a, size_t size)
{
	const size_t align = sizeof(max_align_t);
	if (size > SIZE_MAX / 2) {
		fprintf(stderr, "cudx: allocation of %zu bytes refused\n", size);
		abort();
	}
	size = (size + align - 1) & ~(align - 1);
	struct arena_block *b = a->head;
	if (!b || b->cap - b->used < size) {
		size_t cap = size > ARENA_BLOCK_MIN ? size : ARENA_BLOCK_MIN;
		b = malloc(sizeof *b + cap);
		if (!b) {
			fprintf(stderr, "cudx: out of memory\n");
			abort();
		}
		b->used = 0;
		b->cap = cap;
		/* a large one-off block goes behind the head so the head's free room stays usable */
		if (a->head && size > ARENA_BLOCK_MIN) {
			b->next = a->head->next;
			a->head->next = b;
		} else {
			b->next = a->head;
			a->head = b;
		}
	}
	void *p = (char *)b->data + b->used;
	b->used += size;
	a->total += size;
	return p;
}

/* n elements of size bytes, or abort: the product must not overflow (arena_alloc refuses more
 * than SIZE_MAX / 2 itself) */
static size_t array_bytes(size_t n, size_t size)
{
	if (size && n > SIZE_MAX / 2 / size) {
		fprintf(stderr, "cudx: allocation of %zu x %zu bytes refused\n", n, size);
		abort();
	}
	return n * size;
}

void *arena_calloc(struct arena *a, size_t n, size_t size)
{
	return arena_alloc(a, array_bytes(n, size));
}

char *arena_strndup(struct arena *a, const char *s, size_t n)
{
	size_t len = strnlen(s, n);
	char *d = arena_alloc_uninit(a, len + 1);
	memcpy(d, s, len);
	d[len] = '\0';
	return d;
}

char *arena_strdup(struct arena *a, const char *s)
{
	return s ? arena_strndup(a, s, strlen(s)) : NULL;
}

char *arena_vprintf(struct arena *a, const char *fmt, va_list ap)
{
	va_list ap2;
	va_copy(ap2, ap);
	int len = vsnprintf(NULL, 0, fmt, ap2);
	va_end(ap2);
	if (len < 0)
		return arena_strdup(a, "");
	char *d = arena_alloc_uninit(a, (size_t)len + 1);
	vsnprintf(d, (size_t)len + 1, fmt, ap);
	return d;
}

char *arena_printf(struct arena *a, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *d = arena_vprintf(a, fmt, ap);
	va_end(ap);
	return d;
}

void *arena_grow(struct arena *a, void *old, size_t old_n, size_t new_cap, size_t elem)
{
	/* only the new room is zeroed: the old elements are copied over the start */
	char *p = arena_alloc_uninit(a, array_bytes(new_cap, elem));
	size_t kept = old ? (old_n < new_cap ? old_n : new_cap) : 0;
	if (kept)
		memcpy(p, old, kept * elem);
	memset(p + kept * elem, 0, (new_cap - kept) * elem);
	return p;
}
