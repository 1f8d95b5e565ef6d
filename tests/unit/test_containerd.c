#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "fmt/containerd_toml.h"

/* What nvidia-ctk runtime configure writes (version 2), with the default set */
static void reads_the_nvidia_runtime_and_the_default(void **state)
{
	(void)state;
	struct arena a;
	arena_init(&a);
	struct containerd_config c;
	const char v2[] = "version = 2\n[plugins]\n  [plugins.\"io.containerd.grpc.v1.cri\".containerd]\n"
			  "    default_runtime_name = \"nvidia\"\n"
			  "    [plugins.\"io.containerd.grpc.v1.cri\".containerd.runtimes.nvidia]\n"
			  "      runtime_type = \"io.containerd.runc.v2\"\n";
	containerd_config_scan(span_make(v2, sizeof v2 - 1), &a, &c);
	assert_true(c.nvidia_runtime);
	assert_string_equal(c.default_runtime, "nvidia");
	/* version 3's plugin name, single quotes, a quoted nvidia-cdi runtime, no default: runc */
	const char v3[] = "version = 3\n[plugins.'io.containerd.cri.v1.runtime'.containerd]\n"
			  "  # default_runtime_name = 'nvidia'\n"
			  "[plugins.'io.containerd.cri.v1.runtime'.containerd.runtimes.'nvidia-cdi']\n";
	containerd_config_scan(span_make(v3, sizeof v3 - 1), &a, &c);
	assert_true(c.nvidia_runtime);
	assert_null(c.default_runtime);
	/* only runc */
	const char runc[] = "[plugins.\"io.containerd.grpc.v1.cri\".containerd]\n  default_runtime_name = \"runc\"\n"
			    "[plugins.\"io.containerd.grpc.v1.cri\".containerd.runtimes.runc]\n";
	containerd_config_scan(span_make(runc, sizeof runc - 1), &a, &c);
	assert_false(c.nvidia_runtime);
	assert_string_equal(c.default_runtime, "runc");
	arena_free(&a);
}

static void garbage_gives_nothing(void **state)
{
	(void)state;
	struct arena a;
	arena_init(&a);
	struct containerd_config c;
	const char junk[] = "default_runtime_name = \"unterminated\n[runtimes.\n\x7f"
			    "ELF\0\0default_runtime_name=";
	containerd_config_scan(span_make(junk, sizeof junk - 1), &a, &c);
	assert_false(c.nvidia_runtime);
	assert_null(c.default_runtime);
	containerd_config_scan(span_make("", 0), &a, &c);
	assert_int_equal(c.lines, 0);
	arena_free(&a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(reads_the_nvidia_runtime_and_the_default),
		cmocka_unit_test(garbage_gives_nothing),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
