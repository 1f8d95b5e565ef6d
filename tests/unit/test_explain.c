/* The explain matcher, the catalogue reader and the log scanner (src/explain/). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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
}

static void test_catalog_errors(void **state)
{
	(void)state;
	const char *causes = "key\tfinding\tcategory\n"
			     "c1\tlib-not-found\tX\n"
			     "c1\tdup\tX\n"
			     "\tno-key\tX\n";
	const char *pats = "id\tweight\tcategory\tpattern\twhen\tcauses\tsource\n"
			   "# comment\n"
			   "p1\t10\tX\tfoo {lib}\t\tc1\ts\n"
			   "p2\tx\tX\tfoo\t\tc1\ts\n"
			   "p3\t10\tX\tfoo {bad}\t\tc1\ts\n"
			   "p4\t10\tX\tfoo\t\tnope\ts\n"
			   "p5\t10\tX\tfoo\tnoequals\tc1\ts\n"
			   "p6\t10\tX\tbar\tlib=lib*\tc1, nope\ts\n";
	struct explain_catalog cat;
	explain_catalog_parse(&A, span_make(causes, strlen(causes)), span_make(pats, strlen(pats)), &cat);
	assert_int_equal(cat.n_causes, 1);
	assert_int_equal(cat.n_patterns, 2);
	assert_string_equal(cat.patterns[1].when_key, "lib");
	assert_int_equal(cat.patterns[1].n_causes, 1);
	/* dup, no key, bad weight, bad pattern, unknown cause (p4 and p6), p4 left without a
	 * cause, bad guard */
	assert_int_equal(cat.n_errors, 8);
	for (size_t i = 0; i < cat.n_errors; i++)
		assert_non_null(strstr(cat.errors[i], ".tsv:"));
}

static void test_builtin_catalog(void **state)
{
	(void)state;
	const struct explain_catalog *cat = explain_catalog_builtin(&A);
	for (size_t i = 0; i < cat->n_errors; i++)
		print_message("%s\n", cat->errors[i]);
	assert_int_equal(cat->n_errors, 0);
	assert_true(cat->n_patterns >= 100);
	assert_true(cat->n_causes >= 40);
	/* every cause is used by some pattern, and has a category and a fix */
	for (size_t c = 0; c < cat->n_causes; c++) {
		bool used = false;
		for (size_t p = 0; p < cat->n_patterns && !used; p++)
			for (size_t k = 0; k < cat->patterns[p].n_causes; k++)
				used |= cat->patterns[p].causes[k] == &cat->causes[c];
		if (!used)
			print_message("cause %s unused\n", cat->causes[c].key);
		assert_true(used);
		assert_true(*cat->causes[c].category && *cat->causes[c].fix && *cat->causes[c].source);
	}
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
		"RuntimeError: CUDA error:\t\tCUDA driver   version is insufficient for CUDA runtime version\r\n";
	struct explain_scan sc;
	explain_scan_text(&A, cat, span_make(log, strlen(log)), &sc);
	assert_int_equal(sc.lines, 5);
	assert_int_equal(sc.binary_lines, 1);
	assert_int_equal(sc.n_hits, 3);
	/* most relevant first: the driver message, then the library, then the harmless warning */
	assert_string_equal(sc.hits[0].def->id, "insufficient-driver");
	assert_int_equal(sc.hits[0].line_no, 5);
	assert_string_equal(sc.hits[1].def->category, "LIB_NOT_FOUND_OR_NOT_ON_LOADER_PATH");
	assert_int_equal(sc.hits[1].count, 2);
	assert_string_equal(explain_hit_get(&sc.hits[1], "lib"), "libcudnn.so.8");
	assert_string_equal(sc.hits[2].def->category, "BENIGN_WARNING");
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
	assert_int_equal(sc.n_hits, 1);
	assert_int_equal(sc.hits[0].line_no, 2);
	print_message("1 MiB line scanned in %.3f s\n", secs);
	/* 1 MiB of a repeated literal prefix in 60 KB lines: the matcher stays linear */
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
	free(big);
}

/* Real messages that are NOT in error-cases.jsonl (held out: the patterns must be general), each
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
	{ "nvidia-container-cli: initialization error: nvml error: driver not loaded: unknown.", "CONTAINER_GPU_ACCESS" },
	{ "ImportError: DLL load failed while importing _C: The specified module could not be found.", "WIN_CUDNN_DLL_MISSING_OR_MIXED" },
	{ "OSError: [WinError 126] The specified module could not be found. Error loading \"C:\\Python310\\lib\\site-packages\\torch\\lib\\c10.dll\" or one of its dependencies.", "WIN_DLL_SEARCH_PATH" },
	{ "Could not locate cudnn_adv_infer64_8.dll. Please make sure it is in your library path!", "CUDNN_MAJOR_MISMATCH" },
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
	const struct explain_catalog *cat = explain_catalog_builtin(&A);
	size_t n = sizeof held_out / sizeof held_out[0], ok = 0;
	for (size_t i = 0; i < n; i++) {
		struct explain_scan sc;
		explain_scan_text(&A, cat, span_make(held_out[i].text, strlen(held_out[i].text)), &sc);
		bool found = false;
		if (sc.n_hits)
			for (size_t c = 0; c < sc.hits[0].def->n_causes; c++)
				found |= strcmp(sc.hits[0].def->causes[c]->category, held_out[i].category) == 0;
		if (!found)
			print_message("held out: '%s' -> %s, expected %s\n", held_out[i].text,
				      sc.n_hits ? sc.hits[0].def->id : "not recognised", held_out[i].category);
		ok += found;
	}
	print_message("held-out messages: %zu/%zu recognised with their category among the causes\n", ok, n);
	assert_int_equal(ok, n);
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
		cmocka_unit_test(test_held_out_messages),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
