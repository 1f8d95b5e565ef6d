/* The probe family's rules over synthetic probe reports: the context that tells one cause from
 * another for the same code, the cause a NOT_INITIALIZED handle inherits, crashes, and merging
 * into a finding another family already made. Codes are named by the real knowledge base. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "diag/rule.h"
#include "kb/kb.h"
#include "probe/probe.h"

struct fixture {
	struct arena a;
	struct options opt;
	struct cudx_ctx ctx;
	struct inventory inv;
	struct probe_report rep;
	struct findings fs;
	struct device_node nodes[3];
};

static struct fixture *fixture_new(void)
{
	static struct fixture f;
	memset(&f, 0, sizeof f);
	arena_init(&f.a);
	options_defaults(&f.opt);
	f.ctx.arena = &f.a;
	f.ctx.opt = &f.opt;
	f.ctx.os = OS_LINUX;
	const char env[] = "PATH=/usr/bin\n";
	envsnap_parse(&f.ctx.env, &f.a, span_make(env, sizeof env - 1), "test");
	f.inv.probe = &f.rep;
	f.rep.ran = true;
	f.nodes[0] = (struct device_node){ .path = "/dev/nvidiactl", .exists = true };
	f.nodes[1] = (struct device_node){ .path = "/dev/nvidia-uvm", .exists = false };
	f.nodes[2] = (struct device_node){ .path = "/dev/nvidia0", .exists = false };
	f.inv.driver.nodes = f.nodes;
	f.inv.driver.n_nodes = 3;
	findings_init(&f.fs, &f.a);
	return &f;
}

static void step(struct fixture *f, const char *stage, const char *target, const char *name, const char *api,
		 long code)
{
	struct probe_step *s = ARENA_PUSH(&f->a, f->rep.steps, f->rep.n_steps, f->rep.cap_steps);
	s->stage = stage;
	s->target = target;
	s->name = name;
	s->api = api;
	s->has_code = true;
	s->code = code;
	s->outcome = code ? PROBE_FAILED : PROBE_OK;
	s->library = arena_printf(&f->a, "/lib/%s", target);
}

/* A step without a code: "load NAME" with the file it reached, or its dlerror when missing. */
static void load(struct fixture *f, const char *stage, const char *target, const char *name, enum probe_outcome o,
		 const char *value)
{
	struct probe_step *s = ARENA_PUSH(&f->a, f->rep.steps, f->rep.n_steps, f->rep.cap_steps);
	*s = (struct probe_step){ .stage = stage, .target = target, .name = name, .outcome = o, .value = value };
}

static void fact(struct fixture *f, const char *stage, const char *target, const char *key, const char *value)
{
	struct probe_fact *x = ARENA_PUSH(&f->a, f->rep.facts, f->rep.n_facts, f->rep.cap_facts);
	*x = (struct probe_fact){ stage, target, key, value };
}

static void diagnose(struct fixture *f)
{
	struct diag_ctx d = { .ctx = &f->ctx, .inv = &f->inv, .out = &f->fs };
	diag_run_family(&d, &rules_probe, 1u);
}

static size_t count(const struct fixture *f, const char *id)
{
	size_t n = 0;
	for (size_t i = 0; i < f->fs.n; i++)
		n += strcmp(f->fs.v[i].id, id) == 0;
	return n;
}

static bool evidence_has(const struct fixture *f, const char *id, const char *needle)
{
	const struct finding *x = findings_find(&f->fs, id);
	for (size_t i = 0; x && i < x->n_evidence; i++)
		if (strstr(x->evidence[i], needle))
			return true;
	return false;
}

static void insufficient_driver_vs_no_driver(void **state)
{
	(void)state;
	struct fixture *f = fixture_new();
	fact(f, "runtime", "libcudart.so.13", "driver_cuda_version", "12020");
	fact(f, "runtime", "libcudart.so.13", "runtime_version", "13000");
	step(f, "runtime", "libcudart.so.13", "cudaGetDeviceCount", "cudart", 35);
	diagnose(f);
	assert_int_equal(count(f, "driver-too-old"), 1);
	assert_int_equal(count(f, "no-driver"), 0);
	assert_true(evidence_has(f, "driver-too-old", "cudaRuntimeGetVersion = 13000 (CUDA 13.0)"));
	arena_free(&f->a);

	/* the same code with cudaDriverGetVersion = 0: no libcuda at all */
	f = fixture_new();
	fact(f, "runtime", "libcudart.so.13", "driver_cuda_version", "0");
	step(f, "runtime", "libcudart.so.13", "cudaGetDeviceCount", "cudart", 35);
	diagnose(f);
	assert_int_equal(count(f, "no-driver"), 1);
	assert_int_equal(count(f, "driver-too-old"), 0);
	arena_free(&f->a);
}

static void unknown_error_needs_missing_uvm(void **state)
{
	(void)state;
	struct fixture *f = fixture_new();
	step(f, "driver", "libcuda.so.1", "cuInit", "cu", 999);
	diagnose(f);
	assert_int_equal(count(f, "nvidia-uvm-missing"), 1);
	arena_free(&f->a);

	f = fixture_new();
	f->nodes[1].exists = true; /* /dev/nvidia-uvm is there: 999 has no known cause */
	step(f, "driver", "libcuda.so.1", "cuInit", "cu", 999);
	diagnose(f);
	assert_int_equal(count(f, "nvidia-uvm-missing"), 0);
	assert_int_equal(count(f, "probe-step-failed"), 1);
	arena_free(&f->a);
}

/* The live host without nvidia-uvm: a test double of what the collectors read on a machine whose
 * nvidia module is loaded (no such machine here). libcuda loads nvidia-uvm through the setuid
 * nvidia-modprobe: without that program, a user other than root cannot. */
static void host_without_uvm_and_its_loader(void **state)
{
	(void)state;
	struct fixture *f = fixture_new();
	f->rep.ran = false;
	f->inv.system.live = true;
	f->inv.driver.module_version = "535.183.01";
	f->nodes[2].exists = true;
	diagnose(f);
	assert_int_equal(count(f, "nvidia-uvm-missing"), 1);
	assert_true(evidence_has(f, "nvidia-uvm-missing", "nvidia-modprobe: not installed"));
	arena_free(&f->a);

	const char *cases[] = { "setuid", "root", "node", "container" };
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		f = fixture_new();
		f->rep.ran = false;
		f->inv.system.live = true;
		f->inv.driver.module_version = "535.183.01";
		f->nodes[2].exists = true;
		if (i == 0) {
			f->inv.driver.nvidia_modprobe = "/usr/bin/nvidia-modprobe";
			f->inv.driver.nvidia_modprobe_setuid = true;
		} else if (i == 1)
			f->inv.system.user_root = true;
		else if (i == 2)
			f->nodes[1].exists = true;
		else
			f->inv.system.container = true; /* its GPU nodes are here, uvm's not: the container's finding */
		diagnose(f);
		assert_int_equal(count(f, "nvidia-uvm-missing"), i == 3 ? 1 : 0);
		if (i == 3)
			assert_true(evidence_has(f, "nvidia-uvm-missing", "/dev/nvidia-uvm: missing"));
		arena_free(&f->a);
	}
	/* the module loaded is not the node made: modprobe makes none */
	f = fixture_new();
	f->rep.ran = false;
	f->inv.system.live = true;
	f->inv.driver.module_version = "535.183.01";
	f->inv.driver.uvm_loaded = true;
	diagnose(f);
	assert_int_equal(count(f, "nvidia-uvm-missing"), 1);
	assert_true(evidence_has(f, "nvidia-uvm-missing", "/sys/module/nvidia_uvm: present"));
	arena_free(&f->a);
	/* the probe's 999 where nvidia-modprobe would make the node for a program outside its sandbox:
	 * told, not an error */
	f = fixture_new();
	f->inv.system.live = true;
	f->inv.driver.module_version = "535.183.01";
	f->inv.driver.nvidia_modprobe = "/usr/bin/nvidia-modprobe";
	f->inv.driver.nvidia_modprobe_setuid = true;
	f->rep.sandbox.reported = f->rep.sandbox.no_new_privs = true;
	step(f, "driver", "libcuda.so.1", "cuInit", "cu", 999);
	diagnose(f);
	assert_int_equal(count(f, "nvidia-uvm-missing"), 1);
	assert_int_equal(findings_find(&f->fs, "nvidia-uvm-missing")->severity, SEV_INFO);
	assert_true(evidence_has(f, "nvidia-uvm-missing", "no_new_privs"));
	/* ... but not where enroot is installed: its containers cannot make it either way */
	findings_init(&f->fs, &f->a);
	f->inv.container_host.unprivileged = "/usr/bin/enroot";
	diagnose(f);
	assert_int_equal(findings_find(&f->fs, "nvidia-uvm-missing")->severity, SEV_ERROR);
	assert_true(evidence_has(f, "nvidia-uvm-missing", "/usr/bin/enroot: starts containers without privileges"));
	/* ... nor where the probe did not say it ran confined */
	findings_init(&f->fs, &f->a);
	f->inv.container_host.unprivileged = NULL;
	f->rep.sandbox.reported = false;
	diagnose(f);
	assert_int_equal(findings_find(&f->fs, "nvidia-uvm-missing")->severity, SEV_ERROR);
	arena_free(&f->a);
	f = fixture_new();
	step(f, "driver", "libcuda.so.1", "cuInit", "cu", 999);
	diagnose(f);
	assert_int_equal(findings_find(&f->fs, "nvidia-uvm-missing")->severity, SEV_ERROR);
	arena_free(&f->a);
	/* a tree keeps no set-user-ID bit to judge: only a runtime without privileges speaks there */
	f = fixture_new();
	f->rep.ran = false;
	f->inv.driver.module_version = "535.183.01";
	diagnose(f);
	assert_int_equal(count(f, "nvidia-uvm-missing"), 0);
	f->inv.container_host.unprivileged = "/usr/bin/enroot";
	diagnose(f);
	assert_int_equal(count(f, "nvidia-uvm-missing"), 1);
	arena_free(&f->a);
}

static void not_initialized_takes_the_runtime_cause(void **state)
{
	(void)state;
	struct fixture *f = fixture_new();
	step(f, "cublas", "libcublas.so.13", "cublasCreate", "cublas", 1);
	step(f, "cublas", "libcublas.so.13", "cudaGetDeviceCount", "cudart", 34);
	diagnose(f);
	assert_int_equal(count(f, "stub-libcuda"), 1);
	assert_int_equal(count(f, "probe-step-failed"), 0);
	assert_true(evidence_has(f, "stub-libcuda", "cublasCreate returned 1"));
	arena_free(&f->a);

	/* with nothing after it to explain it, it is shown as an unexplained failure */
	f = fixture_new();
	step(f, "cublas", "libcublas.so.13", "cublasCreate", "cublas", 1);
	diagnose(f);
	assert_int_equal(count(f, "probe-step-failed"), 1);
	arena_free(&f->a);
}

static void crash_and_timeout(void **state)
{
	(void)state;
	struct fixture *f = fixture_new();
	struct probe_run *r = ARENA_PUSH(&f->a, f->rep.runs, f->rep.n_runs, f->rep.cap_runs);
	*r = (struct probe_run){ .stage = "driver", .target = "libcuda.so.1", .end = PROBE_RUN_CRASHED,
				 .signal = 11, .last_step = "cuInit" };
	r = ARENA_PUSH(&f->a, f->rep.runs, f->rep.n_runs, f->rep.cap_runs);
	*r = (struct probe_run){ .stage = "nvml", .target = "libnvidia-ml.so.1", .end = PROBE_RUN_TIMEOUT,
				 .last_step = "nvmlInit" };
	diagnose(f);
	assert_int_equal(count(f, "probe-crashed"), 1);
	assert_int_equal(count(f, "probe-timeout"), 1);
	assert_non_null(strstr(findings_find(&f->fs, "probe-crashed")->summary, "crashed with signal 11 (SIGSEGV) in cuInit"));
	assert_non_null(strstr(findings_find(&f->fs, "probe-timeout")->summary, "stuck in nvmlInit"));
	arena_free(&f->a);
}

static void joins_another_familys_finding(void **state)
{
	(void)state;
	struct fixture *f = fixture_new();
	struct diag_ctx d = { .ctx = &f->ctx, .inv = &f->inv, .out = &f->fs };
	rule_emit(&d, diag_rule("driver-too-old"), "seen in the files");
	fact(f, "runtime", "libcudart.so.13", "driver_cuda_version", "12020");
	step(f, "runtime", "libcudart.so.13", "cudaGetDeviceCount", "cudart", 35);
	diagnose(f);
	assert_int_equal(count(f, "driver-too-old"), 1);
	assert_string_equal(findings_find(&f->fs, "driver-too-old")->summary, "seen in the files");
	assert_true(evidence_has(f, "driver-too-old", "probe: "));
	arena_free(&f->a);
}

static void cudnn_for_another_cuda_major(void **state)
{
	(void)state;
	struct fixture *f = fixture_new();
	fact(f, "runtime", "libcudart.so.13", "runtime_version", "13000");
	fact(f, "cudnn", "libcudnn.so.9", "cudart_version", "12080");
	diagnose(f);
	assert_int_equal(count(f, "cudnn-cuda-mismatch"), 1);
	arena_free(&f->a);

	f = fixture_new();
	fact(f, "runtime", "libcudart.so.13", "runtime_version", "13000");
	fact(f, "cudnn", "libcudnn.so.9", "cudart_version", "13010");
	diagnose(f);
	assert_int_equal(count(f, "cudnn-cuda-mismatch"), 0);
	arena_free(&f->a);
}

static void initialization_error_by_evidence(void **state)
{
	(void)state;
	/* no /dev/nvidiaN: the GPU is not there for CUDA */
	struct fixture *f = fixture_new();
	step(f, "runtime", "libcudart.so.13", "cudaGetDeviceCount", "cudart", 3);
	step(f, "driver", "libcuda.so.1", "cuInit", "cu", 3);
	diagnose(f);
	assert_int_equal(count(f, "no-device"), 1);
	assert_true(evidence_has(f, "no-device", "no /dev/nvidia0"));
	assert_true(evidence_has(f, "no-device", "cuInit returned 3"));
	arena_free(&f->a);

	/* NVML shows a GPU with its memory used up: that, wherever the nodes are */
	f = fixture_new();
	f->nodes[2].exists = true;
	fact(f, "nvml", "libnvidia-ml.so.1", "device.0.memory", "85899345920");
	fact(f, "nvml", "libnvidia-ml.so.1", "device.0.memory_free", "104857600");
	step(f, "runtime", "libcudart.so.13", "cudaGetDeviceCount", "cudart", 3);
	diagnose(f);
	assert_int_equal(count(f, "gpu-out-of-memory"), 1);
	assert_int_equal(count(f, "no-device"), 0);
	assert_true(evidence_has(f, "gpu-out-of-memory", "GPU 0 has 100 MiB free of 81920 MiB"));
	arena_free(&f->a);

	/* the nodes are there and memory is free: no known cause */
	f = fixture_new();
	f->nodes[2].exists = true;
	fact(f, "nvml", "libnvidia-ml.so.1", "device.0.memory_free", "85899345920");
	step(f, "runtime", "libcudart.so.13", "cudaGetDeviceCount", "cudart", 3);
	diagnose(f);
	assert_int_equal(count(f, "no-device"), 0);
	assert_int_equal(count(f, "gpu-out-of-memory"), 0);
	assert_int_equal(count(f, "probe-step-failed"), 1);
	arena_free(&f->a);
}

static void busy_gpu(void **state)
{
	(void)state;
	struct fixture *f = fixture_new();
	step(f, "driver", "libcuda.so.1", "cuInit", "cu", 46);
	step(f, "runtime", "libcudart.so.13", "cudaGetDeviceCount", "cudart", 46);
	diagnose(f);
	assert_int_equal(count(f, "gpu-busy"), 1);
	assert_int_equal(count(f, "probe-step-failed"), 0);
	assert_true(evidence_has(f, "gpu-busy", "cudaGetDeviceCount returned 46"));
	arena_free(&f->a);
}

static void jit_compiler_missing_or_mismatched(void **state)
{
	(void)state;
	struct fixture *f = fixture_new();
	load(f, "ptx", "libcuda.so.1", "load libcuda.so.1", PROBE_OK, "/usr/lib/libcuda.so.550.54.15");
	step(f, "ptx", "libcuda.so.1", "cuModuleLoadDataEx (PTX JIT)", "cu", 221);
	load(f, "ptx", "libcuda.so.1", "load libnvidia-ptxjitcompiler.so.1", PROBE_MISSING,
	     "libnvidia-ptxjitcompiler.so.1: cannot open shared object file: No such file or directory");
	diagnose(f);
	assert_int_equal(count(f, "ptxjit-missing"), 1);
	assert_int_equal(count(f, "probe-load-failed"), 0);
	const struct finding *x = findings_find(&f->fs, "ptxjit-missing");
	assert_non_null(strstr(x->cause, "not installed"));
	assert_true(evidence_has(f, "ptxjit-missing", "the loader finds no libnvidia-ptxjitcompiler.so.1"));
	assert_true(evidence_has(f, "ptxjit-missing", "libcuda.so.1 is /usr/lib/libcuda.so.550.54.15"));
	assert_non_null(strstr(x->fix[0], "same version as the driver 550.54.15"));
	arena_free(&f->a);

	/* found, but of another driver version than libcuda */
	f = fixture_new();
	load(f, "ptx", "libcuda.so.1", "load libcuda.so.1", PROBE_OK, "/usr/lib/libcuda.so.550.54.15");
	step(f, "ptx", "libcuda.so.1", "cuModuleLoadDataEx (PTX JIT)", "cu", 221);
	load(f, "ptx", "libcuda.so.1", "load libnvidia-ptxjitcompiler.so.1", PROBE_OK,
	     "/usr/lib/libnvidia-ptxjitcompiler.so.535.309.01");
	diagnose(f);
	x = findings_find(&f->fs, "ptxjit-missing");
	assert_non_null(x);
	assert_non_null(strstr(x->cause, "of driver 535.309.01, but libcuda is of driver 550.54.15"));
	assert_true(evidence_has(f, "ptxjit-missing", "the loader finds libnvidia-ptxjitcompiler.so.1: /usr/lib/"));
	arena_free(&f->a);
}

/* The error table says what the rules do: where a rule reports the table's finding only under a
 * condition, the note says so ("only when"), and names the finding it reports instead. */
static void table_says_what_rules_do(void **state)
{
	(void)state;
	static const char *const apis[] = { "cudart", "cu" };
	for (size_t i = 0; i < 2; i++) {
		assert_string_equal(kb_error_lookup(apis[i], 221)->finding, "ptxjit-missing");
		assert_string_equal(kb_error_lookup(apis[i], 46)->finding, "gpu-busy");
		const struct kb_error *e = kb_error_lookup(apis[i], 3);
		assert_string_equal(e->finding, "no-device");
		assert_int_equal(strncmp(e->note, "only when", 9), 0);
		assert_non_null(strstr(e->note, "instead gpu-out-of-memory"));
		e = kb_error_lookup(apis[i], 999);
		assert_string_equal(e->finding, "nvidia-uvm-missing");
		assert_int_equal(strncmp(e->note, "only when /dev/nvidia-uvm is missing", 36), 0);
	}
	assert_non_null(strstr(kb_error_lookup("cudart", 35)->note, "instead no-driver"));
}

static void not_run_means_silent(void **state)
{
	(void)state;
	struct fixture *f = fixture_new();
	f->rep.ran = false;
	f->rep.not_run = "--no-probe";
	diagnose(f);
	assert_int_equal(f->fs.n, 0);
	arena_free(&f->a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(insufficient_driver_vs_no_driver),
		cmocka_unit_test(unknown_error_needs_missing_uvm),
		cmocka_unit_test(host_without_uvm_and_its_loader),
		cmocka_unit_test(not_initialized_takes_the_runtime_cause),
		cmocka_unit_test(crash_and_timeout),
		cmocka_unit_test(joins_another_familys_finding),
		cmocka_unit_test(cudnn_for_another_cuda_major),
		cmocka_unit_test(initialization_error_by_evidence),
		cmocka_unit_test(busy_gpu),
		cmocka_unit_test(jit_compiler_missing_or_mismatched),
		cmocka_unit_test(table_says_what_rules_do),
		cmocka_unit_test(not_run_means_silent),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
