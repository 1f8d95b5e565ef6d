#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "sys/envsnap.h"

static void parses_env_output(void **state)
{
	(void)state;
	struct arena a;
	arena_init(&a);
	struct envsnap e;
	const char text[] = "PATH=/usr/bin:/bin\nLD_LIBRARY_PATH=/usr/local/cuda/lib64\nnot a variable\n"
			    "EMPTY=\nPATH=/opt/bin\nexport X=1\n";
	size_t n = envsnap_parse(&e, &a, span_make(text, sizeof text - 1), "test");
	assert_int_equal(n, 4);
	assert_string_equal(envsnap_get(&e, "PATH"), "/opt/bin"); /* later duplicates win */
	assert_string_equal(envsnap_get(&e, "LD_LIBRARY_PATH"), "/usr/local/cuda/lib64");
	assert_string_equal(envsnap_get(&e, "EMPTY"), "");
	assert_string_equal(envsnap_get(&e, "X"), "1");
	assert_null(envsnap_get(&e, "path"));
	arena_free(&a);
}

static void parses_proc_environ_and_windows_set(void **state)
{
	(void)state;
	struct arena a;
	arena_init(&a);
	struct envsnap e;
	const char nul[] = "A=1\0B=x=y\0\0C=3";
	assert_int_equal(envsnap_parse(&e, &a, span_make(nul, sizeof nul - 1), "pid"), 3);
	assert_string_equal(envsnap_get(&e, "B"), "x=y");
	const char win[] = "Path=C:\\Windows\\system32;C:\\CUDA\\bin\r\nSystemRoot=C:\\Windows\r\n"
			   "ProgramFiles(x86)=C:\\Program Files (x86)\r\n";
	assert_int_equal(envsnap_parse(&e, &a, span_make(win, sizeof win - 1), "set"), 3);
	assert_true(e.case_insensitive);
	assert_string_equal(envsnap_get(&e, "PATH"), "C:\\Windows\\system32;C:\\CUDA\\bin");
	assert_string_equal(envsnap_get(&e, "ProgramFiles(x86)"), "C:\\Program Files (x86)");
	arena_free(&a);
}

static void splits_search_paths_keeping_empty_elements(void **state)
{
	(void)state;
	struct arena a;
	arena_init(&a);
	const char **parts;
	size_t n = env_split_path(&a, "/a::/b:", ':', &parts);
	assert_int_equal(n, 4);
	assert_string_equal(parts[0], "/a");
	assert_string_equal(parts[1], "");
	assert_string_equal(parts[2], "/b");
	assert_string_equal(parts[3], "");
	assert_int_equal(env_split_path(&a, NULL, ':', &parts), 0);
	arena_free(&a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(parses_env_output),
		cmocka_unit_test(parses_proc_environ_and_windows_set),
		cmocka_unit_test(splits_search_paths_keeping_empty_elements),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
