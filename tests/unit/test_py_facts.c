/* src/collect/python_facts.c is data/python/frameworks_extra.tsv row for row, and its lookups answer
 * as the research (compat-facts §5-§7) says. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "collect/python_facts.h"

static void table_equals_tsv(void **state)
{
	(void)state;
	const char *src = getenv("CUDX_SRC");
	char path[4096];
	snprintf(path, sizeof path, "%s/data/python/frameworks_extra.tsv", src ? src : ".");
	FILE *f = fopen(path, "r");
	if (!f)
		skip(); /* run outside ctest without CUDX_SRC */
	char line[2048];
	size_t row = 0, bad = 0;
	bool header = true;
	while (fgets(line, sizeof line, f)) {
		line[strcspn(line, "\r\n")] = 0;
		if (line[0] == '#' || line[0] == 0)
			continue;
		if (header) {
			header = false;
			continue;
		}
		const char *cols[8] = { 0 };
		size_t nc = 0;
		for (char *p = line, *tab; nc < 8; p = tab + 1) {
			cols[nc++] = p;
			tab = strchr(p, '\t');
			if (!tab)
				break;
			*tab = 0;
		}
		assert_int_equal(nc, 8);
		if (row >= py_n_facts) {
			printf("TSV row %zu missing from python_facts.c: %s\t%s\t%s\n", row, cols[0], cols[1], cols[2]);
			bad++;
			row++;
			continue;
		}
		const struct py_fact *r = &py_facts[row];
		const char *got[8] = { r->kind, r->framework, r->version, r->cuda, r->cudnn, r->os, r->extra, r->source };
		for (size_t c = 0; c < 8; c++)
			if (strcmp(got[c], cols[c]) != 0) {
				printf("row %zu column %zu: TSV '%s', table '%s'\n", row, c, cols[c], got[c]);
				bad++;
			}
		assert_true(strlen(r->source) > 0 && strcmp(r->source, "-") != 0); /* every row has a source */
		row++;
	}
	fclose(f);
	assert_int_equal(bad, 0);
	assert_int_equal(row, py_n_facts);
}

static void lookups(void **state)
{
	(void)state;
	const struct py_fact *f = py_fact_build("tensorflow", "2.15.1", NULL, "linux");
	assert_non_null(f);
	assert_string_equal(f->cuda, "12.2");
	assert_string_equal(f->cudnn, "8.9");
	assert_null(py_fact_build("tensorflow", "2.150", NULL, "linux"));
	assert_null(py_fact_build("tensorflow", "2.15.0", NULL, "windows")); /* no native GPU build */
	f = py_fact_build("tensorflow", "2.10.1", NULL, "windows");
	assert_non_null(f);
	assert_string_equal(f->extra, "last-native-gpu");
	f = py_fact_build("torch", "2.5.1+cu124", "12.4", "linux");
	assert_non_null(f);
	assert_string_equal(f->cudnn, "9.1.0.70");
	f = py_fact_build("torch", "2.9.1", "13.0", "linux");
	assert_string_equal(f->cudnn, "9.13.0.50");
	/* 1.18.1 is more specific than 1.18: cuDNN 9 from 1.18.1 on, cuDNN 8 in 1.18.0 */
	assert_string_equal(py_fact_build("onnxruntime-gpu", "1.18.1", NULL, "linux")->cudnn, "9");
	assert_string_equal(py_fact_build("onnxruntime-gpu", "1.18.0", NULL, "linux")->cudnn, "8");
	assert_string_equal(py_fact_soname("cudnn", 8), "libcudnn.so.8");
	assert_string_equal(py_fact_soname("cufft", 12), "libcufft.so.11");
	assert_string_equal(py_fact_soname("cudart", 11), "libcudart.so.11.0");
	assert_null(py_fact_soname("cudart", 10));
	assert_string_equal(py_fact_floor(13, "linux"), "580.65.06");
	assert_string_equal(py_fact_floor(12, "windows"), "527.41");
	assert_non_null(py_fact_loads("torch"));
	assert_string_equal(py_fact_loads("tensorflow")->version, "tensorflow/libtensorflow_framework.so.2");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(table_equals_tsv),
		cmocka_unit_test(lookups),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
