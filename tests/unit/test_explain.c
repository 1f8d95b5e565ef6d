/* The explain matcher, the catalogue reader, the fact readers and the log scanner (src/explain/). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "explain/explain.h"
#include "explain/explain_rank.h"

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

/* Match src against text (both as a user would write them); returns the captures as "k=v;..." or
 * NULL when there is no match. The text is lower-cased the way the scanner does it. */
static const char *m(const char *src, const char *text)
{
	struct explain_pattern p;
	const char *err;
	assert_int_equal(explain_pattern_compile(&A, src, &p, &err), 0);
	size_t n = strlen(text);
	char *lc = arena_strdup(&A, text);
	for (size_t i = 0; i < n; i++)
		lc[i] = (char)(lc[i] >= 'A' && lc[i] <= 'Z' ? lc[i] + 32 : lc[i]);
	struct explain_capture caps[EXPLAIN_MAX_CAPS];
	struct explain_capbuf *buf = arena_alloc(&A, sizeof *buf);
	size_t nc;
	if (!explain_pattern_match(&p, span_make(text, n), span_make(lc, n), buf, caps, &nc))
		return NULL;
	char *out = arena_strdup(&A, "");
	for (size_t i = 0; i < nc; i++)
		out = arena_printf(&A, "%s%s=%s;", out, caps[i].key, caps[i].value);
	return out;
}

static void test_match_literals_and_types(void **state)
{
	(void)state;
	assert_string_equal(m("cannot open shared object file", "X: Cannot Open Shared Object File: y"), "");
	assert_null(m("cannot open shared object file", "cannot open shared file"));
	assert_string_equal(m("{lib}: cannot open shared object file",
			      "ImportError: libcudnn.so.8: cannot open shared object file: No such file"),
			    "lib=libcudnn.so.8;");
	/* a path is a library too; the trailing sentence dot is not part of it */
	assert_string_equal(m("in file {lib} with", "in file /usr/lib/libfoo.so.1 with"),
			    "lib=/usr/lib/libfoo.so.1;");
	assert_string_equal(m("load {lib}", "load libcuda.so."), "lib=libcuda.so;");
	assert_null(m("{lib}: cannot", "libcudnn: cannot")); /* no .so: not a library */
	assert_string_equal(m("could not load library {dll}. error code {num}",
			      "Could not load library cudnn_cnn_infer64_8.dll. Error code 126"),
			    "dll=cudnn_cnn_infer64_8.dll;num=126;");
	assert_null(m("library {dll}. error", "library cudnn_cnn_infer64_8.so. error"));
	assert_string_equal(m("compiled against {ver:built} but found runtime version {ver:found}",
			      "compiled against (8, 5, 0) but found runtime version (8, 4, 1)."),
			    "built=8.5.0;found=8.4.1;");
	assert_string_equal(m("library: {ver} but", "library: 8.0.5 but"), "ver=8.0.5;");
	assert_string_equal(m("architecture '{sm}'", "architecture 'compute_86'"), "sm=compute_86;");
	assert_string_equal(m("value '{sm}' is", "Value 'sm_121a' is"), "sm=sm_121a;");
	assert_string_equal(m("capability {sm} is", "capability 8.6 is"), "sm=8.6;");
	assert_string_equal(m("cuda>={ver:cuda}", "condition: cuda>=11.8, please"), "cuda=11.8;");
	/* a typed capture starts at a token boundary: no match inside "xlibfoo" for "{word}" + lit */
	assert_string_equal(m("{word} factory", "register cuDNN factory"), "word=cuDNN;");
}

static void test_match_gaps_and_spaces(void **state)
{
	(void)state;
	/* one pattern space stands for a blank run (the scanner collapses runs; the matcher itself
	 * sees single spaces) */
	assert_string_equal(m("error loading \"{text:path}\" or one of its dependencies",
			      "Error loading \"C:\\a b\\torch\\lib\\x.dll\" or one of its dependencies."),
			    "path=C:\\a b\\torch\\lib\\x.dll;");
	assert_string_equal(m("failed with error 126{*}providers_cuda.dll",
			      "LoadLibrary failed with error 126 \"\" when trying to load \"C:\\x\\onnxruntime_providers_cuda.dll\""),
			    "");
	assert_null(m("a{*}b{*}c", "a c b"));
	assert_string_equal(m("a{*}b{*}c", "xx a zz b yy c"), "");
	assert_string_equal(m("nvml error: {text}", "nvml error: driver not loaded"), "text=driver not loaded;");
	assert_string_equal(m("unable to load any of {{{lib}", "Unable to load any of {libcudnn_cnn.so.9.1.0, x}"),
			    "lib=libcudnn_cnn.so.9.1.0;");
}

static void test_compile_errors(void **state)
{
	(void)state;
	struct explain_pattern p;
	const char *err;
	assert_int_equal(explain_pattern_compile(&A, "abc {lib", &p, &err), -1);
	assert_int_equal(explain_pattern_compile(&A, "abc {regex}", &p, &err), -1);
	assert_int_equal(explain_pattern_compile(&A, "a {*}{text} b", &p, &err), -1);
	assert_int_equal(explain_pattern_compile(&A, "", &p, &err), -1);
	assert_int_equal(explain_pattern_compile(&A, "{num}{num}{num}{num}{num}{num}{num}{num}{num}", &p, &err), -1);
}

static void test_glob(void **state)
{
	(void)state;
	assert_true(explain_glob("cudnn*64_8.dll", "cudnn_cnn_infer64_8.dll"));
	assert_true(explain_glob("CUDNN*", "cudnn64_9.dll"));
	assert_false(explain_glob("cudnn*64_8.dll", "cudnn_cnn_infer64_9.dll"));
	assert_true(explain_glob("libcuda.so*", "libcuda.so.1"));
	assert_false(explain_glob("libcuda.so*", "libcudart.so.12"));
	assert_true(explain_glob("a?c", "abc"));
	/* classes: a Docker container's host name is twelve hex digits */
	assert_true(explain_glob("[0-9a-f][0-9a-f]x", "4Fx"));
	assert_false(explain_glob("[0-9a-f][0-9a-f]x", "4gx"));
	assert_true(explain_glob("lib[cd]*", "libcudnn.so"));
	assert_false(explain_glob("lib[cd]*", "libnvrtc.so"));
	assert_true(explain_glob("a[b", "a[b")); /* no closing bracket: a literal '[' */
	assert_false(explain_glob("[0-9]", "12"));
}

static struct span sp(const char *s)
{
	return span_make(s, strlen(s));
}

static void test_catalog_errors(void **state)
{
	(void)state;
	const char *causes = "key\tfinding\tcategory\ton_windows\n"
			     "c1\tlib-not-found\tX\tc9\n"
			     "c1\tdup\tX\n"
			     "\tno-key\tX\n";
	const char *pats = "id\tweight\tform\tpattern\twhen\tcauses\tsource\n"
			   "# comment\n"
			   "p1\t10\t\tfoo {lib}\t\tc1\ts\n"
			   "p2\tx\t\tfoo\t\tc1\ts\n"
			   "p3\t10\t\tfoo {bad}\t\tc1\ts\n"
			   "p4\t10\t\tfoo\t\tnope\ts\n"
			   "p5\t10\t\tfoo\tnoequals\tc1\ts\n"
			   "p6\t10\t\tbar\tlib=lib*\tc1, nope\ts\n"
			   "p7\t10\tnot-found\t{lib}: gone\t\t\ts\n"
			   "p8\t10\tbogus-form\tx\t\t\ts\n"
			   "p9\t10\t\tbaz {text:x}\t!=q*\tc1\ts\n"
			   "p10\t10\t\tqux {text:x}\tx!=q*|r*\tc1\ts\n"
			   "p11\t10\thint\tquux\t\t!c1\ts\n"
			   "p12\t10\thint\tcorge\t\t!\ts\n"
			   "p13\t10\tnot-found\t{lib}: absent\t\t!c1\ts\n"
			   "p14\t10\t\tgrault\t\tc1,!c1\ts\n";
	const char *forms = "class\tmajor\tos\tform\tcauses\tsource\n"
			    "cudnn\t8\twindows\twin-126\tc1\ts\n"
			    "cudnn\tx\t*\tnot-found\tc1\ts\n"
			    "cudnn\t*\tmars\tnot-found\tc1\ts\n"
			    "cudnn\t*\t*\tnot-found\tnope\ts\n"
			    "cudnn\t*\t*\tload-failed\t!c1\ts\n";
	const char *texts = "api\tcode\ttext\tsource\n"
			    "cudart\t35\tthe driver is old\ts\n"
			    "cudart\t123456\tno such code\ts\n";
	const char *vocab = "name\twords\tsource\n"
			    "gpu\tcuda|gpu\ts\n"
			    "empty\t\ts\n"
			    "braces\ta{b}|c\ts\n";
	const char *classes = "id\tweight\tform\tpattern\twhen\tcauses\tsource\n"
			      "k1\t10\t\tno {@gpu} found\t\tc1\ts\n"
			      "k2\t10\t\tno {@nope} found\t\tc1\ts\n";
	struct explain_files f = { sp(causes),
				   sp(pats),
				   sp("glob\tclass\n*.dll\tdll\n"),
				   sp(forms),
				   sp("prefix\tcomponent\ncu\tlibcuda\n"),
				   sp(texts),
				   sp(vocab),
				   sp(classes) };
	struct explain_catalog cat;
	explain_catalog_parse(&A, &f, &cat);
	assert_int_equal(cat.n_causes, 1);
	/* p1, p6 (its known cause), p7 (a form needs none), p10, p11 (a cause it contradicts), p13
	 * (a form, its !c1 refused), p14 (its c1; the !c1 beside it refused), k1 */
	assert_int_equal(cat.n_patterns, 8);
	assert_false(cat.patterns[0].generic);
	assert_true(cat.patterns[7].generic); /* a failure class: its {@gpu} expanded */
	assert_int_equal(cat.patterns[7].pat.items[1].kind, EI_ALT);
	assert_int_equal(cat.patterns[5].n_against, 0);
	assert_int_equal(cat.patterns[4].n_causes, 0);
	assert_int_equal(cat.patterns[4].n_against, 1);
	assert_ptr_equal(cat.patterns[4].against[0], &cat.causes[0]);
	/* a negated guard: the key before "!=" */
	assert_string_equal(cat.patterns[3].when_key, "x");
	assert_string_equal(cat.patterns[3].when_glob, "q*|r*");
	assert_true(cat.patterns[3].when_not);
	assert_false(cat.patterns[1].when_not);
	assert_int_equal(cat.n_vocab, 1);
	assert_string_equal(cat.patterns[1].when_key, "lib");
	assert_int_equal(cat.patterns[1].n_causes, 1);
	assert_string_equal(cat.patterns[2].form, "not-found");
	assert_int_equal(cat.n_libforms, 1);
	assert_int_equal(cat.libforms[0].major, 8);
	assert_int_equal(cat.libforms[0].os, 'w');
	assert_int_equal(cat.n_libclasses, 1);
	assert_int_equal(cat.n_symbols, 1);
	/* dup, no key, an on_windows naming no cause, bad weight, bad pattern, unknown cause (p4 and p6), p4 left without a cause,
	 * bad guard (p5, and p9's negated one without a key), bad form; libforms: bad major, bad os, unknown cause, a row left without causes,
	 * a contradicted cause (!c1: only message rows may say one) and that row left without causes;
	 * patterns: a '!' without a key (p12, then left without a cause), a form's !c1 (p13), a cause
	 * both named and contradicted (p14);
	 * texts: unknown code; vocabulary: a row without words, one with braces; classes: an unknown
	 * word group */
	for (size_t i = 0; i < cat.n_errors; i++)
		assert_non_null(strstr(cat.errors[i], ".tsv:"));
	assert_int_equal(cat.n_errors, 25);
	assert_string_equal(cat.causes[0].on_windows, ""); /* dropped, not left dangling */
	/* the knowledge base's codes are in every catalogue: names and printed texts */
	assert_true(cat.n_names > 300);
	bool found = false;
	for (size_t i = 0; i < cat.n_texts; i++)
		found |= strcmp(cat.texts[i].lc, "the driver is old") == 0;
	assert_true(found);
}

static bool cause_used(const struct explain_catalog *cat, const struct explain_cause_def *c)
{
	for (size_t p = 0; p < cat->n_patterns; p++)
		for (size_t k = 0; k < cat->patterns[p].n_causes; k++)
			if (cat->patterns[p].causes[k] == c)
				return true;
	for (size_t p = 0; p < cat->n_libforms; p++)
		for (size_t k = 0; k < cat->libforms[p].n_causes; k++)
			if (cat->libforms[p].causes[k] == c)
				return true;
	const struct kb_error *rows;
	size_t n = kb_errors(&rows);
	for (size_t i = 0; i < n; i++) {
		const struct explain_cause_def *cs[EXPLAIN_MAX_CAUSES];
		size_t m = explain_code_causes(cat, &rows[i], cs, EXPLAIN_MAX_CAUSES);
		for (size_t k = 0; k < m; k++)
			if (cs[k] == c)
				return true;
	}
	return false;
}

static void test_builtin_catalog(void **state)
{
	(void)state;
	const struct explain_catalog *cat = explain_catalog_builtin(&A);
	for (size_t i = 0; i < cat->n_errors; i++)
		print_message("%s\n", cat->errors[i]);
	assert_int_equal(cat->n_errors, 0);
	assert_true(cat->n_patterns >= 60);
	assert_true(cat->n_causes >= 40);
	assert_true(cat->n_libforms >= 40);
	/* every row of the patterns and classes has its own id: two rows of one id would both match and
	 * both count, and a fact would name either */
	size_t dups = 0;
	for (size_t i = 0; i < cat->n_patterns; i++)
		for (size_t j = i + 1; j < cat->n_patterns; j++)
			if (strcmp(cat->patterns[i].id, cat->patterns[j].id) == 0) {
				print_message("pattern id %s twice\n", cat->patterns[i].id);
				dups++;
			}
	assert_int_equal(dups, 0);
	/* every cause is named by some table, and has a category and a fix */
	for (size_t c = 0; c < cat->n_causes; c++) {
		if (!cause_used(cat, &cat->causes[c]))
			print_message("cause %s unused\n", cat->causes[c].key);
		assert_true(cause_used(cat, &cat->causes[c]));
		assert_true(*cat->causes[c].category && *cat->causes[c].fix && *cat->causes[c].source);
	}
	/* every cause key of data/errors.tsv is a cause of the catalogue */
	const struct kb_error *rows;
	size_t n = kb_errors(&rows);
	for (size_t i = 0; i < n; i++) {
		size_t keys = 0;
		for (const char *s = rows[i].causes; s && *s; s = strchr(s, ',') ? strchr(s, ',') + 1 : NULL)
			keys++;
		const struct explain_cause_def *cs[EXPLAIN_MAX_CAUSES];
		size_t m = explain_code_causes(cat, &rows[i], cs, EXPLAIN_MAX_CAUSES);
		if (m != keys)
			print_message("errors.tsv %s %ld: causes '%s' not all known\n", rows[i].api, rows[i].code, rows[i].causes);
		assert_int_equal(m, keys);
	}
	/* every symbol prefix names a component the library forms can use */
	for (size_t i = 0; i < cat->n_symbols; i++)
		assert_true(cat->symbols[i].len > 0);
}

/* The first message of a text, scanned with the built-in catalogue. */
static const struct explain_message *first_message(const char *text)
{
	const struct explain_catalog *cat = explain_catalog_builtin(&A);
	struct explain_scan *sc = arena_calloc(&A, 1, sizeof *sc);
	explain_scan_text(&A, cat, span_make(text, strlen(text)), sc);
	return sc->n_msgs ? &sc->msgs[0] : NULL;
}

static const struct explain_fact *fact_of(const struct explain_message *m, enum explain_fact_kind k, size_t nth)
{
	for (size_t i = 0; m && i < m->n_facts; i++)
		if (m->facts[i].kind == k && nth-- == 0)
			return &m->facts[i];
	return NULL;
}

static void test_scan_log(void **state)
{
	(void)state;
	const struct explain_catalog *cat = explain_catalog_builtin(&A);
	const char *log =
		"2024-01-01 I tensorflow/core/platform/cpu_feature_guard.cc:182] This TensorFlow binary is optimized to use available CPU instructions\n"
		"W dso_loader.cc:64] Could not load dynamic library 'libcudnn.so.8'; dlerror: libcudnn.so.8: cannot open shared object file: No such file or directory\n"
		"W dso_loader.cc:64] Could not load dynamic library 'libcudnn.so.8'; dlerror: libcudnn.so.8: cannot open shared object file: No such file or directory\n"
		"\x01\x02\x03\x04\x05\x06\x07\x08\x0b\x0c\x0e\x0f\x10\x11\x12\x13\x14\x15\x16\x17\n"
		"\n\n\n\n\n"
		"RuntimeError: CUDA error:\t\tCUDA driver   version is insufficient for CUDA runtime version\r\n";
	struct explain_scan sc;
	explain_scan_text(&A, cat, span_make(log, strlen(log)), &sc);
	assert_int_equal(sc.lines, 10);
	assert_int_equal(sc.binary_lines, 1);
	assert_int_equal(sc.n_msgs, 3);
	/* most relevant first: the driver message (a code's text), then the library, then the
	 * harmless warning */
	assert_int_equal(sc.msgs[0].line_no, 10);
	assert_string_equal(explain_message_category(&sc.msgs[0]), "DRIVER_TOO_OLD");
	const struct explain_fact *code = fact_of(&sc.msgs[0], EXF_CODE, 0);
	assert_non_null(code);
	assert_string_equal(code->code->name, "cudaErrorInsufficientDriver");
	assert_string_equal(code->how, "text");
	assert_string_equal(explain_message_category(&sc.msgs[1]), "LIB_NOT_FOUND_OR_NOT_ON_LOADER_PATH");
	assert_int_equal(sc.msgs[1].count, 2);
	const struct explain_fact *form = fact_of(&sc.msgs[1], EXF_FORM, 0);
	assert_string_equal(form->form, "not-found");
	assert_string_equal(form->lib.name, "libcudnn.so.8");
	assert_string_equal(form->lib.kb->family, "cudnn");
	assert_int_equal(form->lib.major, 8);
	assert_string_equal(explain_message_category(&sc.msgs[2]), "BENIGN_WARNING");
}

static void test_scan_hostile(void **state)
{
	(void)state;
	const struct explain_catalog *cat = explain_catalog_builtin(&A);
	/* a 1 MiB line of 'a' with a message at its very end: cut at EXPLAIN_MAX_LINE, so the
	 * message is not seen, and the line is counted as cut */
	size_t n = 1u << 20;
	char *big = malloc(n + 200);
	assert_non_null(big);
	memset(big, 'a', n);
	strcpy(big + n, " no CUDA GPUs are available\nno CUDA GPUs are available\n");
	struct explain_scan sc;
	clock_t t0 = clock();
	explain_scan_text(&A, cat, span_make(big, strlen(big)), &sc);
	double secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
	assert_int_equal(sc.long_lines, 1);
	assert_int_equal(sc.n_msgs, 1);
	assert_int_equal(sc.msgs[0].line_no, 2);
	print_message("1 MiB line scanned in %.3f s\n", secs);
	/* 1 MiB of a repeated code word in 60 KB lines: every line is read in linear time */
	for (size_t i = 0; i + 12 < n; i += 12)
		memcpy(big + i, "error code 1", 12);
	for (size_t i = 60000; i < n; i += 60000)
		big[i] = '\n';
	big[n] = 0;
	t0 = clock();
	explain_scan_text(&A, cat, span_make(big, n), &sc);
	secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
	print_message("1 MiB of 'error code 1' (60 KB lines) scanned in %.3f s\n", secs);
	assert_true(secs < 20.0);
	/* a line of 20000 library names and codes: facts are bounded per line */
	size_t k = 0;
	while (k + 64 < n) {
		memcpy(big + k, "libcudnn.so.8: cannot open shared object file cudaErrorNoDevice ", 64);
		k += 64;
	}
	big[k] = 0;
	explain_scan_text(&A, cat, span_make(big, k), &sc);
	assert_int_equal(sc.n_msgs, 1);
	assert_true(sc.msgs[0].n_facts <= EXPLAIN_MAX_FACTS);
	free(big);
}

/* Facts: each extractor on forms that appear in no catalogue row and in none of the shared
 * reports (other code numbers, other libraries, other symbols). */
static void test_facts(void **state)
{
	(void)state;
	/* a code by number with a word announcing it, the API from the line's words */
	const struct explain_message *m = first_message("cuMemAlloc failed: CUDA error 2 (driver API)");
	assert_non_null(m);
	assert_string_equal(fact_of(m, EXF_CODE, 0)->code->api, "cu");
	assert_int_equal(fact_of(m, EXF_CODE, 0)->code->code, 2);
	/* a name of any API, also an alias; success is no error */
	m = first_message("status = CUDNN_STATUS_ALLOC_FAILED");
	assert_string_equal(fact_of(m, EXF_CODE, 0)->code->api, "cudnn8"); /* cuDNN 9 has it as an alias */
	assert_string_equal(m->cands[0].cause->finding, "gpu-out-of-memory");
	assert_ptr_equal(kb_error_by_name("cudnn_status_alloc_failed"), kb_error_lookup("cudnn8", 2));
	assert_null(first_message("assert(err == cudaSuccess) passed; ncclSuccess"));
	m = first_message("NCCL error in: /opt/nccl.cc:42, ncclSystemError: unhandled system error (run with NCCL_DEBUG=INFO for details)");
	assert_string_equal(fact_of(m, EXF_CODE, 0)->code->api, "nccl");
	/* a number and the library's own text of another numbering: the text wins */
	m = first_message("THCudaCheck FAIL file=x.cu line=12 error=30 : unknown error");
	assert_string_equal(fact_of(m, EXF_CODE, 0)->how, "text");
	assert_null(fact_of(m, EXF_CODE, 1));
	/* numbers that are no codes: versions, file:line, line=, no API word */
	assert_null(first_message("E cuda_driver.cc:314] version 12.4 at line 35"));
	assert_null(first_message("build failed with error 35"));
	/* a Windows code in a DLL's message refines its form */
	m = first_message("LoadLibrary failed with error 193 \"\" when trying to load \"C:\\x\\nvrtc64_120_0.dll\"");
	const struct explain_fact *form = fact_of(m, EXF_FORM, 0);
	assert_string_equal(form->form, "win-193");
	assert_string_equal(form->lib.name, "nvrtc64_120_0.dll");
	/* a library the catalogue does not name, and one whose underscore was lost */
	m = first_message("Could not locate cufft64_11.dll. Please make sure it is in your library path!");
	assert_string_equal(fact_of(m, EXF_FORM, 0)->lib.kb->component, "cufft");
	m = first_message("cudnn adv64_9.dll is not found");
	assert_string_equal(fact_of(m, EXF_FORM, 0)->lib.name, "cudnn_adv64_9.dll");
	/* undefined symbols: the family that exports them, mangled or versioned */
	m = first_message("symbol lookup error: ./app: undefined symbol: cuGraphInstantiateWithParams");
	assert_string_equal(fact_of(m, EXF_FORM, 0)->component, "libcuda");
	m = first_message("undefined symbol: _ZN5cudnn7backend10getVersionEv");
	assert_string_equal(fact_of(m, EXF_FORM, 0)->component, "cudnn");
	m = first_message("undefined symbol: cusparseSpSM_analysis, version libcusparse.so.12");
	assert_string_equal(fact_of(m, EXF_FORM, 0)->component, "cusparse");
	m = first_message("undefined symbol: ncclCommInitRankScalable");
	assert_string_equal(fact_of(m, EXF_FORM, 0)->component, "nccl");
	/* a number is OptiX's only where the line names OptiX: 7801 alone is no code */
	m = first_message("optixInit() failed: error code 7804");
	assert_non_null(m);
	bool optix = false;
	for (size_t i = 0; i < m->n_facts; i++)
		optix |= m->facts[i].kind == EXF_CODE && m->facts[i].code && strcmp(m->facts[i].code->api, "optix") == 0 &&
			 m->facts[i].code->code == 7804;
	assert_true(optix);
	assert_null(first_message("the run finished with code 7804 after 3 s"));
	/* a framework's C++ namespace (ATen, c10, TensorFlow), mangled; a C name that only begins alike is none */
	m = first_message("ImportError: /x/knn.so: undefined symbol: _ZN3c105ErrorC1ENS_14SourceLocationERKSs");
	assert_string_equal(fact_of(m, EXF_FORM, 0)->component, "torch");
	m = first_message("undefined symbol: _ZNK2at6Tensor7is_cudaEv");
	assert_string_equal(fact_of(m, EXF_FORM, 0)->component, "torch");
	m = first_message("_zero_out_op.so: undefined symbol: _ZN10tensorflow8OpKernel11TraceStringEb");
	assert_string_equal(fact_of(m, EXF_FORM, 0)->component, "tensorflow");
	m = first_message("undefined symbol: atanf");
	assert_null(fact_of(m, EXF_FORM, 0)->component);
	/* versions: driver and CUDA, a torch variant, an architecture */
	m = first_message("CUDA error: CUDA driver version is insufficient: Driver Version: 470.82.01, torch 2.3.0+cu121, sm_86");
	assert_non_null(m);
	bool drv = false, cuda = false, sm = false;
	for (size_t i = 0; i < m->n_facts; i++) {
		const struct explain_fact *f = &m->facts[i];
		drv |= f->kind == EXF_VERSION && strcmp(f->what, "driver") == 0 && strcmp(f->value, "470.82.01") == 0;
		cuda |= f->kind == EXF_VERSION && strcmp(f->what, "cuda") == 0 && strcmp(f->value, "12.1") == 0;
		sm |= f->kind == EXF_ARCH && f->sm == 86;
	}
	assert_true(drv && cuda && sm);
}

/* New messages, in forms that appear in no catalogue row and in none of the shared reports: the
 * facts must carry them to the right cause. Each pair: message, the cause explain must rank first
 * on the text alone. */
static const struct {
	const char *text, *finding;
} new_forms[] = {
	/* code numbers and names of every API */
	{ "CUDA failure 222: the provided PTX was compiled with an unsupported toolchain", "ptx-too-new" },
	{ "cuModuleLoadData returned 218", "ptx-too-new" },
	{ "error: cudaErrorJitCompilerNotFound while loading the module", "ptxjit-missing" },
	{ "cudaGetDeviceCount() returned cudaErrorStubLibrary", "stub-libcuda" },
	{ "nvmlInit_v2 failed: NVML_ERROR_LIB_RM_VERSION_MISMATCH", "driver-userspace-mismatch" },
	{ "NVML: Unable to determine the device handle for GPU 0000:3B:00.0: GPU is lost. Reboot the system", "gpu-lost" },
	{ "cudnnCreate() failed: CUDNN_STATUS_NOT_SUPPORTED_INCOMPATIBLE_CUDART", "cudnn-cuda-mismatch" },
	{ "cudnn status 3005 while building the graph", "driver-too-old" },
	{ "cublasLtMatmul returned CUBLAS_STATUS_ALLOC_FAILED", "gpu-out-of-memory" },
	/* cuFFT's internal error is PyTorch's cu117 build on an Ada GPU (S27): the cuFFT of CUDA 11.7,
	 * a release before sm_89, has no kernel for it (no-kernel-image, which the confirmed reports of
	 * sets 25 to 27 all accept), then a toolkit too old for the GPU, then the framework's build;
	 * the other math libraries' statuses take cuBLAS's causes */
	{ "RuntimeError: cuFFT error: CUFFT_INTERNAL_ERROR", "no-kernel-image" },
	{ "cusolverDnCreate(handle) failed: CUSOLVER_STATUS_ALLOC_FAILED", "gpu-out-of-memory" },
	{ "CUSPARSE_STATUS_ARCH_MISMATCH in cusparseSpMM", "framework-gpu-arch" },
	{ "CUDA error 804 at init.cu:12", "forward-compat-unsupported" },
	{ "nvidia-container-cli: initialization error: nvml error: insufficient permissions: unknown", "device-node-permission" },
	/* Windows codes with other DLLs, and in other languages */
	{ "Could not load library cudnn_adv_infer64_8.dll. Error code 127", "cudnn-mixed-versions" },
	{ "Could not load library cudnn_ops_train64_8.dll. Error code 126", "cudnn-zlibwapi-missing" },
	{ "OSError: [WinError 1114] A dynamic link library (DLL) initialization routine failed. Error loading \"C:\\venv\\Lib\\site-packages\\torch\\lib\\c10.dll\" or one of its dependencies.",
	  "dll-dependency-missing" },
	{ "OSError: [WinError 193] %1 ist keine zulässige Win32-Anwendung", "dll-wrong-arch" },
	{ "The application was unable to start correctly (0xc000007b).", "dll-wrong-arch" },
	{ "Could not load library cudnn_cnn_infer64_8.dll. Error code 1455", "windows-pagefile-too-small" },
	/* libraries of other families and majors */
	{ "ImportError: libcusolver.so.11: cannot open shared object file: No such file or directory", "lib-not-found" },
	{ "OSError: libnvidia-ml.so.1: cannot open shared object file: No such file or directory", "no-driver" },
	{ "error while loading shared libraries: libnvidia-ptxjitcompiler.so.1: cannot open shared object file", "ptxjit-missing" },
	{ "Could not load dynamic library 'nvcuda.dll'", "no-driver" },
	{ "Could not locate zlibwapi.dll. Please make sure it is in your library path!", "cudnn-zlibwapi-missing" },
	{ "/opt/app/libfoo.so: wrong ELF class: ELFCLASS32", "lib-wrong-arch" },
	{ "libcublasLt.so.12: file too short", "lib-damaged" },
	/* symbols of other families */
	/* cuTensorMapEncodeTiled came with CUDA 12.0: driver 470's libcuda lacks it (data/driver_symbols.tsv) */
	{ "python: symbol lookup error: /opt/x/libtorch_cuda.so: undefined symbol: cuTensorMapEncodeTiled", "driver-too-old" },
	{ "undefined symbol: cudnnGetLibConfig, version libcudnn.so.9", "cudnn-mixed-versions" },
	/* the caller of a missing cuDNN symbol: a framework's binary (its cuDNN is too old), not a
	 * cuDNN sub-library (two releases mixed) */
	{ "ImportError: /opt/venv/lib/python3.10/site-packages/torch/lib/libtorch_cuda.so: undefined symbol: cudnnGetLibConfig, version libcudnn.so.9",
	  "framework-cudnn-mismatch" },
	/* tools' own sentences and other wordings of known failures */
	{ "docker run --runtime=nvidia: Error response from daemon: unknown runtime specified nvidia", "container-toolkit-missing" },
	{ "nvrtc: error: failed to open libnvrtc-builtins.so.12.4. Make sure that libnvrtc-builtins.so.12.4 is installed correctly.",
	  "lib-not-found" },
	{ "ImportError: DLL load failed while importing _multiarray_cuda: The specified module could not be found.",
	  "python-dll-directory" },
	/* a kernel that failed to run: most often a framework build without code for the GPU (the
	 * cuBLAS code of the same meaning says so too); out of memory next */
	{ "CUDNN_STATUS_EXECUTION_FAILED in cudnnConvolutionForward", "framework-gpu-arch" },
	{ "jaxlib: Found cuBLAS version 120205, but JAX was built against version 120304, which is newer.", "pip-nvidia-shadowed" },
	{ "nvcc fatal   : Cannot find compiler 'cl.exe' in PATH", "nvcc-host-compiler-unsupported" },
	{ "ERROR: The Nouveau kernel driver is currently in use by your system.", "no-driver" },
	{ ">>> torch.cuda.is_available()  ->  False", "torch-cpu-build" },
	{ "AssertionError: libcuda.so cannot found!", "ldcache-stale" },
	/* JAX 0.4's wording of a failed CUDA plugin: the plugin's libraries first, whatever code it met */
	{ "CUDA backend failed to initialize: jaxlib/cuda/versions_helpers.cc:90: operation cuInit(0) failed: "
	  "CUDA_ERROR_NOT_INITIALIZED (Set TF_CPP_MIN_LOG_LEVEL=0 and rerun for more info.)",
	  "framework-lib-missing" },
	{ "E0301 jax._src.xla_bridge: CUDA backend failed to initialize: Unable to load cuPTI. Is it installed?",
	  "framework-lib-missing" },
	/* bitsandbytes' CPU fallback: it found no libcudart.so where it looks; another package "compiled
	 * without GPU support" is its CPU build */
	{ "UserWarning: The installed version of bitsandbytes was compiled without GPU support. 8-bit optimizers, "
	  "8-bit multiplication, and GPU quantization are unavailable.",
	  "lib-not-found" },
	{ "llama_cpp: the installed llama-cpp-python was compiled without GPU support", "framework-cpu-build" },
	/* a framework that asks to be rebuilt with CUDA is a CPU build (MXNet's storage.cc) */
	{ "mxnet.base.MXNetError: [16:53:11] src/storage/storage.cc:43: Please compile with CUDA enabled",
	  "framework-cpu-build" },
	{ "RuntimeError: this binary has no kernels; you need to rebuild with GPU support.", "framework-cpu-build" },
	/* a version of the missing library's family elsewhere in the message: another major */
	{ "Could not load dynamic library 'libcudart.so.11.0'; dlerror: libcudart.so.11.0: cannot open shared object file; LD_LIBRARY_PATH: /usr/local/cuda-12.2/lib64",
	  "lib-wrong-major" },
	{ "ImportError: libcudnn.so.8: cannot open shared object file (cuDNN 9.1 is what pip installed)", "lib-wrong-major" },
	/* the device plugin pod down: the node's runtime does not give it the driver */
	{ "kube-system   nvidia-device-plugin-daemonset-7xk2p   0/1   CrashLoopBackOff   5   4m", "container-toolkit-missing" },
	/* a device symbol missing: the module without code for this GPU did not load */
	{ "Cuda error in func 'scrypt_init' at line 212 : invalid device symbol.", "no-kernel-image" },
	/* a CUDA source file's name is a CUDA word: the short text counts next to it */
	{ "src/kernels/reduce.cu:120 invalid device symbol", "no-kernel-image" },
	{ "invalid device symbol\nsrc/kernels/reduce.cuh(88): here", "no-kernel-image" },
	{ "GPUassert: invalid device symbol kernel.cu 88", "no-kernel-image" },
	/* but not a compiler's diagnostic about a CUDA source file: its words are the compiler's */
	{ "csrc/attn.cu:120:3: error: invalid argument type 'float4' to unary expression", "not recognised" },
	{ "x.cu(12): error: invalid argument", "not recognised" },
	/* a check macro's FILE:LINE: error: TEXT is the run-time error's */
	{ "src/kernel.cu:120: error: invalid device symbol", "no-kernel-image" },
	{ "render.cpp:88 Optix Error: 'Unsupported ABI version'", "driver-too-old" },
	{ "/usr/bin/ld: /opt/cuda/lib64/libcufft.so: file not recognized: File truncated", "lib-damaged" },
	/* a code in a message about a DLL: the Windows loader's causes */
	{ "Could not locate cudnn_engines_tensor_ir64_9.dll\nCUDNN_STATUS_SUBLIBRARY_LOADING_FAILED", "dll-not-found" },
	{ "CUDNN_STATUS_SUBLIBRARY_LOADING_FAILED", "lib-not-found" },
	/* JAX's own version check: the component it names decides, whatever wraps it */
	{ "CUDA backend failed to initialize: Unable to use CUDA because of the following issues with CUDA components:\n"
	  "Outdated cuDNN installation found.\nVersion JAX was built against: 8907\nMinimum supported: 9100\n"
	  "Installed version: 8907", "framework-cudnn-mismatch" },
	{ "Outdated cuSPARSE installation found.\nMinimum supported: 12200", "pip-nvidia-shadowed" },
	/* OptiX's codes (OptixResult, by number where the line says OptiX, or by name) */
	{ "Optix call (optixInit()) failed with code 7801 (line 150)", "driver-too-old" },
	{ "[OptiX] optixInit returned OPTIX_ERROR_LIBRARY_NOT_FOUND", "lib-not-found" },
	{ "OptiX error 7807 in optixAccelBuild", "gpu-out-of-memory" },
	/* an old CUDA's library alone is read literally: not found (another major comes second) */
	{ "ImportError: libcudart.so.10.1: cannot open shared object file: No such file or directory", "lib-not-found" },
	{ "W dso_loader.cc:55] Could not load dynamic library 'libcublas.so.9.0'; dlerror: libcublas.so.9.0: cannot open shared object file", "lib-not-found" },
	{ "libcufft.so.11: undefined symbol: __nvJitLinkCreate_12_8, version libnvJitLink.so.12", "lib-symbol-version-missing" },
	/* a PyTorch / TensorFlow C++ symbol missing: an extension built against another release (the
	 * probe's load of it fails) */
	{ "ImportError: /opt/conda/lib/python3.10/site-packages/fused_layer_norm_cuda.cpython-310-x86_64-linux-gnu.so: "
	  "undefined symbol: _ZN2at4_ops5zeros4callEN3c108ArrayRefINS2_6SymIntEEE", "probe-load-failed" },
	{ "OSError: /venv/lib/python3.11/site-packages/flash_attn_2_cuda.cpython-311-x86_64-linux-gnu.so: "
	  "undefined symbol: _ZN3c104cuda9SetDeviceEi", "probe-load-failed" },
	{ "tensorflow.python.framework.errors_impl.NotFoundError: ./_roi_pooling.so: undefined symbol: "
	  "_ZN10tensorflow7strings6StrCatB5cxx11ERKNS0_8AlphaNumES3_", "probe-load-failed" },
	/* versions in the text */
	{ "RuntimeError: found cuDNN version 9.1.0, but JAX was built against version 9.8.0", "framework-cudnn-mismatch" },
	{ "nvcc fatal   : Value 'sm_100' is not defined for option 'gpu-architecture'", "gpu-unsupported-by-toolkit" },
};

/* Facts in forms the catalogue holds no sentence for: a driver-API name without its CUDA_ prefix,
 * a library's printed text with its first words changed, the linker's -lNAME, and what the log
 * shows of the environment (a setting far above the error; a hint alone is no message). */
static void test_general_facts(void **state)
{
	(void)state;
	const struct explain_message *m = first_message("cuModuleLoadData: ERROR_INVALID_PTX at module.jl:40");
	assert_non_null(fact_of(m, EXF_CODE, 0));
	assert_string_equal(fact_of(m, EXF_CODE, 0)->code->name, "CUDA_ERROR_INVALID_PTX");
	/* a short name another API owns stays that API's */
	m = first_message("LoadLibrary failed: ERROR_MOD_NOT_FOUND");
	assert_string_equal(fact_of(m, EXF_CODE, 0)->code->api, "win32");

	m = first_message("fatal: Driver version is insufficient for CUDA runtime version (init.cpp:12)");
	assert_non_null(fact_of(m, EXF_CODE, 0));
	assert_string_equal(fact_of(m, EXF_CODE, 0)->code->name, "cudaErrorInsufficientDriver");
	/* a tail of a few common words is no code */
	assert_null(first_message("the runtime version of this tool is 3.1"));

	m = first_message("/usr/bin/ld: cannot find -lcudart: No such file or directory");
	const struct explain_fact *form = fact_of(m, EXF_FORM, 0);
	assert_non_null(form);
	assert_string_equal(form->form, "link-not-found");
	assert_string_equal(form->lib.name, "libcudart.so");
	assert_string_equal(m->cands[0].cause->finding, "lib-not-found");
	/* other linkers' wording of the same fact */
	m = first_message("ld.lld: error: unable to find library -lcurand");
	assert_non_null(m);
	assert_string_equal(fact_of(m, EXF_FORM, 0)->lib.name, "libcurand.so");
	assert_string_equal(m->cands[0].cause->finding, "lib-not-found");
	/* -lNAME keeps the dots and pluses of NAME, not a sentence's last dot */
	m = first_message("/usr/bin/ld: cannot find -lpython3.10: No such file or directory");
	assert_string_equal(fact_of(m, EXF_FORM, 0)->lib.name, "libpython3.10.so");
	m = first_message("collect2: ld: cannot find -lstdc++.");
	assert_string_equal(fact_of(m, EXF_FORM, 0)->lib.name, "libstdc++.so");

	/* a binding's lowerCamelCase status name is the C enum's code; an unknown one is nothing */
	m = first_message("wrapper raised cudnn.cudnnStatusBadParam in conv2d");
	assert_non_null(fact_of(m, EXF_CODE, 0));
	assert_string_equal(fact_of(m, EXF_CODE, 0)->code->name, "CUDNN_STATUS_BAD_PARAM");
	m = first_message("handle: cublasStatusAllocFailed");
	assert_string_equal(fact_of(m, EXF_CODE, 0)->code->name, "CUBLAS_STATUS_ALLOC_FAILED");
	assert_null(first_message("cudnn wrapper: cudnnStatusLooksFine"));
	m = first_message("pycuda raised curandStatusAllocationFailed");
	assert_string_equal(fact_of(m, EXF_CODE, 0)->code->name, "CURAND_STATUS_ALLOCATION_FAILED");
	/* cuSPARSE's printed texts are generic: they count only next to the library's name */
	m = first_message("cusparse: architecture mismatch");
	assert_string_equal(fact_of(m, EXF_CODE, 0)->code->name, "CUSPARSE_STATUS_ARCH_MISMATCH");
	m = first_message("kernel: architecture mismatch");
	assert_true(m == NULL || fact_of(m, EXF_CODE, 0) == NULL);
	/* the runtime's names without "cudaError", in CamelCase next to a CUDA word; a one-word rest
	 * and the same word without a CUDA word are nothing */
	m = first_message("CUDAError InsufficientDriver");
	assert_string_equal(fact_of(m, EXF_CODE, 0)->code->name, "cudaErrorInsufficientDriver");
	assert_string_equal(m->cands[0].cause->finding, "driver-too-old");
	m = first_message("raise CudaAPIError(NoKernelImageForDevice) from cuda.bindings");
	assert_string_equal(fact_of(m, EXF_CODE, 0)->code->name, "cudaErrorNoKernelImageForDevice");
	m = first_message("cuda: Unknown");
	assert_true(m == NULL || fact_of(m, EXF_CODE, 0) == NULL);
	assert_null(first_message("shader cache: InsufficientDriver flag cleared"));
	/* a code announced by the word after it, from 100 up; a count before "error" is no code */
	m = first_message("CUDA initialization fails with 802 system error.");
	assert_string_equal(fact_of(m, EXF_CODE, 0)->code->name, "cudaErrorSystemNotReady");
	assert_string_equal(m->cands[0].cause->finding, "fabric-manager-not-running");
	m = first_message("nvcc: CUDA 12.4: 1 error detected in the compilation of kernel.cu");
	assert_true(m == NULL || fact_of(m, EXF_CODE, 0) == NULL);
	m = first_message("CUDA batch: 300 images, 100 error");
	assert_true(m == NULL || fact_of(m, EXF_CODE, 0) == NULL);
	m = first_message("Epoch 100 error on CUDA device 0: 0.123");
	assert_true(m == NULL || fact_of(m, EXF_CODE, 0) == NULL);
	m = first_message("NVIDIA driver download failed: HTTP 500 error");
	assert_true(m == NULL || fact_of(m, EXF_CODE, 0) == NULL);

	const char *far = "$ export CUDA_VISIBLE_DEVICES=3\n$ python train.py\nloading\nloading\nloading\nloading\n"
			  "loading\nloading\nRuntimeError: cuInit failed: CUDA_ERROR_NOT_INITIALIZED\n";
	m = first_message(far);
	assert_string_equal(m->cands[0].cause->finding, "cuda-visible-devices-hides");
	m = first_message(strstr(far, "$ python"));
	assert_string_not_equal(m->cands[0].cause->finding, "cuda-visible-devices-hides");
	assert_null(first_message("$ export CUDA_VISIBLE_DEVICES=3\n$ ls /mnt/c/Users\n"));

	m = first_message("  File \"/mnt/c/Users/me/proj/.venv/lib/python3.12/site-packages/pkg/driver.py\", line 9\n"
			  "pkg.Error: cuInit returned CUDA_ERROR_NO_DEVICE (100)\n");
	assert_string_equal(m->cands[0].cause->finding, "wsl-libcuda");
}

/* A message wrapped over two lines, or a Python prompt and its value: read as one when neither
 * line says anything alone and the first ends open; lines that each say something stay apart. */
static void test_wrapped_lines(void **state)
{
	(void)state;
	const struct explain_message *m = first_message(">>> import torch\n>>> torch.cuda.is_available()\nFalse\n");
	assert_non_null(m);
	assert_string_equal(m->cands[0].cause->finding, "torch-cpu-build");
	assert_int_equal(m->line_no, 3);
	m = first_message("pytorch-gpu >=2.0 is not installable because it requires\n"
			  "  pytorch [...], which requires\n    __cuda =* *, which is missing on the system.\n");
	assert_string_equal(m->cands[0].cause->finding, "conda-cuda-virtual-package");
	/* a closed first line, or a prompt whose value says nothing, joins nothing */
	assert_null(first_message("torch.cuda.is_available() was called.\nFalse\n"));
	assert_null(first_message(">>> print(ok)\nFalse\n"));
	/* the joined line ends where its text does: an earlier, longer join left "5555" behind in the
	 * buffer, and the code was read as 25555 */
	m = first_message("note:\nxxxxxxxxxxxxxxxxxxxxxxxxxxx5555\n\ncudaMalloc returned error code:\n2\n");
	assert_non_null(m);
	assert_string_equal(fact_of(m, EXF_CODE, 0)->code->name, "cudaErrorMemoryAllocation");
	/* a second line that is a message by itself keeps its own facts */
	m = first_message("the loader reported, with\nlibcudnn.so.8: cannot open shared object file\n");
	assert_string_equal(m->line, "libcudnn.so.8: cannot open shared object file");
}

static void test_new_forms(void **state)
{
	(void)state;
	size_t n = sizeof new_forms / sizeof new_forms[0], ok = 0;
	for (size_t i = 0; i < n; i++) {
		const struct explain_message *m = first_message(new_forms[i].text);
		const char *got = m && m->n_cands ? m->cands[0].cause->finding : "not recognised";
		bool good = strcmp(got, new_forms[i].finding) == 0;
		if (!good)
			print_message("new form: '%s' -> %s, expected %s\n", new_forms[i].text, got, new_forms[i].finding);
		ok += good;
	}
	print_message("new message forms: %zu/%zu with the right cause first\n", ok, n);
	assert_int_equal(ok, n);
}

/* Real messages that are NOT in error-cases.jsonl (held out: the facts must be general), each
 * with the category its usual cause has. Quoted as the tools print them. */
static const struct {
	const char *text, *category;
} held_out[] = {
	{ "OSError: libcudart.so.12: cannot open shared object file: No such file or directory", "LIB_NOT_FOUND_OR_NOT_ON_LOADER_PATH" },
	{ "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB (GPU 0; 7.79 GiB total capacity)", "RESOURCE_EXHAUSTION_MASQUERADE" },
	{ "RuntimeError: The NVIDIA driver on your system is too old (found version 10020). Please update your GPU driver", "DRIVER_TOO_OLD" },
	{ "UserWarning: CUDA initialization: Found no NVIDIA driver on your system. Please check that you have an NVIDIA GPU and installed a driver", "DRIVER_NOT_LOADED_OR_MISSING" },
	{ "E external/local_xla/xla/stream_executor/cuda/cuda_driver.cc:282] failed call to cuInit: CUDA_ERROR_NO_DEVICE: no CUDA-capable device is detected", "NO_GPU_OR_VISIBILITY_CONFIG" },
	{ "cupy_backends.cuda.api.runtime.CUDARuntimeError: cudaErrorInsufficientDriver: CUDA driver version is insufficient for CUDA runtime version", "DRIVER_TOO_OLD" },
	{ "python: symbol lookup error: /usr/lib/x86_64-linux-gnu/libcudnn_cnn_infer.so.8: undefined symbol: _ZN5cudnn3cnn5infer22queryClusterPropertiesERPhS3_, version libcudnn_ops_infer.so.8", "CONFLICTING_LIB_COPIES_SYMBOL_ERROR" },
	{ "/lib/x86_64-linux-gnu/libstdc++.so.6: version `GLIBCXX_3.4.30' not found (required by /opt/conda/lib/python3.10/site-packages/torch/lib/libtorch_python.so)", "CONFLICTING_LIB_COPIES_SYMBOL_ERROR" },
	{ "NVIDIA GeForce RTX 4090 with CUDA capability sm_89 is not compatible with the current PyTorch installation.", "GPU_ARCH_NOT_IN_BINARY" },
	{ "docker: Error response from daemon: unknown or invalid runtime name: nvidia.", "CONTAINER_GPU_ACCESS" },
	{ "Failed to initialize NVML: Unknown Error", "CONTAINER_GPU_ACCESS" },
	{ "nvidia-container-cli: initialization error: nvml error: driver not loaded: unknown.", "DRIVER_NOT_LOADED_OR_MISSING" },
	{ "ImportError: DLL load failed while importing _C: The specified module could not be found.", "WIN_DLL_SEARCH_PATH" },
	{ "OSError: [WinError 126] The specified module could not be found. Error loading \"C:\\Python310\\lib\\site-packages\\torch\\lib\\c10.dll\" or one of its dependencies.", "WIN_DLL_SEARCH_PATH" },
	{ "Could not locate cudnn_adv_infer64_8.dll. Please make sure it is in your library path!", "WIN_CUDNN_DLL_MISSING_OR_MIXED" },
	{ "W tensorflow/compiler/xla/stream_executor/platform/default/dso_loader.cc:64] Could not load dynamic library 'libnvinfer.so.7'; dlerror: libnvinfer.so.7: cannot open shared object file", "LIB_NOT_FOUND_OR_NOT_ON_LOADER_PATH" },
	{ "RuntimeError: CUDA error: CUBLAS_STATUS_ALLOC_FAILED when calling `cublasCreate(handle)`", "RESOURCE_EXHAUSTION_MASQUERADE" },
	{ "jaxlib.xla_extension.XlaRuntimeError: FAILED_PRECONDITION: DNN library initialization failed. Look at the errors above for more details.", "CUDNN_RUNTIME_TOO_OLD" },
	{ "Could not load symbol cublasGetSmCountTarget from libcublas.so.11. Error: /usr/local/cuda/lib64/libcublas.so.11: undefined symbol: cublasGetSmCountTarget", "CONFLICTING_LIB_COPIES_SYMBOL_ERROR" },
	{ "RuntimeError: CUDA error: CUDA-capable device(s) is/are busy or unavailable", "DEVICE_STATE_UVM_FABRICMANAGER" },
	{ "The detected CUDA version (12.1) mismatches the version that was used to compile PyTorch (11.8). Please make sure to use the same CUDA versions.", "BUILD_TOOLCHAIN_MISMATCH" },
	{ "nvcc fatal   : Unsupported gpu architecture 'compute_90'", "BUILD_TOOLCHAIN_MISMATCH" },
	{ "modprobe: FATAL: Module nvidia not found in directory /lib/modules/6.5.0-1-amd64", "DRIVER_NOT_LOADED_OR_MISSING" },
	{ "modprobe: ERROR: could not insert 'nvidia': Required key not available", "DRIVER_NOT_LOADED_OR_MISSING" },
	{ "RuntimeError: CUDA driver initialization failed, you might not have a CUDA gpu.", "DRIVER_NOT_LOADED_OR_MISSING" },
	{ "[W:onnxruntime:Default, onnxruntime_pybind_state.cc:965 CreateExecutionProviderInstance] Failed to create CUDAExecutionProvider. Please reference https://onnxruntime.ai/docs/execution-providers/CUDA-ExecutionProvider.html#requirements", "CUDA_VERSION_SONAME_MISMATCH" },
	{ "CUDA error: the provided PTX was compiled with an unsupported toolchain.", "DRIVER_TOO_OLD" },
	{ "ldconfig: /usr/lib/wsl/lib/libcuda.so.1 is not a symbolic link", "WSL_LIBCUDA" },
	{ "2024-03-01 12:00:00.000000: E external/local_xla/xla/stream_executor/cuda/cuda_dnn.cc:9261] Unable to register cuDNN factory: Attempting to register factory for plugin cuDNN when one has already been registered", "BENIGN_WARNING" },
	{ "LoadLibrary failed with error 193 \"%1 is not a valid Win32 application.\" when trying to load \"C:\\x\\onnxruntime_providers_cuda.dll\"", "WIN_BITNESS_OR_INVALID_DLL" },
};

static void test_held_out_messages(void **state)
{
	(void)state;
	size_t n = sizeof held_out / sizeof held_out[0], top = 0, among = 0;
	for (size_t i = 0; i < n; i++) {
		const struct explain_message *m = first_message(held_out[i].text);
		bool found = false;
		for (size_t c = 0; m && c < m->n_cands; c++)
			found |= strcmp(m->cands[c].cause->category, held_out[i].category) == 0;
		const char *cat = m ? explain_message_category(m) : NULL;
		bool first = cat && strcmp(cat, held_out[i].category) == 0;
		if (!first)
			print_message("held out: '%s' -> %s, expected %s%s\n", held_out[i].text, cat ? cat : "not recognised",
				      held_out[i].category, found ? " (among the candidates)" : "");
		among += found;
		top += first;
	}
	print_message("held-out messages: %zu/%zu with their category first, %zu/%zu among the causes\n", top, n, among, n);
	assert_int_equal(among, n);
	assert_true(top * 10 >= n * 9);
}

/* ---- failure classes (data/explain_classes.tsv, word groups of data/explain_vocab.tsv): the
 * matcher's groups of alternatives, and each class on wordings written for this test (paraphrases
 * in the style of many tools, not copied from any report), with harmless lines that must not be
 * read as that failure ---------------------------------------------------------------------- */

/* Groups of alternatives and {end}: pattern, text, whether it matches. */
static const struct {
	const char *pattern, *text;
	bool match;
} alternation[] = {
	/* longest alternative first: "devices" is not read as "device" + "s found" */
	{ "no {device|devices} found", "no devices found", true },
	/* an optional group */
	{ "no {cuda |}device", "no device", true },
	{ "no {cuda |}device", "No CUDA device", true },
	/* at a block start an alternative begins a word: "unknown gpu" is not "no gpu" */
	{ "{no|zero} gpu", "unknown gpu", false },
	{ "{no|zero} gpu", "zero gpu", true },
	{ "x{*}{no|zero} gpu", "x, no gpu", true },
	{ "x{*}{no|zero} gpu", "x, unknown gpu", false },
	/* glued to a word it continues it; the end of an alternative is free */
	{ "device{s|(s)|} {detect|find}", "device(s) detected", true },
	{ "support{s|} cuda", "supports CUDA", true },
	/* {end}: the end of the line or punctuation, not another word */
	{ "built without cuda{end}", "built without CUDA", true },
	{ "built without cuda{end}", "built without CUDA; CPU only", true },
	{ "built without cuda{end}", "built without CUDA kernels", false },
};

static void test_alternation(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof alternation / sizeof alternation[0]; i++) {
		bool got = m(alternation[i].pattern, alternation[i].text) != NULL;
		if (got != alternation[i].match)
			print_message("'%s' on '%s': %d\n", alternation[i].pattern, alternation[i].text, got);
		assert_int_equal(got, alternation[i].match);
	}
	/* bounds */
	struct explain_pattern p;
	const char *err;
	char many[256] = "{";
	for (int i = 0; i < 40; i++)
		strcat(many, "a|");
	strcat(many, "}");
	assert_int_equal(explain_pattern_compile(&A, many, &p, &err), -1);
	assert_string_equal(err, "too many alternatives");
}

/* The first cause's finding of the first message of a text. */
static const char *first_finding(const char *text)
{
	const struct explain_message *msg = first_message(text);
	return msg && msg->n_cands ? msg->cands[0].cause->finding : "not recognised";
}

static const struct {
	const char *text, *finding;
} classes[] = {
	{ "warning: no usable CUDA devices were found, using the CPU", "no-device" },
	{ "sampler: detected 0 CUDA devices on this node", "no-device" },
	{ "[init] device count = 0", "no-device" },
	{ "There is no available device that supports CUDA", "no-device" },
	{ "gpu backend: no adapters were detected inside WSL", "wsl-libcuda" },
	{ "kernels in this binary target compute capability 7.0 but the GPU is compute capability 9.0",
	  "no-kernel-image" },
	/* a device older than the build's least architecture: that build dropped it (so were the
	 * real reports labelled: TensorFlow's "minimum required Cuda capability", PyTorch's "no
	 * longer supports this GPU") */
	{ "this plugin requires compute capability >= 7.5; the device has compute capability 6.1",
	  "framework-gpu-arch" },
	{ "current GPU: sm_61, minimum supported architecture sm_70", "framework-gpu-arch" },
	{ "fatal: GPU architecture mismatch detected", "no-kernel-image" },
	{ "invalid value for gpu architecture: 'sm_121'", "gpu-unsupported-by-toolkit" },
	{ "encoder: the installed NVIDIA driver is too old for this feature", "driver-too-old" },
	{ "this release needs a GPU driver version 550 or newer", "driver-too-old" },
	{ "The graphics driver does not support the requested API version", "driver-too-old" },
	{ "renderer: outdated NVIDIA driver", "driver-too-old" },
	{ "model loader: outdated cuDNN (8.2) found, version 8.9 required", "framework-cudnn-mismatch" },
	{ "warning: cuDNN version mismatch between build and runtime", "framework-cudnn-mismatch" },
	{ "plugin: could not open the cublas shared library", "lib-not-found" },
	{ "ERROR: nccl library could not be loaded", "lib-not-found" },
	{ "decoder: unable to load the NVIDIA driver library", "no-driver" },
	{ "nvidia-container-runtime-hook failed: exit status 1", "container-toolkit-missing" },
	{ "podman: error: unresolvable CDI devices nvidia.com/gpu=0", "container-toolkit-missing" },
	{ "FATAL: Module nvidia_uvm could not be loaded", "nvidia-uvm-missing" },
	{ "insmod: ERROR: could not insert module nvidia.ko: Key was rejected by service", "no-driver" },
	{ "dmesg: NVRM: the kernel module version does not match the client library version",
	  "driver-userspace-mismatch" },
	{ "nv-fabricmanager service failed to start", "fabric-manager-not-running" },
	{ "error: GPU out of memory while allocating 2 GiB", "gpu-out-of-memory" },
	{ "ERROR: the CUDA device is busy (exclusive process mode)", "gpu-busy" },
	{ "ptxas application ptx input, line 5; fatal   : Unsupported .version 9.0; current version is '8.7'",
	  "ptx-too-new" },
	{ "module loader: unsupported PTX version 8.8", "ptx-too-new" },
	{ "library was built without CUDA support", "framework-cpu-build" },
	{ "PyTorch 2.4.1+cpu is installed", "torch-cpu-build" },
	{ "kernels will be JIT-compiled from PTX at startup, this can take a while", "ptx-jit-only" },
	{ "open /dev/nvidia0: permission denied", "device-node-permission" },
	{ "cmake: could not find the CUDA toolkit", "cuda-toolkit-not-found" },
	{ "0/2 nodes are available: 2 Insufficient nvidia.com/gpu.", "container-toolkit-missing" },
	{ "Unable to determine the device handle for GPU 0000:01:00.0: Unknown Error", "gpu-lost" },
	{ "nvidia-smi: No NVIDIA driver found", "no-driver" },
	{ "kernel launch: CUDA error 'named symbol not found' in module.cu", "no-kernel-image" },
	{ "module.lua: libbar (v3) not found in library search path", "lib-not-found" },
	{ "WARNING: CUDA is not available, running on CPU", "framework-cpu-build" },
	{ "error: failed to compile PTX for the kernel", "ptx-too-new" },
	{ "solver: RESOURCE_EXHAUSTED: out of memory allocating 900MiB", "gpu-out-of-memory" },
	{ "allocator: ran out of memory when trying to allocate 4 GiB", "gpu-out-of-memory" },
	{ "renderer: insufficient graphics driver, please update", "driver-too-old" },
	{ "model init: unable to create a cuDNN handle", "gpu-out-of-memory" },
	{ "runtime: cuInit() failed with 999", "nvidia-uvm-missing" },
	{ "cannot load nvcuda: the module was not found", "no-driver" },
	{ "Successfully opened dynamic library libcufft.so.11", "harmless-warning" },
	{ "NVRM: GPU 0000:41:00.0: RmInitAdapter failed! (0x31:0x40:2463)", "gpu-lost" },
	{ "the GPU has fallen off the bus", "gpu-lost" },
	{ "stream executor: Err(Cuda(InvalidPtx))", "ptx-too-new" },
	{ "OOM while allocating a buffer of 3 GiB", "gpu-out-of-memory" },
	{ "loader: not enough video memory for the weights", "gpu-out-of-memory" },
	{ "trainer crashed with OutOfMemoryError", "gpu-out-of-memory" },
	{ "kernel: GPU-abc has dropped off the bus", "gpu-lost" },
	{ "the NVIDIA driver (470) cannot JIT this PTX", "ptx-too-new" },
	{ "init: cannot insert the nvidia_uvm module", "nvidia-uvm-missing" },
	{ "podman: unable to select a device driver for the gpu request", "container-toolkit-missing" },
	{ "The program can't start because cublas64_11.dll is missing", "dll-not-found" },
	{ "WSL2 session: libcuda.so.1: cannot open shared object file", "wsl-libcuda" },
	{ "this build targets a CUDA newer than your NVIDIA driver supports", "driver-too-old" },
	{ "compute capability 5.2 is lower than the required minimum of 6.0", "gpu-unsupported-by-toolkit" },
	{ "this model needs a GPU with compute capability 8.0", "gpu-unsupported-by-toolkit" },
	/* host compiler, toolkit not found, CPU-only builds, no code for the GPU, loader and linker
	 * wordings (classes added for issue 12 part 2; written for this test) */
	{ "nvcc fatal: unsupported GNU version! gcc versions later than 12 are not supported!", "nvcc-host-compiler-unsupported" },
	{ "error: the host compiler version is not supported by this CUDA release", "nvcc-host-compiler-unsupported" },
	{ "#error -- unsupported clang version! clang version must be less than 16 and greater than 3.2", "nvcc-host-compiler-unsupported" },
	{ "Visual Studio 2022 17.10 is not a supported host compiler for this CUDA version", "nvcc-host-compiler-unsupported" },
	{ "fatal: gcc 14 is newer than the newest host compiler nvcc 12.1 supports", "nvcc-host-compiler-unsupported" },
	{ "build: Unsupported Microsoft Visual Studio version! Only the versions between 2017 and 2022 are supported", "nvcc-host-compiler-unsupported" },
	{ "setup.py: nvcc was not found on PATH, cannot build the extension", "cuda-toolkit-not-found" },
	{ "make: nvcc: No such file or directory", "cuda-toolkit-not-found" },
	{ "'nvcc' is not recognized as an internal or external command", "cuda-toolkit-not-found" },
	{ "OSError: CUDA_HOME environment variable is not set. Please set it to your CUDA install root.", "cuda-toolkit-not-found" },
	{ "error: CUDA_PATH points to a directory that does not exist", "cuda-toolkit-not-found" },
	{ "CMake Error: No CMAKE_CUDA_COMPILER could be found.", "cuda-toolkit-not-found" },
	{ "-- Could NOT find CUDAToolkit (missing: CUDAToolkit_INCLUDE_DIR)", "cuda-toolkit-not-found" },
	{ "ext/kernel.cu:3:10: fatal error: cuda_runtime.h: No such file or directory", "cuda-toolkit-not-found" },
	{ "src/ops.cpp(12): fatal error C1083: Cannot open include file: 'cublas_v2.h': No such file or directory", "cuda-toolkit-not-found" },
	{ "mylib.cc:1: fatal error: 'cuda.h' file not found", "cuda-toolkit-not-found" },
	{ "failed to locate the CUDA installation; set CUDA_HOME", "cuda-toolkit-not-found" },
	{ "AssertionError: Torch not compiled with CUDA enabled", "torch-cpu-build" },
	{ "this library was compiled without GPU support", "framework-cpu-build" },
	{ "the installed package is a CPU-only build; GPU acceleration is unavailable", "framework-cpu-build" },
	{ "GPU support is not enabled in this build", "framework-cpu-build" },
	{ "warning: CUDA backend not available, falling back to CPU", "framework-cpu-build" },
	{ "GPU provider is not available in this installation", "framework-cpu-build" },
	{ "requested CUDA provider is not in the list of available providers", "framework-cpu-build" },
	{ "a CUDA-enabled version of the package is not installed, falling back to cpu", "framework-cpu-build" },
	{ "filterH: invalid device function", "no-kernel-image" },
	{ "kernel launch failed: no kernel image for this GPU architecture", "no-kernel-image" },
	{ "no binary for GPU in the fat binary", "no-kernel-image" },
	{ "error: no compatible kernel found for the device architecture", "no-kernel-image" },
	{ "The currently installed NVIDIA graphics driver is not supported by this application", "driver-too-old" },
	{ "error while loading cufft64_11.dll", "dll-not-found" },
	{ "Error loading \"C:\\app\\lib\\cudnn_ops64_9.dll\" or one of its dependencies.", "dll-not-found" },
	{ "/usr/bin/ld: cannot find -lcublas", "lib-not-found" },
	{ "ld: library not found for -lcudart", "lib-not-found" },
	{ "Loaded runtime cuDNN library 8.2 but the program was compiled with 8.9", "framework-cudnn-mismatch" },
	{ "nvidia: no CUDA device visible inside the podman container", "container-no-gpu" },
	{ "The installed version of g++ (13.2.0) is greater than the maximum required version by CUDA 11.8", "nvcc-host-compiler-unsupported" },
	{ "RuntimeError: Could not find `nvcc`; is the CUDA toolkit installed?", "cuda-toolkit-not-found" },
	{ "FileNotFoundError: [Errno 2] No such file or directory: '/usr/local/cuda/bin/nvcc'", "cuda-toolkit-not-found" },
	{ "CMake Error: CUDA Toolkit not found, set CUDAToolkit_ROOT", "cuda-toolkit-not-found" },
	{ "meson.build:10: ERROR: Dependency \"cuda\" not found, tried pkgconfig and system", "cuda-toolkit-not-found" },
	{ "configure: could not find any cuda.h in the given search paths", "cuda-toolkit-not-found" },
	{ "Please recompile with USE_CUDA=1 to enable GPU usage", "framework-cpu-build" },
	{ "warning: this binary was not compiled with GPU offload support, --n-gpu-layers is ignored", "framework-cpu-build" },
	{ "ERROR: the GPU tree learner is not enabled in this build; rebuild with the GPU option", "framework-cpu-build" },
	{ "kernels: this library was not compiled for any CUDA architecture <= 610", "no-kernel-image" },
	{ "The GPU architecture of this machine (Pascal) is not compatible with the installed package, built for arch 70 75 80", "framework-gpu-arch" },
	{ "clang: error: unsupported CUDA gpu architecture: sm_100", "gpu-unsupported-by-toolkit" },
	{ "runtime: no compatible GPUs were discovered, using CPU", "no-device" },
	{ "sh: 1: nvcc: not found", "cuda-toolkit-not-found" },
	{ "warning: the graphics driver installed is not supported, please install a supported version", "driver-too-old" },
	{ "/usr/lib/gcc/x86_64-linux-gnu/12/../../../../include/c++/12/bits/stl_algo.h:88:3: error: expected a type specifier", "nvcc-host-compiler-unsupported" },
	{ "C:\\VS\\include\\yvals_core.h(902): error STL1002: Unexpected compiler version, expected CUDA 12.4 or newer.", "nvcc-host-compiler-unsupported" },
	{ "hint: start the container with --gpus all to give it the GPUs", "container-no-gpu" },
	{ "error: this image must be run using the NVIDIA container runtime", "container-no-gpu" },
	/* round four: the library first or after "missing", ldd's "=> not found", CMake's libcuda
	 * variable, an unknown error at initialisation, a missing kernel module or device node on the
	 * host, libdevice, the THC wording of a cuBLAS code, a provider or PyTorch DLL, a WSL log */
	{ "error: required library libcufft.so.11 could not be found", "lib-not-found" },
	{ "Startup failed: missing cudart64_110.dll", "dll-not-found" },
	{ "plugin disabled, missing libnvinfer.so.10", "lib-not-found" },
	{ "        libcudnn.so.9 => not found", "lib-not-found" },
	{ "        cudnn64_9.dll => not found", "dll-not-found" },
	{ "-- Could NOT find CUDA_cuda_driver_LIBRARY: CUDA_cuda_driver_LIBRARY-NOTFOUND", "no-driver" },
	{ "   CUDA_CUDA_LIBRARY (ADVANCED)", "no-driver" },
	{ "error: could not initialise the GPU (unknown error)", "nvidia-uvm-missing" },
	{ "ERROR: The NVIDIA kernel module is not installed for this kernel", "no-driver" },
	{ "dkms: missing nvidia kernel module for 6.8.0-45-generic", "no-driver" },
	{ "containerd: failed to inject device /dev/nvidia1: stat /dev/nvidia1: no such file or directory", "no-driver" },
	{ "error gathering device information while adding custom device \"/dev/nvidia2\": no such file or directory", "no-device-nodes" },
	{ "XLA: could not locate libdevice under any CUDA root", "cuda-toolkit-not-found" },
	{ "error: libdevice file not found in /opt/cuda/nvvm/libdevice", "cuda-toolkit-not-found" },
	{ "warning: this library was not compile with GPU support", "framework-cpu-build" },
	{ "THCudaBlas: cublas runtime error : the GPU program failed to execute at THCBlas.cu:411", "no-kernel-image" },
	{ "cuDNN error: CUDNN_STATUS_EXECUTION_FAILED while running the convolution", "framework-gpu-arch" },
	{ "Error loading onnxruntime_providers_cuda.dll which depends on cudnn64_9.dll which is missing", "dll-wrong-major" },
	{ "error loading c10_cuda.dll", "dll-dependency-missing" },
	{ "Platform can not be registered due to failure of loading 'libnvrtc.so.10.1'", "lib-not-found" },
	/* DKMS could not build the module: none for the running kernel */
	{ "Error! Bad return status for module build on kernel: 6.5.0-14-generic (x86_64)", "no-driver" },
	{ "dkms autoinstall on 6.8.0-49-generic failed for nvidia(10)", "no-driver" },
	{ "Error! Could not find module source directory: /var/lib/dkms/nvidia/535.183.01/source does not exist", "no-driver" },
	{ "Ubuntu on WSL2: CUDA error: no CUDA-capable device is detected", "wsl-libcuda" },
	{ "healthcheck: nvidia-smi binary is missing, GPU metrics disabled", "no-driver" },
	{ "W dso_loader.cc:64] Could not load dynamic library 'libnvinfer_plugin.so.8'; dlerror: libnvinfer_plugin.so.8: cannot open shared object file", "harmless-warning" },
	/* round five (seventh set): the verb before a library, an architecture name rejected, a
	 * build's list of architectures, PyTorch's is_available() False, a container's host name */
	{ "error: not found: cudnn64_9.dll", "dll-not-found" },
	{ "Cannot find nvrtc64_120_0.dll", "dll-not-found" },
	{ "startup: unable to locate libcublasLt.so.12", "lib-not-found" },
	{ "the device sm_120 is not supported by this build", "framework-gpu-arch" },
	{ "compute_89 is incompatible with this binary", "framework-gpu-arch" },
	{ "this wheel supports CUDA architectures: sm_70 sm_80 sm_90", "framework-gpu-arch" },
	{ "kernels built for capabilities sm_50 sm_60 only", "framework-gpu-arch" },
	{ ">>> print(torch.cuda.is_available()) -> False", "torch-cpu-build" },
	{ "torch.cuda.is_available() returned False on the node", "torch-cpu-build" },
	{ "root@3f9a0c1b2d4e:/workspace# python train.py\nRuntimeError: No CUDA GPUs are available", "container-no-gpu" },
	{ "[root@0a1b2c3d4e5f /]# nvidia-smi\nNVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver.",
	  "container-no-gpu" },
	/* a public cuDNN name missing where no cuDNN library is named: the program's cuDNN is older */
	{ "python: symbol lookup error: undefined symbol: cudnnSetRNNDescriptor_v6", "framework-cudnn-mismatch" },
	/* ...but a cuDNN sub-library needing it is two releases mixed */
	{ "libcudnn_cnn_infer.so.8: undefined symbol: cudnnGetLibConfig", "cudnn-mixed-versions" },
	/* cuDNN cannot start when the CUDA runtime cannot (observed: cudnnCreate 1001 with driver 535
	 * and cudart 13) */
	{ "E0101 cudnn_ops.cc:12] cuDNN error: CUDNN_STATUS_NOT_INITIALIZED", "driver-too-old" },
	/* round six (eighth set): running nvidia-smi finds no file, ld's versioned undefined
	 * reference, cuDNN's NOT_SUPPORTED, TensorFlow's "no libcuda loaded", Python <= 3.7's bare
	 * "DLL load failed" (the module was found; a DLL it needs was not) */
	{ "monitor: the system cannot find the file specified: 'nvidia-smi.exe'", "no-driver" },
	{ "exec: \"nvidia-smi\": executable file not found in $PATH", "no-driver" },
	{ "ld: libops.so: undefined reference to `cusparseSpMM@libcusparse.so.12'", "lib-symbol-version-missing" },
	/* Chinese and Japanese write no blank between words and a library name (set ten: reports
	 * whose whole text is a title in Chinese) */
	{ "运行时提示 cufft64_11.dll 不存在", "dll-not-found" },
	{ "cublas64_11.dll不存在的错误", "dll-not-found" },
	{ "由于找不到cublas64_12.dll，无法继续执行代码。", "dll-not-found" },
	{ "报错：缺少 libcudnn_ops.so.9，请问怎么解决", "lib-not-found" },
	{ "libnvrtc.so.12 加载失败", "lib-not-found" },
	{ "cudart64_12.dll が見つかりません", "dll-not-found" },
	{ "nvcuda.dll が見つかりません", "no-driver" },
	{ "torch.cuda.is_available()一直返回False", "torch-cpu-build" },
	/* set twelve: "no kernel image" with another ending, glibc's version error without its tail, a
	 * DLL needed and not had, the device nodes missing, and three programs' own sentences */
	{ "no kernel image is available for execution on this driver (sm_86)", "no-kernel-image" },
	{ "libcublasLt.so.12: version libcublasLt.so.12 not defined in file libcublasLt.so.12", "lib-symbol-version-missing" },
	{ "the program needs cudart64_12.dll on its path but the PC didn't have it", "dll-not-found" },
	{ "after the reboot the /dev/nvidia* device files do not exist", "no-device-nodes" },
	{ "jaxlib: Unable to load cuBLAS. Is it installed?", "framework-lib-missing" },
	{ "RuntimeError: Unexpected error from cudaGetDeviceCount(). Did you run some cuda functions before?", "fabric-manager-not-running" },
	{ "AssertionError: Torch is not able to use GPU; add --skip-torch-cuda-test to COMMANDLINE_ARGS", "torch-cpu-build" },
	/* the runtime cannot mount the host's driver libraries over ones baked into the image */
	{ "nvidia-container-cli: mount error: file creation failed: /var/lib/docker/overlay2/0a1b/merged/usr/lib/x86_64-linux-gnu/libcuda.so.1: file exists: unknown", "driver-userspace-mismatch" },
	/* conda's CPU variants: a build string, the cpuonly metapackage, pytorch-mutex */
	{ "pytorch                   2.0.1              py3.10_cpu_0    pytorch", "torch-cpu-build" },
	{ "  - cpuonly=2.0", "torch-cpu-build" },
	{ "pytorch-mutex             1.0                         cpu    pytorch", "torch-cpu-build" },
	{ "cudnnConvolutionForward returned CUDNN_STATUS_NOT_SUPPORTED", "framework-cudnn-mismatch" },
	{ "kernel driver does not appear to be running on this host (gpu01)\nlibcuda reported version is: Not found: was "
	  "unable to find libcuda.so DSO loaded into this program",
	  "no-driver" },
	{ "ImportError: DLL load failed: The specified module could not be found.", "dll-dependency-missing" },
	/* wordings no tool row names (written before set 17's reports were read: none of them) */
	{ "The first epoch takes several minutes while later epochs need seconds", "ptx-jit-only" },
	{ "the model hangs for ten minutes before the first batch runs", "ptx-jit-only" },
	{ "程序启动后卡在初始化十几分钟", "ptx-jit-only" },
	{ "the app only uses the CPU for inference", "framework-cpu-build" },
	{ "CUDA driver initialization failed.", "no-driver" },
	{ "lsmod | grep nvidia returns nothing", "no-driver" },
	{ "after the kernel update the desktop comes up in 800x600 with llvmpipe", "no-driver" },
	{ "the plugin could not locate libcuda on this machine", "no-driver" },
};

/* A harmless line must not be read as the failure next to it. */
static const struct {
	const char *text, *not_finding;
} harmless[] = {
	{ "Found 4 CUDA devices", "no-device" },
	{ "number of devices: 01", "no-device" },
	{ "no errors found during the device scan", "no-device" },
	{ "architecture: x86_64", "no-kernel-image" },
	{ "driver loaded, version 550.54 is up to date", "driver-too-old" },
	{ "cuDNN version 9.1.0 loaded", "framework-cudnn-mismatch" },
	{ "loaded the cublas shared library from /usr/lib", "lib-not-found" },
	{ "nvidia-container-cli: info: loaded 12 libraries", "container-toolkit-missing" },
	{ "nouveau is not loaded", "no-driver" },
	{ "found libcuda in /usr/lib/x86_64-linux-gnu, loading it", "no-driver" },
	{ "Secure Boot is disabled on this machine", "no-driver" },
	{ "DKMS: install completed.", "no-driver" },
	{ "dkms status: nvidia/550.54.14, 6.8.0-31-generic, x86_64: installed", "no-driver" },
	{ "no errors; dkms.conf found", "no-driver" },
	{ "dkms status: nvidia/535.183.01, 6.1.0-27-amd64: installed (no errors)", "no-driver" },
	{ "nvidia-device-plugin-daemonset-7xk2p   1/1   Running   0   4m", "container-toolkit-missing" },
	{ "memory usage: 2 GiB of GPU memory in use", "gpu-out-of-memory" },
	{ "the GPU is idle", "gpu-busy" },
	{ "PTX version 8.5 is supported", "ptx-too-new" },
	{ "built with CUDA 12.4 support", "framework-cpu-build" },
	{ "not built with CUDA kernels for sm_50, using PTX", "framework-cpu-build" },
	{ "zoom level set", "gpu-out-of-memory" },
	{ "ERROR: the archive could not be opened", "lib-not-found" },
	{ "CUDA is available: True", "framework-cpu-build" },
	{ "ptx compiled OK", "ptx-too-new" },
	{ "found in library path: libfoo.so", "lib-not-found" },
	{ "driver check: the installed NVIDIA driver is sufficient", "driver-too-old" },
	{ "cuBLAS handle created", "gpu-out-of-memory" },
	{ "resource exhausted counter: 0", "gpu-out-of-memory" },
	{ "cuInit returned 0 (no unknown devices)", "nvidia-uvm-missing" },
	{ "NoBinaryForGpu", "no-kernel-image" },
	{ "GPU memory: 3 GiB free of 8 GiB", "gpu-out-of-memory" },
	{ "the bus driver is loaded; PTX files compiled", "gpu-lost" },
	{ "nvidia-uvm module loaded", "nvidia-uvm-missing" },
	{ "selected device driver for the gpu request", "container-toolkit-missing" },
	{ "the DLL list was not found in cache", "dll-not-found" },
	{ "compute capability 8.6 is supported", "gpu-unsupported-by-toolkit" },
	{ "the runtime is newer than last week", "driver-too-old" },
	{ "installed under WSL 2 with GPU support", "wsl-libcuda" },
	/* healthy build and start-up lines next to the classes of issue 12 part 2 */
	{ "$ docker run --rm --gpus all nvidia/cuda:12.4.1-base-ubuntu22.04 nvidia-smi", "container-no-gpu" },
	{ "started worker 3 with 4 threads", "container-no-gpu" },
	{ "/usr/include/c++/12/bits/stl_vector.h:1123:7: note: candidate: 'void push_back(const value_type&)'", "nvcc-host-compiler-unsupported" },
	{ "In file included from /usr/include/c++/12/vector:66,", "nvcc-host-compiler-unsupported" },
	{ "-- Installing: /opt/app/include/c++/util.h", "nvcc-host-compiler-unsupported" },
	{ "cmake -B build -DGGML_CUDA=ON", "framework-cpu-build" },
	{ "the option --foo is not enabled in this build", "framework-cpu-build" },
	{ "GPU driver: supported", "driver-too-old" },
	{ "-- Looking for a CUDA compiler - /usr/local/cuda/bin/nvcc", "cuda-toolkit-not-found" },
	{ "CUDA architectures: 75;80;86;89;90", "no-kernel-image" },
	{ "Dependency cuda found: YES 12.4", "cuda-toolkit-not-found" },
	{ "the tokenizer was not compiled for speed", "no-kernel-image" },
	{ "gcc version 12.2.0 (Debian 12.2.0-14)", "nvcc-host-compiler-unsupported" },
	{ "the compiler supports C++17", "nvcc-host-compiler-unsupported" },
	{ "nvcc: NVIDIA (R) Cuda compiler driver, release 12.4", "cuda-toolkit-not-found" },
	{ "CUDA_HOME=/usr/local/cuda", "cuda-toolkit-not-found" },
	{ "-- Found CUDAToolkit: /usr/local/cuda/include (found version \"12.4.131\")", "cuda-toolkit-not-found" },
	{ "#include <cuda_runtime.h>", "cuda-toolkit-not-found" },
	{ "config.h: No such file or directory", "cuda-toolkit-not-found" },
	{ "compiled with CUDA 12.1 support", "framework-cpu-build" },
	{ "CPU version: Intel(R) Xeon(R) Gold 6230", "framework-cpu-build" },
	{ "Available providers: ['CUDAExecutionProvider', 'CPUExecutionProvider']", "framework-cpu-build" },
	{ "GPU support is enabled", "framework-cpu-build" },
	{ "CUDA backend available: True", "framework-cpu-build" },
	{ "device function table loaded", "no-kernel-image" },
	{ "loading model.dll", "dll-not-found" },
	{ "ld: found -lcudart in /usr/local/cuda/lib64", "lib-not-found" },
	{ "the NVIDIA driver is supported", "driver-too-old" },
	{ "the docker container started", "container-no-gpu" },
	{ "falling back to the CPU tokenizer for speed", "framework-cpu-build" },
	{ "using the CPU version of the kernel for small inputs", "framework-cpu-build" },
	{ "warning: option -Wfoo is not supported by this compiler", "nvcc-host-compiler-unsupported" },
	{ "ODBC driver version is not supported", "driver-too-old" },
	{ "loaded cuDNN 9.1.0 (runtime), torch built with cuDNN 9.1.0", "framework-cudnn-mismatch" },
	{ "CUDA_HOME is set to /usr/local/cuda-12.4", "cuda-toolkit-not-found" },
	{ "nvcc --version: Cuda compilation tools, release 12.4, V12.4.131", "cuda-toolkit-not-found" },
	{ "no kernel changes were needed for the device tree", "no-kernel-image" },
	{ "-- The CUDA compiler identification is NVIDIA 12.4.131", "cuda-toolkit-not-found" },
	{ "-- Check for working CUDA compiler: /usr/local/cuda/bin/nvcc - skipped", "cuda-toolkit-not-found" },
	{ "#include \"cuda_runtime.h\"", "cuda-toolkit-not-found" },
	{ "[ 50%] Linking CXX shared library libops.so -lcudart -lcublas", "lib-not-found" },
	{ "CUDA extension loaded from ops.so", "framework-cpu-build" },
	{ "Using CUDA backend with 2 devices", "framework-cpu-build" },
	{ "ERROR: could not find the file model.ckpt", "cuda-toolkit-not-found" },
	{ "gcc (GCC) 13.2.1 20230801", "nvcc-host-compiler-unsupported" },
	{ "Successfully opened dynamic library libcudart.so.12", "lib-not-found" },
	{ "torch 2.3.1+cu121, cuda available: True", "framework-cpu-build" },
	{ "        libcudnn.so.9 => /usr/lib/x86_64-linux-gnu/libcudnn.so.9 (0x00007f3a2c000000)", "lib-not-found" },
	{ "-- Found CUDA_CUDA_LIBRARY: /usr/lib/x86_64-linux-gnu/libcuda.so", "no-driver" },
	{ "Failed to initialize NVML: Unknown Error", "nvidia-uvm-missing" },
	{ "kernel module nvidia loaded, version 550.54", "no-driver" },
	{ "found libdevice at /usr/local/cuda/nvvm/libdevice/libdevice.10.bc", "cuda-toolkit-not-found" },
	{ "CUDA error: no CUDA-capable device is detected", "wsl-libcuda" },
	{ "libcublas.so.12 is not missing any symbol", "lib-not-found" },
	{ "nvidia-smi found at /usr/bin/nvidia-smi, driver 550.54", "no-driver" },
	{ "W dso_loader.cc:64] Could not load dynamic library 'libcudnn.so.8'; dlerror: libcudnn.so.8: cannot open shared object file", "harmless-warning" },
	{ "found cublas64_12.dll in C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v12.4\\bin", "dll-not-found" },
	{ "[ok] found: libcublasLt.so.12", "lib-not-found" },
	{ "sm_86 is supported by this build", "framework-gpu-arch" },
	{ "torch.cuda.is_available(): True", "torch-cpu-build" },
	{ "root@3f9a0c1b2d4e:/# ls /data", "container-no-gpu" },
	{ "user@workstation:/workspace$ python train.py\nRuntimeError: No CUDA GPUs are available", "container-no-gpu" },
	{ "ls: cannot access 'nvidia-smi.log': No such file or directory", "no-driver" },
	{ "main.c:(.text+0x20): undefined reference to `main'", "lib-symbol-version-missing" },
	{ "cudnn64_8.dll 已加载成功", "dll-not-found" },
	{ "pytorch                   2.1.0   py3.10_cuda12.1_cudnn8.9.2_0    pytorch", "torch-cpu-build" },
	{ "pytorch 2.1.0 installed; the cpu count is 16", "torch-cpu-build" },
	{ "torch.cuda.is_available(): True, pin_memory=False", "torch-cpu-build" },
	{ "print(torch.cuda.is_available()) # True; amp_enabled=False", "torch-cpu-build" },
	{ ">>> print(torch.cuda.is_available(), torch.backends.cudnn.deterministic)\nTrue False", "torch-cpu-build" },
	{ "mkdir: cannot create directory '/opt/libcuda-cache': File exists", "driver-userspace-mismatch" },
	{ "kernel images are cached on disk; 3 kernel images available", "no-kernel-image" },
	{ "the symbol is defined in file libfoo.so", "lib-symbol-version-missing" },
	{ "we need cudart64_12.dll and have it in C:\\CUDA\\bin", "dll-not-found" },
	{ "ls /dev/nvidia* shows nvidia0 nvidiactl nvidia-uvm present", "no-device-nodes" },
	{ "loaded cuDNN 9.1. It is installed.", "framework-lib-missing" },
	{ "torch is able to use the GPU", "torch-cpu-build" },
	{ "libcudart.so.12 找到了，版本 12.4", "lib-not-found" },
	{ "libcudart.so.12 不存在问题，程序运行正常", "lib-not-found" },
	{ "cudnn64_8.dll 不存在任何兼容性问题", "dll-not-found" },
	{ "the first epoch takes 8 seconds, like every other", "ptx-jit-only" },
	{ "CUDA initialization finished in 0.2 s", "no-driver" },
	{ "dmesg | grep nvidia shows the module loaded: NVRM: loading NVIDIA UNIX x86_64 Kernel Module 550.54", "no-driver" },
};

static void test_classes(void **state)
{
	(void)state;
	size_t n = sizeof classes / sizeof classes[0], ok = 0;
	for (size_t i = 0; i < n; i++) {
		const char *got = first_finding(classes[i].text);
		bool good = strcmp(got, classes[i].finding) == 0;
		if (!good)
			print_message("class: '%s' -> %s, expected %s\n", classes[i].text, got, classes[i].finding);
		ok += good;
	}
	print_message("failure classes: %zu/%zu with the right cause first\n", ok, n);
	assert_int_equal(ok, n);
}

static void test_harmless(void **state)
{
	(void)state;
	size_t n = sizeof harmless / sizeof harmless[0], bad = 0;
	for (size_t i = 0; i < n; i++) {
		const char *got = first_finding(harmless[i].text);
		if (strcmp(got, harmless[i].not_finding) == 0) {
			print_message("harmless: '%s' -> %s\n", harmless[i].text, got);
			bad++;
		}
	}
	assert_int_equal(bad, 0);
}

/* An architecture pair decides by which side is older. */
static void test_arch_direction(void **state)
{
	(void)state;
	assert_string_equal(
		first_finding("code built for compute capability 8.0, but this device has compute capability 8.9"),
		"no-kernel-image");
	/* older than the code's least architecture: the build dropped that GPU */
	assert_string_equal(
		first_finding("code built for compute capability 8.0, but this device has compute capability 6.0"),
		"framework-gpu-arch");
	assert_string_equal(first_finding("device compute capability 5.2 is below the required compute capability 6.0"),
			    "framework-gpu-arch");
}

/* A tool's own sentence knows more than a class: the container CLI's NVML reason decides. */
/* Whether the first message of a text carries the environment hint of that pattern row. */
static bool has_hint(const char *text, const char *id)
{
	const struct explain_message *msg = first_message(text);
	for (size_t i = 0; msg && i < msg->n_facts; i++)
		if (msg->facts[i].kind == EXF_HINT && strcmp(msg->facts[i].pattern->id, id) == 0)
			return true;
	return false;
}

/* A docker/podman run command line in the log that asks for no GPU (no --gpus, NVIDIA runtime or
 * device) makes a container started without the GPUs the first cause of a message about no GPU;
 * one that asks for them is no such hint, and the hint never brings the cause to a message of
 * another kind (it strengthens causes the message has). */
static void test_container_run_hint(void **state)
{
	(void)state;
	const char *no_gpus = "RuntimeError: No CUDA GPUs are available";
	char buf[512];
	snprintf(buf, sizeof buf, "$ docker run --rm -it myorg/train:latest python train.py\n%s", no_gpus);
	assert_true(has_hint(buf, "container-run-no-gpus"));
	assert_string_equal(first_finding(buf), "container-no-gpu");
	assert_string_equal(first_finding("podman run -it localhost/ml python -c 'import torch'\n"
					  "no CUDA-capable device is detected"),
			    "container-no-gpu");
	const char *asks[] = { "$ docker run --gpus all --rm img python train.py",
			       "docker run --runtime=nvidia -e NVIDIA_VISIBLE_DEVICES=0 img",
			       "docker run --device=nvidia.com/gpu=all img", "podman run --device nvidia.com/gpu=0 img" };
	for (size_t i = 0; i < sizeof asks / sizeof asks[0]; i++) {
		snprintf(buf, sizeof buf, "%s\n%s", asks[i], no_gpus);
		assert_false(has_hint(buf, "container-run-no-gpus"));
	}
	assert_string_equal(first_finding("docker run --rm img python x.py\n"
					  "ImportError: libcudnn.so.8: cannot open shared object file: No such file or directory"),
			    first_finding("ImportError: libcudnn.so.8: cannot open shared object file: No such file or "
					  "directory"));
}

/* A form written for any OS names the Linux loader's causes; about a DLL they are the Windows
 * loader's (explain_causes.tsv on_windows): TensorRT's loader about a DLL and about a .so. */
static void test_dll_causes_on_windows(void **state)
{
	(void)state;
	assert_string_equal(first_finding("[error] 6: [libLoader.cpp::nvinfer1::rt::DynamicLibrary::Impl::Impl::288] "
					  "Error Code 6: Internal Error (Unable to load library: "
					  "nvinfer_builder_resource_10.dll)"),
			    "dll-not-found");
	assert_string_equal(first_finding("[error] 6: [libLoader.cpp::288] Error Code 6: Internal Error (Unable to "
					  "load library: libnvinfer_builder_resource.so.10.0.1)"),
			    "lib-not-found");
	const struct explain_catalog *cat = explain_catalog_builtin(&A);
	for (size_t i = 0; i < cat->n_causes; i++)
		if (*cat->causes[i].on_windows)
			assert_non_null(explain_cause_lookup(cat, cat->causes[i].on_windows));
	assert_string_equal(explain_cause_lookup(cat, "lib-not-found")->on_windows, "dll-not-on-path");
	/* cuDNN 7 is one DLL: not "only part of cuDNN" (its sub-DLLs came with 8), no zlibwapi.dll */
	const struct explain_message *m7 =
		first_message("Could not load dynamic library 'cudnn64_7.dll'; dlerror: cudnn64_7.dll not found");
	assert_non_null(m7);
	assert_string_equal(m7->cands[0].cause->key, "dll-not-on-path");
	for (size_t i = 0; i < m7->n_cands; i++)
		assert_string_not_equal(m7->cands[i].cause->key, "zlibwapi-missing");
}

/* "compile with CUDA 11.8 or later" asks for a version, not for a GPU build */
static void test_compile_with_cuda_lookalike(void **state)
{
	(void)state;
	assert_string_equal(first_finding("please compile with CUDA 11.8 or later"), "not recognised");
}

/* A message and the finding its first cause must be. */
struct form_case {
	const char *text, *finding;
};

/* Each case's first cause, every mismatch printed before the first failing assertion. */
static void expect_first_findings(const struct form_case *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const struct explain_message *m = first_message(v[i].text);
		const char *got = m && m->n_cands ? m->cands[0].cause->finding : "not recognised";
		/* "not X": anything but X first (a form that must not be read as X) */
		bool negated = strncmp(v[i].finding, "not ", 4) == 0 && strcmp(v[i].finding, "not recognised") != 0;
		bool ok = negated ? strcmp(got, v[i].finding + 4) != 0 : strcmp(got, v[i].finding) == 0;
		if (!ok)
			print_message("'%s' -> %s, expected %s\n", v[i].text, got, v[i].finding);
		assert_true(ok);
	}
}

/* ---- the forms set 25's misses showed (tests/fixtures/explain/machine/set25): each message's
 * first cause, and readings that must not happen ---------------------------------------------- */
static const struct form_case set25_forms[] = {
	/* a driver that says it will not drive the GPU, in a user's words */
	{ "NVIDIA 535 is incompatible with the GTX 760 and explicitly ignored the GPU at boot.", "driver-gpu-unsupported" },
	/* TensorFlow's kernel/DSO comparison with its versions cut short in the paste */
	{ "kernel version 470... does not match DSO version 515... -- cannot find working devices in this configuration",
	  "driver-userspace-mismatch" },
	/* an nvcc without its toolkit's nvvm/libdevice */
	{ "nvcc fatal   : Path to libdevice library not specified", "cuda-toolkit-not-found" },
	{ "Graphics driver 'nvidia-390-48' for Flatpak has not been found on your system.", "no-driver" },
	{ "time=2024-08-15T15:39:41.513Z level=DEBUG source=gpu.go:525 msg=\"discovered GPU libraries\" paths=[]", "no-driver" },
	{ "couldn't find binary nvidia-container-cli", "container-toolkit-missing" },
	/* a std:: symbol a compiled extension calls: built by another compiler or C++ ABI */
	{ "ImportError: /x/_C.cpython-38-x86_64-linux-gnu.so: undefined symbol: _ZNSt15__exception_ptr13exception_ptr9_M_addrefEv",
	  "probe-load-failed" },
	/* libgpuarray's wording of CUBLAS_STATUS_NOT_INITIALIZED, its own number beside it */
	{ "ERROR 11: cublasCreate: (cublas) Library not initialized.", "gpu-out-of-memory" },
	/* the library was found: the undefined symbol is the failure, not a missing file */
	{ "FATAL:  could not load library \"/opt/pgsql/lib/pg_strom.so\": /opt/pgsql/lib/pg_strom.so: undefined symbol: cuEventDestroy_v2",
	  "stub-libcuda" },
	{ "Could not load symbol cudnnGetLibConfig. Error: /lib/x86_64-linux-gnu/libcudnn_graph.so.9: undefined symbol: cudnnGetLibConfig",
	  "cudnn-mixed-versions" },
	{ "cuda is not found by default within cmake ( I had to set CUDA_TOOLKIT_ROOT_DIR to \"/usr/lib/cuda\")",
	  "cuda-toolkit-not-found" },
	{ "running \"nvcc -V\" fails but \"/usr/lib/cuda/bin/nvcc -V\" runs fine", "cuda-toolkit-not-found" },
	{ "OptiX initialization failed.", "lib-not-found" },
};

static void test_set25_forms(void **state)
{
	(void)state;
	expect_first_findings(set25_forms, sizeof set25_forms / sizeof set25_forms[0]);
	/* a count is no code: "100 errors detected" is not cudaErrorNoDevice */
	const struct explain_message *m =
		first_message("Error limit reached. 100 errors detected in the compilation of \"CMakeCUDACompilerId.cu\".");
	assert_null(fact_of(m, EXF_CODE, 0));
	assert_non_null(fact_of(first_message("CUDA error 100: no CUDA-capable device is detected"), EXF_CODE, 0));
	/* cuSOLVER's "internal error" (jaxlib's words for it) is not cuSPARSE's, whose text it shares */
	assert_string_equal(
		fact_of(first_message("operation cusolverDnCreate(&handle) failed: cuSolver internal error"), EXF_CODE, 0)
			->code->api,
		"cusolver");
	assert_string_equal(fact_of(first_message("cusparse internal error"), EXF_CODE, 0)->code->api, "cusparse");
	/* a driver too old for a CUDA is not a driver that refuses a GPU */
	m = first_message("the NVIDIA driver does not support CUDA 12.4");
	assert_true(!m || !m->n_cands || strcmp(m->cands[0].cause->finding, "driver-gpu-unsupported") != 0);
	/* success lines and other drivers' words are not these failures (the review's cases) */
	m = first_message("-- CUDA found at /usr/local/cuda, using CUDA_HOME=/usr/local/cuda");
	assert_true(!m || !m->n_cands || strcmp(m->cands[0].cause->finding, "cuda-toolkit-not-found") != 0);
	m = first_message("nvidia-container-toolkit: ignored card0 (not an NVIDIA device)");
	assert_true(!m || !m->n_cands || strcmp(m->cands[0].cause->finding, "driver-gpu-unsupported") != 0);
	m = first_message("/usr/bin/ld: cannot find -lz");
	for (size_t c = 0; m && c < m->n_cands; c++)
		assert_string_not_equal(m->cands[c].cause->finding, "cuda-toolkit-not-found");
	m = first_message("/usr/bin/ld: cannot find -lcurand");
	bool toolkit = false;
	for (size_t c = 0; m && c < m->n_cands; c++)
		toolkit |= strcmp(m->cands[c].cause->finding, "cuda-toolkit-not-found") == 0;
	assert_true(toolkit);
	/* a list of search globs names places, not the system: no WSL from /usr/lib/wsl/lib/libcuda.so* */
	m = first_message("msg=\"gpu library search\" globs=\"[/usr/lib/wsl/lib/libcuda.so* /usr/lib/*-linux-gnu/libcuda.so*]\"");
	for (size_t i = 0; m && i < m->n_facts; i++)
		assert_true(m->facts[i].kind != EXF_HINT);
}

/* Set 26's misses, as general facts: each in a wording written here, with the look-alike that must
 * not trigger it. */
static const struct form_case set26_forms[] = {
	/* the proprietary module refusing a GPU only the open modules drive (Blackwell) */
	{ "NVRM: The NVIDIA GPU 0000:01:00.0 (PCI ID: 10de:2b85) installed in this system requires use of the NVIDIA open kernel modules.",
	  "driver-gpu-unsupported" },
	/* the Unified Memory module that did not load is not the driver that did not */
	{ "modprobe: ERROR: could not insert 'nvidia_uvm': No such device", "nvidia-uvm-missing" },
	{ "modprobe: ERROR: could not insert 'nvidia': Operation not permitted", "no-driver" },
	{ "systemd-modules-load[1]: Failed to insert module 'nvidia-tesla-470': No such device", "no-driver" },
	{ "systemd-modules-load[1]: Failed to insert module 'nvidia-current-uvm': No such device", "nvidia-uvm-missing" },
	/* TensorFlow's cudart stub says "drivers" when the CUDA runtime library did not load */
	{ "I external/local_xla/xla/tsl/cuda/cudart_stub.cc:31] Could not find cuda drivers on your machine, GPU will not be used.",
	  "framework-lib-missing" },
	/* Windows 182 (an import by ordinal) and 127 after Python's "DLL load failed": a DLL was found */
	{ "ImportError: DLL load failed while importing _C: The operating system cannot run %1.", "dll-proc-not-found" },
	{ "ImportError: DLL load failed: The specified procedure could not be found.", "dll-proc-not-found" },
	{ "ImportError: DLL load failed: The specified module could not be found.", "dll-dependency-missing" },
	/* TensorFlow's native module that did not load */
	{ "ImportError: No module named '_pywrap_tensorflow_internal'", "dll-not-found" },
	{ "Failed to load the native TensorFlow runtime.", "framework-lib-missing" },
	/* cudaGetDeviceCount failing, in a program's words */
	{ "Could not get the number of CUDA devices, is a driver installed?", "driver-too-old" },
	/* a math library's kernel failing: first a library with no kernel for the GPU */
	{ "RuntimeError: cuFFT error: CUFFT_EXEC_FAILED", "no-kernel-image" },
	/* an NVML entry point the driver's NVML lacks; the symbol, not the plugin's generic failure */
	{ "k8s-device-plugin: symbol lookup error: /usr/bin/nvidia-device-plugin: undefined symbol: nvmlDeviceGetMigMode",
	  "driver-too-old" },
	/* a driver entry point older drivers lack (read from real drivers): the driver is too old; an
	 * entry point every driver exports missing is no real libcuda (a stub) */
	{ "OSError: /opt/app/bin/engine: undefined symbol: cuCtxCreate_v4", "driver-too-old" },
	{ "OSError: /opt/app/bin/engine: undefined symbol: cuEventDestroy_v2", "stub-libcuda" },
	/* quotes escaped inside a Go error or JSON string are quotes */
	{ "OCI runtime exec failed: exec failed: container_linux.go:380: starting container process caused: exec: \\\"nvidia-smi\\\": executable file not found in $PATH: unknown",
	  "container-no-gpu" },
};

static void test_set26_forms(void **state)
{
	(void)state;
	const struct explain_message *m0;
	expect_first_findings(set26_forms, sizeof set26_forms / sizeof set26_forms[0]);
	/* a device count that was read is no failure, nor a count of GPUs without CUDA */
	assert_null(first_message("Number of CUDA devices: 2"));
	assert_null(first_message("error: unable to read gpu count from config file"));
	/* the linker's undefined reference runs no driver: no driver too old */
	m0 = first_message("/usr/bin/ld: main.o: undefined reference to `cuCtxCreate_v4'");
	assert_non_null(m0);
	assert_string_not_equal(m0->cands[0].cause->finding, "driver-too-old");
	/* -lNAME-like words and escaped backslashes that quote nothing stay as they are */
	const struct explain_message *m = first_message("could not find library at C:\\\\tools\\\\cudnn64_8.dll");
	assert_non_null(m);
	bool dll = false;
	for (size_t i = 0; i < m->n_facts; i++)
		dll |= m->facts[i].has_lib && m->facts[i].lib.name && strcmp(m->facts[i].lib.name, "cudnn64_8.dll") == 0;
	assert_true(dll);
}

/* Set 27's misses, as general facts, in wordings written here. */
static const struct form_case set27_forms[] = {
	/* 300 prints 200's text, "device kernel image is invalid": code for another GPU */
	{ "cuModuleLoadData returned CUDA_ERROR_INVALID_SOURCE", "no-kernel-image" },
	{ "kernel launch: CUDA error DRIVER: '300' in func 'solve'", "no-kernel-image" },
	/* the conda solver's __cuda is the driver's CUDA, older than the package needs */
	{ "package pytorch-cuda-12.1-ha16c6d3_5 has constraint __cuda >=12.1 conflicting with __cuda-11.4-0", "driver-too-old" },
	/* NVIDIA_VISIBLE_DEVICES naming a GPU the host or the job does not have */
	{ "nvidia-container-cli: device error: GPU-8f3c2a1e-0000-1111-2222-333344445555: unknown device",
	  "cuda-visible-devices-hides" },
	/* CMake's CUDA compiler test without the toolkit's nvcc */
	{ "CMake Error at CMakeDetermineCUDACompiler.cmake:280 (message): Failed to detect a default CUDA architecture.",
	  "cuda-toolkit-not-found" },
	/* a program that dlopens the unversioned NVML name: the -dev link the runtime packages lack */
	{ "nvml: dlopen failed: libnvidia-ml.so: cannot open shared object file: No such file or directory", "lib-not-found" },
	/* no devices, in a log that names WSL */
	{ "Running on WSL2: CUDA device count is 0", "wsl-libcuda" },
	{ "CUDA device count is 0", "no-device" },
	/* XLA's and jaxlib's words for cuSOLVER's and cuBLAS's statuses */
	{ "RuntimeError: jaxlib/gpu/solver_kernels.cc:45: operation gpusolverDnCreate(&handle) failed: cuSolver architecture mismatch error",
	  "framework-gpu-arch" },
	{ "INTERNAL: operation cublasCreate(&handle) failed: cuBlas allocation failure", "gpu-out-of-memory" },
};

static void test_set27_forms(void **state)
{
	(void)state;
	expect_first_findings(set27_forms, sizeof set27_forms / sizeof set27_forms[0]);
	/* a component the line names by a word and by its file is one library, not two ("NVML
	 * library" was read as a libnvml.so besides libnvidia-ml.so) */
	const struct explain_message *m =
		first_message("WARN: Can't load NVML library, dlopen(2): failed to load libnvidia-ml.so.1, libnvidia-ml.so.1: "
			      "cannot open shared object file: No such file or directory");
	assert_non_null(m);
	for (size_t i = 0; i < m->n_facts; i++)
		if (m->facts[i].has_lib && m->facts[i].lib.name)
			assert_string_equal(m->facts[i].lib.name, "libnvidia-ml.so.1");
	/* jaxlib's text is the code itself */
	assert_string_equal(fact_of(first_message("operation gpusolverDnCreate(&handle) failed: cuSolver internal error"),
				    EXF_CODE, 0)
				    ->code->name,
			    "CUSOLVER_STATUS_INTERNAL_ERROR");
}

/* Set 28's misses, as general facts, in wordings written here. */
static const struct form_case set28_forms[] = {
	/* JCuda X.Y's natives import CUDA X.Y's libraries: another CUDA installed leaves them missing */
	{ "java.lang.UnsatisfiedLinkError: Error while loading native library \"JCudnn-10.1.0-windows-x86_64\"",
	  "dll-wrong-major" },
	{ "java.lang.UnsatisfiedLinkError: Error while loading native library \"JCufft-11.0.0-linux-x86_64\"",
	  "lib-wrong-major" },
	/* Java's words for a DLL found whose imports are not */
	{ "C:\\Temp\\JCusparse-0.9.2-windows-x86_64.dll: Can't find dependent libraries", "dll-dependency-missing" },
	/* PyTorch's cudaGetDeviceCount sentence carries a code: the code decides */
	{ "Unexpected error from cudaGetDeviceCount(). Did you run some cuda functions before calling NumCudaDevices() "
	  "that might have already set an error? Error 209: no kernel image is available for execution on the device",
	  "no-kernel-image" },
	{ "UserWarning: CUDA initialization: Unexpected error from cudaGetDeviceCount(). Did you run some cuda functions "
	  "before calling NumCudaDevices() that might have already set an error?",
	  "fabric-manager-not-running" },
	/* nvidia-container-cli's NVML error that names its cause */
	{ "nvidia-container-cli: initialization error: nvml error: driver not loaded: unknown", "no-driver" },
	/* ggml's "no device code compatible with CUDA arch" */
	{ "ERROR: CUDA kernel soft_max has no device code compatible with CUDA arch 610. ggml-cuda.cu was compiled for: 750",
	  "no-kernel-image" },
	/* older NCCL's words for its CUDA failure: most often NCCL built for a newer CUDA than the driver */
	{ "NCCL failure all_reduce.cu:112 'unhandled cuda error'", "driver-too-old" },
	/* cuDNN 9's failed CUDA runtime call inside an operation, as its plain execution failure */
	{ "cudnnBatchNormalizationForwardTraining failed: CUDNN_STATUS_EXECUTION_FAILED_CUDART", "framework-gpu-arch" },
};

static void test_set28_forms(void **state)
{
	(void)state;
	expect_first_findings(set28_forms, sizeof set28_forms / sizeof set28_forms[0]);
	assert_string_equal(fact_of(first_message("ncclCommInitRank failed: unhandled system error"), EXF_CODE, 0)->code->name,
			    "ncclSystemError");
	/* NCCL's "error (run with NCCL_DEBUG=INFO for details)" ends its codes 1 and 2 alike: code 2's
	 * text is no code 1 (whose causes are a driver too old) */
	const struct explain_message *m =
		first_message("NCCL error in: ProcessGroupNCCL.cpp:1970, unhandled system error (run with NCCL_DEBUG=INFO "
			      "for details), NCCL version 2.19.3");
	assert_non_null(m);
	for (size_t i = 0; i < m->n_facts; i++)
		assert_true(m->facts[i].kind != EXF_CODE || strcmp(m->facts[i].code->name, "ncclUnhandledCudaError") != 0);
	for (size_t i = 0; i < m->n_cands; i++)
		assert_string_not_equal(m->cands[i].cause->finding, "driver-too-old");
}

/* Set 29's misses, as general facts, in wordings written here. */
static const struct form_case set29_forms[] = {
	/* NCCL's NVLS transport needs the NVSwitch fabric: a CUDA failure there is the fabric manager's */
	{ "host7:311:402 [0] transport/nvls.cc:188 NCCL WARN Cuda failure 999 'unknown error'", "fabric-manager-not-running" },
	/* hashcat's CUDA backend loads NVRTC from the toolkit */
	{ "* Device #2: CUDA SDK Toolkit installation NOT detected.", "cuda-toolkit-not-found" },
	/* the loader's sentence retold with the name in quotes */
	{ "ImportError: undefined symbol: \"ncclGroupSimulateEnd\"", "lib-symbol-version-missing" },
	/* libnvidia-container's driver service failed: the host's driver user space, not the toolkit */
	{ "stderr: nvidia-container-cli: initialization error: driver error: failed to process request: unknown.", "no-driver" },
	/* a driver library's link left pointing at a removed version's file */
	{ "nvidia-container-cli: detection error: open failed: /usr/lib64/libnvidia-ptxjitcompiler.so.470.82.01", "lib-broken-symlink" },
	/* the NVIDIA runtime ran (the container asked for it) and failed: a part of the toolkit */
	{ "docker: Error response from daemon: failed to create shim: OCI runtime create failed: nvidia-container-runtime did not terminate successfully: exit status 1: unknown.",
	  "container-toolkit-missing" },
	/* cuSOLVER built against a newer cuBLAS than the one loaded (two pip wheels' releases) */
	{ "jax.errors.JaxRuntimeError: INTERNAL: cuSolver internal error", "lib-symbol-version-missing" },
};

static void test_set29_forms(void **state)
{
	(void)state;
	expect_first_findings(set29_forms, sizeof set29_forms / sizeof set29_forms[0]);
	/* a bash prompt on a Windows machine's default host name is WSL's; Git Bash's is not */
	const struct explain_message *m = first_message("ana@LAPTOP-Q8R2T5M:~$ python train.py\n"
							"CUDA error: no CUDA-capable device is detected");
	bool wsl = false;
	for (size_t i = 0; m && i < m->n_facts; i++)
		wsl |= m->facts[i].kind == EXF_HINT && strcmp(m->facts[i].pattern->id, "wsl-host-prompt") == 0;
	assert_true(wsl);
	m = first_message("ana@LAPTOP-Q8R2T5M MINGW64 ~/src\nCUDA error: no CUDA-capable device is detected");
	for (size_t i = 0; m && i < m->n_facts; i++)
		assert_false(m->facts[i].kind == EXF_HINT && strcmp(m->facts[i].pattern->id, "wsl-host-prompt") == 0);
}

/* Set 30's misses, as general facts, in wordings written here. */
static const struct form_case set30_forms[] = {
	/* CUDA IPC needs the peer's GPU visible: Slurm's per-task binding hides it */
	{ "[node07:4411] cuIpcOpenMemHandle failed: CUDA_ERROR_INVALID_VALUE (1)", "cuda-visible-devices-hides" },
	{ "2: (GTL DEBUG: 2) cuIpcOpenMemHandle: invalid argument, CUDA_ERROR_INVALID_VALUE, line no 300",
	  "cuda-visible-devices-hides" },
	/* the toolkit refuses --gpus in CSV mode: the container gets no GPU */
	{ "invoking the NVIDIA Container Runtime Hook directly (e.g. specifying the docker --gpus flag) is not supported. "
	  "Please use the NVIDIA Container Runtime (e.g. specify the --runtime=nvidia flag) instead",
	  "container-no-gpu" },
	/* ...also wrapped in docker's own words, which speak of the hook and the toolkit */
	{ "docker: Error response from daemon: failed to create task for container: failed to create shim task: OCI "
	  "runtime create failed: runc create failed: unable to start container process: error during container init: "
	  "error running hook #0: error running hook: exit status 1, stdout: , stderr: invoking the NVIDIA Container "
	  "Runtime Hook directly (e.g. specifying the docker --gpus flag) is not supported.",
	  "container-no-gpu" },
	/* ld's -l:FILE for the driver's libcuda: ld does not search where Kubernetes mounts it */
	{ "/usr/bin/ld: cannot find -l:libcuda.so.1: No such file or directory", "driver-lib-off-path" },
};

static void test_set30_forms(void **state)
{
	(void)state;
	expect_first_findings(set30_forms, sizeof set30_forms / sizeof set30_forms[0]);
	/* the linker's line is one fact about the file it looked for, not a run-time not-found too */
	const struct explain_message *m = first_message("/usr/bin/ld: cannot find -l:libcuda.so.1");
	size_t forms = 0;
	for (size_t i = 0; m && i < m->n_facts; i++)
		forms += m->facts[i].kind == EXF_FORM;
	assert_int_equal(forms, 1);
	assert_string_equal(fact_of(m, EXF_FORM, 0)->form, "link-not-found");
	/* a CUDA IPC handle opened twice is the program's own bug, not a hidden GPU */
	m = first_message("cuIpcOpenMemHandle failed with CUDA_ERROR_ALREADY_MAPPED");
	assert_true(!m || !m->n_cands || strcmp(m->cands[0].cause->finding, "cuda-visible-devices-hides") != 0);
	/* TensorFlow's "DNN library is not found" follows a cuDNN older than its build as well */
	m = first_message("DNN library is not found.");
	bool older = false;
	for (size_t i = 0; m && i < m->n_cands; i++)
		older |= strcmp(m->cands[i].cause->key, "cudnn-runtime-too-old") == 0;
	assert_true(older);
}

/* Set 31's misses, as general facts, in wordings written here. */
static const struct form_case set31_forms[] = {
	/* DeepSpeed's op builder: the toolkit it compiles with against the CUDA of torch's build */
	{ "CUDAMismatchException: >- DeepSpeed Op Builder: Installed CUDA version 12.4 does not match the version torch "
	  "was compiled with 11.8, unable to compile cuda/cpp extensions",
	  "nvcc-framework-mismatch" },
	{ "Installed CUDA version 11.8 does not match torch version", "nvcc-framework-mismatch" },
	/* PyTorch's allocator statistics, quoted without "CUDA out of memory" */
	{ "Tried to allocate 1.50 GiB (GPU 1; 23.65 GiB total capacity; 20.1 GiB already allocated; 310.00 MiB free)",
	  "gpu-out-of-memory" },
	/* any #error of nvcc's host_config.h refuses the host compiler, whatever its wrapped words */
	{ "c:\\cuda\\v10.0\\include\\crt/host_config.h(143): fatal error C1189: #error:  -- unsupported Microsoft",
	  "nvcc-host-compiler-unsupported" },
	{ "/opt/cuda/include/crt/host_config.h:151:2: error: #error -- unsupported clang version!",
	  "nvcc-host-compiler-unsupported" },
	/* Python 3.8+ ctypes in its other wordings: the DLL's dependencies no longer come from PATH */
	{ "Could not find module 'D:\\venv\\Lib\\site-packages\\foo\\foo_cuda.dll'. Try using the full path with "
	  "constructor syntax.",
	  "python-dll-directory" },
	/* a library that says its framework was built without CUDA, misspelt as PARL prints it */
	{ "But PARL found that Paddle was not complied with CUDA, which may cause issues.", "framework-cpu-build" },
	/* TensorFlow's configure: no file of the version asked for where it looked */
	{ "Invalid path to cuDNN 7 toolkit. None of the following files can be found:", "lib-not-found" },
};

static void test_set31_forms(void **state)
{
	(void)state;
	expect_first_findings(set31_forms, sizeof set31_forms / sizeof set31_forms[0]);
	/* another header's #error included through host_config.h refuses no compiler */
	assert_string_not_equal(first_finding("In file included from /usr/local/cuda/include/crt/host_config.h:50, "
					      "/usr/include/foo.h:3:2: error: #error please define FOO first"),
				"nvcc-host-compiler-unsupported");
	/* error 804 names a driver mismatch second (an update without a reboot) */
	const struct explain_message *m = first_message("Error 804: forward compatibility was attempted on non supported HW");
	assert_true(m && m->n_cands >= 2);
	assert_string_equal(m->cands[0].cause->finding, "forward-compat-unsupported");
	assert_string_equal(m->cands[1].cause->finding, "driver-userspace-mismatch");
	/* an unversioned name stands for no major and no CUDA release */
	m = first_message("CUBLAS_STATUS_NOT_INITIALIZED in libcublas.so");
	const struct explain_fact *lib = fact_of(m, EXF_LIB, 0);
	assert_non_null(lib);
	assert_int_equal(lib->lib.major, -1);
	assert_true(lib->lib.unversioned);
}

/* Set 32's misses, as general facts, in wordings written here. */
static const struct form_case set32_forms[] = {
	/* 209's text with words added */
	{ "error: no kernel image is not available for execution on this device", "no-kernel-image" },
	/* a library's oldest GPU generation, said on an older GPU */
	{ "UserWarning: this release requires a GPU with NVIDIA Volta or newer architecture", "framework-gpu-arch" },
	/* PhysX's encoded driver CUDA version below its minimum */
	{ "CudaContextManager.cpp (635) : warning : CUDA driver version is 11010, expected at least 11040.",
	  "driver-too-old" },
	{ "RuntimeError: Invalid simulator requested: custatevec_fp64", "framework-lib-missing" },
	/* an ImportError that names only the shared object */
	{ "ImportError: libcutensor.so.2", "lib-not-found" },
	/* Vulkan and EGL find no NVIDIA device: the driver's graphics side is not there */
	{ "LogVulkanRHI: Error: Vulkan failed to find a physical device", "container-no-gpu" },
	{ "vkCreateInstance failed: VK_ERROR_INCOMPATIBLE_DRIVER", "container-no-gpu" },
	{ "WindowlessEglApplication::tryCreateContext(): no EGL devices found", "container-no-gpu" },
	/* a program that runs the toolkit's compilers finds none */
	{ "RuntimeError: Cannot find nvcc.exe", "cuda-toolkit-not-found" },
	{ "error: could not find ptxas", "cuda-toolkit-not-found" },
	/* TensorRT's builder on a GPU newer than the release */
	{ "Error Code 9: API Usage Error (Target GPU SM 100 is not supported by this TensorRT release.)",
	  "gpu-unsupported-by-toolkit" },
	/* the toolkit's requirement check, inside docker's words: the hook ran, the driver is too old */
	{ "docker: Error response from daemon: failed to create task for container: failed to create shim task: OCI "
	  "runtime create failed: runc create failed: unable to start container process: error during container init: "
	  "error running prestart hook #0: exit status 1, stdout: , stderr: Auto-detected mode as 'legacy' "
	  "nvidia-container-cli: requirement error: unsatisfied condition: cuda>=12.9, please update your driver to a "
	  "newer version, or use an earlier cuda container: unknown.",
	  "driver-too-old" },
	/* cuModuleLoad finds no kernel file: the build compiled none */
	{ "cupy_backends.cuda.api.driver.CUDADriverError: CUDA_ERROR_FILE_NOT_FOUND: file not found",
	  "cuda-toolkit-not-found" },
};

static void test_set32_forms(void **state)
{
	(void)state;
	expect_first_findings(set32_forms, sizeof set32_forms / sizeof set32_forms[0]);
	/* look-alikes: a tool's other file, a physical device that was found */
	assert_string_not_equal(first_finding("could not find ptxas_options in the config file"),
				"cuda-toolkit-not-found");
	assert_string_not_equal(first_finding("Vulkan: selected physical device 0: NVIDIA GeForce RTX 4090"),
				"container-no-gpu");
	assert_string_not_equal(first_finding("Vulkan loader: enumerating physical devices, no physical device filter set"),
				"container-no-gpu");
	assert_string_not_equal(first_finding("No kernel image is currently available for download; the installer will retry"),
				"no-kernel-image");
	assert_string_equal(first_finding("no kernel image is not available on the device"), "no-kernel-image");
	assert_string_not_equal(first_finding("Vulkan: failed to find a suitable device memory type"), "container-no-gpu");
	assert_string_equal(first_finding("Vulkan: no physical devices found on this system"), "container-no-gpu");
}

/* Set 33's misses, as general facts, in wordings written here. */
static const struct form_case set33_forms[] = {
	/* host_config.h's own #error, its words cut off, as GCC and MSVC report it */
	{ "/opt/cuda-10.2/targets/x86_64-linux/include/crt/host_config.h:139:2: error: #error -", "nvcc-host-compiler-unsupported" },
	{ "C:\\CUDA\\v9.0\\include\\crt/host_config.h(133): fatal error C1189: #error:  -- unsupported", "nvcc-host-compiler-unsupported" },
	{ "C:\\CUDA\\v12.1\\include\\crt/host_config.h(153,1): fatal error C1189: #error:  -- unsupp", "nvcc-host-compiler-unsupported" },
	/* the linker's -lNAME quoted */
	{ "error: linking with `cc` failed: cannot find `-lcudart`", "lib-not-found" },
	/* PyTorch's own CUDA library missing: a CPU-only torch under a CUDA extension */
	{ "ImportError: libc10_cuda.so: cannot open shared object file: No such file or directory", "torch-cpu-build" },
};

static void test_set33_forms(void **state)
{
	(void)state;
	expect_first_findings(set33_forms, sizeof set33_forms / sizeof set33_forms[0]);
}

/* ---- the forms set 34's misses showed (tests/fixtures/explain/machine/set34) */
static const struct form_case set34_forms[] = {
	/* a GPU API call's value after "():" or "=": hashcat's cuDriverGetVersion(): 34 */
	{ "cuDriverGetVersion(): 34", "stub-libcuda" },
	{ "nvmlInit() = 9", "no-driver" },
	{ "cuInit()->100", "no-device" },
	{ "foo(): 34", "not recognised" },
	{ "cuMemAlloc(): 2 bytes", "not recognised" },
	/* a call that returns a count, a measurement or a version by value prints that value */
	{ "nvmlDeviceGetFanSpeed(): 18", "not recognised" },
	{ "GPU0 nvmlDeviceGetTemperature() = 15", "not recognised" },
	{ "nvmlDeviceGetCount() = 9", "not recognised" },
	{ "cudaGetDeviceCount() = 2", "not recognised" },
	{ "cudnnGetVersion() = 5000", "not recognised" },
	/* hashcat prints every call's status after "():", a count's call too */
	{ "cuDeviceGetCount(): 100", "no-device" },
	{ "cudaGetDeviceCount(): 35", "driver-too-old" },
	/* a runtime call's number in CUDA <= 10.0's numbering */
	{ "cudaSetDevice() = 38", "no-device" },
	/* the call's own API, whatever else the line names (cuDNN's 4 would be an allocation failure) */
	{ "cuInit(): 4 while loading libcudnn.so.8", "not gpu-out-of-memory" },
	/* FFmpeg's nv-codec-headers: a codec function the driver's library lacks */
	{ "[hevc_cuvid @ 0x55d0c8a3c440] Cannot load cuvidGetDecoderCaps", "driver-too-old" },
	{ "[h264_nvenc @ 0x1] Cannot load NvEncodeAPIGetMaxSupportedVersion", "driver-too-old" },
	/* the NVENC library itself not loaded: no driver, not an old one */
	{ "[h264_nvenc @ 000001] Cannot load nvEncodeAPI64.dll", "no-driver" },
	/* an undefined NVDEC/NVENC function: exported by the driver's codec libraries */
	{ "OSError: /opt/app/libdecoder.so: undefined symbol: cuvidGetDecodeStatus", "driver-too-old" },
	/* the loader's failure with ENOENT's text */
	{ "OSError: libcublas.so.10: No such file or directory", "lib-not-found" },
	/* musl's loader running a glibc program */
	{ "Error relocating /usr/lib/libnvidia-ml.so.1: __sprintf_chk: symbol not found", "glibc-on-musl" },
	{ "Error relocating /app/_C.so: __cudaRegisterFatBinary: symbol not found", "not glibc-on-musl" },
	/* NVML by its full name; NVML's own error text after a colon decides instead */
	{ "Error: failed to initialize NVIDIA Management Library", "no-driver" },
	{ "Failed to initialize NVML: Insufficient Permissions", "device-node-permission" },
	{ "WARN: Can't load NVML library, dlopen(25): failed to load libnvidia-ml.so, libnvidia-ml.so: cannot open shared object file: No such file or directory", "lib-not-found" },
	/* a tool's NVIDIA library not found, unnamed */
	{ "Error: NVIDIA GPU library was not found", "lib-not-found" },
	{ "CUDA libraries not found, falling back to CPU", "not no-driver" },
	/* SAPIEN's Vulkan device list without an NVIDIA device */
	{ "RuntimeError: Failed to find a supported physical device \"cuda:1\"", "lib-not-found" },
	/* Triton's own kernel refused: its ptxas newer than the driver */
	{ "RuntimeError: Triton Error [CUDA]: device kernel image is invalid", "driver-too-old" },
	{ "RuntimeError: CUDA error: device kernel image is invalid", "no-kernel-image" },
	/* Docker's CDI support off */
	{ "docker: Error response from daemon: could not select device driver \"cdi\" with capabilities: [].", "container-toolkit-missing" },
};

static void test_set34_forms(void **state)
{
	(void)state;
	expect_first_findings(set34_forms, sizeof set34_forms / sizeof set34_forms[0]);
}

/* ---- the forms set 35's misses showed (tests/fixtures/explain/machine/set35) */
static const struct form_case set35_forms[] = {
	/* CUPTI cannot initialise on a driver older than its CUDA release */
	{ "CUPTI error: cuptiSubscribe failed with CUPTI_ERROR_NOT_INITIALIZED", "driver-too-old" },
	/* the OpenCL ICD loader finds no platform */
	{ "clGetPlatformIDs(): CL_PLATFORM_NOT_FOUND_KHR", "lib-not-found" },
	{ "[opencl_init] could not get platforms: -1001", "lib-not-found" },
	{ "pyopencl._cl.LogicError: clGetPlatformIDs failed: PLATFORM_NOT_FOUND_KHR", "lib-not-found" },
	{ "No OpenCL platforms found", "lib-not-found" },
	/* musl: a library not found; an NVIDIA symbol unresolved is no glibc program on musl */
	{ "Error loading shared library libnvidia-fatbinaryloader.so.418.87: No such file or directory (needed by /usr/lib/libcuda.so.1)", "lib-not-found" },
	{ "Error loading shared library libnvidia-ptxjitcompiler.so.1: No such file or directory (needed by /usr/lib/libcuda.so.1)", "ptxjit-missing" },
	{ "Error relocating /usr/lib64/libcuda.so: fatBinaryCtl_Compile: symbol not found", "not recognised" },
	/* no nvidia.ko for the running kernel, as modinfo and a module build say it */
	{ "modinfo: ERROR: Module nvidia not found.", "no-driver" },
	{ "FATAL: Module nvidia not found.", "no-driver" },
	{ "Warning! nvidia.ko was not created in the kernel tree!", "no-driver" },
	/* the EDG front end (nvcc, NVRTC) without the toolkit's headers */
	{ "kernel.cu(3): catastrophic error: cannot open source file \"driver_types.h\"", "cuda-toolkit-not-found" },
	/* a program that cannot run ptxas (JAX/XLA) */
	{ "Couldn't invoke ptxas --version", "cuda-toolkit-not-found" },
	{ "Failed to execute nvcc: compilation failed with exit status 1", "not cuda-toolkit-not-found" },
	/* PyTorch's no-driver sentence without its first word */
	{ "No NVIDIA driver on your system", "no-driver" },
};

static void test_set35_forms(void **state)
{
	(void)state;
	expect_first_findings(set35_forms, sizeof set35_forms / sizeof set35_forms[0]);
}

/* ---- the forms set 36's misses showed (tests/fixtures/explain/machine/set36) */
static const struct form_case set36_forms[] = {
	/* an extension's CUDA against torch's, as torchvision and PyG check it at import */
	{ "RuntimeError: Detected that PyTorch and torch_scatter were compiled with different CUDA versions. PyTorch has CUDA version 11.3 and torch_scatter has CUDA version 10.2. Please reinstall the torch_scatter that matches your PyTorch install.", "nvcc-framework-mismatch" },
	{ "RuntimeError: Detected that PyTorch and torchvision were compiled with different CUDA versions.", "nvcc-framework-mismatch" },
	{ "RuntimeError: Detected that PyTorch and torchvision were compiled with different CUDA major versions. PyTorch has CUDA Version=12.8 and torchvision has CUDA Version=13.0. Please reinstall the torchvision that matches your PyTorch install.", "nvcc-framework-mismatch" },
};

/* ---- the forms set 37's misses showed (tests/fixtures/explain/machine/set37) */
static const struct form_case set37_forms[] = {
	/* an NTSTATUS exit code printed in decimal, signed or not: no word needs to announce it */
	{ "WARN supervisor: llama-server exited with status code -1073741515, args: ...", "dll-not-found" },
	{ "The process exited with code 3221225781.", "dll-not-found" },
	{ "worker exited with exit code -1073741511", "dll-proc-not-found" },
	{ "job 1073741515 finished after 3 s", "not dll-not-found" },
	{ "allocated 3221225781 bytes for the model", "not dll-not-found" },
	{ "decoded 3221225781 bytes of the stream", "not dll-not-found" },
	/* NGC images' entrypoint GPU check: "not yet supported" is a GPU newer than the image */
	{ "WARNING: Detected NVIDIA NVIDIA GeForce RTX 5090 GPU, which is not yet supported in this version of the container\nERROR: No supported GPU(s) detected to run this container", "gpu-unsupported-by-toolkit" },
	{ "ERROR: Detected NVIDIA Tesla K80 GPU, which is not supported by this container", "framework-gpu-arch" },
	/* today's entrypoint prints the bare device name: no "NVIDIA" for Tesla and Quadro boards */
	{ "ERROR: Detected Quadro M1200 GPU, which is not supported by this container", "framework-gpu-arch" },
	{ "WARNING: Detected Tesla V100-SXM2-16GB GPU, which is not yet supported in this version of the container", "gpu-unsupported-by-toolkit" },
	/* a command line that refuses cuda as a device: a build without CUDA */
	{ "error: invalid value 'cuda' for '--device <DEVICE>'\n  [possible values: cpu]", "framework-cpu-build" },
	{ "main.py: error: argument --device: invalid choice: 'cuda' (choose from 'cpu', 'mps')", "framework-cpu-build" },
	{ "main.py: error: argument --device/-d: invalid choice: 'cuda' (choose from 'cpu', 'mps')", "framework-cpu-build" },
	/* a user's typo is no CPU-only build */
	{ "main.py: error: argument --device: invalid choice: 'gpu' (choose from 'cpu', 'cuda', 'mps')", "not framework-cpu-build" },
	{ "main.py: error: argument --device: invalid choice: 'cuda' (choose from 'cpu', 'gpu')", "not framework-cpu-build" },
	{ "main.py: error: argument --device: invalid choice: 'gpu' (choose from 'cpu')", "framework-cpu-build" },
	{ "mxnet.base.MXNetError: [10:01:02] src/storage/storage.cc:157: GPU is not enable", "framework-cpu-build" },
	/* TensorFlow 1.x's Windows self-check */
	{ "- Could not find cuDNN 7.\n  The GPU version of TensorFlow requires that the correct cuDNN DLL be installed", "dll-wrong-major" },
	{ "CMake Error at cmake/FindCUDNN.cmake:12: Could not find cuDNN 8 (missing: CUDNN_LIBRARY)", "not dll-wrong-major" },
	/* NVIDIA's video effects without the driver's NGX library */
	{ "nvvfx.NvVFXError: NvVFX_Load failed: The effect has not been properly initialized (code -12)", "lib-not-found" },
};

/* ---- the forms set 38's misses showed (tests/fixtures/explain/machine/set38) */
static const struct form_case set38_forms[] = {
	/* the old launch API an nvcc before 9.2 emitted, gone from the CUDA 10.1+ runtime */
	{ "ImportError: /opt/ops/dcn_v2.cpython-37m-x86_64-linux-gnu.so: undefined symbol: cudaSetupArgument", "nvcc-framework-mismatch" },
	{ "ImportError: /opt/ops/roi_align.so: undefined symbol: cudaConfigureCall", "nvcc-framework-mismatch" },
	{ "ImportError: /opt/ops/roi_align.so: undefined symbol: cudaLaunch", "nvcc-framework-mismatch" },
	{ "ImportError: /opt/ops/roi_align.so: undefined symbol: cudaLaunchKernel", "not nvcc-framework-mismatch" },
	/* a package's operator module that was never built */
	{ "ImportError: cannot import 'detectron2._C'", "cuda-toolkit-not-found" },
	{ "UserWarning: Failed to load custom C++ ops. Running on CPU mode Only!", "cuda-toolkit-not-found" },
	{ "ModuleNotFoundError: No module named 'torch._C'", "not cuda-toolkit-not-found" },
	{ "couldn't import psycopg 'c' implementation: No module named 'psycopg_c'", "not cuda-toolkit-not-found" },
	{ "ModuleNotFoundError: No module named 'yarl._quoting_c'", "not cuda-toolkit-not-found" },
	{ "ModuleNotFoundError: No module named 'amp_C'", "cuda-toolkit-not-found" },
	/* the C# API's frames, not source code that calls it */
	{ "   at Microsoft.ML.OnnxRuntime.SessionOptions.AppendExecutionProvider_CUDA(Int32 deviceId)", "framework-lib-missing" },
	{ "using var o = SessionOptions.MakeSessionOptionWithCudaProvider(0);", "not framework-lib-missing" },
	/* the dotnet CLI's wording of the missing build customization; older JAX without a CUDA platform */
	{ "error MSB4278: The imported file \"$(VCTargetsPath)\\BuildCustomizations\\CUDA 12.1.props\" does not exist and "
	  "appears to be part of a Visual Studio component.",
	  "cuda-toolkit-not-found" },
	{ "RuntimeError: Unable to initialize backend 'gpu': NOT_FOUND: Could not find registered platform with name: \"cuda\".",
	  "framework-cpu-build" },
	{ "ModuleNotFoundError: No module named 'torchvision._C'", "not cuda-toolkit-not-found" },
	{ "ImportError: cannot import name '_C' from 'torch' (/home/u/pytorch/torch/__init__.py)", "not cuda-toolkit-not-found" },
	{ "ImportError: cannot import name '_C' from 'detectron2' (/opt/detectron2/detectron2/__init__.py)", "cuda-toolkit-not-found" },
	/* torch's own import failure is no operator module of a package */
	{ "  File \"/opt/venv/lib/python3.10/site-packages/torch/__init__.py\", line 239, in <module>\n    __all__ += [name for name in dir(_C)\nNameError: name '_C' is not defined", "not cuda-toolkit-not-found" },
	/* TensorFlow ignoring a GPU below its build's minimum compute capability (not its SM count) */
	{ "Ignoring visible gpu device (device: 0, name: GeForce GT 710, pci bus id: 0000:01:00.0, compute capability: 3.5) with Cuda compute capability 3.5. The minimum required Cuda capability is 3.7.", "framework-gpu-arch" },
	{ "I gpu_device.cc:948] Ignoring visible gpu device (device: 0, name: GeForce GTX 660, pci bus id: 0000:01:00.0) with Cuda c\nompute capability 3.0. The minimum required Cuda capability is 3.5.", "framework-gpu-arch" },
	{ "Ignoring visible gpu device (device: 0, name: Quadro P600, pci bus id: 0000:01:00.0, compute capability: 6.1) with core count: 3. The minimum required count is 8.", "not framework-gpu-arch" },
	/* the container requirement quoted alone */
	{ "unsatisfied condition: cuda>=13.0", "driver-too-old" },
};

/* ---- the forms set 39's misses showed (tests/fixtures/explain/machine/set39) */
static const struct form_case set39_forms[] = {
	/* TensorRT 7's builder on a GPU newer than it */
	{ "[E] [TRT] ../rtSafe/cuda/caskUtils.cpp (80) - Assertion Error in trtSmToCask: 0 (Unsupported SM.)\n[F] [TRT] Assertion failed: Unsupported SM.", "framework-gpu-arch" },
	/* thinc's require_gpu: CuPy installed and unable to load its CUDA libraries first */
	{ "ValueError: GPU is not accessible. Was the library installed correctly?", "framework-lib-missing" },
};

/* ---- the forms set 40's misses showed (tests/fixtures/explain/machine/set40) */
static const struct form_case set40_forms[] = {
	/* OpenCL's C++ bindings naming the call that failed: no usable platform */
	{ "Initializing OpenCL.\nOpenCL: clGetPlatformIDs\nterminate called after throwing an instance of 'cl::Error'\n  what():  clGetPlatformIDs", "lib-not-found" },
	/* a Windows loader code after "errno" on a DLL's line; a POSIX errno elsewhere is none */
	{ "failed to preload C:\\plugins64\\vsmlrt-cuda\\cudnn64_8.dll, errno 127", "dll-proc-not-found" },
	{ "OSError: [Errno 2] No such file or directory: '/usr/local/cuda/bin/nvcc'", "not dll-not-found" },
	/* Emgu CV's type initializer: its native library or one it imports did not load */
	{ "System.TypeInitializationException: The type initializer for 'Emgu.CV.CvInvoke' threw an exception.", "dll-dependency-missing" },
};

static const struct form_case set41_forms[] = {
	/* XLA compiled the kernel for this GPU itself: a driver that refuses it is older than ptxas */
	{ "jax.errors.XlaRuntimeError: UNKNOWN: no kernel image is available for execution on the device", "ptx-too-new" },
	{ "RuntimeError: Unknown: no kernel image is available for execution on the device", "ptx-too-new" },
	/* elsewhere the code's own reading stays: the binary lacks code for this GPU */
	{ "RuntimeError: CUDA error: no kernel image is available for execution on the device", "no-kernel-image" },
	/* COLMAP and SiftGPU saying they were built without CUDA */
	{ "ERROR: Dense stereo reconstruction requires CUDA, which is not available on your system.", "framework-cpu-build" },
	{ "Shader not supported by your hardware!\nERROR: SiftGPU not fully supported", "framework-cpu-build" },
	/* Python 3.8+ ctypes, cut to the DLL's name */
	{ "FileNotFoundError: ... nvcuvid_wrapper.dll' (or one of its dependencies)", "python-dll-directory" },
	/* a program's own least compute capability */
	{ "GPU #1: FATAL: the 'scrypt' kernel requires 6.1 capability!", "framework-gpu-arch" },
};

static const struct form_case set42_forms[] = {
	/* PaddlePaddle's banner, lines before the failure: the driver's CUDA against the runtime's decides
	 * whether a cuDNN failure is a driver too old */
	{ "W0101 device_context.cc:447] Please NOTE: device: 0, GPU Compute Capability: 8.6, Driver API Version: 11.0, Runtime API Version: 11.2\nW0101 device_context.cc:465] device: 0, cuDNN Version: 8.1.\n1\n2\n3\n4\n5\n6\nOSError: (External) CUDNN error(1), CUDNN_STATUS_NOT_INITIALIZED.", "driver-too-old" },
	{ "W0101 device_context.cc:447] Please NOTE: device: 0, GPU Compute Capability: 8.6, Driver API Version: 11.4, Runtime API Version: 11.2\nW0101 device_context.cc:465] device: 0, cuDNN Version: 8.1.\n1\n2\n3\n4\n5\n6\nOSError: (External) CUDNN error(1), CUDNN_STATUS_NOT_INITIALIZED.", "framework-cudnn-mismatch" },
	/* its own warning of a cuDNN older than the one it was compiled with */
	{ "W0101 device_context.h:397] WARNING: device: 0. The installed Paddle is compiled with CUDNN 7.6, but CUDNN version in your machine is 7.4, which may cause serious incompatible bug.", "framework-cudnn-mismatch" },
};

/* a candidate list without cause `key` */
static bool lacks_cause(const struct explain_message *m, const char *key)
{
	for (size_t i = 0; m && i < m->n_cands; i++)
		if (strcmp(m->cands[i].cause->key, key) == 0)
			return false;
	return true;
}

/* Versions reach the whole log only from a banner that names no cause, and a banner weighs the
 * message's own causes: it adds none, and a lower minor of the same CUDA 11+ major is minor
 * compatibility, not a driver too old. The code's own text is read as the code, once. */
static void test_banner_versions_scope(void **state)
{
	(void)state;
	/* a docker command's image tag (a hint row with a capture) is no CUDA version of the log */
	assert_string_equal(first_finding("docker run --rm -it nvidia/cuda:12.1.0-runtime-ubuntu22.04 bash\n1\n2\n3\n4\n5\n6\n7\n8\n"
					  "ImportError: libcublas.so.11: cannot open shared object file: No such file or directory"),
			    "lib-not-found");
	const struct explain_message *m = first_message(
		"W0101 gpu_resources.cc:61] Please NOTE: device: 0, GPU Compute Capability: 8.6, Driver API Version: 12.0, Runtime API Version: 12.3\n"
		"1\n2\n3\n4\n5\n6\nResourceExhaustedError: Out of memory error on GPU 0. Cannot allocate 1.0GB memory on GPU 0");
	assert_non_null(m);
	assert_true(lacks_cause(m, "driver-too-old"));
	assert_string_equal(first_finding("RuntimeError: CUDA error: no kernel image is available for execution on the device, cudaErrorInsufficientDriver"),
			    "no-kernel-image");
}

static const struct form_case set43_forms[] = {
	/* .NET naming a native library without its extension */
	{ "System.DllNotFoundException: k4a\n  at Microsoft.Azure.Kinect.Sensor.Device.Open", "dll-not-found" },
	{ "DllNotFoundException: k4abt assembly:<unknown assembly> type:<unknown type> member:(null)", "dll-not-found" },
	/* a name with its extension stands as it is: Mono on Linux naming the driver's library */
	{ "System.DllNotFoundException: libcuda.so.1", "no-driver" },
	/* a DLL found where it was looked for that does not load: one it imports is missing */
	{ "Find cudnn64_8.dll at C:\\SDK\\tools\\cudnn64_8.dll but it doesn't load correctly!", "dll-dependency-missing" },
	/* Kokkos's architecture check, both versions named */
	{ "Kokkos::Cuda::initialize ERROR: running kernels compiled for compute capability 7.0 on device with compute capability 8.6 is not supported by CUDA!", "no-kernel-image" },
	/* PyTorch Lightning asked for a GPU that torch cannot see */
	{ "lightning_fabric.utilities.exceptions.MisconfigurationException: CUDAAccelerator can not run on your system since the accelerator is not available.", "torch-cpu-build" },
	/* faiss without its GPU classes; any other missing attribute says nothing of the build */
	{ "AttributeError: module 'faiss' has no attribute 'StandardGpuResources'", "framework-cpu-build" },
	{ "AttributeError: module 'faiss' has no attribute 'read_index_binary'", "not framework-cpu-build" },
	/* the loader's message cut short in a log viewer */
	{ "ImportError: libcublasLt.so.12: cannot open shared object fil", "lib-not-found" },
};

static const struct form_case set44_forms[] = {
	/* PyTorch's extension builder meeting an architecture this torch does not know */
	{ "ValueError: Unknown CUDA arch (12.0) or GPU not supported", "gpu-unsupported-by-toolkit" },
	{ "ValueError: Unknown CUDA arch (9.0a) or GPU not supported", "gpu-unsupported-by-toolkit" },
};

static const struct form_case set45_forms[] = {
	/* a sentence that says a library is absent is no failure of its own */
	{ "The image contains no libcuda.so.1: the NVIDIA runtime mounts it at start.", "not no-driver" },
	/* ONNX Runtime without its provider bridge library */
	{ "2024-05-01 10:00:00.0 [W:onnxruntime:Default, onnxruntime_pybind_state.cc:1983 onnxruntime::python::CreateInferencePybindStateModule] Init provider bridge failed.", "framework-lib-missing" },
	/* a symbol in Markdown's backticks */
	{ "ImportError: cuda_utils.so: undefined symbol: `cuLaunchKernel`", "stub-libcuda" },
};

static const struct form_case set46_forms[] = {
	/* Podman tools without a CDI spec for the GPU */
	{ "Error: No CDI configuration found for all", "container-toolkit-missing" },
	/* nvidia-ctk's CDI discovery without the driver's libcuda of the module's version */
	{ "failed to get libraries for driver version: failed to locate libcuda.so.550.54.14: pattern libcuda.so.550.54.14 not found", "no-driver" },
};

static const struct form_case set47_48_forms[] = {
	/* bitsandbytes without a native library for the CUDA it detected, in both wordings; above its
	 * CPU fallback's sentence */
	{ "WARNING:bitsandbytes.cextension:Could not find the bitsandbytes CUDA binary at PosixPath('/venv/lib/python3.11/site-packages/bitsandbytes/libbitsandbytes_cuda130.so')\n"
	  "WARNING:bitsandbytes.cextension:The installed version of bitsandbytes was compiled without GPU support.",
	  "framework-lib-missing" },
	{ "CUDA SETUP: Required library version not found: libbitsandbytes_cuda124.so. Maybe you need to compile it from source?", "framework-lib-missing" },
	/* containerd's CRI without the nvidia runtime handler */
	{ "Warning  FailedCreatePodSandBox  kubelet  Failed to create pod sandbox: failed to get sandbox runtime: no runtime for \"nvidia\" is configured", "container-toolkit-missing" },
	/* ldconfig skipping an empty file where a driver library should be */
	{ "/sbin/ldconfig.real: File /usr/lib/x86_64-linux-gnu/libnvidia-ml.so.1 is empty, not checked.", "lib-damaged" },
	/* a program linked against LibTorch started without libtorch's directory on its path: not a
	 * CPU-only torch, which Python's import of an extension reports */
	{ "./build/infer: error while loading shared libraries: libc10_cuda.so: cannot open shared object file: No such file or directory", "lib-not-found" },
	{ "ImportError: libc10_cuda.so: cannot open shared object file: No such file or directory", "torch-cpu-build" },
	/* the NVIDIA module's sources failing to compile for the kernel, and Nix's wording of it */
	{ "  nvidia-uvm/uvm_va_range.c:412:17: error: implicit declaration of function 'vm_flags_set'", "no-driver" },
	{ "error: builder for '/nix/store/abc123-nvidia-x11-550.78-6.10.drv' failed with exit code 2;", "no-driver" },
	/* an NVIDIA program a shell cannot run on a musl system (its glibc interpreter is missing); the
	 * log's docker words count once, however many lines show them */
	{ "$ docker ps\n$ docker info\n$ docker version\nHost: Alpine Linux 3.19\n-bash: /usr/bin/nvidia-ctk: No such file or directory",
	  "glibc-on-musl" },
	{ "-bash: /usr/bin/nvidia-ctk: No such file or directory", "container-toolkit-missing" },
	{ "sh: /usr/bin/nvidia-container-cli: not found", "container-toolkit-missing" },
	{ "sh: 1: /usr/bin/nvidia-ctk: not found", "container-toolkit-missing" },
	/* bash 5.1+: the file is there, its interpreter is not */
	{ "bash: /usr/bin/nvidia-ctk: cannot execute: required file not found", "glibc-on-musl" },
	{ "bash: nvidia-smi: cannot execute: required file not found", "glibc-on-musl" },
	/* a driver program or a shell builtin's argument is no container tool */
	{ "bash: cd: /opt/nvidia-hpc: No such file or directory", "not recognised" },
	{ "bash: /usr/bin/nvidia-settings: No such file or directory", "not container-toolkit-missing" },
	/* an Alpine stage of a multi-stage build names no musl system where the failure was */
	{ "Step 1/8 : FROM alpine:3.19 AS fetch\nStep 5/8 : FROM nvidia/cuda:12.4.1-runtime-ubuntu22.04\n/bin/sh: 1: nvidia-smi: not found", "not glibc-on-musl" },
	{ "RuntimeError: Configured CUDA binary not found at /venv/lib/python3.12/site-packages/bitsandbytes/libbitsandbytes_cuda132.so", "framework-lib-missing" },
	{ "failed to get sandbox runtime: no runtime for \"nvidia-cdi\" is configured", "container-toolkit-missing" },
	{ "/build/nvidia/os-interface.c:12:10: fatal error: linux/cc_platform.h: No such file or directory", "no-driver" },
	{ "third_party/nvidia/nvshmem/src/host/init.c:10:3: error: unknown type name 'foo'", "not no-driver" },
	{ "error: Cannot build '/nix/store/abc123-nvidia-x11-570.86.16-6.15.drv'.", "no-driver" },
	/* nvJitLink given a newer NVVM's output: two CUDA releases in one process */
	{ "ERROR 4 in nvvmAddNVVMContainerToProgram, may need newer version of nvJitLink library", "process-mixed-libs" },
	/* text-embeddings-inference built for another compute capability */
	{ "Error: Could not start backend: Runtime compute cap 86 is not compatible with compile time compute cap 90", "framework-gpu-arch" },
};

/* Wordings written for set 51's misses (not its reports' texts), with look-alikes that must not
 * take the new readings */
static const struct form_case set51_forms[] = {
	/* a library found and refused: glibc's EACCES (open or mmap) and Windows' error 5, also on the
	 * line after the load that failed (Julia prints the reason below) */
	{ "OSError: libcublasLt.so.12: cannot open shared object file: Permission denied", "probe-load-failed" },
	{ "ImportError: /home/u/.local/lib/libcudnn.so.9: failed to map segment from shared object", "probe-load-failed" },
	{ "could not load library \"D:\\tools\\bin\\cublas64_12.dll\"\nAccess is denied.", "probe-load-failed" },
	{ "could not load library \"D:\\tools\\bin\\cublas64_12.dll\"\nThe specified module could not be found.", "not probe-load-failed" },
	{ "ERROR: Could not install packages due to an OSError: [WinError 5] Access is denied: 'C:\\Python311\\Lib\\site-packages\\torch\\lib\\asmjit.dll'",
	  "not probe-load-failed" },
	/* "unavailable" alone is no GPU held by another process; CUDA's own text says "busy or" */
	{ "torch.cuda unavailable on the cluster", "not gpu-busy" },
	{ "all CUDA-capable devices are busy or unavailable", "gpu-busy" },
	/* an environment solved where no GPU was visible */
	{ "conda environment built on a build server without a GPU has no CUDA", "conda-cuda-virtual-package" },
	{ "GPU not used: env created on login node without GPU", "conda-cuda-virtual-package" },
	/* libnvidia-container's error with the CLI's name cut off: the hook ran, the host's NVML is missing */
	{ "initialization error: load library failed: libnvidia-ml.so.1: cannot open shared object file: no such file or directory: unknown",
	  "container-toolkit-missing" },
	/* cuDNN 8's loader naming the path of another sub-library it opened: two releases mixed */
	{ "Could not load library libcudnn_adv_infer.so.8. Error: /opt/conda/lib/libcudnn_ops_infer.so.8", "cudnn-mixed-versions" },
	{ "Could not load library libcudnn_cnn_infer.so.8. Error: /opt/x/libcudnn_cnn_infer.so.8: cannot open shared object file: No such file or directory",
	  "not cudnn-mixed-versions" },
	/* more wordings of a file found and refused (EPERM, musl, SELinux, a DLL before Windows' text) */
	{ "libcudart.so.12: cannot open shared object file: Operation not permitted", "probe-load-failed" },
	{ "Error loading shared library libcudart.so.12: Permission denied", "probe-load-failed" },
	{ "/x/libcudnn.so.8: cannot restore segment prot after reloc: Permission denied", "probe-load-failed" },
	{ "Failed to delete C:\\Users\\me\\AppData\\Local\\Temp\\cudnn64_8.dll: Access is denied.", "not probe-load-failed" },
	{ "LoadLibrary(\"cudart64_12.dll\") failed: ERROR_ACCESS_DENIED", "probe-load-failed" },
	/* mmap's ENOMEM is an address-space limit, not a refusal */
	{ "OSError: /x/nvidia/cublas/lib/libcublasLt.so.11: failed to map segment from shared object: Cannot allocate memory",
	  "not probe-load-failed" },
	/* a code alone on the line refines only a load whose sentence ends with the library; pip's
	 * error about another DLL after cuDNN's search does not; a code on the first line has no load
	 * before it */
	{ "Could not locate cudnn_ops_infer64_8.dll. Please make sure it is in your library path!\nERROR: Could not install packages due to an OSError: [WinError 5] Access is denied: 'C:\\x\\torch\\lib\\asmjit.dll'",
	  "not probe-load-failed" },
	{ "Access is denied.\ncould not load library \"D:\\tools\\bin\\cublas64_12.dll\"", "not probe-load-failed" },
	/* images are built on machines without GPUs as a rule: only an environment solved there says so */
	{ "container built on host without nvidia gpu: Failed to initialize NVML: Unknown Error", "not conda-cuda-virtual-package" },
	/* the loaded library's own path with the loader's reason after it is no second release */
	{ "Could not load library libcudnn_cnn_infer.so.8. Error: /usr/lib/x86_64-linux-gnu/libcudnn_cnn_infer.so.8: file too short",
	  "lib-damaged" },
	/* a CUDA library named by its role; cuBLAS's and cuDNN's "failed to initialize" is their handle */
	{ "Failed to initialize cuBLAS library: Error code is: 1 (CUBLAS_STATUS_NOT_INITIALIZED)", "not lib-not-found" },
	{ "Failed to initialize cudnn library: CUDNN_STATUS_INTERNAL_ERROR", "not lib-not-found" },
	{ "Failed to load the cuBLAS library", "lib-not-found" },
	{ "Failed to initialize the CUDA runtime library", "lib-not-found" },
	{ "Couldn't open CUDA library cupti64_80.dll", "dll-not-found" },
	{ "Error: failed to load the NVRTC library", "lib-not-found" },
	{ "Failed to initialize NVML: Driver/library version mismatch", "driver-userspace-mismatch" },
};

/* Wordings written for set 52's misses, with look-alikes */
static const struct form_case set52_forms[] = {
	/* .NET's P/Invoke: the DLL loaded, the function missing (another release) */
	{ "Unhandled exception. System.EntryPointNotFoundException: Unable to find an entry point named 'cudnnCreate' in DLL 'cudnn64_8'.",
	  "dll-proc-not-found" },
	/* a binding that picks its native build by the CUDA and GPU it finds, or whose CUDA part did not come up */
	{ "WARN: no suitable GPU build found for cu102 on this platform, using the CPU engine", "framework-cpu-build" },
	{ "CUDA backend did not initialize on this machine", "framework-cpu-build" },
	{ "No GPU found, training on CPU", "not framework-cpu-build" },
	{ "RuntimeError: No CUDA library found, please set CUDA_HOME", "not framework-cpu-build" },
	{ "CUDA did not initialize because CUDA_VISIBLE_DEVICES is empty", "not framework-cpu-build" },
	{ "System.InvalidOperationException: Torch device type CUDA did not initialise on the current machine.", "framework-cpu-build" },
	{ "nvcc warning: The -std=c++11 flag does not support sm_35 targets", "not gpu-unsupported-by-toolkit" },
	{ "nvcc does not support compute capability 3.0 anymore", "not gpu-unsupported-by-toolkit" },
	{ "the conda environment was created on a login node without a GPU", "conda-cuda-virtual-package" },
	{ "nvidia-container-cli.real: initialization error: driver error: failed to process request: unknown", "not container-toolkit-missing" },
	{ "no matching files found for pattern *.cu", "not recognised" },
	/* a run-time compiler older than the GPU */
	{ "nvrtc does not support compute capability 9.0", "gpu-unsupported-by-toolkit" },
	{ "Warning: ptxas does not support CC 8.9, falling back to the driver", "gpu-unsupported-by-toolkit" },
	/* the compiler's sentence is why the run-time lookup after it failed: it leads the log */
	{ "W asm_compiler.cc:235] Falling back to the CUDA driver for PTX compilation; ptxas does not support CC 8.6\n"
	  "E cuda_driver.cc:625] failed to get PTX kernel \"add_3\" from module: CUDA_ERROR_NOT_FOUND: named symbol not found",
	  "gpu-unsupported-by-toolkit" },
	/* the snap's renamed CLI; JAX's found-but-older copy is no missing library */
	{ "nvidia-container-cli.real: device error: GPU-1234abcd: unknown device", "cuda-visible-devices-hides" },
	{ "CUDA backend failed to initialize: Found cuSPARSE version 12100, but JAX was built against version 12200, which is newer.",
	  "pip-nvidia-shadowed" },
};

static const struct form_case set53_forms[] = {
	/* the fabric manager's own refusals, and a failure on a system described by it */
	{ "nv-fabricmanager: the fabric manager cannot be started: kernel module ib_umad is not loaded", "fabric-manager-not-running" },
	{ "fabric manager config file item: FABRIC_MODE has an invalid value", "fabric-manager-not-running" },
	{ "validator pods keep failing on our HGX H100 with fabric manager system", "fabric-manager-not-running" },
	{ "Started NVIDIA fabric manager service successfully", "not recognised" },
	{ "No errors found. Fabric Manager is running.", "not recognised" },
	{ "dpkg: error processing package nvidia-fabricmanager-535", "not recognised" },
	{ "nvidia-fabricmanager: cannot open log file /var/log/fabricmanager.log, logging to syslog", "not recognised" },
	{ "RuntimeError: CUDA error: an illegal memory access was encountered (fabric manager running, 8x H100)",
	  "not fabric-manager-not-running" },
	/* a preposition starts another phrase: no CUDA error 7 on a CentOS 7 machine */
	{ "the job exits with an error on CentOS 7", "not recognised" },
	{ "cudaMalloc failed with error 2 on GPU 1", "gpu-out-of-memory" },
	{ "CUDA error on GPU 1", "not recognised" },
	/* ... unless it introduces the failing call */
	{ "Error in cuInit: 999", "nvidia-uvm-missing" },
	{ "Error from cudaMalloc: 2", "gpu-out-of-memory" },
	{ "CUDA error in cuInit 100", "no-device" },
	/* a driver version of zero is no driver (cudaDriverGetVersion's 0), never a too-old one */
	{ "CUDA driver version is 0.0, the minimum required is 11.8", "no-driver" },
	{ "CUDA Toolkit 12.8, Driver 0.0 (insufficient CUDA driver version!)", "no-driver" },
	{ "Driver Version: 0", "no-driver" },
	{ "Video driver 0: x11", "not recognised" },
	{ "Loaded driver 0 of 2 (e1000e)\ncudaGetDeviceCount returned 35", "driver-too-old" },
	{ "Insufficient CUDA driver version: the installed CUDA driver version is 450.80", "driver-too-old" },
	/* a LibTorch without CUDA, under any binding; torch for R's C interface; XLA without ptxas;
	 * Taichi's CUDA backend that could not load the driver */
	{ "Error: PyTorch is not linked with support for cuda devices (getDeviceGuardImpl at ../c10/core/impl/DeviceGuardImplInterface.h:319)",
	  "torch-cpu-build" },
	{ "Error in cpp_cuda_is_available(): Lantern is not loaded. Please use `install_torch()` to install additional dependencies.",
	  "framework-lib-missing" },
	{ "W0603 nvptx_compiler.cc:744] Couldn't find a suitable version of ptxas. Relying on driver to perform ptx compilation.",
	  "cuda-toolkit-not-found" },
	{ "W redzone_allocator.cc:312] Internal: Invoking ptxas not supported on Windows\n"
	  "Relying on driver to perform ptx compilation. This message will be only logged once.",
	  "harmless-warning" },
	{ "[W 11/02/23 09:12:44.001 311] [misc.py:adaptive_arch_select@758] Arch=[<Arch.cuda: 3>] is not supported, falling back to CPU",
	  "wsl-libcuda" },
};

static const struct form_case set54_forms[] = {
	/* RAPIDS' import check; the NVIDIA HPC SDK's run-time refusal and its compilers' minimum */
	{ "RuntimeError: This cuML installation is missing the necessary PTX files that are <=52.", "no-kernel-image" },
	{ "Accelerator Fatal Error: This file was compiled: -acc=gpu -gpu=cc75\nRebuild this file with -gpu=cc90 to use NVIDIA Tesla GPU 1",
	  "no-kernel-image" },
	{ "This file was compiled: -acc=gpu -gpu=cc60 -gpu=cc70", "no-kernel-image" },
	{ "nvfortran-Fatal-The option -stdpar is available only on systems with NVIDIA GPUs with compute capability cc60 or greater.",
	  "gpu-unsupported-by-toolkit" },
	{ "nvc-Fatal-No GPU detected. Please use '-gpu=ccXY' to generate GPU code and specify compute capability.", "no-driver" },
	/* faiss's GPU classes without the module's name; Slurm's NoDevFiles as a value a program parsed */
	{ "AttributeError: 'module' object has no attribute 'GpuIndexFlatL2'", "framework-cpu-build" },
	{ "AttributeError: 'Trainer' object has no attribute 'gpu_ids'", "not recognised" },
	{ "ValueError: invalid literal for int() with base 10: 'NoDevFiles'", "cuda-visible-devices-hides" },
	/* the linker's undefined runtime entry points of nvcc's stubs, also as a translated ld words it;
	 * not relocatable device code that was never device-linked */
	{ "kernel.o: In function `main':\nkernel.cu:(.text+0x4f): undefined reference for \"__cudaPushCallConfiguration\"",
	  "nvcc-framework-mismatch" },
	{ "main.o: undefined reference to `__cudaRegisterLinkedBinary_41_tmpxft_00001234_00000000_7_kernel_cpp1_ii_abc'",
	  "not recognised" },
	{ "kernel.o: undefined reference to `__cudaRegisterFatBinary'", "not lib-symbol-version-missing" },
	/* counts after a preposition, products named like calls, counts after a driver's name */
	{ "CUDA error after 100 iterations", "not recognised" },
	{ "CUDA error on 2 of 8 GPUs", "not recognised" },
	{ "NCCL error in 2 processes", "not recognised" },
	{ "Error in cuFFT 10", "not recognised" },
	{ "CUDA driver: 0 devices found", "not no-driver" },
	{ "Driver 0.0 (insufficient CUDA driver version!)", "no-driver" },
	{ "Internal: Invoking GPU asm compilation is supported on Cuda non-Windows platforms only\n"
	  "Relying on driver to perform ptx compilation.",
	  "harmless-warning" },
	{ "Fabric Manager has not been started", "fabric-manager-not-running" },
};

static const struct form_case set55_forms[] = {
	/* a C++ symbol of the stack's own libraries: two components of one stack out of step */
	{ "failed to load 'onnxruntime' backend: undefined symbol: _ZN11onnxruntime6common6Status8ToStringB5cxx11Ev",
	  "probe-load-failed" },
	{ "E0401 model_lifecycle.cc:638] failed to load 'ensemble': Unable to find backend library for backend 'tensorrtllm'",
	  "lib-not-found" },
	{ "[TensorRT-LLM][ERROR] Assertion failed: No valid weight-only GEMM tactic (/src/cpp/gemm.cpp:155)", "framework-gpu-arch" },
	{ "Debug: Could not use forward compatibility package", "forward-compat-unsupported" },
	/* ... a debug line below the error that follows it */
	{ "Debug: Could not use forward compatibility package (error 804)\nERROR: LoadError: CUDA error: no kernel image is "
	  "available for execution on the device (code 209, ERROR_NO_BINARY_FOR_GPU)",
	  "no-kernel-image" },
	/* PyTorch 2.8's capability warning; SD WebUI Forge's check; a runtime built for other GPUs */
	{ "UserWarning: Found GPU0 Tesla P100 which is of compute capability (CC) 6.0. The following list shows the CCs "
	  "this version of PyTorch was built for and the hardware CCs it supports:",
	  "framework-gpu-arch" },
	{ "UserWarning: Found GPU0 NVIDIA GeForce RTX 5090 Laptop GPU which is of compute capability (CC) 12.0.\n"
	  "The following list shows the CCs this version of PyTorch was built for and the hardware CCs it supports:",
	  "framework-gpu-arch" },
	{ "libnvinfer_plugin.so.8: undefined symbol: _ZN8nvinfer120getBuilderPluginRegistryENS_7EngineCapabilityE",
	  "probe-load-failed" },
	{ "/usr/bin/ld: warning: libgfortran.so.3, needed by /usr/lib/libopenblas.so, not found (try using -rpath or -rpath-link)\n"
	  "RuntimeError: CUDA error: an illegal memory access was encountered",
	  "not lib-not-found" },
	{ " > [4/4] RUN ./deviceQuery:\n0.812 cudaGetDeviceCount returned 35\n"
	  "ERROR: failed to solve: process \"/bin/sh -c ./deviceQuery\" did not complete successfully: exit code: 1",
	  "container-no-gpu" },
	{ "Your installed torch==2.13.0+cu126 does not include kernels for this GPU. Reinstall the same version against a CUDA "
	  "build that does, e.g.:",
	  "framework-gpu-arch" },
	{ "No published PyTorch CUDA builds for release 2.13.0+cu130 support this GPU.", "framework-gpu-arch" },
	{ "UserWarning: Found GPU0 Orin which is of compute capability (CC) 8.7.", "harmless-warning" },
	{ "RuntimeError: Torch is not able to access CUDA", "torch-cpu-build" },
	{ "llama runtime: No supported CUDA GPUs found on this machine", "framework-gpu-arch" },
	{ "cortex: CUDA version 12.2 is not compatible with TensorRT-LLM models. Required version: 12.4", "driver-too-old" },
	{ "error: the CUDA driver library is a stub", "stub-libcuda" },
	{ "libcuda.so.1 is a stub", "stub-libcuda" },
	{ "the CUDA driver is a stubborn beast, it never works on this distro", "not recognised" },
	{ "the launcher fails to find libcuda on this host", "no-driver" },
	{ "the checker could not open libcudart", "not no-driver" },
	/* ld's missing DT_NEEDED before the undefined references it causes */
	{ "/usr/bin/ld: warning: libcuda.so.1, needed by libfoo.so, not found (try using -rpath or -rpath-link)\n"
	  "libfoo.so: undefined reference to `cuMemAlloc_v2'",
	  "lib-not-found" },
	/* a docker build: its steps get no GPU */
	{ "#9 [3/4] RUN ./deviceQuery\n#9 0.812 cudaGetDeviceCount returned 35\n"
	  "#9 0.812 -> CUDA driver version is insufficient for CUDA runtime version",
	  "container-no-gpu" },
	/* not a build: a timing that looks like BuildKit's, a hook that ran (the step had the runtime) */
	{ "Epoch #1 2.500 s/it\nRuntimeError: CUDA error: no CUDA-capable device is detected", "not container-no-gpu" },
	{ "Step 3/4 : RUN nvidia-smi\nnvidia-container-cli: initialization error: nvml error: driver not loaded: unknown\n"
	  "The command '/bin/sh -c nvidia-smi' returned a non-zero code: 1",
	  "no-driver" },
	{ "undefined symbol: _ZTVN8nvinfer115IPluginV2DynamicExtE", "probe-load-failed" },
	{ "Step 7/9 : RUN python -c 'import torch; assert torch.cuda.is_available()'\nAssertionError\n"
	  "The command '/bin/sh -c python -c ...' returned a non-zero code: 1",
	  "not recognised" },
	{ "see issue #7 2.5 for details: cudaGetDeviceCount returned 35", "driver-too-old" },
	{ "RuntimeError: CUDA version (11.8) mismatches the version that was used to compile PyTorch (12.1)",
	  "nvcc-framework-mismatch" },
};

/* PyTorch's extension check names both CUDA releases, whichever wording (torchaudio's "whereas",
 * newer torchvision's "major versions ... Version=") */
static void test_ext_cuda_versions(void **state)
{
	(void)state;
	static const char *const v[] = {
		"RuntimeError: Detected that PyTorch and torchvision were compiled with different CUDA major versions. PyTorch has CUDA Version=12.8 and torchvision has CUDA Version=13.0.",
		"RuntimeError: Detected that PyTorch and TorchAudio were compiled with different CUDA versions. PyTorch has CUDA version 12.8 whereas TorchAudio has CUDA version 13.0.",
	};
	for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
		const struct explain_message *m = first_message(v[i]);
		assert_non_null(m);
		assert_true(m->n_cands > 0);
		assert_string_equal(m->cands[0].cause->key, "ext-cuda-build-mismatch");
		bool built = false, found = false;
		for (size_t k = 0; k < m->n_facts; k++)
			if (m->facts[k].kind == EXF_VERSION && m->facts[k].role) {
				built |= strcmp(m->facts[k].role, "built") == 0 && strcmp(m->facts[k].value, "12.8") == 0;
				found |= strcmp(m->facts[k].role, "found") == 0 && strcmp(m->facts[k].value, "13.0") == 0;
			}
		assert_true(built && found);
	}
}

/* Docker's CDI support off has its own cause, whose fix turns CDI on */
static void test_docker_cdi_off(void **state)
{
	(void)state;
	const struct explain_message *m =
		first_message("docker: Error response from daemon: could not select device driver \"cdi\" with capabilities: [].");
	assert_non_null(m);
	assert_true(m->n_cands > 0);
	assert_string_equal(m->cands[0].cause->key, "docker-cdi-off");
	assert_non_null(strstr(m->cands[0].cause->fix, "--cdi.enabled"));
	assert_null(strchr(m->cands[0].cause->fix, '{')); /* no braces a placeholder would eat */
}

/* zlibwapi.dll is among the causes of a cuDNN 8 DLL not found on Windows, never of a cuDNN 9 one */
static void test_cudnn9_no_zlibwapi(void **state)
{
	(void)state;
	static const struct {
		const char *text;
		bool zlib;
	} v[] = {
		{ "Could not locate cudnn_ops64_9.dll. Please make sure it is in your library path!", false },
		{ "Could not locate cudnn_ops_infer64_8.dll. Please make sure it is in your library path!", true },
	};
	for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
		const struct explain_message *m = first_message(v[i].text);
		assert_non_null(m);
		bool zlib = false;
		for (size_t k = 0; k < m->n_cands; k++)
			zlib |= strcmp(m->cands[k].cause->key, "zlibwapi-missing") == 0;
		assert_int_equal(zlib, v[i].zlib);
	}
}

static void test_set36_forms(void **state)
{
	(void)state;
	expect_first_findings(set36_forms, sizeof set36_forms / sizeof set36_forms[0]);
}

static void test_set37_forms(void **state)
{
	(void)state;
	expect_first_findings(set37_forms, sizeof set37_forms / sizeof set37_forms[0]);
}

static void test_set38_forms(void **state)
{
	(void)state;
	expect_first_findings(set38_forms, sizeof set38_forms / sizeof set38_forms[0]);
}

/* TensorRT's SM number says which side is too old: below Volta's 0x700 the GPU, else TensorRT */
static void test_trt_unsupported_sm(void **state)
{
	(void)state;
	const struct explain_message *m = first_message("trtSmToCask::193] Error Code 1: Internal Error (Unsupported SM: 0x601)");
	assert_non_null(m);
	assert_true(m->n_cands > 0);
	assert_string_equal(m->cands[0].cause->key, "framework-gpu-arch");
	m = first_message("Internal Error (Unsupported SM: 0x890)");
	assert_non_null(m);
	assert_true(m->n_cands > 0);
	assert_string_equal(m->cands[0].cause->key, "tensorrt-older-than-gpu");
}

static void test_set39_forms(void **state)
{
	(void)state;
	expect_first_findings(set39_forms, sizeof set39_forms / sizeof set39_forms[0]);
}

static void test_set40_forms(void **state)
{
	(void)state;
	expect_first_findings(set40_forms, sizeof set40_forms / sizeof set40_forms[0]);
}

static void test_set41_forms(void **state)
{
	(void)state;
	expect_first_findings(set41_forms, sizeof set41_forms / sizeof set41_forms[0]);
}

static void test_set42_forms(void **state)
{
	(void)state;
	expect_first_findings(set42_forms, sizeof set42_forms / sizeof set42_forms[0]);
}

static void test_set43_forms(void **state)
{
	(void)state;
	expect_first_findings(set43_forms, sizeof set43_forms / sizeof set43_forms[0]);
}

static void test_set44_forms(void **state)
{
	(void)state;
	expect_first_findings(set44_forms, sizeof set44_forms / sizeof set44_forms[0]);
}

static void test_set45_forms(void **state)
{
	(void)state;
	expect_first_findings(set45_forms, sizeof set45_forms / sizeof set45_forms[0]);
}

static void test_set46_forms(void **state)
{
	(void)state;
	expect_first_findings(set46_forms, sizeof set46_forms / sizeof set46_forms[0]);
}

static void test_set47_48_forms(void **state)
{
	(void)state;
	expect_first_findings(set47_48_forms, sizeof set47_48_forms / sizeof set47_48_forms[0]);
}

static void test_set51_forms(void **state)
{
	(void)state;
	expect_first_findings(set51_forms, sizeof set51_forms / sizeof set51_forms[0]);
}

static void test_set52_forms(void **state)
{
	(void)state;
	expect_first_findings(set52_forms, sizeof set52_forms / sizeof set52_forms[0]);
}

static void test_set53_forms(void **state)
{
	(void)state;
	expect_first_findings(set53_forms, sizeof set53_forms / sizeof set53_forms[0]);
}

static void test_set54_forms(void **state)
{
	(void)state;
	expect_first_findings(set54_forms, sizeof set54_forms / sizeof set54_forms[0]);
}

/* ---- the forms set 56's misses showed: each message's first cause, and readings that must not
 * happen ---------------------------------------------------------------------------------------- */
static const struct form_case set56_forms[] = {
	/* a program's refusal of a GPU it has no code for, by "supported" or by the capability */
	{ "RuntimeError: No supported GPUs are present on this system.", "framework-gpu-arch" },
	{ "The device Tesla K40c with computed capability 3.5 does not support this program.", "framework-gpu-arch" },
	{ "error: no GPUs are present on this system", "not framework-gpu-arch" },
	/* the ort crate without a prebuilt CUDA ONNX Runtime for the platform */
	{ "[ort-sys] [WARN] no prebuilt binaries available on this platform", "framework-cpu-build" },
	/* XLA's lazy CUDA stubs: the CUDA function's library was not loaded */
	{ "INTERNAL: operation gpuGetLastError() failed: cudaGetErrorString symbol not found.", "framework-lib-missing" },
	{ "plugin error: my_helper symbol not found.", "not framework-lib-missing" },
	/* XLA without ptxas */
	{ "W nvptx_compiler.cc:75] Can't find ptxas binary in ${CUDA_DIR}/bin.  Custom ptxas location can be specified using $PATH.",
	  "cuda-toolkit-not-found" },
	{ "Couldn't find a suitable version of ptxas. The following locations were considered: /usr/local/cuda/bin/ptxas",
	  "cuda-toolkit-not-found" },
	/* Vulkan's -9 by number: no driver's ICD */
	{ "vkCreateInstance failed -9", "container-no-gpu" },
	{ "vkCreateInstance failed -90", "not container-no-gpu" },
	/* onnxruntime's CUDA_PATH sentence from a Linux wheel names no DLL */
	{ "/onnxruntime_src/onnxruntime/python/onnxruntime_pybind_state.cc:857 CUDA_PATH is set but CUDA wasnt able to be loaded.",
	  "lib-wrong-major" },
	{ "D:\\a\\_work\\onnxruntime_pybind_state.cc:857 CUDA_PATH is set but CUDA wasnt able to be loaded.",
	  "dll-wrong-major" },
	/* Triton with no C compiler; torch that cannot bound the g++ of this CUDA */
	{ "Failed to find C compiler. Please specify via CC environment variable.", "nvcc-host-compiler-unsupported" },
	{ "UserWarning: There are no g++ version bounds defined for CUDA version 12.9", "nvcc-host-compiler-unsupported" },
	/* look-alikes: another subsystem's device, a feature the hardware lacks, other libraries'
	 * symbols, another execution provider's ort build */
	{ "Bluetooth: No supported device found", "not framework-gpu-arch" },
	{ "WARNING: No supported GPU devices are available, falling back to CPU.", "not framework-gpu-arch" },
	{ "lua: curl_easy_init symbol not found", "not framework-lib-missing" },
	{ "OpenSSL: cuckoo_hash symbol not found", "not framework-lib-missing" },
	{ "Cuda symbol not found", "not framework-lib-missing" },
	{ "cuInit symbol not found", "framework-lib-missing" },
	{ "warning: ort-sys@2.0.0-rc.12: [ort-sys] [WARN] no prebuilt binaries available on this platform for combination of "
	  "features 'rocm'",
	  "not framework-cpu-build" },
	/* other builds of onnxruntime and other wordings of Vulkan's -9 */
	{ "RuntimeError: /home/conda/feedstock_root/build/onnxruntime_pybind_state.cc:857 CUDA_PATH is set but CUDA wasnt "
	  "able to be loaded.",
	  "lib-wrong-major" },
	{ "vkCreateInstance failed with error -9", "container-no-gpu" },
	{ "vkCreateInstance failed (-9)", "container-no-gpu" },
	{ "vkCreateInstance() failed: -9", "container-no-gpu" },
	/* the second review's look-alikes: other libraries' snake_case names, other vendors' stacks,
	 * hardware floors, a Windows drive written with slashes, ort's non-CUDA feature sets */
	{ "cugraph_pagerank symbol not found", "not framework-lib-missing" },
	{ "cuda_malloc_wrapper symbol not found", "not framework-lib-missing" },
	{ "cublasCreate_v2 symbol not found", "framework-lib-missing" },
	{ "rocm: no supported gpus found", "not framework-gpu-arch" },
	{ "OpenCL: No supported GPUs are present", "not framework-gpu-arch" },
	{ "No supported CUDA GPUs found on this machine", "framework-gpu-arch" },
	{ "Device with compute capability 7.5 does not support the Marlin kernel", "not framework-gpu-arch" },
	{ "C:/b/onnxruntime/python/onnxruntime_pybind_state.cc:857 CUDA_PATH is set but CUDA wasnt able to be loaded.",
	  "dll-wrong-major" },
	{ "[ort-sys] [WARN] no prebuilt binaries available on this platform for combination of features 'train'",
	  "not framework-cpu-build" },
	{ "[ort-sys] [WARN] no prebuilt binaries available on this platform for combination of features 'wgpu,cu12'",
	  "framework-cpu-build" },
	{ "error: ort does not provide prebuilt binaries for the target `aarch64-unknown-linux-gnu` with feature set cu12.",
	  "framework-cpu-build" },
};

/* The first cause of a message by its key (the finding alone does not tell two causes apart). */
static const char *first_cause_key(const char *text)
{
	const struct explain_message *m = first_message(text);
	return m && m->n_cands ? m->cands[0].cause->key : "not recognised";
}

/* ---- the forms set 57's misses showed ------------------------------------------------------------ */
static const struct form_case set57_forms[] = {
	/* bitsandbytes' CPU library: the 8-bit optimizers' table is missing */
	{ "NameError: name 'str2optimizer32bit' is not defined", "framework-lib-missing" },
	/* torch's cpp_extension with no architecture to build for: no GPU visible, no TORCH_CUDA_ARCH_LIST */
	{ "    arch_list[-1] += '+PTX'\nIndexError: list index out of range", "container-no-gpu" },
	/* MinkowskiEngine's CPU-only build; spconv's C++ library without this GPU's kernels */
	{ "AssertionError: The MinkowskiEngine was compiled with CPU_ONLY flag.", "framework-cpu-build" },
	{ "  what():  convops/ConvTunerSimple_cached_get_nvrtc_params.cc(18)\nnot implemented in c++, must be overrided in python!!!",
	  "no-kernel-image" },
	{ "this method is not implemented in C++ yet", "not recognised" },
	/* Numba adding PTX through the driver's linker */
	{ "    driver.cuLinkAddData(self.handle, enums.CU_JIT_INPUT_PTX,", "ptx-too-new" },
	{ "    driver.cuLinkAddData(self.handle, enums.CU_JIT_INPUT_CUBIN,", "not ptx-too-new" },
	{ "    driver.cuLinkAddData(self.handle, input_ptx, ptx, len(ptx),", "ptx-too-new" },
	{ "        arch_list[-1] += \"+PTX\"", "container-no-gpu" },
};

static void test_set57_forms(void **state)
{
	(void)state;
	expect_first_findings(set57_forms, sizeof set57_forms / sizeof set57_forms[0]);
	/* MinkowskiEngine's CPU-only build has its own fix (--force_cuda), not another package's */
	assert_string_equal(first_cause_key("AssertionError: The MinkowskiEngine was compiled with CPU_ONLY flag."),
			    "minkowski-cpu-only");
	/* bitsandbytes' CPU fallback: a CPU-only torch is among its causes (its CUDA check is torch's) */
	assert_false(lacks_cause(first_message("The installed version of bitsandbytes was compiled without GPU support."),
				 "torch-cpu-build"));
}

/* ---- the forms set 58's misses showed ------------------------------------------------------------ */
static const struct form_case set58_forms[] = {
	/* a Visual Studio project naming a CUDA release whose build customization is not installed */
	{ "error MSB4019: The imported project \"C:\\Program Files\\Microsoft Visual Studio\\2022\\Community\\MSBuild\\Microsoft\\VC\\v170\\BuildCustomizations\\CUDA 12.4.props\" was not found.",
	  "cuda-toolkit-not-found" },
	/* JAX without a GPU backend */
	{ "RuntimeError: Unknown backend: 'gpu' requested, but no platforms that are instances of gpu are present.",
	  "framework-cpu-build" },
	/* ONNX Runtime's C# API appending the CUDA provider; ColossalAI finding no kernel; Apex's CUDA check */
	{ "   at Microsoft.ML.OnnxRuntime.SessionOptions.MakeSessionOptionWithCudaProvider(Int32 deviceId)",
	  "framework-lib-missing" },
	{ "RuntimeError: [extension] Could not find any kernel compatible with the current environment.", "container-no-gpu" },
	{ "RuntimeError: Cuda extensions are being compiled with a version of Cuda that does not match the version used to "
	  "compile Pytorch binaries.  Pytorch binaries were compiled with Cuda 11.8.",
	  "nvcc-framework-mismatch" },
	/* a package's compiled module named with '_' (colossal_C, fused_layer_norm_cuda) */
	{ "ModuleNotFoundError: No module named 'colossal_C'", "cuda-toolkit-not-found" },
	{ "ModuleNotFoundError: No module named 'selective_scan_cuda'", "cuda-toolkit-not-found" },
	{ "ModuleNotFoundError: No module named 'numba_cuda'", "not cuda-toolkit-not-found" },
	{ "ModuleNotFoundError: No module named 'torch._C'", "not cuda-toolkit-not-found" },
};

static void test_set58_forms(void **state)
{
	(void)state;
	expect_first_findings(set58_forms, sizeof set58_forms / sizeof set58_forms[0]);
	assert_string_equal(first_cause_key("The imported project \"C:\\VS\\BuildCustomizations\\CUDA 11.3.targets\" was not found."),
			    "vs-cuda-integration-missing");
}

/* ---- the forms set 59's misses showed ------------------------------------------------------------ */
static const struct form_case set59_forms[] = {
	/* nvidia-docker 1's volume plugin; Vulkan without a compatible driver */
	{ "docker: Error response from daemon: create nvidia_driver_390.87: VolumeDriver.Create: internal error, check logs for details.",
	  "container-toolkit-missing" },
	{ "Cannot find a compatible Vulkan driver (ICD).", "container-no-gpu" },
	{ "Found a compatible Vulkan driver: NVIDIA 550.54", "not container-no-gpu" },
	/* Triton's cubin refused by an older driver */
	{ "RuntimeError: Triton Error [CUDA]: device kernel image is invalid", "driver-too-old" },
	/* torch without a GPU, as Lightning and Transformers say it */
	{ "            You requested GPUs: [0]\n            But your machine only has: []", "torch-cpu-build" },
	{ "ValueError: Mixed precision training with AMP or APEX (`--fp16`) and FP16 evaluation can only be used on CUDA devices.",
	  "torch-cpu-build" },
	/* JAX 0.3's wording, also wrapped before 'registered' */
	{ "RuntimeError: Backend 'gpu' failed to initialize: NOT_FOUND: Could not find", "framework-cpu-build" },
	{ "registered platform with name: \"cuda\". Available platform names are: Host Interpreter", "framework-cpu-build" },
	/* cpp_extension asking for CUDA_HOME; Maxine's redistributable */
	{ "    cuda_home_include = _join_cuda_home('include')", "cuda-toolkit-not-found" },
	{ "[NVIDIA Audio Effects:] NVIDIA denoiser disabled, redistributable not found or could not be loaded.", "dll-not-found" },
	/* the fourth review's look-alikes and variants: JAX on TPU, a CUDA jaxlib without a visible GPU,
	 * OBS 27's filter name, Vulkan's ICD, Transformers' and Lightning's other wordings, nvidia-docker
	 * 1 without its plugin */
	{ "registered platform with name: \"cuda\". Available platform names are: TPU Host Interpreter",
	  "not framework-cpu-build" },
	{ "RuntimeError: Backend 'gpu' failed to initialize: FAILED_PRECONDITION: No visible GPU devices.", "no-device" },
	{ "[noise suppress]: NVIDIA denoiser disabled, redistributable not found or could not be loaded.", "dll-not-found" },
	{ "Cannot find a compatible Vulkan installable client driver (ICD).", "container-no-gpu" },
	{ "ValueError: FP16 Mixed precision training with AMP or APEX (`--fp16`) and FP16 half precision evaluation "
	  "(`--fp16_full_eval`) can only be used on CUDA or NPU devices or certain XPU devices (with IPEX).",
	  "torch-cpu-build" },
	{ "MisconfigurationException: `CUDAAccelerator` can not run on your system since the accelerator is not available.",
	  "torch-cpu-build" },
	{ "MisconfigurationException: GPUs requested but none are available.", "torch-cpu-build" },
	{ "docker: Error response from daemon: create nvidia_driver_384.111: error looking up volume plugin nvidia-docker: "
	  "plugin \"nvidia-docker\" not found.",
	  "container-toolkit-missing" },
};

static void test_set59_forms(void **state)
{
	(void)state;
	expect_first_findings(set59_forms, sizeof set59_forms / sizeof set59_forms[0]);
}

/* ---- the forms set 60's misses showed: a dependency's CUDA target in CMake, Kaldi's nameless GPU -- */
static const struct form_case set60_forms[] = {
	{ "  \"VecGeom::vecgeomcuda_static\" but the target was not found.  Perhaps a find_package() call is missing",
	  "framework-cpu-build" },
	{ "Target \"app\" links to target \"CUDA::cudart\" but the target was not found.", "cuda-toolkit-not-found" },
	{ "Target \"app\" links to target \"Boost::filesystem\" but the target was not found.", "not recognised" },
	{ "LOG (FinalizeActiveGpu():cu-device.cc:308) The active GPU is [0]: Unknown GPU free:0M, used:0M, total:0M",
	  "driver-userspace-mismatch" },
};

static void test_set60_forms(void **state)
{
	(void)state;
	expect_first_findings(set60_forms, sizeof set60_forms / sizeof set60_forms[0]);
	/* the review's fixes: CMake's own causes (its fix is not CUDA_HOME, which FindCUDAToolkit
	 * never reads), Kaldi's line is the unversioned libcuda.so link, and only a notice */
	assert_string_equal(first_cause_key("Target \"app\" links to target \"CUDA::cudart\" but the target was not found."),
			    "cmake-cudatoolkit-target-missing");
	assert_string_equal(first_cause_key("  \"VecGeom::vecgeomcuda_static\" but the target was not found."),
			    "cmake-dep-built-without-cuda");
	assert_string_equal(first_cause_key("cudaSetDevice(0): Unknown GPU free:0M, used:0M, total:0M, free/total:1"),
			    "libcuda-dev-link-stale");
	const struct explain_message *m =
		first_message("LOG (FinalizeActiveGpu():cu-device.cc:308) The active GPU is [0]: Unknown GPU free:0M, used:0M\n"
			      "ERROR (AllocateNewRegion():cu-allocator.cc:506) Failed to allocate a memory region. "
			      "cudaMalloc: out of memory");
	assert_non_null(m);
	assert_int_equal(m->line_no, 2);
}

/* CMake's current wording sets the missing target on a line of its own between blank lines: the
 * open line before the blank one still joins it. */
static const struct form_case set61_forms[] = {
	{ "CMake Error at CMakeLists.txt:4 (target_link_libraries):\n  Target \"app\" links to:\n\n    CUDA::cublas\n\n"
	  "  but the target was not found.  Possible reasons include:",
	  "cuda-toolkit-not-found" },
	{ "  The link interface of target \"VecGeom::vecgeom\" contains:\n\n    VecGeom::vecgeomcuda_static\n\n"
	  "  but the target was not found.",
	  "framework-cpu-build" },
	{ "  Target \"app\" links to:\n\n    Boost::system\n\n  but the target was not found.", "not recognised" },
	{ "libcudart.so.12:cannot open shared object file:no such file or directory\nCUDA extension not installed",
	  "lib-not-found" },
	{ "CUDA Extension not installed.", "cuda-toolkit-not-found" },
	{ "RuntimeError: Library cublasLt is not initialized", "lib-not-found" },
	{ "nvc++-Error-Switch -gpu with unknown keyword cc90", "gpu-unsupported-by-toolkit" },
	{ "pgf90-Error-Switch -Mcuda with unknown keyword cc80", "gpu-unsupported-by-toolkit" },
	{ "RuntimeError: Library cuda is not initialized", "no-driver" },
	{ "CUDA kernels for auto_gptq are not installed, this will result in very slow inference speed",
	  "cuda-toolkit-not-found" },
	{ "vmiop_log: Guest VGX version(2.0) and Host VGX version(1.1) do not match", "driver-gpu-unsupported" },
	/* LibTorch's CUDA target of a CPU-only LibTorch */
	{ "  Target \"example-app\" links to:\n\n    torch::cudart\n\n  but the target was not found.", "framework-cpu-build" },
	/* another tool's "unsupported CUDA version" with more after it is not R torch's */
	{ "Unsupported CUDA version \"13.1\" (expected 12.x or 13.x).", "not nvcc-framework-mismatch" },
	{ "Xid 78: Guest driver is incompatible with host driver", "driver-gpu-unsupported" },
	{ "tf$config$list_physical_devices('GPU') # But this returns an empty list", "tf-windows-native-gpu" },
	{ "exception trying to load libnvrtc.so (not found)", "lib-not-found" },
	{ "Could not load library libcublasLt.so.12.", "lib-wrong-major" },
	{ "Error in `check_supported_version()`:\nx Unsupported CUDA version \"10.0\"", "nvcc-framework-mismatch" },
};

/* set 62: schedulers' CUDA_VISIBLE_DEVICES ranges, a bare OCI failure, OpenCL without a platform,
 * an ABI-suffixed driver entry point, programs built without a GPU backend or Arrow's CUDA module */
static const struct form_case set62_forms[] = {
	{ "env CUDA_VISIBLE_DEVICES=\"0-3\" hwloc-ls --of xml | grep CoProc", "cuda-visible-devices-hides" },
	{ "Error response from daemon: OCI runtime create failed", "container-toolkit-missing" },
	{ "docker: Error response from daemon: OCI runtime create failed: runc create failed: unable to start container "
	  "process: exec: \"nvidia-smi\": executable file not found in $PATH: unknown.",
	  "not container-toolkit-missing" },
	{ "Number of platforms                               0", "lib-not-found" },
	{ "pg_strom.so: undefined symbol: cuIpcOpenMemHandle_v2", "driver-too-old" },
	{ "undefined symbol: cuDevicePrimaryCtxRelease", "stub-libcuda" },
	{ "what():  Dummy neural net backend: NeuralNet::loadModelFile unimplemented", "framework-cpu-build" },
	{ "ModuleNotFoundError: No module named 'pyarrow._cuda'", "framework-cpu-build" },
	{ "[WARNING] CUDA version of FSL \"eddy\" present on system, but does not execute successfully", "lib-not-found" },
	/* strace's view of a library search is no failure: ld.so misses in several directories before
	 * it finds a library (and /etc/ld.so.preload is absent almost everywhere) */
	{ "openat(AT_FDCWD, \"/etc/ld.so.preload\", O_RDONLY|O_CLOEXEC) = -1 ENOENT (No such file or directory)",
	  "not recognised" },
	{ "openat(AT_FDCWD, \"/usr/lib/tls/libnvrtc.so.12\", O_RDONLY|O_CLOEXEC) = -1 ENOENT (No such file or directory)",
	  "not recognised" },
	{ "os.environ['CUDA_VISIBLE_DEVICES'] = '0-3'", "cuda-visible-devices-hides" },
	{ "CUDA_VISIBLE_DEVICES=0,2-3 python train.py", "cuda-visible-devices-hides" },
	{ "Error: failed to create containerd task: OCI runtime create failed: unknown", "container-toolkit-missing" },
	/* an ABI-suffixed entry point is judged by the drivers read (data/driver_symbols.tsv): CUDA 11.0's
	 * cuIpcOpenMemHandle_v2 is a driver too old, CUDA 4's cuEventDestroy_v2 (in every driver) a stub */
	{ "undefined symbol: cuEventDestroy_v2", "stub-libcuda" },
};

static void test_set62_forms(void **state)
{
	(void)state;
	expect_first_findings(set62_forms, sizeof set62_forms / sizeof set62_forms[0]);
	assert_string_equal(first_cause_key("clinfo: Number of platforms 0"), "opencl-icd-missing");
	assert_string_equal(first_cause_key("what():  Dummy neural net backend"), "built-without-gpu-backend");
	/* pyarrow's fix is conda-forge's CUDA build of Arrow, not another framework's GPU package */
	assert_string_equal(first_cause_key("ModuleNotFoundError: No module named 'pyarrow._cuda'"), "pyarrow-cpu-build");
	assert_string_equal(first_cause_key("dwifslpreproc: CUDA version of 'eddy' was not successful; attempting OpenMP version"),
			    "fsl-eddy-cuda-runtime");
	/* the IPC call's failure is still read as one */
	assert_string_equal(first_cause_key("cuIpcOpenMemHandle failed: invalid argument"), "visible-devices-hides");
}

/* set 63: quantum simulators' and other packages' CPU builds, xformers' capability check,
 * libraries that load NVRTC or their plug-ins themselves, a bare crash, a GPU not found verb first */
static const struct form_case set63_forms[] = {
	{ "RuntimeError: Simulation device \"GPU\" is not supported on this system", "framework-cpu-build" },
	{ "ImportError: cannot import name 'QuantumStateGpu' from 'qulacs' (/x/site-packages/qulacs/__init__.py)",
	  "framework-cpu-build" },
	{ "ImportError: cannot import name 'StateVector' from 'qulacs'", "not recognised" },
	{ "Running on CPU now! Make sure your PyTorch version matches your CUDA", "torch-cpu-build" },
	{ "requires device with capability > (8, 0) but your GPU has capability (7, 5) (too old)", "framework-gpu-arch" },
	{ "ThrustRTC example failed execution - Loading libnvrtc failed. cuMemAlloc() failed with Error code: 2",
	  "lib-not-found" },
	{ "Unable to load CPU plugin!\nPlease check for proper libhmsbeagle installation.", "lib-not-found" },
	{ "Floating point exception (core dumped)", "not recognised" }, /* a cue: only the CLI pipeline speaks */
	{ "Seldon image not able to find GPU devices", "framework-cpu-build" },
	/* "could not find" a DLL whose name starts with cuda is no GPU not found, nor a tool named GPU... */
	{ "Could not find cudart64_110.dll", "dll-not-found" },
	{ "Could not find GPUtil module", "not recognised" },
	{ "Error: could not find gpu.yaml", "not recognised" },
	{ "Could not find GPU/CPU affinity mask", "not recognised" },
	{ "Could not find CUDA device 1", "framework-cpu-build" },
	{ "ImportError: cannot import name 'to_gpu' from 'chainer.cuda'", "not recognised" },
	{ "it keeps installing the cpu only version of pytorch", "torch-cpu-build" },
	{ "cannot find gpustat: command not found", "not recognised" },
	/* ... and a specific error after "cannot use GPU:" keeps its own reading */
	{ "cannot use GPU: CUDA driver version is insufficient for CUDA runtime version", "driver-too-old" },
	/* a name that merely contains gpu or cuda is API drift, not a CPU build */
	{ "ImportError: cannot import name 'is_torch_cuda_available' from 'transformers.utils'", "not recognised" },
	/* xformers' dump where the extension did not load: the capability line is incidental */
	{ "`cutlassF` is not supported because:\n    xFormers wasn't build with CUDA support\n`flshattF@v2.3.6` is not "
	  "supported because:\n    requires device with capability > (8, 0) but your GPU has capability (7, 5) (too old)",
	  "not framework-gpu-arch" },
	/* lightning.qubit needs no CUDA */
	{ "UserWarning: Pre-compiled binaries for lightning.qubit are not available.", "not recognised" },
	{ "AerError: 'Invalid simulation device GPU. Available devices are: ['CPU']'", "framework-cpu-build" },
	{ "Failed to load BEAGLE library: no hmsbeagle-jni in java.library.path", "lib-not-found" },
};

static void test_set63_forms(void **state)
{
	(void)state;
	expect_first_findings(set63_forms, sizeof set63_forms / sizeof set63_forms[0]);
	assert_string_equal(first_cause_key("RuntimeError: Simulation device \"GPU\" is not supported on this system"),
			    "qiskit-aer-cpu");
	assert_string_equal(first_cause_key("Loading libnvrtc failed."), "nvrtc-not-found");
	assert_string_equal(first_cause_key("Please check for proper libhmsbeagle installation."), "beagle-plugin-path");
}

/* set 64: CatBoost's CUDA manager check, a CPU build of torch said in words, DJL's native load */
static const struct form_case set64_forms[] = {
	{ "CatboostError: catboost/cuda/cuda_lib/cuda_manager.cpp:199: Condition violated: `State == nullptr'",
	  "driver-too-old" },
	{ "trying to `pip install torch` resulted in the CPU version of torch stable.", "torch-cpu-build" },
	{ "ai.djl.engine.EngineException: Failed to load PyTorch native library", "lib-wrong-major" },
};

static void test_set64_forms(void **state)
{
	(void)state;
	expect_first_findings(set64_forms, sizeof set64_forms / sizeof set64_forms[0]);
}

/* set 66: profilers, CMake's version check, the container runtime's fallback to runc, configure
 * scripts testing -lcuda, MPICH's GPU start-up, OpenCV without CUDA, DKMS in another language */
static const struct form_case set66_forms[] = {
	{ "======== Warning: nvprof is not supported on devices with compute capability 8.0 and higher.",
	  "gpu-unsupported-by-toolkit" },
	{ "Could NOT find CUDA: Found unsuitable version \"9.2\", but required is at", "cuda-toolkit-not-found" },
	{ "nvidia driver modules are not yet loaded, invoking /usr/local/bin/runc directly", "container-no-gpu" },
	{ "checking for cuPointerGetAttribute in -lcuda... no", "lib-not-found" },
	{ "Please specify correct CUDA location with the HOROVOD_CUDA_HOME environment variable",
	  "cuda-toolkit-not-found" },
	{ "MPII_init_gpu(51)....:  gpu_init failed", "no-device" },
	{ "UserWarning: The unoptimized RealESRGAN is slow on CPU. We do not use it.", "torch-cpu-build" },
	{ "error: (-216) The library is compiled without CUDA support in function throw_no_cuda",
	  "framework-cpu-build" },
	{ "make[2]: *** [/usr/src/kernel-headers-6.12.7_1/Makefile:1937: /var/lib/dkms/nvidia/470.239.06/build] Chyba 2",
	  "no-driver" },
	{ "make[2]: *** [Makefile:1937: /var/lib/dkms/nvidia/470.239.06/build] Fehler 2", "no-driver" },
	{ "make[2]: *** [/var/lib/dkms/nvidia/550.120/build/nvidia/nv.o] Ошибка 1", "no-driver" },
	/* a generic class keeps its reading before a code that names no causes of its own */
	{ "GPU is lost: CUDA error: unspecified launch failure", "gpu-lost" },
	/* NVML's wording of an unsupported reading is no NVML missing */
	{ "NVML: GPU power draw unavailable on this device (Not Supported); continuing", "not recognised" },
	/* the code's own text says why the allocation failed: not the GPU's memory */
	{ "ERROR: CUDA failed to allocate memory in compute_gradient kernel execution: CUDA driver version is "
	  "insufficient for CUDA runtime version",
	  "driver-too-old" },
	/* a GitHub Actions job container (/__w) and dcgm-exporter speak of containers */
	{ "/__w/_temp/e5.sh: line 1: nvidia-smi: command not found", "container-no-gpu" },
	{ "msg=\"Starting dcgm-exporter\"\nError: Failed to initialize NVML", "container-no-gpu" },
	/* monitors that load NVML themselves; NixOS's driver directory off the loader's path */
	{ "Darktable shows error message 'No opencl devices found'", "lib-not-found" },
	{ "$ ls /usr/lib/wsl/lib\nlibcuda.so.1 libnvidia-ml.so.1\n$ nvtop\nNo GPU to monitor.", "wsl-libcuda" },
	{ "/nix/store/abc-atop-2.7.1/bin/atopgpud\natopgpud ERROR: Shared lib 'libnvidia-ml' probably not installed!",
	  "driver-lib-off-path" },
	{ "[sysmon] detected GPU temperature source: unavailable; NVML-only mode active; NVML unavailable", "no-driver" },
};

static void test_set66_forms(void **state)
{
	(void)state;
	expect_first_findings(set66_forms, sizeof set66_forms / sizeof set66_forms[0]);
	assert_string_equal(first_cause_key("nvprof is not supported on devices with compute capability 8.0 and higher"),
			    "nvprof-unsupported-gpu");
	assert_string_equal(first_cause_key("Could NOT find CUDA: Found unsuitable version \"9.2\", but required is at"),
			    "cmake-cuda-version-unsuitable");
	assert_string_equal(first_cause_key("checking for cuPointerGetAttribute in -lcuda... no"), "libcuda-link-stub");
	assert_string_equal(first_cause_key("nvidia driver modules are not yet loaded, invoking /usr/local/bin/runc directly"),
			    "container-started-before-driver");
	/* nvprof's threshold is no device architecture: a message after it keeps its own */
	const struct explain_message *m =
		first_message("======== Warning: nvprof is not supported on devices with compute capability 8.0 and higher.");
	assert_non_null(m);
	for (size_t i = 0; i < m->n_facts; i++)
		assert_int_not_equal(m->facts[i].kind, EXF_ARCH);
	/* a class before a short code text that says no reason ("Unknown Error") keeps its reading */
	assert_string_equal(first_cause_key("CUDA out of memory while allocating: unknown error"), "gpu-oom");
}

/* set 67: PyTorch's autocast warning, a program saying no GPU is used, onnxruntime-gpu on the CPU,
 * NVENC's library, Vulkan's NVIDIA ICD, a shell's GPU missing in Jupyter */
static const struct form_case set67_forms[] = {
	{ "UserWarning: User provided device_type of 'cuda', but CUDA is not available. Disabling", "torch-cpu-build" },
	{ "No GPU being used. Careful, Inference might be extremely slow!", "torch-cpu-build" },
	/* a user saying where it ran is no notebook against a shell: the code's own reading leads */
	{ "I run the script from the command line, not in jupyter, and get: RuntimeError: CUDA error: out of memory",
	  "gpu-out-of-memory" },
	{ "cannot use onnxruntime-gpu to infer model", "framework-lib-missing" },
	{ "my onnxruntime-gpu session only uses the CPU", "framework-lib-missing" },
	{ "RuntimeError: LoadNvEncApi : NVENC library file is not found. Please ensure NV driver is installed", "lib-not-found" },
	{ "The NVIDIA driver was unable to open 'libnvidia-glvkspirv.so.430.14'.  This library is required at run time.",
	  "lib-not-found" },
	{ "ERROR: [Loader Message] Code 0 : loader_scanned_icd_add: Could not get 'vkCreateInstance' via "
	  "'vk_icdGetInstanceProcAddr' for ICD libGLX_nvidia.so.0",
	  "driver-userspace-mismatch" },
	{ "TF sees the GPUs on terminal, but not on jupyter lab.", "framework-lib-missing" },
	/* dlib's configure: the cuDNN it did not find leads, the CPU-only build it then chose follows */
	{ "-- *** Dlib requires cuDNN V5.0 OR GREATER.  Since cuDNN is not found DLIB WILL NOT USE CUDA. ***\n"
	  "-- Disabling CUDA support for dlib.  DLIB WILL NOT USE CUDA",
	  "lib-not-found" },
};

static void test_set67_forms(void **state)
{
	(void)state;
	expect_first_findings(set67_forms, sizeof set67_forms / sizeof set67_forms[0]);
	assert_string_equal(first_cause_key("TF sees the GPUs on terminal, but not on jupyter lab."), "jupyter-kernel-env");
	assert_string_equal(first_cause_key("[h264_nvenc @ 0x55d] Cannot load libnvidia-encode.so.1"),
			    "driver-video-libs-missing");
	assert_string_equal(first_cause_key("-- Disabling CUDA support for dlib.  DLIB WILL NOT USE CUDA"),
			    "cuda-home-unset");
	/* a slow start with no GPU in use is no PTX JIT */
	assert_string_not_equal(first_cause_key("No GPU being used. Careful, Inference might be extremely slow!"),
				"ptx-jit-only");
}

/* set 68: EGL without NVIDIA's vendor library (habitat-sim's windowless context, Mesa's DRI2
 * fallback), torch's CPU build said without "enabled" */
static const struct form_case set68_forms[] = {
	{ "Platform::WindowlessEglApplication::tryCreateContext(): unable to find CUDA device 0 among 2 EGL devices in total",
	  "lib-not-found" },
	{ "Platform::WindowlessEglApplication::tryCreateContext(): cannot get default EGL display: EGL_BAD_PARAMETER",
	  "lib-not-found" },
	{ "libEGL warning: DRI2: failed to create dri screen", "lib-not-found" },
	{ "Assertion Error Torch not compiled with Cuda", "torch-cpu-build" },
	{ "  File \"site-packages/jaxlib/xla_client.py\", line 248, in get_local_backend\n"
	  "    raise RuntimeError('Unknown backend {}'.format(name))",
	  "framework-cpu-build" },
};

static void test_set68_forms(void **state)
{
	(void)state;
	expect_first_findings(set68_forms, sizeof set68_forms / sizeof set68_forms[0]);
	assert_string_equal(first_cause_key("cannot get default EGL display: EGL_BAD_PARAMETER"), "egl-nvidia-missing");
}

/* set 69: go-nvml's short code names, the device plugin's question about the default runtime, the
 * kernel refusing the GPU at probe time, a CPU torch picked by an environment file */
static const struct form_case set69_forms[] = {
	{ "E0318 09:59:50.207267       1 factory.go:78] If this is a GPU node, did you set the docker default runtime to `nvidia`?",
	  "container-toolkit-missing" },
	{ "unable to initialize NVML: ERROR_LIBRARY_NOT_FOUND", "no-driver" },
	{ "nvidia 0000:01:00.0: probe with driver nvidia failed with error -1", "driver-gpu-unsupported" },
	{ "environment.yml installs cpu instead of gpu version of pytorch and torchvision", "torch-cpu-build" },
};

static void test_set69_forms(void **state)
{
	(void)state;
	expect_first_findings(set69_forms, sizeof set69_forms / sizeof set69_forms[0]);
	/* a short name two APIs share: NVML's where the line names NVML, the driver API's elsewhere */
	const struct explain_message *m = first_message("Failed to initialize NVML: ERROR_UNKNOWN.");
	assert_non_null(m);
	bool nvml = false;
	for (size_t i = 0; i < m->n_facts; i++)
		nvml |= m->facts[i].kind == EXF_CODE && strcmp(m->facts[i].code->api, "nvml") == 0;
	assert_true(nvml);
	m = first_message("CUDA error: unknown error (code 999, ERROR_UNKNOWN)");
	assert_non_null(m);
	for (size_t i = 0; i < m->n_facts; i++)
		if (m->facts[i].kind == EXF_CODE)
			assert_string_not_equal(m->facts[i].code->api, "nvml");
}

/* set 70: PyTorch's dispatcher without a CUDA kernel, CMake's cuDNN search, THC.h, OpenCV's Python
 * module without CUDA, Lightning asking for GPUs */
static const struct form_case set70_forms[] = {
	{ "NotImplementedError: Could not run 'torchvision::nms' with arguments from the 'CUDA' backend.",
	  "framework-cpu-build" },
	{ "Could NOT find CUDNN (missing: CUDNN_LIBRARY CUDNN_INCLUDE_DIR)", "lib-not-found" },
	{ "src/binding.cpp:8:14: fatal error: THC.h: No such file or directory", "probe-load-failed" },
	{ "AttributeError: module 'cv2.cv2' has no attribute 'cudacodec'", "framework-cpu-build" },
	{ "MisconfigurationException: You requested to use GPUs but CUDA is not available", "torch-cpu-build" },
	{ "[  1372.709] (WW) Warning, couldn't open module nvidia", "lib-not-found" },
};

static void test_set70_forms(void **state)
{
	(void)state;
	expect_first_findings(set70_forms, sizeof set70_forms / sizeof set70_forms[0]);
	assert_string_equal(first_cause_key("NotImplementedError: Could not run 'torchaudio::rnnt_loss' with arguments from "
					    "the 'CUDA' backend."),
			    "torch-op-no-cuda-kernel");
	assert_string_equal(first_cause_key("fatal error: THC/THC.h: No such file or directory"), "ext-thc-removed");
	assert_string_equal(first_cause_key("Could NOT find CUDNN (missing: CUDNN_INCLUDE_DIR)"), "cmake-cudnn-not-found");
}

/* set 71: GLX and Vulkan without NVIDIA's libraries for the process (32-bit programs, containers),
 * DXVK's CUDA interop needing nvidia-uvm, TensorFlow with only its CPU device, onnxruntime's CPU
 * provider list, a minimum compute capability, a glog check of a zero device count */
static const struct form_case set71_forms[] = {
	{ "libGL error: No matching fbConfigs or visuals found\nlibGL error: failed to load driver: swrast",
	  "lib-not-found" },
	{ "X Error of failed request:  GLXBadContext\n  Major opcode of failed request:  152 (GLX)", "lib-not-found" },
	{ "err:   DXVK: No adapters found. Please check your Vulkan setup.", "lib-wrong-arch" },
	{ "info:  DxvkAdapter: Failed to create device, retrying without CUDA interop extensions", "nvidia-uvm-missing" },
	{ "Error: No OpKernel was registered to support Op 'Conv2D'\nRegistered devices: [CPU]\nRegistered kernels:",
	  "framework-lib-missing" },
	{ "print(ort.get_available_providers())\n['AzureExecutionProvider', 'CPUExecutionProvider']",
	  "framework-cpu-build" },
	{ "the providers offered are just Azure, CPU", "framework-cpu-build" },
	{ "EXECUTION PROVIDERS: no CUDA option?", "framework-cpu-build" },
	{ "after the update just Azure and CPU remain execution providers", "framework-cpu-build" },
	{ "libGL error: failed to load driver: swrast", "lib-not-found" },
	{ "0660:err:vkd3d_create_vk_device: Failed to create Vulkan device, vr -3.", "nvidia-uvm-missing" },
	{ "warn:  Skipping Vulkan 1.1 adapter: GeForce GTX 680", "driver-too-old" },
	{ "NVIDIA: API mismatch: the NVIDIA kernel module has version 550.54.14, but this NVIDIA driver component has "
	  "version 550.67.",
	  "driver-userspace-mismatch" },
	{ "Registered devices: [CPU, XLA_CPU]", "framework-lib-missing" },
	{ "no CUDA devices found with compute capability 6.0 or higher", "framework-gpu-arch" },
	{ "Error: no GPU device available with minimum required compute capability 5.0", "framework-gpu-arch" },
	{ "F1203 main.cc:40] Check failed: num_cuda_gpus > 0 (0 vs. 0)", "no-device" },
};

static void test_set71_forms(void **state)
{
	(void)state;
	expect_first_findings(set71_forms, sizeof set71_forms / sizeof set71_forms[0]);
	assert_string_equal(first_cause_key("libGL error: No matching fbConfigs or visuals found"), "glx-nvidia-missing");
	assert_string_equal(first_cause_key("warn:  DXVK: No adapters found."), "driver-32bit-libs-missing");
	/* the CPU package's list names no CUDA provider; a list with it is no CPU build */
	assert_string_not_equal(first_cause_key("['CUDAExecutionProvider', 'AzureExecutionProvider', 'CPUExecutionProvider']"),
				"framework-cpu-build");
	/* a GPU list with a GPU in it is no TensorFlow without its GPU */
	assert_null(first_message("Registered devices: [CPU, GPU]"));
	/* a count check that did not fail with zero is no missing device */
	assert_null(first_message("Check failed: num_cuda_devices > 0 (1 vs. 0)"));
	/* a provider list that names CUDA, or words that say CUDA is listed, are no CPU package */
	assert_null(first_message("Execution providers: ['CUDAExecutionProvider', 'CPUExecutionProvider'] yet it runs "
				  "without CUDA"));
	/* Mesa's loader failing for its own reason (a C++ runtime) is no GLX vendor question */
	assert_string_not_equal(first_cause_key("libGL error: MESA-LOADER: failed to open swrast: /lib/libstdc++.so.6: "
						"version `GLIBCXX_3.4.30' not found"),
				"glx-nvidia-missing");
	/* vkd3d's other results are not the missing UVM node */
	assert_null(first_message("err:vkd3d_create_vk_device: Failed to create Vulkan device, vr -7."));
	/* an NVIDIA adapter DXVK skips for its Vulkan version was found: its version, not a missing
	 * 32-bit driver, is why no adapter is left */
	assert_string_equal(first_cause_key("warn:  Skipping Vulkan 1.2 adapter: Quadro K420\n"
					    "warn:  DXVK: No adapters found. Please check your device filter settings."),
			    "vulkan-version-too-old");
	/* GLX failing under a line that reports a real CUDA error: the error leads */
	assert_string_equal(first_cause_key("libGL error: No matching fbConfigs or visuals found\n"
					    "libGL error: failed to load driver: swrast\n"
					    "RuntimeError: CUDA error: out of memory"),
			    "gpu-oom");
	assert_string_equal(first_cause_key("info:    Skipping: Device does not support Vulkan 1.3"), "vulkan-version-too-old");
	assert_string_equal(first_cause_key("libGL error: failed to load driver: nvidia-drm"), "glx-nvidia-missing");
	assert_string_equal(first_cause_key("providers: ['AzureExecutionProvider','CPUExecutionProvider']"),
			    "framework-cpu-build");
	/* Kokkos's warning across majors on one line: a warning, not a missing kernel image */
	assert_string_equal(first_cause_key("Kokkos::Cuda::initialize WARNING: running kernels compiled for compute "
					    "capability 5.0 on device with compute capability 8.9 , this will likely reduce "
					    "potential performance."),
			    "kokkos-arch-warning");
	/* DXVK skips any adapter below Vulkan 1.3, an integrated GPU beside a working NVIDIA one too */
	assert_null(first_message("warn:  Skipping Vulkan 1.1 adapter: Intel(R) HD Graphics 4600 (HSW GT2)\n"
				  "info:  NVIDIA GeForce RTX 3060:"));
	/* DXVK's info line about CUDA interop stays below a loader error after it */
	assert_string_equal(first_cause_key("info:  DxvkAdapter: Failed to create device, retrying without CUDA interop "
					    "extensions\nerror while loading shared libraries: libvulkan.so.1: cannot open "
					    "shared object file: No such file or directory"),
			    "lib-not-found");
	/* TensorFlow's loader line names what is missing: it leads over the device list */
	assert_string_equal(first_cause_key("dso_loader.cc:64] Could not load dynamic library 'libcudnn.so.7'; dlerror: "
					    "libcudnn.so.7: cannot open shared object file: No such file or directory\n"
					    "Registered devices: [CPU, XLA_CPU]"),
			    "lib-not-found");
	/* the X driver's log wraps the mismatch over two prefixed lines */
	assert_string_equal(first_cause_key("[    20.041] (EE) NVIDIA: API mismatch: the NVIDIA kernel module has version "
					    "418.56,\n[    20.041] (EE) NVIDIA:     but this NVIDIA driver component has "
					    "version 418.43.  Please"),
			    "driver-mismatch");
	/* Mesa asking for a DRI driver named after nvidia-drm: no package provides it */
	assert_string_equal(first_cause_key("libGL error: MESA-LOADER: failed to open nvidia-drm: "
					    "/usr/lib/dri/nvidia-drm_dri.so: cannot open shared object file: No such file "
					    "or directory"),
			    "glx-nvidia-missing");
	/* words that say the opposite are no CPU package */
	assert_null(first_message("Providers: not only Azure and CPU but also CUDA are listed now"));
	assert_null(first_message("Execution providers: no CUDA errors anymore after the fix"));
	/* a device index is no count */
	assert_string_not_equal(first_cause_key("rank 0 GPU available with compute capability 8.0"), "framework-gpu-arch");
	/* CUDA's initialisation failing, said with "initialize" */
	assert_string_equal(first_cause_key("Can't start miner, CUDA initialize error"), "no-driver");
}

/* set 72: torchvision's ops against another torch, a program's words for cuModuleLoad failing, a
 * user running without the driver loaded, Kokkos's performance warning */
static const struct form_case set72_forms[] = {
	{ "RuntimeError: Couldn't load custom C++ ops. This can happen if your PyTorch and torchvision versions are "
	  "incompatible, or if you had errors while compiling torchvision from source.",
	  "probe-load-failed" },
	{ "RuntimeError: No such operator torchvision::roi_align", "probe-load-failed" },
	/* no code on the line: the words alone say cuModuleLoad failed */
	{ "burn: Error in \"load module\" for kernels.ptx", "ptx-too-new" },
	{ "Kokkos::Cuda::initialize WARNING: running kernels compiled for compute capability 7.0 on device with compute "
	  "capability 7.5 , this will likely reduce potential performance.",
	  "harmless-warning" },
};

static void test_set72_forms(void **state)
{
	(void)state;
	expect_first_findings(set72_forms, sizeof set72_forms / sizeof set72_forms[0]);
	assert_string_equal(first_cause_key("RuntimeError: operator torchvision::nms does not exist"),
			    "torchvision-torch-mismatch");
	/* a traceback through torch's own files is no sign of a CPU torch here */
	assert_string_equal(first_cause_key("  File \"/venv/lib/python3.10/site-packages/torch/library.py\", line 440, in inner\n"
					    "    handle = entry.abstract_impl.register(func_to_register, source)\n"
					    "RuntimeError: operator torchvision::roi_align does not exist"),
			    "torchvision-torch-mismatch");
	assert_string_equal(first_cause_key("Kokkos::Cuda::initialize WARNING: running kernels compiled for compute "
					    "capability 7.0 on device with compute capability 7.5 , this will likely "
					    "reduce potential performance."),
			    "kokkos-arch-warning");
	/* the warning is no failure: a real error after it leads */
	assert_string_equal(first_cause_key("Kokkos::Cuda::initialize WARNING: running kernels compiled for compute "
					    "capability 7.0 on device with compute capability 7.5 , this will likely "
					    "reduce potential performance.\ncudaMalloc failed: out of memory "
					    "(cudaErrorMemoryAllocation)"),
			    "gpu-oom");
	/* an ONNX export limit is no torch/torchvision mismatch */
	assert_null(first_message("RuntimeError: ONNX export failed: Couldn't export operator torchvision::nms"));
	assert_string_equal(first_cause_key("RuntimeError: Couldn't load custom C++ ops."), "torchvision-torch-mismatch");
	assert_string_equal(first_cause_key("Error in load module (gpu_burn-drv.cpp:239):"), "driver-too-old-for-ptx");
	/* Kokkos's warning wrapped over two lines, across majors: still a warning */
	assert_string_equal(first_cause_key("Kokkos::Cuda::initialize WARNING: running kernels compiled for compute "
					    "capability 6.1 on device with compute capability 8.6 ,\nthis will likely reduce "
					    "potential performance."),
			    "kokkos-arch-warning");
	/* Kokkos's error (another major) stays a missing kernel image, not a warning */
	assert_string_not_equal(first_cause_key("Kokkos::Cuda::initialize ERROR: running kernels compiled for compute "
						"capability 7.0 on device with compute capability 8.6 is not supported "
						"by CUDA!"),
				"harmless-warning");
}

/* set 73: nvcc's own refusal of a host compiler's version, conda's plan pulling the CPU mutex */
static const struct form_case set73_forms[] = {
	{ "nvcc fatal   : The version ('150000') of the host compiler ('clang') is not supported",
	  "nvcc-host-compiler-unsupported" },
	{ "The following NEW packages will be INSTALLED:\n  cpuonly            pytorch/noarch::cpuonly-2.0-0",
	  "torch-cpu-build" },
};

static void test_set73_forms(void **state)
{
	(void)state;
	expect_first_findings(set73_forms, sizeof set73_forms / sizeof set73_forms[0]);
	/* a package named like the mutex is no plan that pulls it */
	assert_null(first_message("cpuonly is a metapackage"));
}

/* set 74: the linker passing over a library of another architecture, nvcc without its NVVM part, EGL
 * failing to initialise, ldd resolving libcuda to the stub, Windows' display watchdog, the kernel
 * module's refusal wrapped over NVRM lines, a minimum compute capability, PhysX's runtime missing */
static const struct form_case set74_forms[] = {
	{ "/usr/bin/ld: skipping incompatible /opt/sdk/lib/libfoo.so when searching for -lfoo", "lib-wrong-arch" },
	{ "/opt/libtorch/lib/libc10.so: error adding symbols: file in wrong format", "lib-wrong-arch" },
	{ "/bin/sh: 1: cicc: not found", "cuda-toolkit-not-found" },
	{ "RuntimeError: eglInitialize() failed", "lib-not-found" },
	{ "\tlibcuda.so.1 => /usr/local/cuda-12.4/targets/x86_64-linux/lib/stubs/libcuda.so.1 (0x00007f3c)",
	  "stub-libcuda" },
	{ "Display driver nvlddmkm stopped responding and has successfully recovered.", "gpu-lost" },
	{ "CUDA error: the launch timed out and was terminated", "gpu-lost" },
	{ "NVRM: The NVIDIA GPU 0000:3b:00.0 (PCI ID: 10de:2236)\nNVRM: installed in this system is not supported by the\n"
	  "NVRM: NVIDIA 550.54.15 driver release.",
	  "driver-gpu-unsupported" },
	{ "ERROR: minimum GPU compute capability 7.0 is required", "framework-gpu-arch" },
	{ "the launcher says: cannot find the PhysX library.", "dll-not-found" },
	{ "Error: Could not find the PhysX library. Please reinstall PhysX System Software.", "dll-not-found" },
};

static void test_set74_forms(void **state)
{
	(void)state;
	expect_first_findings(set74_forms, sizeof set74_forms / sizeof set74_forms[0]);
	assert_string_equal(first_cause_key("sh: cicc: command not found"), "toolkit-nvvm-missing");
	assert_string_equal(first_cause_key("Display driver nvlddmkm stopped responding"), "display-watchdog-timeout");
	assert_string_equal(first_cause_key("cudaErrorLaunchTimeout"), "display-watchdog-timeout");
	assert_string_equal(first_cause_key("Missing PhysX runtime"), "physx-runtime-missing");
	/* ldd's stub line outweighs the framework's complaint about libcuda after it */
	assert_string_equal(first_cause_key("\tlibcuda.so.1 => /usr/local/cuda/lib64/stubs/libcuda.so.1 (0x00007f9de7215000)\n"
					    "E tensorflow/stream_executor/cuda/cuda_driver.cc:406] failed call to cuInit: "
					    "CUresult(-1)\n"
					    "I tensorflow/stream_executor/cuda/cuda_diagnostics.cc:189] libcuda reported version "
					    "is: Not found: was unable to find libcuda.so DSO loaded into this program"),
			    "stub-libcuda");
	/* ldd resolving libcuda.so.1 to the driver is no stub */
	assert_null(first_message("\tlibcuda.so.1 => /usr/lib/x86_64-linux-gnu/libcuda.so.1 (0x00007f3c)"));
	/* NVIDIA's TDR notice by its long name and without one; AMD's is not NVIDIA's watchdog */
	assert_string_equal(first_cause_key("Display driver NVIDIA Windows Kernel Mode Driver, Version 546.33 stopped "
					    "responding and has successfully recovered."),
			    "display-watchdog-timeout");
	assert_null(first_message("Display driver amdkmdag stopped responding and has successfully recovered."));
	assert_null(first_message("Display driver igdkmd64 stopped responding and has successfully recovered."));
	/* the notice is no failure of the program: its own out of memory leads */
	assert_string_equal(first_cause_key("Display driver nvlddmkm stopped responding and has successfully recovered.\n"
					    "RuntimeError: CUDA error: out of memory"),
			    "gpu-oom");
	assert_string_equal(first_cause_key("cuCtxSynchronize failed: CUDA_ERROR_LAUNCH_TIMEOUT"),
			    "display-watchdog-timeout");
	assert_string_equal(first_cause_key("NVRM: The NVIDIA GPU 0000:3b:00.0 (PCI ID: 10de:2236) installed in this "
					    "system is not supported by the NVIDIA 550.54.15 driver release."),
			    "driver-gpu-unsupported");
	/* ld passing over a 32-bit copy on its way to the 64-bit one: the real error after it leads */
	assert_string_equal(first_cause_key("/usr/bin/ld: skipping incompatible /usr/lib/i386-linux-gnu/libm.so when "
					    "searching for -lm\nRuntimeError: CUDA error: out of memory"),
			    "gpu-oom");
	assert_null(first_message("nvlink warning : Skipping incompatible '/usr/lib/x86_64-linux-gnu/librt.a' when "
				  "searching for -lrt"));
	/* a build's search for PhysX's SDK is no game without its runtime */
	assert_string_not_equal(first_cause_key("CMake Error: cannot find the PhysX libraries, set PHYSX_ROOT"),
				"physx-runtime-missing");
	/* a requirement met is no failure; one not met is */
	assert_null(first_message("INFO: minimum compute capability 6.0 is required; found 8.6 - OK"));
	assert_string_equal(first_cause_key("RuntimeError: minimum compute capability 7.0 is required, but found 6.1"),
			    "framework-gpu-arch");
	/* a build's search for PhysX's SDK is no game without its runtime, in the singular too */
	assert_null(first_message("CMake Warning: Could not find the PhysX library; GPU rigid bodies disabled"));
	assert_null(first_message("-- cannot find the PhysX library, building without it"));
	assert_null(first_message("CMake Warning: cannot find the PhysX library; GPU rigid bodies disabled"));
	assert_null(first_message("ld: cannot find the PhysX library libPhysX_64.a"));
	assert_string_equal(first_cause_key("minimum compute capability 7.0 is required, which is not satisfied by this GPU"),
			    "framework-gpu-arch");
	assert_null(first_message("minimum compute capability 6.0 is required; found 8.6 (OK)"));
	assert_string_equal(first_cause_key("Minimum compute capability 6.0 is required for GPU PhysX"), "framework-gpu-arch");
	assert_string_equal(first_cause_key("Error: Could not find PhysX library."), "physx-runtime-missing");
	assert_null(first_message("Could not find PhysX library (PHYSX_LIBRARIES) - building without PhysX support"));
	/* a plain "cannot find -lfoo" stays a missing library */
	assert_string_not_equal(first_cause_key("/usr/bin/ld: cannot find -lfoo"), "lib-wrong-arch");
}

/* set 75: an MPS client that cannot reach its control daemon */
static void test_set75_forms(void **state)
{
	(void)state;
	assert_string_equal(first_cause_key("CUDA error: MPS client failed to connect to the MPS control daemon or the MPS "
					    "server (cudaErrorMpsConnectionFailed)"),
			    "mps-daemon-unreachable");
	assert_string_equal(first_cause_key("cuInit failed: CUDA_ERROR_MPS_CONNECTION_FAILED"), "mps-daemon-unreachable");
	/* a server not ready is no daemon out of reach */
	assert_string_equal(first_cause_key("cuInit failed: CUDA_ERROR_MPS_SERVER_NOT_READY"), "mps-server-not-ready");
	assert_string_equal(first_cause_key("cudaErrorMpsServerNotReady"), "mps-server-not-ready");
	/* a confinement policy denying the device nodes, from the audit log or in a user's words */
	assert_string_equal(first_cause_key("audit: type=1400 apparmor=\"DENIED\" operation=\"open\" profile=\"snap.app\" "
					    "name=\"/dev/nvidia-uvm\" requested_mask=\"wr\""),
			    "device-permission");
	assert_string_equal(first_cause_key("avc:  denied  { open } for comm=\"python3\" path=\"/dev/nvidiactl\" "
					    "tclass=chr_file"),
			    "device-permission");
	assert_string_equal(first_cause_key("SELinux is preventing python3 from read, write access on the chr_file nvidia-uvm."),
			    "device-permission");
	assert_string_equal(first_cause_key("avc:  denied  { read write } for comm=\"python\" name=\"nvidia0\" "
					    "dev=\"devtmpfs\" tclass=chr_file permissive=0"),
			    "device-permission");
	/* a permissive AVC was allowed; a denial of another file, or a user's words about one, is no GPU node */
	assert_null(first_message("avc:  denied  { open } for comm=\"python\" path=\"/dev/nvidiactl\" tclass=chr_file "
				  "permissive=1"));
	assert_null(first_message("SELinux denied access to /var/www/html/index.html"));
	assert_null(first_message("avc:  denied  { read write } for comm=\"python\" name=\"nvidia0\" dev=\"devtmpfs\" "
				  "tclass=chr_file permissive=1"));
	/* a file named like the driver is no device node */
	assert_null(first_message("avc:  denied  { execute } for comm=\"bash\" name=\"nvidia-smi\" dev=\"dm-0\" "
				  "tclass=file permissive=0"));
	assert_string_equal(first_cause_key("SELinux is preventing /usr/bin/Xorg from ioctl access on the chr_file "
					    "/dev/nvidia0."),
			    "device-permission");
	/* a denial of another file is no GPU node */
	assert_null(first_message("apparmor=\"DENIED\" operation=\"open\" profile=\"cups\" name=\"/etc/passwd\""));
}

static void test_set61_forms(void **state)
{
	(void)state;
	expect_first_findings(set61_forms, sizeof set61_forms / sizeof set61_forms[0]);
	assert_string_equal(first_cause_key("CUDA extensions not installed"), "ext-built-without-cuda");
	assert_string_equal(first_cause_key("Unsupported CUDA version \"10.0\""), "r-torch-cuda-unsupported");
	assert_string_equal(first_cause_key("nvc++-Error-Switch -gpu with unknown keyword cc90"), "nvhpc-too-old-for-gpu");
	assert_string_equal(first_cause_key("RuntimeError: Library cudart is not initialized"), "cpm-kernels-cuda-libs");
	/* two blank lines end the open line: no join across a paragraph */
	assert_null(first_message("  Target \"app\" links to:\n\n\n    CUDA::cublas"));
}

static void test_set56_forms(void **state)
{
	(void)state;
	expect_first_findings(set56_forms, sizeof set56_forms / sizeof set56_forms[0]);
	/* a missing compiler is no compiler nvcc refuses; the ort crate's fix is its own */
	assert_string_equal(first_cause_key("Failed to find C compiler. Please specify via CC environment variable."),
			    "c-compiler-missing");
	assert_string_equal(first_cause_key("nvcc fatal   : Cannot find compiler 'cl.exe' in PATH"), "c-compiler-missing");
	assert_string_equal(first_cause_key("[ort-sys] [WARN] no prebuilt binaries available on this platform"),
			    "ort-no-prebuilt-cuda");
	/* a feature the GPU lacks is not a build without its architecture */
	assert_string_equal(first_cause_key("Your device with compute capability 6.1 does not support bfloat16"),
			    "gpu-below-kernel-minimum");
	assert_string_not_equal(first_cause_key("The device with compute capability 7.0 does not support FP8 tensor cores."),
				"framework-gpu-arch");
}

/* A row with form `linker` is a linker's sentence: its message is judged at link time, whatever
 * the row's name; a plain phrase about the same library is not. */
static void test_linker_form(void **state)
{
	(void)state;
	const char *causes = "key\tfinding\tcategory\n"
			     "c1\tlib-not-found\tX\n";
	const char *pats = "id\tweight\tform\tpattern\twhen\tcauses\tsource\n"
			   "zz-link\t500\tlinker\tlinkword {lib} absent\t\tc1\ts\n"
			   "zz-plain\t500\t\tplainword {lib} absent\t\tc1\ts\n";
	struct explain_files f = { sp(causes), sp(pats), sp("glob\tclass\n"), sp("class\tmajor\tos\tform\tcauses\tsource\n"),
				   sp("prefix\tcomponent\n"), sp("api\tcode\ttext\tsource\n"), sp("name\twords\tsource\n"),
				   sp("id\tweight\tform\tpattern\twhen\tcauses\tsource\n") };
	struct explain_catalog cat;
	explain_catalog_parse(&A, &f, &cat);
	assert_int_equal(cat.n_errors, 0);
	assert_int_equal(cat.n_patterns, 2);
	assert_true(cat.patterns[0].linker);
	assert_false(cat.patterns[1].linker);
	static const struct {
		const char *text;
		bool link_time;
	} v[] = { { "linkword libfoo.so.1 absent", true }, { "plainword libfoo.so.1 absent", false } };
	for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
		struct explain_scan *sc = arena_calloc(&A, 1, sizeof *sc);
		explain_scan_text(&A, &cat, span_make(v[i].text, strlen(v[i].text)), sc);
		assert_int_equal(sc->n_msgs, 1);
		struct explain_result r;
		memset(&r, 0, sizeof r);
		explain_kv_fill(&A, &sc->msgs[0], &r);
		const char *lt = explain_kv_get(&r, "link_time");
		assert_int_equal(lt != NULL, v[i].link_time);
		assert_string_equal(explain_kv_get(&r, "library"), "libfoo.so.1");
	}
}

static void test_set55_forms(void **state)
{
	(void)state;
	expect_first_findings(set55_forms, sizeof set55_forms / sizeof set55_forms[0]);
}

static void test_tool_phrase_first(void **state)
{
	(void)state;
	assert_string_equal(
		first_finding(
			"nvidia-container-cli: initialization error: nvml error: driver/library version mismatch"),
		"driver-userspace-mismatch");
}

/* nvidia-container-cli speaks only from the NVIDIA hook, which runs only for a container that asked
 * for GPUs: under docker's own line (whose words "docker" and "container" speak of containers
 * twice) the NVML error the hook met decides, and neither a container started without GPUs nor a
 * toolkit that is missing (it ran) is a cause */
static void test_container_hook_ran(void **state)
{
	(void)state;
	static const struct {
		const char *nvml, *finding;
	} v[] = { { "driver not loaded", "no-driver" },
		  { "driver/library version mismatch", "driver-userspace-mismatch" },
		  { "insufficient permissions", "device-node-permission" } };
	for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
		const char *text = arena_printf(
			&A,
			"docker: Error response from daemon: failed to create shim task: OCI runtime create failed: runc "
			"create failed: unable to start container process: error during container init: error running "
			"hook #0: error running hook: exit status 1, stdout: , stderr: Auto-detected mode as 'legacy'\n"
			"nvidia-container-cli: initialization error: nvml error: %s: unknown.",
			v[i].nvml);
		const struct explain_message *m = first_message(text);
		assert_non_null(m);
		assert_true(m->n_cands > 0);
		assert_string_equal(m->cands[0].cause->finding, v[i].finding);
		for (size_t k = 0; k < m->n_cands; k++) {
			assert_string_not_equal(m->cands[k].cause->key, "container-no-gpu");
			assert_string_not_equal(m->cands[k].cause->key, "container-toolkit-missing");
		}
	}
	/* an NVML error whose text names no NVML code keeps the generic row's cause: the toolkit */
	const struct explain_message *m =
		first_message("nvidia-container-cli: initialization error: nvml error: library not found: unknown.");
	assert_non_null(m);
	assert_true(m->n_cands > 0);
	assert_string_equal(m->cands[0].cause->key, "container-toolkit-missing");
	/* a contradiction speaks for its own line only: an earlier container's hook does not clear
	 * a later docker run without --gpus */
	const char *log = "nvidia-container-cli: requirement error: unsatisfied condition: cuda>=12.8\n"
			  "$ docker run -it myimg python train.py\n"
			  "RuntimeError: Found no NVIDIA driver on your system.";
	struct explain_scan *sc = arena_calloc(&A, 1, sizeof *sc);
	explain_scan_text(&A, explain_catalog_builtin(&A), span_make(log, strlen(log)), sc);
	m = NULL;
	for (size_t i = 0; i < sc->n_msgs; i++)
		if (strstr(sc->msgs[i].line, "Found no NVIDIA driver"))
			m = &sc->msgs[i];
	assert_non_null(m);
	bool no_gpu = false;
	for (size_t k = 0; k < m->n_cands; k++)
		no_gpu |= strcmp(m->cands[k].cause->key, "container-no-gpu") == 0;
	assert_true(no_gpu);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_match_literals_and_types),
		cmocka_unit_test(test_match_gaps_and_spaces),
		cmocka_unit_test(test_compile_errors),
		cmocka_unit_test(test_glob),
		cmocka_unit_test(test_catalog_errors),
		cmocka_unit_test(test_builtin_catalog),
		cmocka_unit_test(test_scan_log),
		cmocka_unit_test(test_scan_hostile),
		cmocka_unit_test(test_facts),
		cmocka_unit_test(test_new_forms),
		cmocka_unit_test(test_wrapped_lines),
		cmocka_unit_test(test_general_facts),
		cmocka_unit_test(test_held_out_messages),
		cmocka_unit_test(test_alternation),
		cmocka_unit_test(test_classes),
		cmocka_unit_test(test_harmless),
		cmocka_unit_test(test_arch_direction),
		cmocka_unit_test(test_container_run_hint),
		cmocka_unit_test(test_dll_causes_on_windows),
		cmocka_unit_test(test_compile_with_cuda_lookalike),
		cmocka_unit_test(test_tool_phrase_first),
		cmocka_unit_test(test_set25_forms),
		cmocka_unit_test(test_set26_forms),
		cmocka_unit_test(test_set27_forms),
		cmocka_unit_test(test_set28_forms),
		cmocka_unit_test(test_container_hook_ran),
		cmocka_unit_test(test_set29_forms),
		cmocka_unit_test(test_set30_forms),
		cmocka_unit_test(test_set31_forms),
		cmocka_unit_test(test_set32_forms),
		cmocka_unit_test(test_set33_forms),
		cmocka_unit_test(test_set34_forms),
		cmocka_unit_test(test_set35_forms),
		cmocka_unit_test(test_set36_forms),
		cmocka_unit_test(test_set37_forms),
		cmocka_unit_test(test_set38_forms),
		cmocka_unit_test(test_set39_forms),
		cmocka_unit_test(test_trt_unsupported_sm),
		cmocka_unit_test(test_set40_forms),
		cmocka_unit_test(test_set41_forms),
		cmocka_unit_test(test_set42_forms),
		cmocka_unit_test(test_set43_forms),
		cmocka_unit_test(test_banner_versions_scope),
		cmocka_unit_test(test_set44_forms),
		cmocka_unit_test(test_set45_forms),
		cmocka_unit_test(test_set46_forms),
		cmocka_unit_test(test_set47_48_forms),
		cmocka_unit_test(test_set51_forms),
		cmocka_unit_test(test_set52_forms),
		cmocka_unit_test(test_set53_forms),
		cmocka_unit_test(test_set54_forms),
		cmocka_unit_test(test_set55_forms),
		cmocka_unit_test(test_set56_forms),
		cmocka_unit_test(test_linker_form),
		cmocka_unit_test(test_set57_forms),
		cmocka_unit_test(test_set58_forms),
		cmocka_unit_test(test_set59_forms),
		cmocka_unit_test(test_set60_forms),
		cmocka_unit_test(test_set61_forms),
		cmocka_unit_test(test_set62_forms),
		cmocka_unit_test(test_set63_forms),
		cmocka_unit_test(test_set64_forms),
		cmocka_unit_test(test_set66_forms),
		cmocka_unit_test(test_set67_forms),
		cmocka_unit_test(test_set68_forms),
		cmocka_unit_test(test_set69_forms),
		cmocka_unit_test(test_set70_forms),
		cmocka_unit_test(test_set71_forms),
		cmocka_unit_test(test_set72_forms),
		cmocka_unit_test(test_set73_forms),
		cmocka_unit_test(test_set74_forms),
		cmocka_unit_test(test_set75_forms),
		cmocka_unit_test(test_cudnn9_no_zlibwapi),
		cmocka_unit_test(test_ext_cuda_versions),
		cmocka_unit_test(test_docker_cdi_off),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
