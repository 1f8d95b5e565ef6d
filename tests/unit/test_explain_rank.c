/* Ranking explain's causes against a machine (src/explain/explain_rank.c). The inventories and
 * findings here are built by hand: they stand for what the collectors and rules report, which
 * the scenario tests (tests/scenarios/explain.bats) produce for real. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "diag/rule.h"
#include "explain/explain_rank.h"

static struct arena A;
static const struct explain_catalog *CAT;

static int setup(void **state)
{
	(void)state;
	arena_init(&A);
	CAT = explain_catalog_builtin(&A);
	return 0;
}
static int teardown(void **state)
{
	(void)state;
	arena_free(&A);
	return 0;
}

static const struct explain_message *hit_of(const char *text)
{
	struct explain_scan *sc = arena_calloc(&A, 1, sizeof *sc);
	explain_scan_text(&A, CAT, span_make(text, strlen(text)), sc);
	assert_true(sc->n_msgs >= 1);
	return &sc->msgs[0];
}

static struct finding *add_finding(struct findings *fs, const char *id, const char *summary)
{
	struct finding *f = ARENA_PUSH(&A, fs->v, fs->n, fs->cap);
	f->id = id;
	f->severity = SEV_ERROR;
	f->summary = summary;
	f->arena = &A;
	return f;
}

static void test_all_rule_outs_exist(void **state)
{
	(void)state;
	for (size_t i = 0; i < CAT->n_causes; i++) {
		if (!explain_rule_out_known(CAT->causes[i].rule_out))
			print_message("%s: unknown rule_out %s\n", CAT->causes[i].key, CAT->causes[i].rule_out);
		assert_true(explain_rule_out_known(CAT->causes[i].rule_out));
	}
}

/* Every finding id a cause names is owned by a rule entry of src/diag (the message family's for
 * causes only a message proves): explain builds no findings of its own. */
static void test_every_cause_has_a_rule(void **state)
{
	(void)state;
	for (size_t c = 0; c < CAT->n_causes; c++) {
		bool owned = diag_rule(CAT->causes[c].finding) != NULL;
		if (!owned)
			print_message("cause %s: finding %s has no rule\n", CAT->causes[c].key, CAT->causes[c].finding);
		assert_true(owned);
	}
}

static void test_no_machine(void **state)
{
	(void)state;
	struct explain_result r;
	explain_rank(&A, NULL, hit_of("Could not load library cudnn_cnn_infer64_8.dll. Error code 126"), &r);
	assert_string_equal(r.causes[0].def->finding, "cudnn-zlibwapi-missing");
	assert_int_equal(r.causes[0].conf, EXPLAIN_LIKELY);
	assert_int_equal(r.causes[1].conf, EXPLAIN_POSSIBLE);
	assert_string_equal(explain_kv_get(&r, "libmajor"), "8");
	assert_null(r.elsewhere);
	/* placeholders filled from the facts */
	assert_non_null(strstr(r.causes[1].check, "cudnn_cnn_infer64_8.dll"));
}

static void test_finding_confirms_and_reorders(void **state)
{
	(void)state;
	struct inventory inv;
	memset(&inv, 0, sizeof inv);
	struct findings fs = { 0 };
	fs.arena = &A;
	struct finding *f = add_finding(&fs, "framework-driver-too-old", "torch 2.5+cu124 needs driver 550");
	*ARENA_PUSH(&A, f->evidence, f->n_evidence, f->cap_evidence) = "driver here: 535.104.05";
	struct explain_machine m = { &inv, &fs, OS_LINUX, "this process", NULL, NULL, CAT, false };
	struct explain_result r;
	explain_rank(&A, &m, hit_of("RuntimeError: CUDA error: CUDA driver version is insufficient for CUDA runtime version"), &r);
	/* the text puts driver-too-old first; the machine shows the framework's finding (an error) */
	assert_string_equal(r.causes[0].def->finding, "framework-driver-too-old");
	assert_int_equal(r.causes[0].conf, EXPLAIN_CONFIRMED);
	assert_int_equal(r.causes[0].n_evidence, 2);
	assert_string_equal(r.causes[0].evidence[1], "driver here: 535.104.05");
	assert_int_equal(r.causes[1].conf, EXPLAIN_POSSIBLE);
}

/* The case: error 35 where check finds no driver at all. */
static void test_error_finding_is_first(void **state)
{
	(void)state;
	struct inventory inv;
	memset(&inv, 0, sizeof inv);
	inv.system.live = true;
	struct findings fs = { 0 };
	fs.arena = &A;
	add_finding(&fs, "no-driver", "no NVIDIA driver is installed or loaded");
	struct explain_machine m = { &inv, &fs, OS_LINUX, "this process", NULL, NULL, CAT, false };
	struct explain_result r;
	explain_rank(&A, &m, hit_of("cudaGetDeviceCount returned 35"), &r);
	assert_string_equal(r.causes[0].def->finding, "no-driver");
	assert_int_equal(r.causes[0].conf, EXPLAIN_CONFIRMED);
	assert_string_equal(r.causes[1].def->finding, "driver-too-old");
	/* an informational finding (an image without a driver) adds evidence, moves nothing */
	fs.v[0].severity = SEV_INFO;
	explain_rank(&A, &m, hit_of("cudaGetDeviceCount returned 35"), &r);
	assert_string_equal(r.causes[0].def->finding, "driver-too-old");
	assert_int_equal(r.causes[1].conf, EXPLAIN_POSSIBLE);
	assert_true(r.causes[1].n_evidence >= 1);
}

/* An empty tree shows nothing: it neither confirms nor contradicts (WSL is not ruled out). */
static void test_empty_target_judges_nothing(void **state)
{
	(void)state;
	struct inventory inv;
	memset(&inv, 0, sizeof inv);
	struct findings fs = { 0 };
	struct explain_machine m = { &inv, &fs, OS_LINUX, "file env", NULL, NULL, CAT, false };
	struct explain_result r;
	explain_rank(&A, &m, hit_of("ldconfig: /usr/lib/wsl/lib/libcuda.so.1 is not a symbolic link"), &r);
	assert_string_equal(r.causes[0].def->finding, "wsl-libcuda");
	assert_int_equal(r.causes[0].conf, EXPLAIN_LIKELY);
	assert_null(r.elsewhere);
	inv.system.live = true; /* a real Linux system that is not WSL contradicts it */
	explain_rank(&A, &m, hit_of("ldconfig: /usr/lib/wsl/lib/libcuda.so.1 is not a symbolic link"), &r);
	assert_int_equal(r.causes[r.n_causes - 1].conf, EXPLAIN_RULED_OUT);
}

static void test_library_finding_must_name_the_library(void **state)
{
	(void)state;
	struct inventory inv;
	memset(&inv, 0, sizeof inv);
	struct findings fs = { 0 };
	add_finding(&fs, "lib-not-found", "libnvrtc.so.12 is not found by the loader");
	struct explain_machine m = { &inv, &fs, OS_LINUX, "this process", NULL, NULL, CAT, false };
	struct explain_result r;
	const char *msg = "ImportError: libcudnn.so.8: cannot open shared object file: No such file or directory";
	explain_rank(&A, &m, hit_of(msg), &r);
	assert_string_equal(r.causes[0].def->finding, "lib-not-found");
	assert_int_equal(r.causes[0].conf, EXPLAIN_LIKELY); /* not confirmed by the nvrtc finding */
	add_finding(&fs, "lib-not-found", "libcudnn.so.8 is not found by the loader");
	explain_rank(&A, &m, hit_of(msg), &r);
	assert_int_equal(r.causes[0].conf, EXPLAIN_CONFIRMED);
	assert_non_null(strstr(r.causes[0].evidence[0], "libcudnn.so.8"));
}

static void test_driver_present_rules_out(void **state)
{
	(void)state;
	struct inventory inv;
	memset(&inv, 0, sizeof inv);
	inv.driver.kernel_version = "550.54.15";
	struct findings fs = { 0 };
	struct explain_machine m = { &inv, &fs, OS_LINUX, "pid 42", NULL, NULL, CAT, false };
	struct explain_result r;
	explain_rank(&A, &m, hit_of("NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver."), &r);
	/* no-driver is contradicted and goes last; container-no-gpu is left */
	assert_string_equal(r.causes[0].def->finding, "container-no-gpu");
	assert_int_equal(r.causes[0].conf, EXPLAIN_LIKELY);
	assert_string_equal(r.causes[1].def->finding, "no-driver");
	assert_int_equal(r.causes[1].conf, EXPLAIN_RULED_OUT);
	assert_non_null(strstr(r.causes[1].ruled_out_because, "550.54.15"));

	/* everything contradicted: the message came from elsewhere */
	explain_rank(&A, &m, hit_of("nvrm: the nvidia probe routine was not called for 1 device(s)"), &r);
	assert_int_equal(r.n_causes, 1);
	assert_int_equal(r.causes[0].conf, EXPLAIN_RULED_OUT);
	assert_non_null(r.elsewhere);
	assert_non_null(strstr(r.elsewhere, "pid 42"));
}

/* A message that CUDA could not reach the GPU takes any error of the driver's family on the target
 * as a confirmed cause, though its text does not name it; not when its own code names its cause
 * (that one stays first), and not for a message of another kind. */
static void test_driver_errors_join_driver_messages(void **state)
{
	(void)state;
	struct inventory inv;
	memset(&inv, 0, sizeof inv);
	inv.system.live = true;
	struct findings fs = { 0 };
	fs.arena = &A;
	add_finding(&fs, "driver-userspace-mismatch", "driver/library version mismatch: kernel module 375.66, libcuda 384.90");
	struct explain_machine m = { &inv, &fs, OS_LINUX, "this process", NULL, NULL, CAT, false };
	struct explain_result r;
	explain_rank(&A, &m, hit_of("CUDA failure in cudaGetDeviceCount: no CUDA-capable device is detected"), &r);
	assert_string_equal(r.causes[0].def->finding, "driver-userspace-mismatch");
	assert_int_equal(r.causes[0].conf, EXPLAIN_CONFIRMED);
	assert_ptr_equal(r.causes[0].finding, &fs.v[0]);
	/* out of memory is no driver problem: the mismatch stays out */
	explain_rank(&A, &m, hit_of("RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB"), &r);
	for (size_t i = 0; i < r.n_causes; i++)
		assert_string_not_equal(r.causes[i].def->finding, "driver-userspace-mismatch");
	/* NVML's code names the mismatch: with a no-driver error on the target it stays first */
	fs.v[0].id = "no-driver";
	fs.v[0].summary = "no NVIDIA driver is installed or loaded";
	explain_rank(&A, &m, hit_of("Failed to initialize NVML: Driver/library version mismatch"), &r);
	assert_string_equal(r.causes[0].def->finding, "driver-userspace-mismatch");
	bool joined = false;
	for (size_t i = 1; i < r.n_causes; i++)
		joined |= strcmp(r.causes[i].def->finding, "no-driver") == 0 && r.causes[i].conf == EXPLAIN_CONFIRMED;
	assert_true(joined);
}

/* In a container that the machine shows started without the GPUs, that is why no driver reaches
 * it: both confirmed, the container's cause goes first whatever the text's order. */
static void test_container_before_no_driver(void **state)
{
	(void)state;
	struct inventory inv;
	memset(&inv, 0, sizeof inv);
	inv.system.live = true;
	struct findings fs = { 0 };
	fs.arena = &A;
	add_finding(&fs, "no-driver", "the NVIDIA kernel module is loaded but libcuda.so.1 is missing");
	struct finding *c = add_finding(&fs, "container-no-gpu", "this container has no GPU device nodes");
	c->subject = "/dev/nvidia0"; /* machine-backed, as rules_message.c makes it */
	struct explain_machine m = { &inv, &fs, OS_LINUX, "this process", NULL, NULL, CAT, false };
	struct explain_result r;
	const char *msg = "WARNING: The NVIDIA Driver was not detected.  GPU functionality will not be available.";
	explain_rank(&A, &m, hit_of(msg), &r);
	assert_string_equal(r.causes[0].def->finding, "no-driver"); /* not a container: the text's order */
	inv.system.container = true;
	explain_rank(&A, &m, hit_of(msg), &r);
	assert_string_equal(r.causes[0].def->finding, "container-no-gpu");
	assert_int_equal(r.causes[0].conf, EXPLAIN_CONFIRMED);
	assert_string_equal(r.causes[1].def->finding, "no-driver");
}

/* The driver's libcuda on the default search path contradicts a stub the text only suspects, not
 * one the message's own code (34, which only the stub returns) reports: that process reached a
 * stub some other way (its RUNPATH, the unversioned name). */
static void test_stub_code_is_not_ruled_out(void **state)
{
	(void)state;
	struct inventory inv;
	memset(&inv, 0, sizeof inv);
	inv.driver.libcuda_path = "/run/opengl-driver/lib/libcuda.so.1";
	inv.driver.kernel_version = "535.309.01";
	struct findings fs = { 0 };
	struct explain_machine m = { &inv, &fs, OS_LINUX, "file env", NULL, NULL, CAT, false };
	struct explain_result r;
	explain_rank(&A, &m, hit_of("cuInit failed: CUDA_ERROR_STUB_LIBRARY"), &r);
	assert_string_equal(r.causes[0].def->finding, "stub-libcuda");
	assert_int_not_equal(r.causes[0].conf, EXPLAIN_RULED_OUT);
	/* numba's "unknown" cuInit error lists the stub as a possible cause: here it is ruled out */
	explain_rank(&A, &m, hit_of("Error: Call to cuInit results in UNKNOWN_CUDA_ERROR (999)"), &r);
	bool ruled = false;
	for (size_t i = 0; i < r.n_causes; i++)
		if (strcmp(r.causes[i].def->finding, "stub-libcuda") == 0)
			ruled = r.causes[i].conf == EXPLAIN_RULED_OUT;
	assert_true(ruled);
}

static void test_library_present_elsewhere(void **state)
{
	(void)state;
	struct inventory inv;
	memset(&inv, 0, sizeof inv);
	struct lib_file libs[2] = {
		{ .path = "/usr/lib/x86_64-linux-gnu/libcudnn.so.8", .name = "libcudnn.so.8",
		  .soname = "libcudnn.so.8", .origin = "ld.so.cache" },
	};
	inv.libs = libs;
	inv.n_libs = 1;
	struct findings fs = { 0 };
	struct explain_machine m = { &inv, &fs, OS_LINUX, "this process", NULL, NULL, CAT, false };
	struct explain_result r;
	explain_rank(&A, &m, hit_of("ImportError: libcudnn.so.8: cannot open shared object file: No such file or directory"), &r);
	/* the machine has it on the path: lib-not-found is ruled out, the message is from elsewhere */
	const struct explain_cause_result *last = &r.causes[r.n_causes - 1];
	assert_string_equal(last->def->finding, "lib-wrong-major");
	assert_int_equal(last->conf, EXPLAIN_RULED_OUT);
	bool saw = false;
	for (size_t i = 0; i < r.n_causes; i++)
		if (strcmp(r.causes[i].def->finding, "lib-not-found") == 0) {
			saw = true;
			assert_int_equal(r.causes[i].conf, EXPLAIN_RULED_OUT);
			assert_non_null(strstr(r.causes[i].ruled_out_because, "ld.so.cache"));
		}
	assert_true(saw);
	assert_non_null(r.elsewhere);
	assert_non_null(strstr(r.elsewhere, "--pid"));

	/* only off the search path (a toolkit dir nobody added): lib-not-found is confirmed */
	libs[0].origin = "toolkit /usr/local/cuda-11.8";
	explain_rank(&A, &m, hit_of("ImportError: libcudnn.so.8: cannot open shared object file: No such file or directory"), &r);
	assert_string_equal(r.causes[0].def->finding, "lib-not-found");
	assert_int_equal(r.causes[0].conf, EXPLAIN_CONFIRMED);
	assert_non_null(strstr(r.causes[0].evidence[0], "/usr/local/cuda-11.8"));
	assert_null(r.elsewhere);
}

static void test_other_major_installed(void **state)
{
	(void)state;
	struct inventory inv;
	memset(&inv, 0, sizeof inv);
	struct lib_file libs[1] = {
		{ .path = "/usr/local/cuda-12.4/lib64/libcublasLt.so.12", .name = "libcublasLt.so.12",
		  .soname = "libcublasLt.so.12", .origin = "LD_LIBRARY_PATH" },
	};
	inv.libs = libs;
	inv.n_libs = 1;
	struct findings fs = { 0 };
	struct explain_machine m = { &inv, &fs, OS_LINUX, "this process", NULL, NULL, CAT, false };
	struct explain_result r;
	explain_rank(&A, &m, hit_of("FAIL : Failed to load library libonnxruntime_providers_cuda.so with error: libcublasLt.so.11: cannot open shared object file: No such file or directory"), &r);
	assert_string_equal(r.causes[0].def->key, "cuda-lib-wrong-major");
	assert_int_equal(r.causes[0].conf, EXPLAIN_CONFIRMED);
	assert_non_null(strstr(r.causes[0].evidence[0], "libcublasLt.so.12"));
	assert_string_equal(explain_kv_get(&r, "libmajor"), "11");
	/* the same major under another minor name is not another major: CUDA 10.1 installs cuBLAS as
	 * libcublas.so.10, and a build asking for libcublas.so.10.1 does not find it */
	struct lib_file ten[1] = {
		{ .path = "/usr/lib/x86_64-linux-gnu/libcublas.so.10", .name = "libcublas.so.10",
		  .soname = "libcublas.so.10", .origin = "ld.so.cache" },
	};
	inv.libs = ten;
	explain_rank(&A, &m, hit_of("Cuda Configuration Error: Cannot find cuda library libcublas.so.10.1"), &r);
	for (size_t i = 0; i < r.n_causes; i++)
		assert_true(strcmp(r.causes[i].def->finding, "lib-wrong-major") != 0 || r.causes[i].conf != EXPLAIN_CONFIRMED);
	/* ...but CUDA 9 and 10 runtimes carry the minor in their SONAME: 10.1 is another version for a
	 * program built for 10.0 (TensorFlow 1.x on a CUDA 10.1 machine) */
	struct lib_file rt[1] = {
		{ .path = "/usr/local/cuda-10.1/lib64/libcudart.so.10.1", .name = "libcudart.so.10.1",
		  .soname = "libcudart.so.10.1", .origin = "LD_LIBRARY_PATH" },
	};
	inv.libs = rt;
	explain_rank(&A, &m, hit_of("ImportError: libcudart.so.10.0: cannot open shared object file: No such file or directory"), &r);
	assert_string_equal(r.causes[0].def->finding, "lib-wrong-major");
	assert_int_equal(r.causes[0].conf, EXPLAIN_CONFIRMED);
}

static void fake_resolve(void *cookie, struct arena *a, const char *name, struct explain_resolution *out)
{
	memset(out, 0, sizeof *out);
	out->available = true;
	out->tried = arena_calloc(a, 1, sizeof *out->tried);
	out->tried[0] = arena_printf(a, "tried /usr/lib/%s (default dir): no such file", name);
	out->n_tried = 1;
	(void)cookie;
}

static void test_loader_trace_is_evidence(void **state)
{
	(void)state;
	struct inventory inv;
	memset(&inv, 0, sizeof inv);
	struct findings fs = { 0 };
	inv.system.live = true;
	struct explain_machine m = { &inv, &fs, OS_LINUX, "this process", fake_resolve, NULL, CAT, false };
	struct explain_result r;
	explain_rank(&A, &m, hit_of("RuntimeError: CuPy failed to load libnvrtc.so.12: OSError: libnvrtc.so.12: cannot open shared object file"), &r);
	assert_string_equal(r.causes[0].def->finding, "lib-not-found");
	assert_int_equal(r.causes[0].conf, EXPLAIN_CONFIRMED);
	assert_string_equal(r.causes[0].evidence[1], "tried /usr/lib/libnvrtc.so.12 (default dir): no such file");
}

/* A tree that shows nothing of the GPU stack, but has its C library (the loader says so): a
 * container image with its environment. What its loader cannot find, a program there cannot load;
 * without the C library the same tree judges nothing. */
static bool fake_system;
static void fake_resolve_system(void *cookie, struct arena *a, const char *name, struct explain_resolution *out)
{
	fake_resolve(cookie, a, name, out);
	out->system = fake_system;
}

static void test_loader_of_an_image_without_gpu_stack(void **state)
{
	(void)state;
	struct inventory inv;
	memset(&inv, 0, sizeof inv);
	struct findings fs = { 0 };
	struct explain_machine m = { &inv, &fs, OS_LINUX, "file env", fake_resolve_system, NULL, CAT, false };
	struct explain_result r;
	const char *msg = "error while loading shared libraries: libcudart.so.12: cannot open shared object file";
	fake_system = true;
	explain_rank(&A, &m, hit_of(msg), &r);
	assert_string_equal(r.causes[0].def->finding, "lib-not-found");
	assert_int_equal(r.causes[0].conf, EXPLAIN_CONFIRMED);
	/* ...but the machine checks that need more than a loader do not run: WSL is not ruled out */
	explain_rank(&A, &m, hit_of("ldconfig: /usr/lib/wsl/lib/libcuda.so.1 is not a symbolic link"), &r);
	for (size_t i = 0; i < r.n_causes; i++)
		assert_int_not_equal(r.causes[i].conf, EXPLAIN_RULED_OUT);
	fake_system = false;
	explain_rank(&A, &m, hit_of(msg), &r);
	assert_int_equal(r.causes[0].conf, EXPLAIN_LIKELY);
}

static void test_windows_message_on_linux(void **state)
{
	(void)state;
	struct inventory inv;
	memset(&inv, 0, sizeof inv);
	struct findings fs = { 0 };
	inv.system.live = true;
	struct explain_machine m = { &inv, &fs, OS_LINUX, "this process", NULL, NULL, CAT, false };
	struct explain_result r;
	explain_rank(&A, &m, hit_of("OSError: [WinError 193] %1 is not a valid Win32 application"), &r);
	assert_non_null(r.elsewhere);
	assert_non_null(strstr(r.elsewhere, "Windows"));
	m.os = OS_WINDOWS;
	explain_rank(&A, &m, hit_of("OSError: [WinError 193] %1 is not a valid Win32 application"), &r);
	assert_null(r.elsewhere);
}

/* Text with no message cudx knows: the target's errors, then warnings, become the causes; one
 * about a library the text names goes first; informational findings and an empty target give none. */
static void test_unrecognised_takes_the_targets_findings(void **state)
{
	(void)state;
	struct inventory inv;
	memset(&inv, 0, sizeof inv);
	struct findings fs = { 0 };
	fs.arena = &A;
	add_finding(&fs, "no-driver", "no NVIDIA driver in this tree")->severity = SEV_INFO;
	add_finding(&fs, "driver-minor-compat", "CUDA 11.8 runs on driver 470 only through minor-version compatibility")
		->severity = SEV_WARNING;
	add_finding(&fs, "dll-not-found", "nvcuda.dll is not found in any directory Windows searches");
	struct finding *z = add_finding(&fs, "cudnn-zlibwapi-missing", "cudnn_cnn_infer64_8.dll needs zlibwapi.dll");
	z->subject = "zlibwapi.dll";
	add_finding(&fs, "dll-not-found", "cublas64_11.dll is not found in any directory Windows searches");
	struct explain_machine m = { &inv, &fs, OS_LINUX, "file env", NULL, NULL, CAT, false };
	struct explain_result r;
	const char *text = "the app stopped working after the update";
	/* an empty target shows nothing to go on */
	explain_rank_unrecognised(&A, &m, CAT, text, &r);
	assert_int_equal(r.n_causes, 0);
	inv.n_libs = 1; /* it shows something now */
	explain_rank_unrecognised(&A, &m, CAT, text, &r);
	assert_int_equal(r.n_causes, 3); /* one per id, errors first, the informational one left out */
	assert_string_equal(r.causes[0].def->finding, "dll-not-found");
	assert_int_equal(r.causes[0].conf, EXPLAIN_LIKELY);
	assert_ptr_equal(r.causes[0].finding, &fs.v[2]);
	assert_string_equal(r.causes[1].def->finding, "cudnn-zlibwapi-missing");
	assert_string_equal(r.causes[2].def->finding, "driver-minor-compat");
	assert_int_equal(r.causes[2].conf, EXPLAIN_POSSIBLE);
	assert_null(r.msg);
	/* the text names zlibwapi.dll: its finding leads */
	explain_rank_unrecognised(&A, &m, CAT, "Windows: zlibwapi.dll 异常", &r);
	assert_string_equal(r.causes[0].def->finding, "cudnn-zlibwapi-missing");
	assert_non_null(strstr(r.causes[0].because, "names the library"));
	/* a framework the text names: the warning about it leads the errors */
	add_finding(&fs, "tf-windows-native-gpu", "TensorFlow 2.16 on native Windows has no GPU support")->severity =
		SEV_WARNING;
	explain_rank_unrecognised(&A, &m, CAT, "tensorflow 2.16 can't use the GPU: GPU Available: []", &r);
	assert_string_equal(r.causes[0].def->finding, "tf-windows-native-gpu");
	/* two names: the finding about the one the text gives first leads, whatever the findings' order */
	add_finding(&fs, "dll-wrong-major", "cusparse64_12.dll: only cusparse64_11.dll is installed");
	explain_rank_unrecognised(&A, &m, CAT, "it wants cusparse64_12.dll, and zlibwapi.dll too", &r);
	assert_string_equal(r.causes[0].def->finding, "dll-wrong-major");
	assert_string_equal(r.causes[1].def->finding, "cudnn-zlibwapi-missing");
	/* a library named in the evidence counts too: the second dll-not-found is about cublas */
	explain_rank_unrecognised(&A, &m, CAT, "找不到 cublas64_11.dll", &r);
	assert_string_equal(r.causes[0].def->finding, "dll-not-found");
	assert_ptr_equal(r.causes[0].finding, &fs.v[4]);
}

/* rule_out may name several checks, comma-separated; an empty name (a trailing comma) is none */
static void test_rule_out_lists(void **state)
{
	(void)state;
	assert_true(explain_rule_out_known(""));
	assert_true(explain_rule_out_known("driver-covers-runtimes"));
	assert_true(explain_rule_out_known("driver-covers-runtimes,some-driver"));
	assert_false(explain_rule_out_known("driver-covers-runtimes,"));
	assert_false(explain_rule_out_known("driver-covers-runtimes,,some-driver"));
	assert_false(explain_rule_out_known("some-driver, driver-covers-runtimes"));
	assert_false(explain_rule_out_known("nope"));
}

/* Windows without nvcuda.dll (an Intel or AMD card only): the runtime says 35 when it finds no
 * driver at all, so no-driver is confirmed and a driver too old ruled out; a copy installed
 * somewhere Windows does not look is a driver, not none. The findings stand for what check's
 * Windows rules report (tests/scenarios/explain.bats builds the tree for real). */
static void test_windows_without_nvcuda(void **state)
{
	(void)state;
	struct inventory inv;
	memset(&inv, 0, sizeof inv);
	inv.system.live = true;
	struct findings fs = { 0 };
	struct finding *f = add_finding(&fs, "dll-not-found", "nvcuda.dll is not found in any directory Windows searches");
	f->subject = "nvcuda.dll";
	struct explain_machine m = { &inv, &fs, OS_WINDOWS, "file env", NULL, NULL, CAT, false };
	struct explain_result r;
	const char *msg = "Error CUDA driver version is insufficient for CUDA runtime version at line 167 in file ops.cu";
	explain_rank(&A, &m, hit_of(msg), &r);
	assert_string_equal(r.causes[0].def->finding, "no-driver");
	assert_int_equal(r.causes[0].conf, EXPLAIN_CONFIRMED);
	bool ruled = false;
	for (size_t i = 0; i < r.n_causes; i++)
		if (strcmp(r.causes[i].def->finding, "driver-too-old") == 0)
			ruled = r.causes[i].conf == EXPLAIN_RULED_OUT && strstr(r.causes[i].ruled_out_because, "nvcuda.dll");
	assert_true(ruled);
	f->summary = "nvcuda.dll is installed at C:\\Drivers\\nvcuda.dll, but not where Windows looks";
	explain_rank(&A, &m, hit_of(msg), &r);
	for (size_t i = 0; i < r.n_causes; i++) {
		assert_true(strcmp(r.causes[i].def->finding, "driver-too-old") != 0 || r.causes[i].conf != EXPLAIN_RULED_OUT);
		assert_true(strcmp(r.causes[i].def->finding, "no-driver") != 0 || r.causes[i].conf != EXPLAIN_CONFIRMED);
	}
	/* the same finding on Linux (a Windows tree's finding never is) confirms nothing of the driver */
	m.os = OS_LINUX;
	f->summary = "nvcuda.dll is not found in any directory Windows searches";
	explain_rank(&A, &m, hit_of(msg), &r);
	assert_true(strcmp(r.causes[0].def->finding, "no-driver") != 0 || r.causes[0].conf != EXPLAIN_CONFIRMED);
}

/* The driver's libcuda reached only through LD_LIBRARY_PATH (Colab's /usr/lib64-nvidia): a process
 * without the variable cannot load it. Not where a search without it finds a copy too, not for a
 * library that is not the driver's, not for Apptainer's /.singularity.d/libs. The resolutions here
 * stand for the loader simulator's (the bats test runs it on a tree). */
static const char *fake_path;
static bool fake_env_only;
static void fake_resolve_env(void *cookie, struct arena *a, const char *name, struct explain_resolution *out)
{
	memset(out, 0, sizeof *out);
	out->available = out->system = true;
	out->path = arena_printf(a, "%s/%s", fake_path, name);
	out->how = "ld_library_path";
	out->env_only = fake_env_only;
	(void)cookie;
}

static bool confirmed(const struct explain_result *r, const char *finding)
{
	for (size_t i = 0; i < r->n_causes; i++)
		if (strcmp(r->causes[i].def->finding, finding) == 0)
			return r->causes[i].conf == EXPLAIN_CONFIRMED;
	return false;
}

static void test_driver_off_path_through_the_environment(void **state)
{
	(void)state;
	struct inventory inv;
	memset(&inv, 0, sizeof inv);
	inv.system.live = true;
	struct findings fs = { 0 };
	struct explain_machine m = { &inv, &fs, OS_LINUX, "file env", fake_resolve_env, NULL, CAT, false };
	struct explain_result r;
	fake_path = "/usr/lib64-nvidia";
	fake_env_only = true;
	explain_rank(&A, &m, hit_of("[h264_nvenc @ 0x55d0] Cannot load libcuda.so.1"), &r);
	assert_string_equal(r.causes[0].def->finding, "driver-lib-off-path");
	assert_int_equal(r.causes[0].conf, EXPLAIN_CONFIRMED);
	fake_env_only = false; /* the directory is in ld.so.cache as well */
	explain_rank(&A, &m, hit_of("[h264_nvenc @ 0x55d0] Cannot load libcuda.so.1"), &r);
	assert_false(confirmed(&r, "driver-lib-off-path"));
	fake_env_only = true;
	fake_path = "/.singularity.d/libs";
	explain_rank(&A, &m, hit_of("[h264_nvenc @ 0x55d0] Cannot load libcuda.so.1"), &r);
	assert_false(confirmed(&r, "driver-lib-off-path"));
	fake_path = "/opt/x";
	explain_rank(&A, &m, hit_of("INFO No platform detected, vLLM is running on UnspecifiedPlatform: libcudart.so.12"), &r);
	assert_false(confirmed(&r, "driver-lib-off-path"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_all_rule_outs_exist),
		cmocka_unit_test(test_every_cause_has_a_rule),
		cmocka_unit_test(test_no_machine),
		cmocka_unit_test(test_finding_confirms_and_reorders),
		cmocka_unit_test(test_error_finding_is_first),
		cmocka_unit_test(test_empty_target_judges_nothing),
		cmocka_unit_test(test_library_finding_must_name_the_library),
		cmocka_unit_test(test_driver_present_rules_out),
		cmocka_unit_test(test_stub_code_is_not_ruled_out),
		cmocka_unit_test(test_driver_errors_join_driver_messages),
		cmocka_unit_test(test_container_before_no_driver),
		cmocka_unit_test(test_library_present_elsewhere),
		cmocka_unit_test(test_other_major_installed),
		cmocka_unit_test(test_loader_trace_is_evidence),
		cmocka_unit_test(test_loader_of_an_image_without_gpu_stack),
		cmocka_unit_test(test_windows_message_on_linux),
		cmocka_unit_test(test_unrecognised_takes_the_targets_findings),
		cmocka_unit_test(test_rule_out_lists),
		cmocka_unit_test(test_windows_without_nvcuda),
		cmocka_unit_test(test_driver_off_path_through_the_environment),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
