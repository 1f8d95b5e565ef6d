#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "fmt/nvproc.h"

static void reads_both_module_flavours(void **state)
{
	(void)state;
	struct arena a;
	arena_init(&a);
	struct nvproc_version v;
	const char *err;
	const char prop[] = "NVRM version: NVIDIA UNIX x86_64 Kernel Module  550.54.15  Tue Mar  5 22:23:56 UTC 2024\n"
			    "GCC version:  gcc version 12.2.0 (Debian 12.2.0-14)\n";
	assert_true(nvproc_parse_version(span_make(prop, sizeof prop - 1), &a, &v, &err));
	assert_string_equal(v.version, "550.54.15");
	assert_string_equal(v.flavour, "proprietary");
	assert_string_equal(v.arch, "x86_64");
	const char open[] = "NVRM version: NVIDIA UNIX Open Kernel Module for aarch64  580.95.05  Release Build  "
			    "(dvs-builder@U22-I3-AE18-23-3)  Tue Sep 23 09:55:41 UTC 2025\n";
	assert_true(nvproc_parse_version(span_make(open, sizeof open - 1), &a, &v, &err));
	assert_string_equal(v.version, "580.95.05");
	assert_string_equal(v.flavour, "open");
	assert_string_equal(v.arch, "aarch64");
	const char two[] = "NVRM version: NVIDIA UNIX x86_64 Kernel Module  510.54  Tue Feb  8 04:42:21 UTC 2022\n";
	assert_true(nvproc_parse_version(span_make(two, sizeof two - 1), &a, &v, &err));
	assert_string_equal(v.version, "510.54");
	arena_free(&a);
}

static void rejects_garbage_with_a_reason(void **state)
{
	(void)state;
	struct arena a;
	arena_init(&a);
	struct nvproc_version v;
	const char *err = NULL;
	const char junk[] = "\x7f" "ELF\x02\x01\x01\0\0\0garbage";
	assert_false(nvproc_parse_version(span_make(junk, sizeof junk - 1), &a, &v, &err));
	assert_string_equal(err, "not an NVRM version line");
	const char nover[] = "NVRM version: NVIDIA UNIX x86_64 Kernel Module  (unknown)\n";
	assert_false(nvproc_parse_version(span_make(nover, sizeof nover - 1), &a, &v, &err));
	assert_string_equal(err, "no driver version number");
	assert_false(nvproc_parse_version(span_make("", 0), &a, &v, &err));
	arena_free(&a);
}

static void reads_gpu_information_fields(void **state)
{
	(void)state;
	struct arena a;
	arena_init(&a);
	const char info[] = "Model: \t\t NVIDIA H100 80GB HBM3\nIRQ:   \t\t 123\n"
			    "GPU UUID: \t GPU-5f7e0a3c-1111-2222-3333-444455556666\nBus Location: \t 0000:19:00.0\n";
	struct span s = span_make(info, sizeof info - 1);
	assert_string_equal(nvproc_field(s, &a, "Model"), "NVIDIA H100 80GB HBM3");
	assert_string_equal(nvproc_field(s, &a, "Bus Location"), "0000:19:00.0");
	assert_null(nvproc_field(s, &a, "Video BIOS"));
	arena_free(&a);
}

static void reads_the_l4t_release_of_a_jetson(void **state)
{
	(void)state;
	struct arena a;
	arena_init(&a);
	struct tegra_release t;
	const char *err = NULL;
	const char r35[] = "# R35 (release), REVISION: 4.1, GCID: 33958178, BOARD: t186ref, EABI: aarch64, DATE: Tue Aug  "
			   "1 19:57:35 UTC 2023\n# KERNEL_VARIANT: oot\n";
	assert_true(nvproc_parse_tegra_release(span_make(r35, sizeof r35 - 1), &a, &t, &err));
	assert_string_equal(t.release, "35.4.1");
	assert_string_equal(t.board, "t186ref");
	const char r32[] = "# R32 (release), REVISION: 7.1, GCID: 29818004, BOARD: t210ref, EABI: aarch64";
	assert_true(nvproc_parse_tegra_release(span_make(r32, sizeof r32 - 1), &a, &t, &err));
	assert_string_equal(t.release, "32.7.1");
	assert_string_equal(t.board, "t210ref");
	const char norev[] = "# R36 (release), GCID: 1, BOARD: generic";
	assert_false(nvproc_parse_tegra_release(span_make(norev, sizeof norev - 1), &a, &t, &err));
	assert_string_equal(err, "no REVISION");
	const char nvrm[] = "NVRM version: NVIDIA UNIX x86_64 Kernel Module  550.54.15  Tue Mar  5 22:23:56 UTC 2024\n";
	assert_false(nvproc_parse_tegra_release(span_make(nvrm, sizeof nvrm - 1), &a, &t, &err));
	assert_string_equal(err, "not an L4T release line");
	assert_false(nvproc_parse_tegra_release(span_make("# R", 3), &a, &t, &err));
	arena_free(&a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(reads_both_module_flavours),
		cmocka_unit_test(rejects_garbage_with_a_reason),
		cmocka_unit_test(reads_gpu_information_fields),
		cmocka_unit_test(reads_the_l4t_release_of_a_jetson),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
