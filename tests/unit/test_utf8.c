/* util/utf8.c: which byte sequences are UTF-8, and the repaired copy JSON output uses. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "util/utf8.h"

static size_t seq(const char *s)
{
	return utf8_seq_len((const unsigned char *)s, strlen(s));
}

static void test_valid_sequences(void **state)
{
	(void)state;
	assert_int_equal(seq("a"), 1);
	assert_int_equal(seq("\xc3\xa9"), 2);         /* é */
	assert_int_equal(seq("\xe2\x82\xac"), 3);     /* € */
	assert_int_equal(seq("\xf0\x9f\x98\x80"), 4); /* U+1F600 */
	assert_int_equal(seq("\xf4\x8f\xbf\xbf"), 4); /* U+10FFFF, the last code point */
}

static void test_invalid_sequences(void **state)
{
	(void)state;
	assert_int_equal(seq("\xff"), 0);
	assert_int_equal(seq("\x80"), 0);                                            /* a continuation byte alone */
	assert_int_equal(seq("\xc0\xaf"), 0);                                        /* overlong '/' */
	assert_int_equal(seq("\xe0\x80\xaf"), 0);                                    /* overlong '/' in three bytes */
	assert_int_equal(seq("\xed\xa0\x80"), 0);                                    /* a surrogate */
	assert_int_equal(seq("\xf4\x90\x80\x80"), 0);                                /* above U+10FFFF */
	assert_int_equal(seq("\xc3"), 0);                                            /* cut short */
	assert_int_equal(utf8_seq_len((const unsigned char *)"\xe2\x82\xac", 2), 0); /* cut by n */
}

static void test_sanitized_copy(void **state)
{
	(void)state;
	static const char in[] = "/opt/\xff\xc3\xa9/lib\x00x\xe2\x82";
	char *out = utf8_sanitized(in, sizeof in - 1);
	assert_non_null(out);
	assert_memory_equal(out, "/opt/?\xc3\xa9/lib\x00x??", sizeof in - 1);
	assert_int_equal(out[sizeof in - 1], '\0');
	free(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_valid_sequences),
		cmocka_unit_test(test_invalid_sequences),
		cmocka_unit_test(test_sanitized_copy),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
