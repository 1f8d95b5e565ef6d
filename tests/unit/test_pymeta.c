/* src/fmt/pymeta.c: metadata, requirements, literals in generated modules, pyvenv.cfg, RECORD.
 * Inputs are written as the real packages write them (torch 2.9.1+cu130 METADATA and version.py,
 * TensorFlow 2.15's build_info.py in both the OrderedDict-of-tuples and the item-assignment form,
 * ONNX Runtime's capi/version_info.py). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "fmt/pymeta.h"

#define SPAN(lit) span_make(lit, sizeof lit - 1)

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

static void metadata_of_torch_cu130(void **state)
{
	(void)state;
	const char meta[] =
		"Metadata-Version: 2.4\r\n"
		"Name: torch\r\n"
		"Version: 2.9.1+cu130\r\n"
		"Summary: Tensors and Dynamic neural networks in Python with strong GPU acceleration\r\n"
		"Requires-Dist: filelock\r\n"
		"Requires-Dist: nvidia-cuda-runtime==13.0.96; platform_system == \"Linux\"\r\n"
		"Requires-Dist: nvidia-cudnn-cu13==9.13.0.50; platform_system == \"Linux\"\r\n"
		"Requires-Dist: opt-einsum>=3.3; extra == \"opt-einsum\"\r\n"
		"\r\n"
		"Requires-Dist: this-is-the-body==1\r\n";
	struct pymeta_dist d;
	const char *err;
	assert_true(pymeta_parse_metadata(SPAN(meta), &A, &d, &err));
	assert_string_equal(d.name, "torch");
	assert_string_equal(d.version, "2.9.1+cu130");
	assert_int_equal(d.n_requires, 4); /* the body is not headers */
	struct pymeta_req r;
	assert_true(pymeta_parse_req(d.requires[2], &A, &r));
	assert_string_equal(r.name, "nvidia-cudnn-cu13");
	assert_string_equal(r.op, "==");
	assert_string_equal(r.version, "9.13.0.50");
	assert_true(r.linux_only);
	assert_false(r.windows_only);
	assert_null(r.extra);
	assert_true(pymeta_parse_req(d.requires[3], &A, &r));
	assert_string_equal(r.name, "opt-einsum");
	assert_string_equal(r.extra, "opt-einsum");
	assert_string_equal(r.op, ">=");
}

static void requirement_forms(void **state)
{
	(void)state;
	struct pymeta_req r;
	/* the old parenthesised form and an extras list */
	assert_true(pymeta_parse_req("Nvidia_CUDNN.cu12 (==8.9.2.26)", &A, &r));
	assert_string_equal(r.name, "nvidia-cudnn-cu12");
	assert_string_equal(r.version, "8.9.2.26");
	assert_true(pymeta_parse_req("jax-cuda12-plugin[with-cuda] <0.5,>=0.4.30 ; extra == 'cuda12'", &A, &r));
	assert_string_equal(r.name, "jax-cuda12-plugin");
	assert_string_equal(r.op, "<");
	assert_string_equal(r.version, "0.5");
	assert_string_equal(r.spec, "<0.5,>=0.4.30");
	assert_string_equal(r.extra, "cuda12");
	assert_true(pymeta_parse_req("pywin32; sys_platform == \"win32\"", &A, &r));
	assert_true(r.windows_only);
	assert_null(r.op);
	assert_false(pymeta_parse_req("==1.0", &A, &r));
	assert_false(pymeta_parse_req("", &A, &r));
	assert_false(pymeta_parse_req(NULL, &A, &r));
}

static void metadata_refuses_garbage(void **state)
{
	(void)state;
	struct pymeta_dist d;
	const char *err;
	const char bin[] = "\x7f" "ELF\x02\x01\x01\0\0\0Name: x\n";
	assert_false(pymeta_parse_metadata(SPAN(bin), &A, &d, &err));
	assert_non_null(err);
	const char noheader[] = "just some words\nand more\n";
	assert_false(pymeta_parse_metadata(SPAN(noheader), &A, &d, &err));
	assert_false(pymeta_parse_metadata(span_make(NULL, 0), &A, &d, &err));
	/* continuation lines extend the previous header; over-long lines are cut, not trusted */
	const char cont[] = "Metadata-Version: 2.1\nName: tensorflow\nRequires-Dist: nvidia-cudnn-cu12\n"
			    "  ==8.9.4.25\n";
	assert_true(pymeta_parse_metadata(SPAN(cont), &A, &d, &err));
	assert_int_equal(d.n_requires, 1);
	assert_string_equal(d.requires[0], "nvidia-cudnn-cu12 ==8.9.4.25");
}

static void torch_version_py(void **state)
{
	(void)state;
	const char vp[] = "from typing import Optional\n\n"
			  "__all__ = ['__version__', 'debug', 'cuda', 'git_version', 'hip', 'xpu']\n"
			  "__version__ = '2.9.1+cu130'\n"
			  "debug = False\n"
			  "cuda: Optional[str] = '13.0'\n"
			  "git_version = 'd38164a545b4a4e4e0cf73ce67173f70574890b6'\n"
			  "hip: Optional[str] = None\n"
			  "xpu: Optional[str] = None\n";
	struct pymeta_value v;
	assert_true(pymeta_py_value(SPAN(vp), &A, "cuda", &v));
	assert_int_equal(v.kind, PYLIT_STR); /* not fooled by 'cuda' inside __all__ */
	assert_string_equal(v.str, "13.0");
	assert_true(pymeta_py_value(SPAN(vp), &A, "__version__", &v));
	assert_string_equal(v.str, "2.9.1+cu130");
	assert_true(pymeta_py_value(SPAN(vp), &A, "hip", &v));
	assert_int_equal(v.kind, PYLIT_NULL);
	assert_true(pymeta_py_value(SPAN(vp), &A, "debug", &v));
	assert_int_equal(v.kind, PYLIT_BOOL);
	assert_false(v.b);
	assert_false(pymeta_py_value(SPAN(vp), &A, "rocm", &v));
	const char odd[] = "__version__ = '2.5.0'\ncuda = _get_cuda_version()\n";
	assert_true(pymeta_py_value(SPAN(odd), &A, "cuda", &v));
	assert_int_equal(v.kind, PYLIT_OTHER);
	assert_string_equal(v.str, "_get_cuda_version()");
}

static void tf_build_info_both_forms(void **state)
{
	(void)state;
	const char tuples[] =
		"import collections\n\nbuild_info = collections.OrderedDict([('cpu_compiler', "
		"'/usr/lib/llvm-16/bin/clang'), ('cuda_compute_capabilities', ['sm_50', 'sm_60', "
		"'sm_70', 'sm_80', 'compute_90']), ('cuda_version', '12.2'), ('cudnn_version', '8'), "
		"('is_cuda_build', True), ('is_rocm_build', False), ('is_tensorrt_build', True)])\n";
	struct pymeta_value v;
	assert_true(pymeta_py_value(SPAN(tuples), &A, "cuda_version", &v));
	assert_int_equal(v.kind, PYLIT_STR);
	assert_string_equal(v.str, "12.2");
	assert_true(pymeta_py_value(SPAN(tuples), &A, "cudnn_version", &v));
	assert_string_equal(v.str, "8");
	assert_true(pymeta_py_value(SPAN(tuples), &A, "cuda_compute_capabilities", &v));
	assert_int_equal(v.kind, PYLIT_LIST);
	assert_int_equal(v.n_items, 5);
	assert_string_equal(v.items[4], "compute_90");
	assert_true(pymeta_py_value(SPAN(tuples), &A, "is_cuda_build", &v));
	assert_int_equal(v.kind, PYLIT_BOOL);
	assert_true(v.b);

	const char items[] = "build_info = {}\nbuild_info['cuda_version'] = '11.2'\n"
			     "build_info['cudnn_version'] = \"8\"\nbuild_info['is_cuda_build'] = False\n";
	assert_true(pymeta_py_value(SPAN(items), &A, "cuda_version", &v));
	assert_string_equal(v.str, "11.2");
	assert_true(pymeta_py_value(SPAN(items), &A, "is_cuda_build", &v));
	assert_false(v.b);

	const char ort[] = "use_cuda = True\ncuda_version = \"12.2\"\ncudnn_version = \"8.9.2.26\"\n";
	assert_true(pymeta_py_value(SPAN(ort), &A, "cudnn_version", &v));
	assert_string_equal(v.str, "8.9.2.26");
	/* an unterminated string or list is not a value */
	const char broken[] = "cuda = '12.1\nother = 1\ncaps = ['sm_50', \n";
	assert_true(pymeta_py_value(SPAN(broken), &A, "cuda", &v));
	assert_int_equal(v.kind, PYLIT_OTHER);
	assert_true(pymeta_py_value(SPAN(broken), &A, "caps", &v));
	assert_int_equal(v.kind, PYLIT_OTHER);
}

static void pyvenv_cfg_and_lines(void **state)
{
	(void)state;
	const char cfg[] = "home = /usr/bin\ninclude-system-site-packages = false\nversion = 3.11.2\n"
			   "executable = /usr/bin/python3.11\ncommand = /usr/bin/python3 -m venv /home/u/venv\n";
	assert_string_equal(pymeta_cfg_value(SPAN(cfg), &A, "home"), "/usr/bin");
	assert_string_equal(pymeta_cfg_value(SPAN(cfg), &A, "VERSION"), "3.11.2");
	assert_null(pymeta_cfg_value(SPAN(cfg), &A, "prompt"));
	const char envs[] = "/home/u/miniconda3\n\n  /home/u/miniconda3/envs/ml  \n# comment\r\n/opt/x\r\n";
	const char **lines;
	assert_int_equal(pymeta_lines(SPAN(envs), &A, &lines, 100), 3);
	assert_string_equal(lines[1], "/home/u/miniconda3/envs/ml");
	assert_string_equal(lines[2], "/opt/x");
	assert_int_equal(pymeta_lines(SPAN(envs), &A, &lines, 2), 2); /* bounded */
}

static void record_lists_libraries(void **state)
{
	(void)state;
	const char rec[] =
		"nvidia/cudnn/lib/libcudnn.so.9,sha256=abc,1234\n"
		"nvidia/cudnn/lib/libcudnn_ops.so.9,sha256=def,99\n"
		"nvidia/cudnn/include/cudnn.h,sha256=x,1\n"
		"nvidia_cudnn_cu13-9.13.0.50.dist-info/RECORD,,\n"
		"\"nvidia/cu13/bin/x86_64/cudart64_13.dll\",sha256=y,2\n"
		"torch/_C.cpython-311-x86_64-linux-gnu.so,sha256=z,3\n";
	const char **libs;
	size_t n = pymeta_record_libs(SPAN(rec), &A, &libs, 100);
	assert_int_equal(n, 4);
	assert_string_equal(libs[0], "nvidia/cudnn/lib/libcudnn.so.9");
	assert_string_equal(libs[2], "nvidia/cu13/bin/x86_64/cudart64_13.dll");
	assert_int_equal(pymeta_record_libs(SPAN(rec), &A, &libs, 1), 1);
}

static void normalises_names(void **state)
{
	(void)state;
	assert_string_equal(pymeta_normalize(&A, "Nvidia__CUDNN.cu12", 18), "nvidia-cudnn-cu12");
	assert_string_equal(pymeta_normalize(&A, "-_.", 3), "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(metadata_of_torch_cu130, setup, teardown),
		cmocka_unit_test_setup_teardown(requirement_forms, setup, teardown),
		cmocka_unit_test_setup_teardown(metadata_refuses_garbage, setup, teardown),
		cmocka_unit_test_setup_teardown(torch_version_py, setup, teardown),
		cmocka_unit_test_setup_teardown(tf_build_info_both_forms, setup, teardown),
		cmocka_unit_test_setup_teardown(pyvenv_cfg_and_lines, setup, teardown),
		cmocka_unit_test_setup_teardown(record_lists_libraries, setup, teardown),
		cmocka_unit_test_setup_teardown(normalises_names, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
