/* src/fleet: the JSON scanner, the report reader and the grouping of `cudx compare`. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "diag/rule.h"
#include "fleet/fleet_compare.h"
#include "fleet/fleet_json.h"
#include "fleet/fleet_words.h"

static struct fleet_report report;

static bool scans(const char *doc)
{
	struct fleet_json j;
	fleet_json_init(&j, span_make(doc, strlen(doc)));
	return fleet_json_skip(&j) && fleet_json_at_end(&j);
}

static void scanner_accepts_json(void **state)
{
	(void)state;
	const char *ok[] = {
		"{}", "[]", " { \"a\" : [ 1 , -0 , 0.5 , 1e9 , -2.5E-3 , true , false , null ] } ",
		"\"\\u00e9\\n\\t\\\\\\/\\\"\"", "[[[[[[[[]]]]]]]]", "{\"a\":{\"b\":{\"c\":{}}},\"d\":[{},{}]}", "0", "-12.0e+1",
	};
	for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++)
		assert_true(scans(ok[i]));
}

static void scanner_rejects_garbage_with_a_reason(void **state)
{
	(void)state;
	struct {
		const char *doc, *err;
		size_t off;
	} bad[] = {
		{ "", "unexpected end of input", 0 },
		{ "{", "unexpected end of input", 1 },
		{ "{\"a\" 1}", "expected ':' after a key", 5 },
		{ "{\"a\":1,}", "expected a key (a string)", 7 },
		{ "[1,]", "unexpected character", 3 },
		{ "[1 2]", "expected ',' or ']'", 3 },
		{ "{\"a\":1]", "expected ',' or '}'", 6 },
		{ "\"abc", "unterminated string", 4 },
		{ "\"a\x01\"", "control character in a string", 2 },
		{ "\"\\x\"", "bad escape in a string", 1 },
		{ "\"\\u12g4\"", "bad \\u escape in a string", 1 },
		{ "01", "unexpected character", 1 }, /* "0" then trailing "1": not at end */
		{ "-", "bad number", 1 },
		{ "1.", "bad number", 2 },
		{ "1e+", "bad number", 3 },
		{ "tru", "unexpected character", 0 },
		{ "nul", "unexpected character", 0 },
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		struct fleet_json j;
		fleet_json_init(&j, span_make(bad[i].doc, strlen(bad[i].doc)));
		bool ok = fleet_json_skip(&j) && fleet_json_at_end(&j);
		assert_false(ok);
		if (j.err) {
			assert_string_equal(j.err, bad[i].err);
			assert_int_equal(j.err_off, bad[i].off);
		} else /* "01": a valid value followed by more */
			assert_string_equal("unexpected character", bad[i].err);
	}
}

/* n '[' then n ']' */
static const char *brackets(char *buf, size_t n)
{
	memset(buf, '[', n);
	memset(buf + n, ']', n);
	buf[2 * n] = '\0';
	return buf;
}

static void scanner_bounds_nesting(void **state)
{
	(void)state;
	char buf[200];
	assert_true(scans(brackets(buf, 64)));
	struct fleet_json j;
	fleet_json_init(&j, span_make(brackets(buf, 65), 130));
	assert_false(fleet_json_skip(&j));
	assert_string_equal(j.err, "nested deeper than 64 levels");
	assert_int_equal(j.err_off, 64);
	buf[129] = '\0';
	assert_false(scans(buf)); /* one ']' short */
}

static void strings_decode_through_jansson(void **state)
{
	(void)state;
	char out[16];
	const char *doc = "[\"plain\", \"caf\\u00e9\", null, 7, \"0123456789abcdef\", \"\\u0000\"]";
	struct fleet_json j;
	struct fleet_json_iter it = { 0 };
	fleet_json_init(&j, span_make(doc, strlen(doc)));
	assert_int_equal(fleet_json_element(&j, &it), 1);
	assert_int_equal(fleet_json_string(&j, out, sizeof out), 1);
	assert_string_equal(out, "plain");
	assert_int_equal(fleet_json_element(&j, &it), 1);
	assert_int_equal(fleet_json_string(&j, out, sizeof out), 1);
	assert_string_equal(out, "caf\xc3\xa9");
	assert_int_equal(fleet_json_element(&j, &it), 1);
	assert_int_equal(fleet_json_string(&j, out, sizeof out), 0);
	assert_int_equal(fleet_json_element(&j, &it), 1);
	assert_int_equal(fleet_json_string(&j, out, sizeof out), -1);
	assert_string_equal(j.err, "expected a string");
	j.err = NULL;
	assert_int_equal(fleet_json_element(&j, &it), 1);
	assert_int_equal(fleet_json_string(&j, out, sizeof out), -1); /* 16 bytes do not fit in 15 */
	assert_string_equal(j.err, "string too long");
	j.err = NULL;
	assert_int_equal(fleet_json_element(&j, &it), 1);
	assert_int_equal(fleet_json_string(&j, out, sizeof out), -1); /* jansson refuses NUL */
}

static bool read_doc(const char *doc)
{
	return fleet_report_read(span_make(doc, strlen(doc)), &report);
}

static void report_keeps_the_grouped_fields(void **state)
{
	(void)state;
	/* keys in another order than cudx writes them, unknown keys, nulls, a simulated GPU */
	const char *doc = "{\"findings\":[{\"id\":\"driver-too-old\",\"evidence\":[\"x\"]},{\"id\":\"driver-too-old\"},"
			  "{\"summary\":\"s\",\"id\":\"stub-libcuda\"}],"
			  "\"future\":{\"deep\":[1,{\"x\":null}]},"
			  "\"inventory\":{\"libraries\":[{\"version\":\"12.4.127\",\"family\":\"cuda-runtime\"},"
			  "{\"family\":\"cuda-runtime\",\"version\":\"11.8.89\"},{\"family\":\"cuda-runtime\",\"version\":\"12.4.127\"},"
			  "{\"family\":\"cudnn\",\"version\":null},{\"family\":\"cublas\",\"version\":\"12.4.5\"}],"
			  "\"gpus\":[{\"name\":\"NVIDIA A100\",\"source\":\"/proc/driver/nvidia/gpus/0/information\"},"
			  "{\"name\":\"NVIDIA A100\",\"source\":\"/proc\"},{\"name\":\"RTX 3090\",\"source\":\"--gpu\"}],"
			  "\"driver\":{\"kernel_version\":\"550.54.15\",\"effective_version\":\"550.54.15\"}},"
			  "\"system\":{\"hostname\":\"node17\",\"root\":\"/\"},"
			  "\"command\":\"check\",\"schema\":\"cudx/1\"}";
	assert_true(read_doc(doc));
	assert_string_equal(report.hostname, "node17");
	assert_string_equal(report.driver, "550.54.15");
	assert_int_equal(report.n_cudart, 2);
	assert_int_equal(report.n_cudnn, 0);
	assert_int_equal(report.n_gpus, 1);
	assert_int_equal(report.gpus[0].count, 2);
	assert_int_equal(report.n_findings, 2);
	/* a key spelled with an escape is not the key cudx writes */
	assert_true(read_doc("{\"schema\":\"cudx/1\",\"inventory\":{\"driver\":{\"effective\\u005fversion\":\"1\"}}}"));
	assert_string_equal(report.driver, "");
}

static void report_refusals_say_why(void **state)
{
	(void)state;
	struct {
		const char *doc, *error;
	} bad[] = {
		{ "", "empty file" },
		{ "[]", "not a cudx report: the document is not a JSON object" },
		{ "{\"inventory\":{}}", "not a cudx report: no \"schema\" key" },
		{ "{\"schema\":\"cudx/2\",\"inventory\":{}}", "schema 'cudx/2' is not supported: this cudx reads cudx/1" },
		{ "{\"schema\":\"cudx/1\",\"command\":\"why\",\"inventory\":{}}",
		  "a `cudx why` report: compare reads `cudx check --json` reports" },
		{ "{\"schema\":\"cudx/1\"}", "no \"inventory\" object: not a `cudx check --json` report" },
		{ "{\"schema\":\"cudx/1\",\"inventory\":[]}", "inventory has the wrong type at byte 31" },
		{ "{\"schema\":\"cudx/1\",\"inventory\":{\"gpus\":[{\"name\":5}]}}",
		  "inventory.gpus[].name has the wrong type at byte 48" },
		{ "{\"schema\":1,\"inventory\":{}}", "schema has the wrong type at byte 10" },
		{ "{\"schema\":\"cudx/1\",\"inventory\":{}", "not JSON: unexpected end of input at byte 33" },
		{ "{\"schema\":\"cudx/1\",\"inventory\":{}} {}", "not JSON: data after the end of the document at byte 35" },
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		assert_false(read_doc(bad[i].doc));
		assert_string_equal(report.error, bad[i].error);
	}
}

/* A node's report from its parts; NULL driver/cudart for none, gpus "8" A100s. */
static void node(struct fleet *f, const char *file, const char *driver, const char *cudart, unsigned gpus,
		 const char *finding)
{
	char doc[1024];
	snprintf(doc, sizeof doc,
		 "{\"schema\":\"cudx/1\",\"inventory\":{\"driver\":{\"effective_version\":%s%s%s},"
		 "\"libraries\":[{\"family\":\"cuda-runtime\",\"version\":\"%s\"}],\"gpus\":[%s]},"
		 "\"findings\":[%s%s%s]}",
		 driver ? "\"" : "", driver ? driver : "null", driver ? "\"" : "", cudart,
		 gpus == 8 ? "{\"name\":\"A\"},{\"name\":\"A\"},{\"name\":\"A\"},{\"name\":\"A\"},{\"name\":\"A\"},"
			     "{\"name\":\"A\"},{\"name\":\"A\"},{\"name\":\"A\"}"
			   : "{\"name\":\"A\"}",
		 finding ? "{\"id\":\"" : "", finding ? finding : "", finding ? "\"}" : "");
	assert_true(read_doc(doc));
	fleet_add(f, file, &report);
}

static void compare_names_the_odd_nodes(void **state)
{
	(void)state;
	struct arena a;
	arena_init(&a);
	struct fleet f;
	fleet_init(&f, &a);
	node(&f, "dir/node1.json", "550.54.15", "12.4.127", 8, NULL);
	node(&f, "dir/node2.json", "550.54.15", "12.4.127", 8, NULL);
	node(&f, "dir/node10.json", "550.54.15", "12.4.127", 8, NULL);
	node(&f, "dir/node17.json", "535.104.05", "12.4.127", 8, "driver-too-old");
	node(&f, "dir/node3.json", NULL, "12.4.127", 1, NULL);
	fleet_finish(&f);
	assert_int_equal(f.n_nodes, 5);
	assert_int_equal(f.n_outliers, 2);
	assert_false(f.tied[FLEET_DRIVER]);
	assert_string_equal(f.values[f.majority[FLEET_DRIVER]].s, "550.54.15");
	assert_string_equal(f.values[f.majority[FLEET_GPUS]].s, "8x A");
	assert_string_equal(f.nodes[3].name, "node17");
	assert_false(fleet_node_is_outlier(&f, &f.nodes[0]));
	assert_string_equal(fleet_outlier_line(&f, &f.nodes[3]),
			    "driver 535.104.05 (majority 550.54.15, 3 of 5 nodes); extra finding driver-too-old");
	assert_string_equal(fleet_outlier_line(&f, &f.nodes[4]),
			    "no driver (majority 550.54.15, 3 of 5 nodes); GPUs 1x A (majority 8x A, 4 of 5 nodes)");
	/* group order: most nodes first; within a group, node2 before node10 */
	uint32_t *groups;
	assert_int_equal(fleet_groups(&f, FLEET_DRIVER, &groups), 3);
	assert_int_equal(groups[0], f.majority[FLEET_DRIVER]);
	size_t *order = fleet_node_order(&f, FLEET_DRIVER);
	assert_string_equal(f.nodes[order[0]].name, "node1");
	assert_string_equal(f.nodes[order[1]].name, "node2");
	assert_string_equal(f.nodes[order[2]].name, "node10");

	/* the findings come from the fleet family's rule entries, over an inventory pointing at the
	 * comparison (what compare does) */
	fleet_add_unreadable(&f, "dir/bad.json", "empty file");
	struct options opt = { 0 };
	struct cudx_ctx ctx = { .arena = &a, .opt = &opt, .os = OS_LINUX };
	struct inventory inv = { .fleet = &f };
	struct findings fs;
	findings_init(&fs, &a);
	struct diag_ctx d = { .ctx = &ctx, .inv = &inv, .out = &fs };
	diag_run_family(&d, &rules_fleet, 1u);
	diag_finish(&d);
	assert_int_equal(fs.n, 3);
	const struct finding *x = findings_find(&fs, "fleet-node-differs");
	assert_non_null(x);
	assert_ptr_equal(x->rule, diag_rule("fleet-node-differs"));
	assert_int_equal(x->severity, diag_rule("fleet-node-differs")->severity);
	assert_string_equal(x->subject, "node17");
	assert_string_equal(x->evidence[1], "driver 535.104.05 (majority 550.54.15, 3 of 5 nodes)");
	x = findings_find(&fs, "fleet-report-unreadable");
	assert_non_null(x);
	assert_string_equal(x->subject, "dir/bad.json");
	assert_string_equal(x->cause, diag_rule("fleet-report-unreadable")->cause); /* the entry's texts */
	assert_true(x->n_fix >= 1);
	/* every other command's inventory points at no comparison: the family says nothing */
	struct findings none;
	findings_init(&none, &a);
	inv.fleet = NULL;
	d.out = &none;
	diag_run_family(&d, &rules_fleet, 1u);
	assert_int_equal(none.n, 0);
	arena_free(&a);
}

static void compare_missing_findings_and_ties(void **state)
{
	(void)state;
	struct arena a;
	arena_init(&a);
	struct fleet f;
	fleet_init(&f, &a);
	node(&f, "a.json", "550.54.15", "12.4.127", 8, "no-driver");
	node(&f, "b.json", "550.54.15", "12.4.127", 8, "no-driver");
	node(&f, "c.json", "550.54.15", "12.4.127", 8, NULL);
	node(&f, "d.json", "535.104.05", "12.4.127", 8, "no-driver");
	node(&f, "e.json", "535.104.05", "12.4.127", 8, "no-driver");
	fleet_finish(&f);
	/* 3 to 2 is a majority; the 2 nodes of 535 differ */
	assert_false(f.tied[FLEET_DRIVER]);
	assert_string_equal(fleet_outlier_line(&f, &f.nodes[2]), "missing finding no-driver");
	node(&f, "f.json", "535.104.05", "12.4.127", 8, "no-driver");
	fleet_finish(&f);
	/* 3 to 3: the group seen first leads, and the line says it is a tie */
	assert_true(f.tied[FLEET_DRIVER]);
	assert_string_equal(f.values[f.majority[FLEET_DRIVER]].s, "550.54.15");
	assert_string_equal(fleet_outlier_line(&f, &f.nodes[3]), "driver 535.104.05 (majority 550.54.15, 3 of 6 nodes, tied)");
	arena_free(&a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(scanner_accepts_json),
		cmocka_unit_test(scanner_rejects_garbage_with_a_reason),
		cmocka_unit_test(scanner_bounds_nesting),
		cmocka_unit_test(strings_decode_through_jansson),
		cmocka_unit_test(report_keeps_the_grouped_fields),
		cmocka_unit_test(report_refusals_say_why),
		cmocka_unit_test(compare_names_the_odd_nodes),
		cmocka_unit_test(compare_missing_findings_and_ties),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
