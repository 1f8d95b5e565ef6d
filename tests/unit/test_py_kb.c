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

/* A release as the package names it -> what the kb says it was built for; want_cuda NULL: no answer. */
struct build_case {
	enum target_os os;
	enum py_fw_kind kind;
	const char *name, *version, *cuda; /* cuda: what the package said (torch needs it) */
	const char *want_cuda, *want_cudnn;
};

static const struct build_case build_cases[] = {
	/* TensorFlow: tested builds match on major.minor (2.15.1 -> the 2.15.0 row) */
	{ OS_LINUX, PY_FW_TENSORFLOW, "tensorflow", "2.15.1", NULL, "12.2", "8.9" },
	{ OS_LINUX, PY_FW_TENSORFLOW, "tf-nightly", "2.17.0.dev20240101", NULL, "12.3", "8.9" },
	{ OS_LINUX, PY_FW_TENSORFLOW, "tensorflow", "2.150", NULL, NULL, NULL },
	{ OS_WINDOWS, PY_FW_TENSORFLOW, "tensorflow", "2.15.0", NULL, NULL, NULL }, /* no native GPU build */
	{ OS_WINDOWS, PY_FW_TENSORFLOW, "tensorflow-gpu", "2.10.1", NULL, "11.2", "8.1" },
	/* torch: one row per CUDA variant; the pins are the Linux wheels' */
	{ OS_LINUX, PY_FW_TORCH, "torch", "2.5.1+cu124", "12.4", "12.4", "9.1.0.70" },
	{ OS_LINUX, PY_FW_TORCH, "torch", "2.9.1", "13.0", "13.0", "9.13.0.50" },
	{ OS_LINUX, PY_FW_TORCH, "torch", "2.12.0+cu130", "13.0", "13.0", "9.20.0.48" },
	{ OS_LINUX, PY_FW_TORCH, "torch", "2.9.1", "11.8", NULL, NULL }, /* no cu118 variant of 2.9 */
	{ OS_LINUX, PY_FW_TORCH, "torch", "2.9.1", NULL, NULL, NULL },   /* the variant is needed */
	{ OS_WINDOWS, PY_FW_TORCH, "torch", "2.9.1", "13.0", NULL, NULL },
	/* ORT: cuDNN 9 from 1.18.1 on, 8 in 1.18.0; the -cuda11 flavour's rows are another package's */
	{ OS_LINUX, PY_FW_ONNXRUNTIME, "onnxruntime-gpu", "1.18.1", NULL, "12", "9" },
	{ OS_LINUX, PY_FW_ONNXRUNTIME, "onnxruntime-gpu", "1.18.0", NULL, "12", "8" },
	/* "8.2.4 (Linux), 8.5.0.96 (Windows)": the target OS's */
	{ OS_LINUX, PY_FW_ONNXRUNTIME, "onnxruntime-gpu", "1.17.1", NULL, "11.8", "8.2.4" },
	{ OS_WINDOWS, PY_FW_ONNXRUNTIME, "onnxruntime-gpu", "1.17.1", NULL, "11.8", "8.5.0.96" },
	/* JAX states minimums: cuDNN ">=9.8,<10" is kept as the floor; CUDA is the built-with */
	{ OS_LINUX, PY_FW_JAX, "jax-cuda12-plugin", "0.6.2", NULL, "12.8", ">=9.8" },
	{ OS_LINUX, PY_FW_JAX, "jax-cuda13-plugin", "0.7.2", NULL, "13.0", ">=9.8" },
	{ OS_LINUX, PY_FW_JAX, "jax-cuda13-plugin", "0.4.20", NULL, NULL, NULL },
	{ OS_LINUX, PY_FW_CUPY, "cupy-cuda12x", "13.3.0", NULL, NULL, NULL }, /* the wheel name says */
};

static void builds(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof build_cases / sizeof build_cases[0]; i++) {
		const struct build_case *c = &build_cases[i];
		struct py_framework fw = { .kind = c->kind, .name = c->name, .version = c->version, .cuda = c->cuda };
		struct py_kb_build b;
		ctx.os = c->os;
		bool got = py_kb_build(&ctx, &fw, &b);
		bool ok = got ? c->want_cuda && strcmp(b.cuda, c->want_cuda) == 0 && b.cudnn &&
					strcmp(b.cudnn, c->want_cudnn) == 0 && strstr(b.source, "knowledge base (S")
			      : !c->want_cuda;
		if (!ok)
			print_message("case %zu (%s %s): got %s / %s\n", i, c->name, c->version,
				      got ? b.cuda : "none", got && b.cudnn ? b.cudnn : "-");
		assert_true(ok);
	}
	ctx.os = OS_LINUX;
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
	/* CUDA 7.0 to 9.2: one SONAME per minor, as 10.0 */
	assert_string_equal(py_kb_soname("cudart", 9, "9.0"), "libcudart.so.9.0");
	assert_string_equal(py_kb_soname("cublas", 9, "9.2"), "libcublas.so.9.2");
	assert_null(py_kb_soname("cudart", 9, "9"));
	assert_string_equal(py_kb_soname("cudart", 7, "7.5"), "libcudart.so.7.5");
	assert_null(py_kb_soname("cudart", 6, "6.5")); /* older than the catalogue */
}

static void loads_and_floors(void **state)
{
	(void)state;
	const struct kb_framework_load *l;
	assert_int_equal(kb_framework_loads("tensorflow", &l, 1), 3); /* and tensorflow_core/'s two */
	assert_string_equal(l->object, "tensorflow/libtensorflow_framework.so.2");
	assert_int_equal(kb_framework_loads("torch", &l, 1), 2); /* libtorch_cuda.so, and torch < 1.5's libtorch.so */
	assert_string_equal(l->components, "cudart,cublas,cublasLt,cudnn");
	assert_int_equal(kb_framework_loads("jaxlib", &l, 1), 0);
	assert_string_equal(kb_minor_compat_floor(13, OS_LINUX, NULL), "580.65.06");
	assert_string_equal(kb_minor_compat_floor(12, OS_WINDOWS, NULL), "527.41");
	assert_string_equal(kb_tf_last_windows_gpu(), "2.10.0");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(builds),
		cmocka_unit_test(sonames),
		cmocka_unit_test(loads_and_floors),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
