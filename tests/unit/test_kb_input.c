/* Lookups get strings from outside: GPU names from nvidia-smi or --gpu, file names from an analysed
 * --root tree, versions from METADATA files, codes pasted by users. Odd input must give "unknown"
 * (NULL / 0 / false), never a crash or an out-of-bounds read (run under ASan+UBSan). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "kb/kb.h"

static const char *const odd[] = {
	"", " ", ".", "..", ".so", ".so.", "lib.so.", "libcuda.so.", "libcuda.so..1", "libcudart.so.x",
	"sm_", "sm", "compute_", "sm_9999999999999999999999", "8.", ".6", "8.99999999999", "86a7",
	"99999999999999999999.1", "12.4.1.2.3.4.5.6.7", "-1", "+", "\xff\xfe", "NVIDIA", "NVIDIA NVIDIA",
	"GeForce", "-", "--", "_", "a/b/c/", "/", "\\", "cudart64_.dll", ".dll", "x.DLL", "12.x", "open",
};

static void odd_strings_are_unknown(void **state)
{
	(void)state;
	int a, b, c;
	const struct kb_lib *rows[4];
	const char *const *names;
	for (size_t i = 0; i < sizeof odd / sizeof odd[0]; i++) {
		const char *s = odd[i];
		(void)kb_gpu_lookup(s);
		(void)kb_parse_sm(s, &a, &b);
		(void)kb_lib_classify(s, OS_LINUX);
		(void)kb_lib_classify(s, OS_WINDOWS);
		(void)kb_lib_classify(s, OS_AUTO);
		(void)kb_lib_classify_all(s, OS_LINUX, rows, 4);
		(void)kb_lib_dlopens(s, OS_AUTO, &names);
		(void)kb_lib_find(s, 12, OS_AUTO, rows, 4);
		(void)kb_cuda_release(s);
		(void)kb_driver_max_cuda(s, OS_LINUX);
		(void)kb_cudnn_release(s);
		(void)kb_cudnn_release_nearest(s);
		(void)kb_tf_build(s, OS_WINDOWS);
		const struct kb_torch_variant *t;
		(void)kb_torch_release(s, &t);
		(void)kb_torch_variant(s, NULL);
		(void)kb_torch_variant(s, s);
		const struct kb_framework_req *f[4];
		(void)kb_framework_find("onnxruntime", s, f, 4);
		(void)kb_framework_find(s, s, f, 4);
		(void)kb_error_by_name(s);
		(void)kb_source(s);
		(void)kb_pip_wheel(s, 12);
	}
	/* a few that must be unknown */
	assert_null(kb_gpu_lookup(""));
	assert_null(kb_gpu_lookup("NVIDIA"));
	assert_false(kb_parse_sm("sm_", &a, &b));
	assert_false(kb_parse_sm("sm_9999999999999999999999", &a, &b));
	assert_null(kb_lib_classify(".so", OS_LINUX));
	assert_null(kb_lib_classify("", OS_AUTO));
	assert_null(kb_cuda_release("12"));
	assert_null(kb_cuda_release("-1"));
	assert_false(kb_version_decode("cudnn", -5, &a, &b, &c));
	assert_null(kb_error_lookup("cudart", -1));
	assert_null(kb_error_lookup("nosuchapi", 35));
}

static void null_arguments_are_unknown(void **state)
{
	(void)state;
	const char *const *names = (const char *const *)1;
	const struct kb_lib *rows[2];
	assert_null(kb_gpu_lookup(NULL));
	assert_null(kb_lib_classify(NULL, OS_LINUX));
	assert_int_equal(kb_lib_classify_all(NULL, OS_LINUX, rows, 2), 0);
	assert_int_equal(kb_lib_dlopens(NULL, OS_LINUX, &names), 0);
	assert_null(names);
	assert_int_equal(kb_lib_find(NULL, 0, OS_AUTO, rows, 2), 0);
	assert_null(kb_cuda_release(NULL));
	assert_null(kb_driver_max_cuda(NULL, OS_LINUX));
	assert_null(kb_cudnn_release(NULL));
	assert_null(kb_error_lookup(NULL, 35));
	assert_null(kb_error_by_name(NULL));
	assert_null(kb_tf_build(NULL, OS_LINUX));
	assert_null(kb_source(NULL));
	assert_false(kb_version_decode(NULL, 12040, NULL, NULL, NULL));
	/* max 0: count only */
	assert_true(kb_lib_classify_all("libcurand.so.10", OS_LINUX, rows, 0) >= 4);
}

/* A name as long as a hostile tree can make it (PATH_MAX and beyond). */
static void very_long_names(void **state)
{
	(void)state;
	size_t n = 1 << 16;
	char *s = malloc(n + 32);
	assert_non_null(s);
	memset(s, 'a', n);
	strcpy(s + n, ".so.12");
	assert_null(kb_lib_classify(s, OS_LINUX));
	memcpy(s, "libcudart", 9); /* "libcudartaaaa....so.12": another stem */
	assert_null(kb_lib_classify(s, OS_LINUX));
	memset(s, '9', n);
	s[n] = '\0';
	assert_null(kb_cuda_release(s));
	assert_null(kb_gpu_lookup(s));
	memset(s, ' ', n);
	memcpy(s + n - 8, "RTX 3090", 8);
	assert_non_null(kb_gpu_lookup(s)); /* blanks collapse; the name survives */
	free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(odd_strings_are_unknown),
		cmocka_unit_test(null_arguments_are_unknown),
		cmocka_unit_test(very_long_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
