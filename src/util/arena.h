/* Memory by lifetime: one arena per run holds the inventory, traces, findings and strings.
 * Nothing allocated from it is freed on its own; arena_free() releases everything at once.
 * Allocation failure aborts with a message: cudx has no meaningful way to go on without memory,
 * and every input-driven allocation is bounded before it reaches the arena. */
#ifndef CUDX_ARENA_H
#define CUDX_ARENA_H

#include <stdarg.h>
#include <stddef.h>

#include "util/compiler.h"

struct arena_block;

struct arena {
	struct arena_block *head;
	size_t total; /* bytes handed out, for bench/diagnostics */
};

void arena_init(struct arena *a);
void arena_free(struct arena *a);
/* zeroed memory, aligned for any type */
void *arena_alloc(struct arena *a, size_t size);
void *arena_calloc(struct arena *a, size_t n, size_t size);
/* memory not zeroed, for large buffers their user writes before reading (zeroing a reader's
 * 64 KiB of scratch per call cost more than the reading) */
void *arena_alloc_uninit(struct arena *a, size_t size);
char *arena_strdup(struct arena *a, const char *s);
char *arena_strndup(struct arena *a, const char *s, size_t n);
char *arena_printf(struct arena *a, const char *fmt, ...) CUDX_PRINTF(2, 3);
char *arena_vprintf(struct arena *a, const char *fmt, va_list ap);
/* grow an array held in the arena: returns a new copy with room for new_cap elements */
void *arena_grow(struct arena *a, void *old, size_t old_n, size_t new_cap, size_t elem);

/* A growable array in an arena: ARRAY_PUSH(a, arr, n, cap) returns a pointer to a new zeroed slot. */
#define ARENA_PUSH(a, arr, n, cap)                                                              \
	((n) == (cap) ? ((arr) = arena_grow((a), (arr), (n), (cap) ? (cap) * 2 : 8, sizeof *(arr)), \
			 (cap) = (cap) ? (cap) * 2 : 8, &(arr)[(n)++])                                \
		      : &(arr)[(n)++])

#endif
