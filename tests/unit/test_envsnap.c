#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
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

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* 70,000 distinct names took 12 s when every record scanned every name held */
static void many_variables_parse_in_linear_time_and_the_rest_is_counted(void **state)
{
	(void)state;
	struct arena a;
	arena_init(&a);
	struct envsnap e;
	size_t total = ENVSNAP_MAX_VARS + 4464, cap = total * 24 + 64, len = 0;
	char *text = malloc(cap);
	assert_non_null(text);
	for (size_t i = 0; i < total; i++)
		len += (size_t)snprintf(text + len, cap - len, "VAR_%zu=%zu\n", i, i);
	/* a later duplicate of a name held still wins once the table is full */
	len += (size_t)snprintf(text + len, cap - len, "VAR_7=seven\n");
	double t0 = now();
	size_t n = envsnap_parse(&e, &a, span_make(text, len), "many");
	double dt = now() - t0;
	assert_int_equal(n, ENVSNAP_MAX_VARS);
	assert_int_equal(e.dropped, 4464);
	assert_string_equal(envsnap_get(&e, "VAR_0"), "0");
	assert_string_equal(envsnap_get(&e, "VAR_7"), "seven");
	assert_string_equal(envsnap_get(&e, "VAR_65535"), "65535");
	assert_null(envsnap_get(&e, "VAR_65536")); /* the first name past the limit */
	assert_true(dt < 1.0);
	/* records past the limit are not copied: 4464 values of 1000 bytes add less than 1 MB */
	struct arena held, over;
	arena_init(&held);
	arena_init(&over);
	size_t head = (size_t)(strstr(text, "\nVAR_65536=") + 1 - text), big = head + 4464 * 1016, blen = head;
	char *btext = malloc(big);
	assert_non_null(btext);
	memcpy(btext, text, head);
	for (size_t i = 0; i < 4464; i++)
		blen += (size_t)snprintf(btext + blen, big - blen, "BIG_%04zu=%01000d\n", i, 0);
	envsnap_parse(&e, &held, span_make(btext, head), "held");
	envsnap_parse(&e, &over, span_make(btext, blen), "over");
	assert_int_equal(e.dropped, 4464);
	assert_true(over.total < held.total + (1u << 20));
	free(btext);
	arena_free(&held);
	arena_free(&over);
	/* a small snapshot is not marked */
	envsnap_parse(&e, &a, span_make("A=1\n", 4), "small");
	assert_int_equal(e.dropped, 0);
	free(text);
	arena_free(&a);
}

static void case_insensitive_dump_keeps_the_last_of_colliding_names(void **state)
{
	(void)state;
	struct arena a;
	arena_init(&a);
	struct envsnap e;
	const char win[] = "Path=C:\\old\r\nSystemRoot=C:\\Windows\r\nPATH=C:\\new\r\npath=C:\\newest\r\n";
	assert_int_equal(envsnap_parse(&e, &a, span_make(win, sizeof win - 1), "set"), 2);
	assert_string_equal(e.vars[0].name, "Path");
	assert_string_equal(envsnap_get(&e, "PATH"), "C:\\newest");
	arena_free(&a);
}

/* A Windows tree's --env without SystemRoot= is read case-sensitively; folding afterwards must
 * merge Path and PATH with the later value, as the parser does when it knows from the start. */
static void folding_case_later_merges_with_later_duplicates_winning(void **state)
{
	(void)state;
	struct arena a;
	arena_init(&a);
	struct envsnap e;
	const char text[] = "Path=C:\\old\nCUDA_PATH=C:\\CUDA\nPATH=C:\\new\ncuda_path=C:\\CUDA13\nX=1\n";
	assert_int_equal(envsnap_parse(&e, &a, span_make(text, sizeof text - 1), "set"), 5);
	assert_false(e.case_insensitive);
	assert_string_equal(envsnap_get(&e, "Path"), "C:\\old");
	envsnap_fold_case(&e, &a);
	assert_true(e.case_insensitive);
	assert_int_equal(e.n, 3);
	assert_string_equal(e.vars[0].name, "Path");
	assert_string_equal(e.vars[0].value, "C:\\new");
	assert_string_equal(e.vars[1].name, "CUDA_PATH");
	assert_string_equal(e.vars[1].value, "C:\\CUDA13");
	assert_string_equal(e.vars[2].name, "X");
	assert_string_equal(envsnap_get(&e, "path"), "C:\\new");
	arena_free(&a);
}

static void a_stray_nul_in_a_newline_dump_does_not_switch_to_nul_records(void **state)
{
	(void)state;
	struct arena a;
	arena_init(&a);
	struct envsnap e;
	const char lines[] = "PATH=/usr/bin\nODD=x\0y\nLD_LIBRARY_PATH=/opt/lib\n";
	assert_int_equal(envsnap_parse(&e, &a, span_make(lines, sizeof lines - 1), "env"), 3);
	assert_string_equal(envsnap_get(&e, "PATH"), "/usr/bin");
	assert_string_equal(envsnap_get(&e, "ODD"), "x");
	assert_string_equal(envsnap_get(&e, "LD_LIBRARY_PATH"), "/opt/lib");
	/* /proc/PID/environ: the first NUL comes first, and values may hold newlines */
	const char nul[] = "A=1\0B=two\nlines\0C=3\0";
	assert_int_equal(envsnap_parse(&e, &a, span_make(nul, sizeof nul - 1), "pid"), 3);
	assert_string_equal(envsnap_get(&e, "B"), "two\nlines");
	assert_string_equal(envsnap_get(&e, "C"), "3");
	arena_free(&a);
}

static char *write_temp(size_t size)
{
	static char path[] = "/tmp/cudx-envsnap-XXXXXX";
	memcpy(path + sizeof path - 7, "XXXXXX", 6);
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	char *buf = calloc(1, size);
	assert_non_null(buf);
	memcpy(buf, "A=1\nB=", 6);
	memset(buf + 6, 'x', size - 6);
	assert_int_equal(write(fd, buf, size), (ssize_t)size);
	free(buf);
	close(fd);
	return path;
}

static void a_file_over_the_limit_is_an_error_not_a_cut(void **state)
{
	(void)state;
	struct arena a;
	arena_init(&a);
	struct envsnap e;
	char *path = write_temp(ENVSNAP_MAX_FILE);
	assert_int_equal(envsnap_from_file(&e, &a, path), 0);
	assert_int_equal(strlen(envsnap_get(&e, "B")), ENVSNAP_MAX_FILE - 6);
	unlink(path);
	path = write_temp(ENVSNAP_MAX_FILE + 1);
	assert_int_equal(envsnap_from_file(&e, &a, path), EFBIG);
	unlink(path);
	arena_free(&a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(parses_env_output),
		cmocka_unit_test(parses_proc_environ_and_windows_set),
		cmocka_unit_test(splits_search_paths_keeping_empty_elements),
		cmocka_unit_test(many_variables_parse_in_linear_time_and_the_rest_is_counted),
		cmocka_unit_test(case_insensitive_dump_keeps_the_last_of_colliding_names),
		cmocka_unit_test(folding_case_later_merges_with_later_duplicates_winning),
		cmocka_unit_test(a_stray_nul_in_a_newline_dump_does_not_switch_to_nul_records),
		cmocka_unit_test(a_file_over_the_limit_is_an_error_not_a_cut),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
