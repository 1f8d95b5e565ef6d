/* Every real error report in tests/fixtures/explain/error-cases.jsonl (copied from the shared
 * research, each with a confirmed root cause and a category) must be recognised, and classified
 * into its category by the catalogue alone, without a machine to look at:
 *  - top-1: the category of the best cause of the most relevant message;
 *  - candidates: the category is among the causes explain would check (at most
 *    EXPLAIN_MAX_CAUSES per message). Identical texts with different confirmed causes exist in
 *    the data set (e.g. "libcublasLt.so.11: cannot open ..." is a CUDA-major mismatch in two
 *    reports and a path problem in another): only the machine can tell those apart, which is
 *    what `explain` does with the candidates.
 * The issue requires >= 95 %; the numbers are printed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "explain/explain.h"

static const char *cases_path(void)
{
	static char buf[4096];
	const char *src = getenv("CUDX_SRC");
	snprintf(buf, sizeof buf, "%s/tests/fixtures/explain/error-cases.jsonl", src ? src : ".");
	return buf;
}

static bool cause_has_category(const struct explain_pattern_def *d, const char *category)
{
	for (size_t i = 0; i < d->n_causes; i++)
		if (strcmp(d->causes[i]->category, category) == 0)
			return true;
	return false;
}

static void test_error_cases(void **state)
{
	(void)state;
	FILE *f = fopen(cases_path(), "r");
	if (!f) {
		print_message("cannot open %s (set CUDX_SRC)\n", cases_path());
		skip();
	}
	struct arena a;
	arena_init(&a);
	const struct explain_catalog *cat = explain_catalog_builtin(&a);
	for (size_t i = 0; i < cat->n_errors; i++)
		print_message("catalogue: %s\n", cat->errors[i]);
	assert_int_equal(cat->n_errors, 0);

	char line[65536];
	int total = 0, recognised = 0, top1 = 0, in_candidates = 0;
	while (fgets(line, sizeof line, f)) {
		json_error_t jerr;
		json_t *j = json_loads(line, 0, &jerr);
		if (!j)
			continue;
		const char *id = json_string_value(json_object_get(j, "id"));
		const char *text = json_string_value(json_object_get(j, "error_text"));
		const char *category = json_string_value(json_object_get(j, "category"));
		assert_non_null(text);
		assert_non_null(category);
		total++;
		struct explain_scan sc;
		explain_scan_text(&a, cat, span_make(text, strlen(text)), &sc);
		if (sc.n_hits == 0) {
			print_message("  %s: NOT RECOGNISED (%s)\n", id, category);
		} else {
			const struct explain_pattern_def *d = sc.hits[0].def;
			recognised++;
			bool t1 = strcmp(d->causes[0]->category, category) == 0;
			bool cand = cause_has_category(d, category);
			top1 += t1;
			in_candidates += cand;
			if (!t1)
				print_message("  %s: %s, first cause %s (%s)%s\n", id, category,
					      d->causes[0]->key, d->id,
					      cand ? ", among the candidates" : ", NOT a candidate");
		}
		json_decref(j);
	}
	fclose(f);
	print_message("explain accuracy over %d real cases: recognised %d (%.1f %%), category among "
		      "the candidates %d (%.1f %%), top-1 without a machine %d (%.1f %%)\n",
		      total, recognised, 100.0 * recognised / total, in_candidates,
		      100.0 * in_candidates / total, top1, 100.0 * top1 / total);
	assert_true(total >= 80);
	assert_true(recognised * 100 >= total * 95);
	assert_true(in_candidates * 100 >= total * 95);
	assert_true(top1 * 100 >= total * 80);
	arena_free(&a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_error_cases),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
