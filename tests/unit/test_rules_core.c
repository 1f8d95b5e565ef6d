/* Core rules on inventories built by hand. Device nodes and their permissions need a loaded NVIDIA
 * driver, which this machine (and CI) does not have: the inventory here is a test double of what
 * the collectors report on a GPU host. Everything else the rules see is real. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "diag/rule.h"

struct fixture {
	struct arena a;
	struct options opt;
	struct cudx_ctx ctx;
	struct inventory inv;
	struct findings fs;
	struct device_node nodes[4];
};

static int setup(void **state)
{
	static struct fixture f;
	memset(&f, 0, sizeof f);
	arena_init(&f.a);
	options_defaults(&f.opt);
	f.opt.color = false;
	if (ctx_init(&f.ctx, &f.a, &f.opt) != 0)
		return -1;
	/* a live GPU host as the collectors would describe it: driver 550 loaded, libcuda matching */
	f.inv.system.live = true;
	f.inv.system.root = "/";
	f.inv.driver.kernel_version = "550.54.15";
	f.inv.driver.libcuda_path = "/usr/lib/x86_64-linux-gnu/libcuda.so.1";
	f.inv.driver.libcuda_version = "550.54.15";
	f.inv.driver.effective_version = "550.54.15";
	static struct lib_file libcuda = { .path = "/usr/lib/x86_64-linux-gnu/libcuda.so.1",
					   .real_path = "/usr/lib/x86_64-linux-gnu/libcuda.so.550.54.15",
					   .name = "libcuda.so.1", .component = "libcuda", .family = "driver",
					   .version = "550.54.15", .origin = "ld.so.cache", .dir = "/usr/lib/x86_64-linux-gnu" };
	f.inv.libs = &libcuda;
	f.inv.n_libs = 1;
	const char *paths[4] = { "/dev/nvidiactl", "/dev/nvidia-uvm", "/dev/nvidia0", "/dev/nvidia1" };
	for (int i = 0; i < 4; i++)
		f.nodes[i] = (struct device_node){ .path = paths[i], .exists = true, .readable = true, .writable = true,
						   .mode = 0666, .is_char_device = true };
	f.inv.driver.nodes = f.nodes;
	f.inv.driver.n_nodes = 4;
	findings_init(&f.fs, &f.a);
	*state = &f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	arena_free(&f->a);
	return 0;
}

static void run_rules(struct fixture *f)
{
	struct diag_ctx d = { .ctx = &f->ctx, .inv = &f->inv, .out = &f->fs };
	diag_run(&d);
}

static void healthy_host_has_no_driver_findings(void **state)
{
	struct fixture *f = *state;
	run_rules(f);
	assert_false(findings_has(&f->fs, "no-driver"));
	assert_false(findings_has(&f->fs, "no-device-nodes"));
	assert_false(findings_has(&f->fs, "device-node-permission"));
	assert_false(findings_has(&f->fs, "driver-userspace-mismatch"));
}

static void missing_gpu_nodes_are_no_device_nodes(void **state)
{
	struct fixture *f = *state;
	f->nodes[2].exists = f->nodes[3].exists = false;
	run_rules(f);
	const struct finding *x = findings_find(&f->fs, "no-device-nodes");
	assert_non_null(x);
	assert_int_equal(x->severity, SEV_ERROR);
	assert_non_null(strstr(x->summary, "/dev/nvidia0..N"));
}

static void unwritable_node_is_device_node_permission(void **state)
{
	struct fixture *f = *state;
	f->nodes[2].writable = false;
	f->nodes[2].mode = 0660;
	f->nodes[2].gid = 44;
	run_rules(f);
	const struct finding *x = findings_find(&f->fs, "device-node-permission");
	assert_non_null(x);
	assert_string_equal(x->subject, "/dev/nvidia0");
	bool saw_mode = false;
	for (size_t i = 0; i < x->n_evidence; i++)
		saw_mode |= strstr(x->evidence[i], "mode 0660") && strstr(x->evidence[i], "gid 44");
	assert_true(saw_mode);
}

static void nvml_of_another_release_is_a_mismatch(void **state)
{
	struct fixture *f = *state;
	f->inv.driver.nvml_path = "/usr/lib/x86_64-linux-gnu/libnvidia-ml.so.1";
	f->inv.driver.nvml_version = "535.104.05";
	run_rules(f);
	const struct finding *x = findings_find(&f->fs, "driver-userspace-mismatch");
	assert_non_null(x);
	assert_non_null(strstr(x->summary, "NVML 535.104.05"));
}

/* A container given nvidiactl and the GPU nodes but not nvidia-uvm (a CDI spec that leaves it out):
 * CUDA cannot create the node there. On a host libcuda has nvidia-modprobe create it. */
static void container_without_uvm_node_is_nvidia_uvm_missing(void **state)
{
	struct fixture *f = *state;
	f->nodes[1].exists = false;
	f->inv.system.container = true;
	run_rules(f);
	const struct finding *x = findings_find(&f->fs, "nvidia-uvm-missing");
	assert_non_null(x);
	assert_int_equal(x->severity, SEV_ERROR);
	assert_string_equal(x->subject, "/dev/nvidia-uvm");
	assert_false(findings_has(&f->fs, "no-device-nodes"));
}

static void host_without_uvm_node_is_fine(void **state)
{
	struct fixture *f = *state;
	f->nodes[1].exists = false;
	run_rules(f);
	assert_false(findings_has(&f->fs, "nvidia-uvm-missing"));
}

static void container_without_any_gpu_node_is_not_uvm(void **state)
{
	struct fixture *f = *state;
	f->inv.system.container = true;
	for (int i = 0; i < 4; i++)
		f->nodes[i].exists = false;
	run_rules(f);
	assert_false(findings_has(&f->fs, "nvidia-uvm-missing"));
	assert_true(findings_has(&f->fs, "no-device-nodes"));
}

static void wsl_needs_no_device_nodes(void **state)
{
	struct fixture *f = *state;
	for (int i = 0; i < 4; i++)
		f->nodes[i].exists = false;
	f->inv.driver.wsl = true;
	run_rules(f);
	assert_false(findings_has(&f->fs, "no-device-nodes"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(healthy_host_has_no_driver_findings, setup, teardown),
		cmocka_unit_test_setup_teardown(missing_gpu_nodes_are_no_device_nodes, setup, teardown),
		cmocka_unit_test_setup_teardown(container_without_uvm_node_is_nvidia_uvm_missing, setup, teardown),
		cmocka_unit_test_setup_teardown(host_without_uvm_node_is_fine, setup, teardown),
		cmocka_unit_test_setup_teardown(container_without_any_gpu_node_is_not_uvm, setup, teardown),
		cmocka_unit_test_setup_teardown(unwritable_node_is_device_node_permission, setup, teardown),
		cmocka_unit_test_setup_teardown(nvml_of_another_release_is_a_mismatch, setup, teardown),
		cmocka_unit_test_setup_teardown(wsl_needs_no_device_nodes, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
