/* The python module's answers from the knowledge base (src/collect/python_kb.c): what a framework
 * release was built for when its package does not say (tf.tsv, torch.tsv, frameworks.tsv), the
 * file names it loads (libs.tsv), what it loads them from (framework_loads.tsv), and the driver
 * floor its CUDA major needs (minor_compat.tsv). Values as the research states them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "collect/python.h"
#include "kb/kb.h"

static struct arena a;
static struct cudx_ctx ctx;

static int setup(void **state)
{
	(void)state;
	arena_init(&a);
	memset(&ctx, 0, sizeof ctx);
	ctx.arena = &a;
	ctx.os = OS_LINUX;
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	arena_free(&a);
	return 0;
}

/* fw->kind, name, version (and cuda for torch) -> the kb's build; false when it has none */
static bool build(enum py_fw_kind kind, const char *name, const char *version, const char *cuda,
		  struct py_kb_build *b)
{
	struct py_framework fw = { .kind = kind, .name = name, .version = version, .cuda = cuda };
	return py_kb_build(&ctx, &fw, b);
}

static void tensorflow(void **state)
{
	(void)state;
	struct py_kb_build b;
	ctx.os = OS_LINUX;
	assert_true(build(PY_FW_TENSORFLOW, "tensorflow", "2.15.1", NULL, &b)); /* the 2.15.0 row */
	assert_string_equal(b.cuda, "12.2");
	assert_string_equal(b.cudnn, "8.9");
	assert_non_null(strstr(b.source, "knowledge base (S12"));
	assert_true(build(PY_FW_TENSORFLOW, "tf-nightly", "2.17.0.dev20240101", NULL, &b));
	assert_string_equal(b.cuda, "12.3");
	assert_false(build(PY_FW_TENSORFLOW, "tensorflow", "2.150", NULL, &b));
	ctx.os = OS_WINDOWS;
	assert_false(build(PY_FW_TENSORFLOW, "tensorflow", "2.15.0", NULL, &b)); /* no native GPU build */
	assert_true(build(PY_FW_TENSORFLOW, "tensorflow-gpu", "2.10.1", NULL, &b));
	assert_string_equal(b.cuda, "11.2");
	assert_string_equal(b.cudnn, "8.1");
	ctx.os = OS_LINUX;
}

static void torch(void **state)
{
	(void)state;
	struct py_kb_build b;
	assert_true(build(PY_FW_TORCH, "torch", "2.5.1+cu124", "12.4", &b));
	assert_string_equal(b.cudnn, "9.1.0.70");
	assert_true(build(PY_FW_TORCH, "torch", "2.9.1", "13.0", &b));
	assert_string_equal(b.cudnn, "9.13.0.50");
	assert_true(build(PY_FW_TORCH, "torch", "2.12.0+cu130", "13.0", &b));
	assert_string_equal(b.cudnn, "9.20.0.48");
	assert_false(build(PY_FW_TORCH, "torch", "2.9.1", "11.8", &b)); /* no cu118 variant of 2.9 */
	assert_false(build(PY_FW_TORCH, "torch", "2.9.1", NULL, &b));   /* the variant is needed */
	ctx.os = OS_WINDOWS; /* torch.tsv's pins are the Linux wheels' */
	assert_false(build(PY_FW_TORCH, "torch", "2.9.1", "13.0", &b));
	ctx.os = OS_LINUX;
}

static void onnxruntime_jax(void **state)
{
	(void)state;
	struct py_kb_build b;
	/* cuDNN 9 from 1.18.1 on, cuDNN 8 in 1.18.0; the -cuda11 flavour's rows are not this package's */
	assert_true(build(PY_FW_ONNXRUNTIME, "onnxruntime-gpu", "1.18.1", NULL, &b));
	assert_string_equal(b.cuda, "12");
	assert_string_equal(b.cudnn, "9");
	assert_true(build(PY_FW_ONNXRUNTIME, "onnxruntime-gpu", "1.18.0", NULL, &b));
	assert_string_equal(b.cudnn, "8");
	assert_true(build(PY_FW_ONNXRUNTIME, "onnxruntime-gpu", "1.17.1", NULL, &b));
	assert_string_equal(b.cuda, "11.8");
	assert_string_equal(b.cudnn, "8.2.4"); /* "8.2.4 (Linux), 8.5.0.96 (Windows)" */
	ctx.os = OS_WINDOWS;
	assert_true(build(PY_FW_ONNXRUNTIME, "onnxruntime-gpu", "1.17.1", NULL, &b));
	assert_string_equal(b.cudnn, "8.5.0.96");
	ctx.os = OS_LINUX;
	/* JAX states minimums: cuDNN ">=9.8,<10" is kept as the floor */
	assert_true(build(PY_FW_JAX, "jax-cuda12-plugin", "0.6.2", NULL, &b));
	assert_string_equal(b.cuda, "12.8");
	assert_string_equal(b.cudnn, ">=9.8");
	assert_true(build(PY_FW_JAX, "jax-cuda13-plugin", "0.7.2", NULL, &b));
	assert_string_equal(b.cuda, "13.0");
	assert_false(build(PY_FW_JAX, "jax-cuda13-plugin", "0.4.20", NULL, &b));
	assert_false(build(PY_FW_CUPY, "cupy-cuda12x", "13.3.0", NULL, &b));
}

static void sonames(void **state)
{
	(void)state;
	assert_string_equal(py_kb_soname("cudnn", 8, "12.2"), "libcudnn.so.8");
	assert_string_equal(py_kb_soname("cufft", 12, "12.4"), "libcufft.so.11");
	assert_string_equal(py_kb_soname("cufft", 13, "13"), "libcufft.so.12");
	assert_string_equal(py_kb_soname("cudart", 11, "11.8"), "libcudart.so.11.0");
	assert_string_equal(py_kb_soname("cublasLt", 13, "13.0"), "libcublasLt.so.13");
	assert_string_equal(py_kb_soname("cublas", 12, "12.2"), "libcublas.so.12"); /* not cublasLt */
	/* names that differ by CUDA minor need it */
	assert_string_equal(py_kb_soname("cudart", 10, "10.1"), "libcudart.so.10.1");
	assert_null(py_kb_soname("cudart", 10, "10"));
	assert_string_equal(py_kb_soname("cusolver", 11, "11.0"), "libcusolver.so.10");
	assert_string_equal(py_kb_soname("cusolver", 11, "11.8"), "libcusolver.so.11");
	assert_null(py_kb_soname("cudart", 9, "9.0"));
}

static void loads_and_floors(void **state)
{
	(void)state;
	const struct kb_framework_load *l;
	assert_int_equal(kb_framework_loads("tensorflow", &l, 1), 1);
	assert_string_equal(l->object, "tensorflow/libtensorflow_framework.so.2");
	assert_int_equal(kb_framework_loads("torch", &l, 1), 1);
	assert_string_equal(l->components, "cudart,cublas,cublasLt,cudnn");
	assert_int_equal(kb_framework_loads("jaxlib", &l, 1), 0);
	assert_string_equal(kb_minor_compat_floor(13, OS_LINUX, NULL), "580.65.06");
	assert_string_equal(kb_minor_compat_floor(12, OS_WINDOWS, NULL), "527.41");
	assert_string_equal(kb_tf_last_windows_gpu(), "2.10.0");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(tensorflow),      cmocka_unit_test(torch),
		cmocka_unit_test(onnxruntime_jax), cmocka_unit_test(sonames),
		cmocka_unit_test(loads_and_floors),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
