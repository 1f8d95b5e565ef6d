#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "fmt/version.h"

static void parses_dotted_numbers(void **state)
{
	(void)state;
	struct version v;
	assert_true(version_parse("535.104.05", &v));
	assert_int_equal(v.n, 3);
	assert_int_equal(v.part[0], 535);
	assert_int_equal(v.part[1], 104);
	assert_int_equal(v.part[2], 5);
	assert_true(version_parse("v12.4-foo", &v));
	assert_int_equal(v.n, 2);
	assert_int_equal(v.part[1], 4);
	assert_true(version_parse("9.1.0.70", &v));
	assert_int_equal(v.n, 4);
	assert_false(version_parse("abc", &v));
	assert_false(version_parse("", &v));
	assert_false(version_parse("1234567890", &v)); /* more than 9 digits is no version part */
	assert_true(version_parse_n("12.4", 4, &v));
	assert_false(version_parse_n("12.4x", 5, &v));
}

static void tells_other_releases(void **state)
{
	(void)state;
	assert_false(version_other_release("13.0", "13.0.88")); /* a prefix is the same release */
	assert_false(version_other_release("10", "10.1"));
	assert_true(version_other_release("10.0", "10.1"));
	assert_true(version_other_release("11.dll", "12.dll"));
	assert_true(version_other_release("9.1.0.70", "9.19.0.56"));
	assert_false(version_other_release("x", "x")); /* unparsable: equal strings */
	assert_true(version_other_release("x", "y"));
}

static void compares_numerically(void **state)
{
	(void)state;
	assert_true(version_strcmp("535.104.05", "535.54.03") > 0);
	assert_true(version_strcmp("12.10", "12.9") > 0);
	assert_int_equal(version_strcmp("12.4", "12.4.0"), 0);
	assert_true(version_strcmp("450.80.02", "450.80.2") == 0);
	assert_true(version_strcmp("garbage", "1.0") < 0);
	struct version a, b;
	version_parse("8.9.7.29", &a);
	version_parse("8.9.7", &b);
	assert_int_equal(version_cmp_parts(&a, &b, 3), 0);
	assert_true(version_cmp(&a, &b) > 0);
}

static void finds_driver_version_in_text(void **state)
{
	(void)state;
	const char *t = "NVRM version: NVIDIA UNIX x86_64 Kernel Module  535.104.05  Sat Aug 19 01:15:15 UTC 2023";
	size_t len;
	const char *v = version_find_driver(t, strlen(t), &len);
	assert_non_null(v);
	assert_int_equal(len, 10);
	assert_memory_equal(v, "535.104.05", 10);
	const char *two = "Kernel Module  510.54  Tue";
	v = version_find_driver(two, strlen(two), &len);
	assert_non_null(v);
	assert_int_equal(len, 6);
	/* x86_64 and dates are not driver versions */
	assert_null(version_find_driver("x86_64 01:15:15 2023", 20, &len));
}

static void decodes_cuda_ints(void **state)
{
	(void)state;
	struct version v = version_from_cuda_int(12040);
	char buf[32];
	assert_string_equal(version_format(&v, buf, sizeof buf), "12.4");
	v = version_from_cuda_int(11080);
	assert_string_equal(version_format(&v, buf, sizeof buf), "11.8");
	v = version_from_cuda_int(0);
	assert_int_equal(v.n, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(parses_dotted_numbers),
		cmocka_unit_test(tells_other_releases),
		cmocka_unit_test(compares_numerically),
		cmocka_unit_test(finds_driver_version_in_text),
		cmocka_unit_test(decodes_cuda_ints),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
