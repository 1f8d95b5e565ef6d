/* The audit record of cudx run (src/fmt/auditrec.c) and the processes rebuilt from it
 * (src/collect/observed.c). The records are written as cudx-audit.so writes them; run.bats checks
 * the library itself against the real loader. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "collect/observed.h"
#include "fmt/auditrec.h"

static void parse(struct arena *a, const char *text, struct auditrec *rec, struct observed_run *run)
{
	auditrec_parse(a, span_make(text, strlen(text)), rec);
	if (run)
		observed_build(a, rec, run);
}

static void reads_every_line_type_and_unescapes(void **state)
{
	(void)state;
	struct arena a;
	arena_init(&a);
	struct auditrec rec;
	parse(&a,
	      "V 10 9 1 /opt/my app/bin/app\n"
	      "G 10 app --flag x\\ny\n"
	      "E 10 LD_LIBRARY_PATH=/a\\x3a/b\\\\c\n"
	      "O 10 1 0 \n"
	      "S 10 1 1 libcudart.so.13\n"
	      "O 10 2 -3 /x\n"
	      "F 11 10\n"
	      "C 10 2\n"
	      "A 10 2\n"
	      "P 10\n"
	      "T 10\n",
	      &rec, NULL);
	assert_int_equal(rec.n, 11);
	assert_int_equal(rec.bad_lines, 0);
	assert_true(rec.full);
	assert_false(rec.incomplete_last);
	assert_int_equal(rec.ev[0].type, 'V');
	assert_int_equal(rec.ev[0].pid, 10);
	assert_int_equal(rec.ev[0].a, 9);
	assert_int_equal(rec.ev[0].b, 1);
	assert_string_equal(rec.ev[0].text, "/opt/my app/bin/app");
	assert_string_equal(rec.ev[1].text, "app --flag x\ny");
	assert_string_equal(rec.ev[2].text, "LD_LIBRARY_PATH=/a:/b\\c");
	assert_string_equal(rec.ev[3].text, "");
	assert_int_equal(rec.ev[5].b, -3);
	assert_int_equal(rec.ev[6].a, 10);
	assert_null(rec.ev[7].text);
	arena_free(&a);
}

static void bad_lines_are_counted_and_the_rest_is_read(void **state)
{
	(void)state;
	struct arena a;
	arena_init(&a);
	struct auditrec rec;
	static char big[AUDITREC_MAX_LINE + 64];
	memset(big, 'x', sizeof big - 1);
	memcpy(big, "O 5 3 0 ", 8);
	big[sizeof big - 2] = '\n';
	const char *lines[] = {
		"X 1 2\n",                          /* unknown type */
		"S -4 1 1 a\n",                     /* bad pid */
		"O 5 one 0 a\n",                    /* bad number */
		"C 5 1 trailing\n",                 /* text where none belongs */
		"P\n",                              /* too short */
		"S 5 99999999999999999999 1 big\n", /* overflow */
		big,
		"S 5 1 1 fine\n",
		"O 5 2 0 /cut", /* no newline: the writer was killed mid-line */
	};
	char *text = "";
	for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++)
		text = arena_printf(&a, "%s%s", text, lines[i]);
	text[strlen("X 1 2\nS -4 1 1 a\nO 5 one 0 a\n") + 3] = '\0'; /* a NUL inside "C 5 1 trailing" */
	size_t len = 0;
	for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++)
		len += strlen(lines[i]);
	auditrec_parse(&a, span_make(text, len), &rec);
	assert_int_equal(rec.bad_lines, 7);
	assert_int_equal(rec.first_bad_line, 1);
	assert_string_equal(rec.first_bad, "unknown line type");
	assert_int_equal(rec.n, 1);
	assert_string_equal(rec.ev[0].text, "fine");
	assert_true(rec.incomplete_last);
	auditrec_parse(&a, span_make(NULL, 0), &rec);
	assert_int_equal(rec.n, 0);
	arena_free(&a);
}

/* The start-up of a program that needs libcudart (found through RUNPATH), then a dlopen that
 * finds nothing and one that finds libcuda through LD_LIBRARY_PATH. */
static const char run_text[] = "V 20 1 1 /app/bin/app\n"
			       "G 20 /app/bin/app\n"
			       "E 20 LD_LIBRARY_PATH=/drv\n"
			       "O 20 1 0 \n"
			       "O 20 2 0 /lib64/ld-linux-x86-64.so.2\n"
			       "S 20 1 1 libcudart.so.13\n"
			       "S 20 1 2 /drv/libcudart.so.13\n"
			       "S 20 1 4 /app/bin/../lib/libcudart.so.13\n"
			       "O 20 3 0 /app/bin/../lib/libcudart.so.13\n"
			       "A 20 0\n"
			       "P 20\n"
			       "S 20 3 1 libcudnn.so.8\n"
			       "S 20 3 2 /drv/libcudnn.so.8\n"
			       "S 20 3 64 /usr/lib/libcudnn.so.8\n"
			       "S 20 3 1 libcuda.so.1\n"
			       "S 20 3 2 /drv/libcuda.so.1\n"
			       "A 20 1\n"
			       "O 20 4 0 /drv/libcuda.so.1\n"
			       "A 20 0\n";

static void searches_and_opens_pair_up(void **state)
{
	(void)state;
	struct arena a;
	arena_init(&a);
	struct auditrec rec;
	struct observed_run run;
	parse(&a, run_text, &rec, &run);
	assert_int_equal(run.n_procs, 1);
	const struct observed_process *p = &run.procs[0];
	assert_string_equal(p->ld_library_path, "/drv");
	assert_int_equal(p->n_objs, 4);
	assert_true(p->objs[0].is_main);
	assert_string_equal(p->objs[0].path, "/app/bin/app");
	assert_null(p->objs[1].requested_as); /* ld.so: no search */
	const struct observed_object *rt = &p->objs[2];
	assert_string_equal(rt->requested_as, "libcudart.so.13");
	assert_int_equal(rt->requested_by, 1);
	assert_int_equal(rt->how, OBSERVED_SER_RUNPATH); /* the candidate that matched, not the first */
	assert_false(rt->at_runtime);
	const struct observed_object *cu = &p->objs[3];
	assert_true(cu->at_runtime);
	assert_int_equal(cu->requested_by, 3);
	assert_int_equal(cu->how, OBSERVED_SER_LIBPATH);
	assert_int_equal(p->n_searches, 3);
	const struct observed_search *dnn = &p->searches[1];
	assert_string_equal(dnn->name, "libcudnn.so.8");
	assert_int_equal(dnn->opened, 0);
	assert_int_equal(dnn->n_tried, 2);
	assert_int_equal(dnn->tried_how[1], OBSERVED_SER_DEFAULT);
	assert_int_equal(p->searches[2].opened, 4);
	assert_string_equal(observed_how_name(OBSERVED_SER_CONFIG), "ld.so.cache");
	assert_ptr_equal(observed_find_id(p, 3), rt);
	assert_null(observed_find_id(p, 9));
	arena_free(&a);
}

static void exec_fork_and_closes(void **state)
{
	(void)state;
	struct arena a;
	arena_init(&a);
	struct auditrec rec;
	struct observed_run run;
	const char *text = arena_printf(&a,
					"%s"
					"S 20 1 1 /x/libfoo.so\n"
					"O 20 5 0 /x/libfoo.so\n"
					"A 20 2\n"
					"C 20 5\n" /* dlclose */
					"A 20 0\n"
					"F 21 20\n"
					"S 21 3 1 libbar.so\n"
					"V 20 1 1 /usr/bin/python3\n" /* exec over the same pid */
					"O 20 1 0 \n"
					"O 20 2 0 /lib/libc.so.6\n"
					"A 20 2\n"
					"C 20 2\n" /* before the program itself: still the closing at exit */
					"C 20 1\n"
					"C 20 2\n",
					run_text);
	parse(&a, text, &rec, &run);
	assert_int_equal(run.n_procs, 3);
	const struct observed_process *app = &run.procs[0], *child = &run.procs[1], *py = &run.procs[2];
	assert_int_equal(app->objs[4].how, OBSERVED_SER_ORIG); /* a path: no search */
	assert_true(app->objs[4].closed);
	assert_int_equal(child->parent_pid, 20);
	assert_string_equal(child->exe, "/app/bin/app");
	assert_int_equal(child->n_objs, 5);
	assert_true(child->objs[0].inherited);
	assert_int_equal(child->searches[0].requested_by, 3); /* the inherited cudart */
	assert_string_equal(py->exe, "/usr/bin/python3");
	assert_int_equal(py->n_objs, 2);
	assert_false(py->objs[1].closed);
	arena_free(&a);
}

static void events_without_a_start_and_too_many_candidates(void **state)
{
	(void)state;
	struct arena a;
	arena_init(&a);
	struct auditrec rec;
	struct observed_run run;
	char *text = "S 30 7 1 libx.so\n";
	for (int i = 0; i < OBSERVED_MAX_TRIED + 5; i++)
		text = arena_printf(&a, "%sS 30 7 64 /d%d/libx.so\n", text, i);
	text = arena_printf(&a, "%sO 30 3 0 /a\nO 30 2 0 /b\nC 30 3\nS 30 2 1 liby.so\n", text);
	parse(&a, text, &rec, &run);
	assert_int_equal(run.n_procs, 1);
	assert_int_equal(run.orphan_events, 1);
	const struct observed_process *p = &run.procs[0];
	assert_null(p->exe);
	assert_int_equal(p->searches[0].n_tried, OBSERVED_MAX_TRIED);
	assert_int_equal(p->searches[0].more_tried, 5);
	assert_int_equal(p->searches[0].requested_by, 0); /* id 7 was never opened */
	assert_true(p->unordered);
	assert_true(observed_find_id(p, 3)->closed);
	assert_int_equal(p->searches[1].requested_by, 2); /* id 2 is the second object */
	arena_free(&a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(reads_every_line_type_and_unescapes),
		cmocka_unit_test(bad_lines_are_counted_and_the_rest_is_read),
		cmocka_unit_test(searches_and_opens_pair_up),
		cmocka_unit_test(exec_fork_and_closes),
		cmocka_unit_test(events_without_a_start_and_too_many_candidates),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
