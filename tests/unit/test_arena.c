/* The arena's promises: arena_alloc and the room arena_grow adds are zeroed (ARENA_PUSH callers
 * rely on a zeroed slot), grown arrays keep their elements, the string helpers copy exactly. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "util/arena.h"

/* An arena whose first block is likely to be dirty memory: glibc hands a freed chunk of the same
 * size back, and AddressSanitizer fills the start of every allocation with 0xbe. Without either,
 * the zeroing checks below would pass on memory that was zero by chance. */
static void dirty_heap(void)
{
	size_t n = 64 * 1024 + 256;
	unsigned char *p = malloc(n);
	assert_non_null(p);
	memset(p, 0xaa, n);
	free(p);
}

static void alloc_is_zeroed(void **state)
{
	(void)state;
	dirty_heap();
	struct arena a;
	arena_init(&a);
	unsigned char *p = arena_alloc(&a, 1000);
	for (size_t i = 0; i < 1000; i++)
		assert_int_equal(p[i], 0);
	arena_free(&a);
}

static void grow_keeps_elements_and_zeroes_the_new_room(void **state)
{
	(void)state;
	dirty_heap();
	struct arena a;
	arena_init(&a);
	uint64_t *arr = NULL;
	size_t n = 0, cap = 0;
	for (uint64_t i = 0; i < 5; i++)
		*(uint64_t *)ARENA_PUSH(&a, arr, n, cap) = 0x1111111111111111ull * (i + 1);
	assert_int_equal(cap, 8);
	/* the slots after the pushed ones are zero */
	for (size_t i = n; i < cap; i++)
		assert_int_equal(arr[i], 0);
	arr = arena_grow(&a, arr, n, 100, sizeof *arr);
	for (uint64_t i = 0; i < 5; i++)
		assert_int_equal(arr[i], 0x1111111111111111ull * (i + 1));
	for (size_t i = 5; i < 100; i++)
		assert_int_equal(arr[i], 0);
	/* every slot ARENA_PUSH hands out across several doublings reads zero first */
	struct pair {
		uint32_t x;
		const char *s;
	} *ps = NULL;
	size_t pn = 0, pcap = 0;
	for (int i = 0; i < 300; i++) {
		struct pair *p = ARENA_PUSH(&a, ps, pn, pcap);
		assert_int_equal(p->x, 0);
		assert_null(p->s);
		p->x = (uint32_t)i + 1;
		p->s = "x";
	}
	for (size_t i = 0; i < pn; i++)
		assert_int_equal(ps[i].x, i + 1);
	arena_free(&a);
}

static void strings_copy_exactly(void **state)
{
	(void)state;
	dirty_heap();
	struct arena a;
	arena_init(&a);
	assert_string_equal(arena_strndup(&a, "libcudnn.so.8", 9), "libcudnn.");
	assert_string_equal(arena_strndup(&a, "ab\0cd", 5), "ab");
	assert_string_equal(arena_strndup(&a, "", 3), "");
	assert_string_equal(arena_strdup(&a, "cublas64_11.dll"), "cublas64_11.dll");
	assert_null(arena_strdup(&a, NULL));
	assert_string_equal(arena_printf(&a, "%s %d", "error", 35), "error 35");
	assert_string_equal(arena_printf(&a, "%s", ""), "");
	arena_free(&a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(alloc_is_zeroed),
		cmocka_unit_test(grow_keeps_elements_and_zeroes_the_new_room),
		cmocka_unit_test(strings_copy_exactly),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
