/* Spot checks of the knowledge base against the research (compat-facts.md, formats.md,
 * error-cases.jsonl): each assertion is one fact a reader can look up there. Adding a CUDA release
 * means adding its rows and a check here (docs/kb.md). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "kb/kb.h"

static void cuda_release_driver_minimums(void **state)
{
	(void)state;
	const struct kb_cuda_release *r = kb_cuda_release("12.4");
	assert_non_null(r);
	assert_string_equal(r->linux_driver, "550.54.14"); /* 12.4 GA, Linux */
	assert_string_equal(r->windows_driver, "551.61");
	assert_false(r->fact.unconfirmed);
	assert_string_equal(kb_cuda_release("12.4.1")->linux_driver, "550.54.15");
	/* a component version of the series falls back to the GA row */
	assert_string_equal(kb_cuda_release("12.4.131")->cuda, "12.4");
	assert_string_equal(kb_cuda_release("11.8")->linux_driver, "520.61.05");
	assert_string_equal(kb_cuda_release("11.8")->windows_driver, "520.06");
	assert_string_equal(kb_cuda_release("12.0")->linux_driver, "525.60.13");
	assert_string_equal(kb_cuda_release("12.8")->linux_driver, "570.26");
	assert_string_equal(kb_cuda_release("13.0")->linux_driver, "580.65.06");
	assert_null(kb_cuda_release("13.0")->windows_driver); /* N/A in the 13.x notes */
	/* 11.0's GA is 11.0.2 (11.0.1 was the RC) */
	assert_string_equal(kb_cuda_release("11.0")->cuda, "11.0.2");
	assert_string_equal(kb_cuda_release("11.0")->linux_driver, "450.51.05");
	assert_string_equal(kb_cuda_release("10.2")->linux_driver, "440.33");
	assert_string_equal(kb_cuda_release("9.2")->linux_driver, "396.26"); /* 9.2.88, the GA */
	assert_string_equal(kb_cuda_release("9.2.148")->linux_driver, "396.37");
	assert_string_equal(kb_cuda_release("8.0")->linux_driver, "367.48");
	/* no CUDA 12.7 was released */
	assert_null(kb_cuda_release("12.7"));
	/* 13.3 / 13.4: only the branch is known */
	assert_null(kb_cuda_release("13.4")->linux_driver);
	assert_int_equal(kb_cuda_release("13.4")->branch, 615);
}

static void minor_compat_floors(void **state)
{
	(void)state;
	struct kb_fact f = { 0 };
	assert_string_equal(kb_minor_compat_floor(11, OS_LINUX, &f), "450.80.02");
	assert_non_null(f.source);
	assert_string_equal(kb_minor_compat_floor(11, OS_WINDOWS, NULL), "452.39");
	assert_string_equal(kb_minor_compat_floor(12, OS_LINUX, NULL), "525.60.13");
	assert_string_equal(kb_minor_compat_floor(12, OS_WINDOWS, NULL), "527.41");
	assert_string_equal(kb_minor_compat_floor(13, OS_LINUX, NULL), "580.65.06");
	assert_null(kb_minor_compat_floor(10, OS_LINUX, NULL)); /* 10.x had none */
}

static void driver_max_cuda(void **state)
{
	(void)state;
	assert_string_equal(kb_driver_max_cuda("535.104.05", OS_LINUX), "12.2");
	assert_string_equal(kb_driver_max_cuda("535.309.01", OS_LINUX), "12.2"); /* Debian's libcuda1 */
	assert_string_equal(kb_driver_max_cuda("470.256.02", OS_LINUX), "11.4");
	assert_string_equal(kb_driver_max_cuda("550.54.14", OS_LINUX), "12.4");
	assert_string_equal(kb_driver_max_cuda("550.54.13", OS_LINUX), "12.3");
	assert_string_equal(kb_driver_max_cuda("580.95.05", OS_LINUX), "13.0");
	assert_string_equal(kb_driver_max_cuda("610.43.02", OS_LINUX), "13.3"); /* branch R610 */
	assert_string_equal(kb_driver_max_cuda("551.61", OS_WINDOWS), "12.4");
	assert_string_equal(kb_driver_max_cuda("400.1", OS_LINUX), "9.2");
	/* the pre-10.0 rows of Table 3: old reports (CUDA 7.5 to 9.2) still arrive */
	assert_string_equal(kb_driver_max_cuda("390.48", OS_LINUX), "9.1");
	assert_string_equal(kb_driver_max_cuda("396.26", OS_LINUX), "9.2");
	assert_string_equal(kb_driver_max_cuda("367.48", OS_LINUX), "8.0");
	assert_string_equal(kb_driver_max_cuda("385.54", OS_WINDOWS), "9.0");
	assert_null(kb_driver_max_cuda("340.108", OS_LINUX));
	assert_null(kb_driver_max_cuda("garbage", OS_LINUX));
}

static void jetson_l4t_releases(void **state)
{
	(void)state;
	assert_string_equal(kb_l4t_lookup("35.4.1")->jetpack, "5.1.2");
	assert_string_equal(kb_l4t_lookup("35.4.1")->cuda, "11.4");
	/* Jetson Thor's Jetson Linux 38.x runs CUDA 13.0 with the unified OpenRM driver; earlier
	 * releases' driver is nvgpu */
	assert_string_equal(kb_l4t_lookup("38.4.0")->cuda, "13.0");
	assert_true(kb_l4t_lookup("38.2.1")->openrm);
	assert_false(kb_l4t_lookup("36.4.0")->openrm);
	assert_string_equal(kb_l4t_lookup("32.7.1")->cuda, "10.2");
	assert_string_equal(kb_l4t_lookup("32.2.1")->cuda, "10.0");
	assert_string_equal(kb_l4t_lookup("36.3.0")->cuda, "12.2");
	/* a minor the table lacks: the newest row of its major */
	assert_string_equal(kb_l4t_lookup("35.9.0")->l4t, "35.6");
	assert_string_equal(kb_l4t_lookup("36")->cuda, "12.6");
	assert_null(kb_l4t_lookup("28.2.1"));
	assert_null(kb_l4t_lookup("garbage"));
	assert_null(kb_l4t_lookup(NULL));
}

static void driver_branches_per_gpu(void **state)
{
	(void)state;
	assert_int_equal(kb_driver_gpu(6, 1)->last_branch, 580); /* Pascal */
	assert_false(kb_driver_gpu(6, 1)->open_module);
	assert_int_equal(kb_driver_gpu(3, 7)->last_branch, 470); /* Kepler, K80 */
	assert_int_equal(kb_driver_gpu(2, 0)->last_branch, 390); /* Fermi */
	assert_null(kb_driver_gpu(5, 3)); /* Jetson Nano: L4T's, no desktop branch */
	assert_null(kb_driver_gpu(7, 2));
	assert_true(kb_driver_gpu(6, 1)->closed_module);
	assert_null(kb_driver_gpu(7, 5)); /* Turing to Hopper: every branch, both flavours */
	assert_null(kb_driver_gpu(9, 0));
	/* Blackwell: no branch dropped it, but only the open kernel modules drive it (S39) */
	assert_int_equal(kb_driver_gpu(12, 0)->last_branch, 0);
	assert_true(kb_driver_gpu(12, 0)->open_module);
	assert_false(kb_driver_gpu(12, 0)->closed_module);
	assert_false(kb_driver_gpu(10, 0)->closed_module);
	assert_null(kb_driver_gpu(11, 0)); /* Jetson Thor: L4T's */
}

static void driver_symbols(void **state)
{
	(void)state;
	/* read from the real libcuda of drivers 470 and 535 and the CUDA 13 stub (S40) */
	assert_string_equal(kb_driver_symbol("cuCtxCreate_v4")->newer_than, "12.2");
	assert_string_equal(kb_driver_symbol("cuCtxCreate_v4")->seen_in, "13.0");
	assert_null(kb_driver_symbol("cuInit"));
	assert_null(kb_driver_symbol("cuEventDestroy_v2"));
	assert_null(kb_driver_symbol(NULL));
}

static void version_encodings(void **state)
{
	(void)state;
	int a, b, c;
	assert_true(kb_cudnn_decode_version(8907, &a, &b, &c)); /* 8.x: x1000 */
	assert_int_equal(a, 8), assert_int_equal(b, 9), assert_int_equal(c, 7);
	assert_true(kb_cudnn_decode_version(90600, &a, &b, &c)); /* 9.x: x10000 */
	assert_int_equal(a, 9), assert_int_equal(b, 6), assert_int_equal(c, 0);
	assert_true(kb_cudnn_decode_version(91900, &a, &b, &c));
	assert_int_equal(a, 9), assert_int_equal(b, 19);
	assert_true(kb_version_decode("cuda", 12060, &a, &b, &c));
	assert_int_equal(a, 12), assert_int_equal(b, 6);
	assert_true(kb_version_decode("cuda", 9020, &a, &b, &c));
	assert_int_equal(a, 9), assert_int_equal(b, 2);
	assert_true(kb_version_decode("nccl", 22809, &a, &b, &c));
	assert_int_equal(a, 2), assert_int_equal(b, 28), assert_int_equal(c, 9);
	assert_false(kb_cudnn_decode_version(0, &a, &b, &c));
	assert_false(kb_version_decode("nosuch", 1000, &a, &b, &c));
}

static void gpus_and_compute_capabilities(void **state)
{
	(void)state;
	const struct kb_gpu *g = kb_gpu_lookup("RTX 3090");
	assert_non_null(g);
	assert_string_equal(g->name, "NVIDIA GeForce RTX 3090");
	assert_int_equal(g->cc_major, 8), assert_int_equal(g->cc_minor, 6);
	g = kb_gpu_lookup("NVIDIA H100 80GB HBM3"); /* as nvidia-smi prints it */
	assert_non_null(g);
	assert_int_equal(g->cc_major, 9), assert_int_equal(g->cc_minor, 0);
	assert_string_equal(g->segment, "datacenter");
	g = kb_gpu_lookup("Tesla V100-SXM2-16GB");
	assert_non_null(g);
	assert_int_equal(g->cc_major, 7), assert_int_equal(g->cc_minor, 0);
	g = kb_gpu_lookup("NVIDIA A100-SXM4-80GB");
	assert_int_equal(g->cc_major * 10 + g->cc_minor, 80);
	assert_int_equal(kb_gpu_lookup("nvidia geforce rtx 5090")->cc_major, 12);
	assert_int_equal(kb_gpu_lookup("Tesla T4")->cc_minor, 5);
	/* Jetson Thor as its nvidia-smi names it */
	assert_int_equal(kb_gpu_lookup("NVIDIA Thor")->cc_major, 11);
	assert_string_equal(kb_gpu_lookup("NVIDIA Thor")->segment, "jetson");
	assert_int_equal(kb_gpu_lookup("NVIDIA GeForce GTX 1080 Ti")->cc_major, 6);
	/* Kepler boards by the names NVML gives them: a form-factor letter after the model */
	g = kb_gpu_lookup("Tesla K40m");
	assert_non_null(g);
	assert_int_equal(g->cc_major * 10 + g->cc_minor, 35);
	assert_non_null(kb_gpu_lookup("NVIDIA Tesla K20Xm"));
	/* laptop GPUs as NVML names them */
	assert_int_equal(kb_gpu_lookup("NVIDIA GeForce 940M")->cc_major, 5);
	assert_int_equal(kb_gpu_lookup("GeForce GTX 660M")->cc_major * 10 + kb_gpu_lookup("GeForce GTX 660M")->cc_minor, 30);
	/* Quadro RTX 6000 (Turing) is not the RTX 6000 Ada Generation */
	assert_int_equal(kb_gpu_lookup("Quadro RTX 6000")->cc_major * 10 + kb_gpu_lookup("Quadro RTX 6000")->cc_minor, 75);
	assert_int_equal(kb_gpu_lookup("NVIDIA RTX 6000 Ada Generation")->cc_minor, 9);
	assert_int_equal(kb_gpu_lookup("NVIDIA GB10")->cc_minor, 1);
	/* an RTX 2050 (a laptop GA107) is Ampere despite its number; an H20 is Hopper, not an H200 */
	assert_int_equal(kb_gpu_lookup("NVIDIA GeForce RTX 2050")->cc_major * 10 + kb_gpu_lookup("NVIDIA GeForce RTX 2050")->cc_minor, 86);
	assert_string_equal(kb_gpu_lookup("NVIDIA H20")->name, "NVIDIA H20");
	/* AWS g5g's T4G is the T4's chip */
	assert_int_equal(kb_gpu_lookup("NVIDIA T4G")->cc_major * 10 + kb_gpu_lookup("NVIDIA T4G")->cc_minor, 75);
	/* a virtual GPU's profile names its board (NVIDIA vGPU: BOARD-<framebuffer GB><series>) */
	g = kb_gpu_lookup("GRID A100-40C");
	assert_non_null(g);
	assert_int_equal(g->cc_major * 10 + g->cc_minor, 80);
	assert_int_equal(kb_gpu_lookup("GRID T4-16Q")->cc_minor, 5);
	assert_null(kb_gpu_lookup("GRID"));
	/* Kepler to Pascal workstation and laptop parts, and the Pascal TITAN X by its own name */
	assert_int_equal(kb_gpu_lookup("Quadro P4000")->cc_major * 10 + kb_gpu_lookup("Quadro P4000")->cc_minor, 61);
	assert_int_equal(kb_gpu_lookup("Quadro M1000M")->cc_major * 10 + kb_gpu_lookup("Quadro M1000M")->cc_minor, 50);
	assert_int_equal(kb_gpu_lookup("Quadro K2000")->cc_major * 10 + kb_gpu_lookup("Quadro K2000")->cc_minor, 30);
	assert_int_equal(kb_gpu_lookup("NVIDIA TITAN X (Pascal)")->cc_minor, 1);
	/* SM spellings */
	for (const char *const *s = (const char *const[]){ "sm_86", "8.6", "86", "compute_86", NULL }; *s; s++) {
		g = kb_gpu_lookup(*s);
		assert_non_null(g);
		assert_int_equal(g->cc_major, 8), assert_int_equal(g->cc_minor, 6);
		assert_string_equal(g->family, "Ampere");
	}
	assert_int_equal(kb_gpu_lookup("sm_120")->cc_major, 12);
	assert_int_equal(kb_gpu_lookup("sm_90a")->cc_major, 9);
	assert_null(kb_gpu_lookup("RTX 9999"));
	assert_null(kb_gpu_lookup("sm_99"));
	assert_null(kb_gpu_lookup(""));
}

static void nvcc_arch_support(void **state)
{
	(void)state;
	const struct kb_arch_support *a = kb_arch_support(86);
	assert_string_equal(a->added, "11.1"); /* sm_86 first appears in CUDA 11.1 */
	assert_null(a->removed);
	a = kb_arch_support(35);
	assert_string_equal(a->removed, "12.0"); /* Kepler gone in 12.0 */
	assert_true(kb_arch_supported_by(a, "11.8"));
	assert_false(kb_arch_supported_by(a, "12.0"));
	a = kb_arch_support(70);
	assert_string_equal(a->removed, "13.0"); /* Volta gone in 13.0 */
	assert_true(kb_arch_deprecated_in(a, "12.8"));
	assert_false(kb_arch_deprecated_in(a, "12.6"));
	assert_string_equal(kb_arch_support(90)->added, "11.8");
	assert_string_equal(kb_arch_support(120)->added, "12.8");
	assert_string_equal(kb_arch_support(110)->added, "13.0");
	assert_string_equal(kb_arch_support(101)->removed, "13.0"); /* renamed sm_110 */
	assert_true(kb_arch_support(107)->fact.unconfirmed);
	assert_null(kb_arch_support(99));
}

static void library_names(void **state)
{
	(void)state;
	const struct kb_lib *l;
	l = kb_lib_classify("cudnn_cnn_infer64_8.dll", OS_WINDOWS);
	assert_non_null(l);
	assert_string_equal(l->family, "cudnn");
	assert_int_equal(l->major, 8); /* belongs to cuDNN 8 */
	l = kb_lib_classify("libcudnn_ops.so.9", OS_LINUX);
	assert_string_equal(l->component, "cudnn_ops");
	assert_int_equal(l->major, 9);
	assert_string_equal(kb_lib_classify("libcudnn.so.8.9.7", OS_LINUX)->name, "libcudnn.so.8");
	l = kb_lib_classify("libcudart.so.11.8.89", OS_LINUX);
	assert_string_equal(l->name, "libcudart.so.11.0");
	assert_int_equal(l->cuda_major, 11);
	l = kb_lib_classify("/usr/lib/x86_64-linux-gnu/nvidia/current/libcuda.so.535.309.01", OS_LINUX);
	assert_string_equal(l->component, "libcuda");
	assert_true(l->driver_versioned);
	assert_string_equal(kb_lib_classify("libnvidia-ml.so.1", OS_LINUX)->component, "nvml");
	assert_int_equal(kb_lib_classify("cublas64_11.dll", OS_WINDOWS)->cuda_major, 11);
	assert_int_equal(kb_lib_classify("cublasLt64_12.dll", OS_WINDOWS)->cuda_major, 12);
	assert_int_equal(kb_lib_classify("cudart64_110.dll", OS_AUTO)->cuda_major, 11);
	assert_int_equal(kb_lib_classify("CUDART64_12.DLL", OS_WINDOWS)->cuda_major, 12);
	assert_string_equal(kb_lib_classify("nvcuda.dll", OS_WINDOWS)->family, "driver");
	assert_string_equal(kb_lib_classify("zlibwapi.dll", OS_WINDOWS)->component, "zlibwapi");
	/* cuFFT 11 is CUDA 12's */
	assert_int_equal(kb_lib_classify("cufft64_11.dll", OS_WINDOWS)->cuda_major, 12);
	/* CUDA 10.0 had full-version SONAMEs; the longer SONAME wins */
	assert_int_equal(kb_lib_classify("libcublas.so.10.0.130", OS_LINUX)->major, 10);
	/* CUDA 7.5: one SONAME per minor, as 8.0 to 10.0 (TensorFlow 0.x loaded libcudart.so.7.5) */
	assert_int_equal(kb_lib_classify("libcudart.so.7.5.18", OS_LINUX)->cuda_major, 7);
	assert_string_equal(kb_lib_classify("libcufft.so.7.5", OS_LINUX)->component, "cufft");
	assert_int_equal(kb_lib_classify("cublas64_75.dll", OS_WINDOWS)->cuda_major, 7);
	assert_string_equal(kb_lib_classify("libcublas.so.10.0.130", OS_LINUX)->name, "libcublas.so.10.0");
	assert_null(kb_lib_classify("libfoo.so.1", OS_LINUX));
	assert_null(kb_lib_classify("libcudart.so.11.0", OS_WINDOWS));

	const struct kb_lib *rows[8];
	size_t n = kb_lib_find("cublas", 11, OS_WINDOWS, rows, 8);
	assert_int_equal(n, 1);
	assert_string_equal(rows[0]->name, "cublas64_11.dll");
	n = kb_lib_find("cudart", 13, OS_LINUX, rows, 8);
	assert_int_equal(n, 1);
	assert_string_equal(rows[0]->pip_wheel, "nvidia-cuda-runtime"); /* CUDA 13 wheels: no -cu13 */
	assert_string_equal(rows[0]->pip_dir, "nvidia/cu13/lib");
	n = kb_lib_find("cudart", 12, OS_LINUX, rows, 8);
	assert_string_equal(rows[0]->pip_wheel, "nvidia-cuda-runtime-cu12");
	assert_string_equal(kb_pip_wheel("cudnn", 13)->wheel, "nvidia-cudnn-cu13");
	assert_string_equal(kb_pip_wheel("cudnn", 11)->last_version, "9.10.2.21");
	/* all seven cuDNN 8 Windows DLLs and the eight cuDNN 9 ones */
	const struct kb_lib *all[64];
	n = kb_lib_find("cudnn", 0, OS_WINDOWS, all, 64);
	size_t c8 = 0, c9 = 0;
	for (size_t i = 0; i < n && i < 64; i++) {
		c8 += all[i]->major == 8;
		c9 += all[i]->major == 9 && !all[i]->fact.unconfirmed;
	}
	assert_int_equal(c8, 7);
	assert_int_equal(c9, 8);
}

static void dlopen_edges(void **state)
{
	(void)state;
	const char *const *names;
	size_t n = kb_lib_dlopens("libcudart.so.12", OS_LINUX, &names);
	assert_int_equal(n, 1);
	assert_string_equal(names[0], "libcuda.so.1");
	/* a full file name is classified first */
	n = kb_lib_dlopens("/opt/x/libcudnn.so.9.19.0", OS_LINUX, &names);
	assert_int_equal(n, 4);
	bool cnn = false;
	for (size_t i = 0; i < n; i++)
		cnn |= strcmp(names[i], "libcudnn_cnn.so.9") == 0;
	assert_true(cnn);
	n = kb_lib_dlopens("libcudnn_graph.so.9", OS_LINUX, &names);
	bool nvrtc = false;
	for (size_t i = 0; i < n; i++)
		nvrtc |= strcmp(names[i], "libnvrtc.so.13") == 0;
	assert_true(nvrtc); /* cuDNN engines -> NVRTC */
	assert_int_equal(kb_lib_dlopens("cudart64_12.dll", OS_WINDOWS, &names), 1);
	assert_string_equal(names[0], "nvcuda.dll");
	assert_int_equal(kb_lib_dlopens("libz.so.1", OS_LINUX, &names), 0);
	assert_null(names);
}

static void cudnn_releases(void **state)
{
	(void)state;
	const struct kb_cudnn_release *r = kb_cudnn_release("8.9.7");
	assert_non_null(r);
	assert_true(r->fact.unconfirmed);
	assert_string_equal(r->windows_extra, "zlibwapi.dll");
	r = kb_cudnn_release("9.5.1");
	assert_string_equal(r->version, "9.4.0"); /* the 9.4.0-9.5.1 row */
	assert_string_equal(r->cuda_versions, "12.0-12.6,11.8");
	assert_string_equal(kb_cudnn_release("8.9.5.29")->cc, "5.0-9.0");
	assert_string_equal(kb_cudnn_release("9.17.0")->cc, "7.5-12.0");
	assert_null(kb_cudnn_release("9.1.0"));
	assert_string_equal(kb_cudnn_release_nearest("9.1.0")->version, "9.0.0");
	assert_null(kb_cudnn_release_nearest("6.0"));
}

static void error_codes(void **state)
{
	(void)state;
	const struct kb_error *e = kb_error_lookup("cudart", 35);
	assert_string_equal(e->name, "cudaErrorInsufficientDriver");
	assert_string_equal(e->text, "CUDA driver version is insufficient for CUDA runtime version");
	assert_string_equal(e->finding, "driver-too-old");
	assert_string_equal(kb_error_lookup("cudart", 34)->finding, "stub-libcuda");
	assert_string_equal(kb_error_lookup("cu", 34)->name, "CUDA_ERROR_STUB_LIBRARY");
	assert_string_equal(kb_error_lookup("cudart", 100)->finding, "no-device");
	assert_string_equal(kb_error_lookup("cudart", 209)->finding, "no-kernel-image");
	assert_string_equal(kb_error_lookup("cudart", 222)->finding, "ptx-too-new");
	assert_string_equal(kb_error_lookup("cudart", 803)->finding, "driver-userspace-mismatch");
	assert_string_equal(kb_error_lookup("cu", 804)->finding, "forward-compat-unsupported");
	assert_string_equal(kb_error_lookup("cudart", 999)->finding, "nvidia-uvm-missing");
	assert_null(kb_error_lookup("cu", 35)); /* no driver-API twin of 35 */
	assert_int_equal(kb_error_lookup("cudart_legacy", 38)->code, 38);
	assert_string_equal(kb_error_lookup("cudnn9", 3005)->name, "CUDNN_STATUS_NOT_SUPPORTED_INCOMPATIBLE_CUDA_DRIVER");
	assert_string_equal(kb_error_lookup("cudnn9", 1002)->finding, "cudnn-mixed-versions");
	assert_string_equal(kb_error_lookup("cudnn8", 14)->name, "CUDNN_STATUS_VERSION_MISMATCH");
	assert_string_equal(kb_error_lookup("cublas", 13)->name, "CUBLAS_STATUS_EXECUTION_FAILED");
	assert_string_equal(kb_error_lookup("nvml", 18)->text, "Driver/library version mismatch");
	assert_string_equal(kb_error_lookup("nvml", 9)->finding, "no-driver");
	e = kb_error_by_name("cudaErrorInsufficientDriver");
	assert_int_equal(e->code, 35);
	assert_int_equal(kb_error_by_name("cudaerrornodevice")->code, 100);
	assert_null(kb_error_by_name("cudaErrorNoSuchThing"));
}

static void frameworks(void **state)
{
	(void)state;
	const struct kb_tf_build *b = kb_tf_build("2.15.1", OS_LINUX);
	assert_string_equal(b->cuda, "12.2");
	assert_string_equal(b->cudnn, "8.9");
	assert_string_equal(kb_tf_build("2.10.0", OS_WINDOWS)->cuda, "11.2");
	assert_null(kb_tf_build("2.11.0", OS_WINDOWS)); /* no native Windows GPU after 2.10 */
	assert_string_equal(kb_tf_last_windows_gpu(), "2.10.0");
	assert_string_equal(kb_tf_build("1.9.0", OS_LINUX)->cuda, "9");
	assert_string_equal(kb_tf_build("2.18.0", OS_LINUX)->cudnn, "9.3");

	const struct kb_torch_variant *v;
	size_t n = kb_torch_release("2.5.1", &v);
	assert_int_equal(n, 3);
	assert_string_equal(v[0].variant, "cu118");
	assert_string_equal(v[2].cudnn, "9.1.0.70");
	v = kb_torch_variant("2.6.0+cu126", NULL);
	assert_string_equal(v->cudnn, "9.5.1.17");
	assert_true(v->experimental);
	assert_string_equal(kb_torch_variant("2.1.2", "cu121")->cudnn, "8.9.2.26");
	assert_string_equal(kb_torch_variant("2.9.1+cu130", NULL)->cudnn, "9.13.0.50");
	assert_int_equal(kb_torch_release("3.0", &v), 0);

	const struct kb_framework_req *r[8];
	n = kb_framework_find("onnxruntime", "1.18.1", r, 8);
	assert_int_equal(n, 2); /* the CUDA 12 build needs cuDNN 9; the CUDA 11 build cuDNN 8 */
	assert_string_equal(r[0]->cudnn, "9.x");
	assert_string_equal(r[1]->cuda, "11.8");
	n = kb_framework_find("onnxruntime", "1.18.0", r, 8);
	assert_int_equal(n, 2); /* CUDA 12 with cuDNN 8, and the CUDA 11 build */
	n = kb_framework_find("cupy", "13.6.0", r, 8);
	assert_int_equal(n, 1);
	assert_string_equal(r[0]->package, "cupy-cuda13x");
	n = kb_framework_find("jax", "0.6.2", r, 8);
	assert_int_equal(n, 1);
	assert_string_equal(r[0]->cudnn, ">=9.8,<10");
}

static void ptx_isa_and_framework_loads(void **state)
{
	(void)state;
	/* CUDA 12.7 never shipped: ISA 8.6 needs a 12.8 driver to JIT */
	assert_string_equal(kb_ptx_isa(8, 6)->driver_cuda, "12.8");
	assert_string_equal(kb_ptx_isa(9, 0)->cuda, "13.0"); /* nvcc 13.0 writes .version 9.0 */
	assert_string_equal(kb_ptx_isa(7, 8)->cuda, "11.8");
	assert_null(kb_ptx_isa(99, 0));
	const struct kb_framework_load *l[4];
	/* the object of today's wheels first, then torch < 1.5's single libtorch.so */
	assert_int_equal(kb_framework_loads("torch", l, 4), 2);
	assert_string_equal(l[0]->object, "torch/lib/libtorch_cuda.so");
	assert_string_equal(l[0]->how, "needed");
	assert_string_equal(l[1]->object, "torch/lib/libtorch.so");
	/* TensorFlow's object, then 2.0/2.1's and 1.15's in tensorflow_core/ */
	assert_int_equal(kb_framework_loads("tensorflow", l, 4), 3);
	assert_string_equal(l[0]->how, "dlopen");
	assert_string_equal(l[2]->object, "tensorflow_core/libtensorflow_framework.so.1");
	assert_int_equal(kb_framework_loads("caffe", l, 4), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(cuda_release_driver_minimums), cmocka_unit_test(minor_compat_floors),
		cmocka_unit_test(driver_max_cuda),
		cmocka_unit_test(jetson_l4t_releases),
		cmocka_unit_test(driver_branches_per_gpu),
		cmocka_unit_test(driver_symbols),              cmocka_unit_test(version_encodings),
		cmocka_unit_test(gpus_and_compute_capabilities), cmocka_unit_test(nvcc_arch_support),
		cmocka_unit_test(library_names),                cmocka_unit_test(dlopen_edges),
		cmocka_unit_test(cudnn_releases),               cmocka_unit_test(error_codes),
		cmocka_unit_test(frameworks),                   cmocka_unit_test(ptx_isa_and_framework_loads),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
