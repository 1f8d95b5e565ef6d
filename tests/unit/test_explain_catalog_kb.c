/* The explain catalogue's knowledge-base part (src/explain/explain_catalog.c): built once and
 * shared, it gives the same catalogue as a full parse; texts several APIs print are chained. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "explain/explain.h"

static struct arena A;

static int setup(void **state)
{
	(void)state;
	arena_init(&A);
	return 0;
}
static int teardown(void **state)
{
	(void)state;
	arena_free(&A);
	return 0;
}

static struct span sp(const char *s)
{
	return span_make(s, strlen(s));
}

/* A small catalogue whose texts file repeats a text the knowledge base prints ("unknown error")
 * and has one row of its own twice. */
static struct explain_files small_files(void)
{
	return (struct explain_files){
		.causes = sp("key\tfinding\tcategory\tcause\tfix\tsource\nc1\tno-driver\tdriver\tc\tf\ts\n"),
		.texts = sp("api\tcode\ttext\tsource\n"
			    "cudart\t999\tunknown error\ts\n"
			    "cudart\t35\ta text of the test only\ts\n"
			    "cu\t999\ta text of the test only\ts\n"),
	};
}

/* Every text row is on exactly one chain, which starts at its text's first row and goes down the
 * table; returns the number of chains with more than one row. */
static size_t check_chains(const struct explain_catalog *cat)
{
	unsigned char *seen = calloc(cat->n_texts ? cat->n_texts : 1, 1);
	assert_non_null(seen);
	size_t shared = 0;
	for (size_t i = 0; i < cat->n_texts; i++) {
		if (!cat->texts[i].first)
			continue;
		size_t len = 0;
		for (long j = (long)i; j >= 0; j = cat->texts[j].next_same) {
			assert_false(seen[j]);
			seen[j] = 1;
			assert_true(j == (long)i || (j > (long)i && !cat->texts[j].first));
			assert_int_equal(cat->texts[j].len, cat->texts[i].len);
			assert_memory_equal(cat->texts[j].lc, cat->texts[i].lc, cat->texts[i].len);
			len++;
		}
		shared += len > 1;
	}
	for (size_t i = 0; i < cat->n_texts; i++)
		assert_true(seen[i]);
	/* no two chains hold the same text */
	for (size_t i = 0; i < cat->n_texts; i++)
		for (size_t j = i + 1; j < cat->n_texts && cat->texts[i].first; j++)
			assert_false(cat->texts[j].first && cat->texts[j].len == cat->texts[i].len &&
				     memcmp(cat->texts[j].lc, cat->texts[i].lc, cat->texts[i].len) == 0);
	free(seen);
	return shared;
}

static void test_builtin_texts_chained(void **state)
{
	(void)state;
	const struct explain_catalog *cat = explain_catalog_builtin(&A);
	assert_true(cat->n_texts > 100);
	/* "unknown error" and others are printed by several APIs */
	assert_true(check_chains(cat) >= 1);
}

static void test_file_rows_before_kb_rows(void **state)
{
	(void)state;
	struct explain_files f = small_files();
	struct explain_catalog cat;
	explain_catalog_parse(&A, &f, &cat);
	assert_int_equal(cat.n_errors, 0);
	assert_true(check_chains(&cat) >= 2);
	/* the file's rows come first: its "unknown error" heads the chain the kb's rows follow */
	assert_string_equal(cat.texts[0].lc, "unknown error");
	assert_true(cat.texts[0].first);
	assert_true(cat.texts[0].next_same > 2);
	assert_true(cat.texts[1].first);
	assert_int_equal(cat.texts[1].next_same, 2);
	assert_false(cat.texts[2].first);
	assert_int_equal(cat.texts[2].next_same, -1);
}

static void test_prebuilt_part_same_catalogue(void **state)
{
	(void)state;
	struct explain_files f = small_files();
	struct explain_catalog full, with[2];
	explain_catalog_parse(&A, &f, &full);
	struct explain_kb_part kb;
	explain_kb_part_build(&A, &kb);
	assert_true(kb.n_names > 300);
	assert_true(kb.n_texts > 100);
	for (int k = 0; k < 2; k++) { /* used twice: the part is not changed by a parse */
		explain_catalog_parse_with(&A, &f, &kb, &with[k]);
		assert_ptr_equal(with[k].names, kb.names);
		assert_int_equal(with[k].n_names, full.n_names);
		assert_int_equal(with[k].n_texts, full.n_texts);
		for (size_t i = 0; i < full.n_names; i++)
			assert_string_equal(with[k].names[i].lc, full.names[i].lc);
		for (size_t i = 0; i < full.n_texts; i++) {
			assert_string_equal(with[k].texts[i].lc, full.texts[i].lc);
			assert_ptr_equal(with[k].texts[i].code, full.texts[i].code);
			assert_int_equal(with[k].texts[i].next_same, full.texts[i].next_same);
			assert_int_equal(with[k].texts[i].first, full.texts[i].first);
		}
	}
	/* the part's own rows are linked once, and its heads are their first rows in text order */
	struct explain_catalog only_kb = { .texts = kb.texts, .n_texts = kb.n_texts };
	assert_true(check_chains(&only_kb) >= 1);
	size_t firsts = 0;
	for (size_t i = 0; i < kb.n_texts; i++)
		firsts += kb.texts[i].first;
	assert_int_equal(kb.n_heads, firsts);
	for (size_t h = 0; h < kb.n_heads; h++) {
		assert_true(kb.texts[kb.heads[h].row].first);
		assert_true(h == 0 || kb.heads[h - 1].len < kb.heads[h].len ||
			    (kb.heads[h - 1].len == kb.heads[h].len &&
			     memcmp(kb.heads[h - 1].lc, kb.heads[h].lc, kb.heads[h].len) < 0));
	}
}

/* Files with nearly as many text rows as a catalogue may hold: the kb's rows that do not fit are
 * left out and no chain points past the end. */
static void test_row_limit_cuts_chains(void **state)
{
	(void)state;
	size_t rows = 4000, cap = 64 + rows * 48;
	char *t = malloc(cap);
	assert_non_null(t);
	size_t n = (size_t)snprintf(t, cap, "api\tcode\ttext\tsource\n");
	for (size_t i = 0; i < rows; i++)
		n += (size_t)snprintf(t + n, cap - n, "cudart\t35\ta text of the test, row %05zu\ts\n", i);
	struct explain_files f = small_files();
	f.texts = span_make(t, n);
	struct explain_catalog cat;
	explain_catalog_parse(&A, &f, &cat);
	assert_int_equal(cat.n_texts, 4096);
	check_chains(&cat);
	free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_builtin_texts_chained),
		cmocka_unit_test(test_file_rows_before_kb_rows),
		cmocka_unit_test(test_prebuilt_part_same_catalogue),
		cmocka_unit_test(test_row_limit_cuts_chains),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
