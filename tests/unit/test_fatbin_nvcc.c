/* Objects built during the test with nvcc 13 (/usr/local/cuda/bin/nvcc) from
 * tests/fixtures/arch/kernel.cu for chosen -gencode sets: the scan must list exactly the images
 * asked for, with the right variant ("a"/"f"), PTX ISA and compression. Skips when nvcc is
 * missing or cannot compile (no host compiler). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fatbin_scan_file.h"
#include "fmt/fatbin.h"

#define NVCC "/usr/local/cuda/bin/nvcc"

static char tmpdir[] = "/tmp/cudx-arch-nvcc-XXXXXX";
static char source[4096];
static int counter;

static int setup(void **state)
{
	(void)state;
	const char *src = getenv("CUDX_SRC");
	if (src) {
		snprintf(source, sizeof source, "%s/tests/fixtures/arch/kernel.cu", src);
	} else {
		const char *cut = strstr(__FILE__, "tests/unit/");
		snprintf(source, sizeof source, "%.*stests/fixtures/arch/kernel.cu",
			 cut ? (int)(cut - __FILE__) : 0, __FILE__);
	}
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	char cmd[4200];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
	return system(cmd) == 0 ? 0 : -1;
}

/* Compile with the given nvcc options; returns the object path or skips. */
static const char *build(const char *opts, char *out, size_t n)
{
	if (access(NVCC, X_OK) != 0) {
		fprintf(stderr, "SKIP: %s not found\n", NVCC);
		skip();
	}
	snprintf(out, n, "%s/k%d.o", tmpdir, counter++);
	char cmd[8192];
	snprintf(cmd, sizeof cmd, "'%s' -c %s '%s' -o '%s' >'%s/log' 2>&1", NVCC, opts, source, out, tmpdir);
	if (system(cmd) != 0) {
		fprintf(stderr, "SKIP: nvcc cannot compile here (%s)\n", cmd);
		skip();
	}
	return out;
}

struct want {
	const char *target; /* "sm_90a", "compute_80" */
	uint8_t compression;
	int isa_major, isa_minor; /* PTX only; 0 = do not check */
};

static void check(const char *opts, const char *region, const struct want *w, size_t n)
{
	char obj[4200];
	build(opts, obj, sizeof obj);
	struct arena a;
	arena_init(&a);
	struct fatbin_file f;
	struct scanned_file sf = scan_file(obj, &a, &f);
	assert_int_equal(f.host, FATBIN_HOST_ELF);
	assert_int_equal(f.n_problems_total, 0);
	assert_int_equal(f.n_containers, 1);
	assert_string_equal(f.regions[f.containers[0].region].name, region);
	assert_int_equal(f.n_entries, n);
	for (size_t i = 0; i < n; i++) {
		bool found = false;
		for (size_t k = 0; k < f.n_entries && !found; k++) {
			char t[48];
			const struct fatbin_entry *e = &f.entries[k];
			if (strcmp(fatbin_target_name(e, t, sizeof t), w[i].target) != 0)
				continue;
			found = true;
			if (e->compression != w[i].compression)
				fail_msg("%s [%s]: compression %s, want %s", w[i].target, opts,
					 fatbin_compression_name(e->compression), fatbin_compression_name(w[i].compression));
			if (w[i].isa_major) {
				assert_int_equal(e->major, w[i].isa_major);
				assert_int_equal(e->minor, w[i].isa_minor);
			}
			if (e->kind == FATBIN_KIND_ELF) /* CUDA 13 writes ABI V2 cubins: entry version 1.8 */
				assert_int_equal(e->major * 10 + e->minor, 18);
		}
		if (!found)
			fail_msg("[%s]: %s not listed", opts, w[i].target);
	}
	arena_free(&a);
	scanned_file_unmap(sf);
}

/* Arch- and family-specific SASS plus PTX only for compute_80 (PTX compressed by default,
 * release SASS not). */
static void test_variants_and_ptx(void **state)
{
	(void)state;
	const struct want w[] = {
		{ "sm_90a", FATBIN_COMP_NONE, 0, 0 },
		{ "sm_100f", FATBIN_COMP_NONE, 0, 0 },
		{ "compute_80", FATBIN_COMP_ZSTD, 9, 0 },
	};
	check("-gencode arch=compute_90a,code=sm_90a -gencode arch=compute_100f,code=sm_100f "
	      "-gencode arch=compute_80,code=compute_80",
	      ".nv_fatbin", w, 3);
}

static void test_ptx_only_arch_specific(void **state)
{
	(void)state;
	const struct want w[] = { { "compute_120a", FATBIN_COMP_ZSTD, 9, 0 } };
	check("-gencode arch=compute_120a,code=compute_120a", ".nv_fatbin", w, 1);
}

/* Relocatable device code: the images go to __nv_relfatbin for nvlink. */
static void test_rdc(void **state)
{
	(void)state;
	const struct want w[] = { { "sm_86", FATBIN_COMP_ZSTD, 0, 0 } };
	check("-rdc=true -gencode arch=compute_86,code=sm_86", "__nv_relfatbin", w, 1);
}

static void test_compression_modes(void **state)
{
	(void)state;
	const struct want none[] = { { "sm_75", FATBIN_COMP_NONE, 0, 0 }, { "compute_75", FATBIN_COMP_NONE, 9, 0 } };
	check("-gencode arch=compute_75,code=[sm_75,compute_75] -Xfatbin --compress-mode=none", ".nv_fatbin", none, 2);
	const struct want lz4[] = { { "sm_75", FATBIN_COMP_LZ4, 0, 0 } };
	check("-gencode arch=compute_75,code=sm_75 -Xfatbin -compress-all -Xfatbin --compress-mode=speed", ".nv_fatbin",
	      lz4, 1);
	const struct want zstd[] = { { "sm_120", FATBIN_COMP_ZSTD, 0, 0 } };
	check("-gencode arch=compute_120,code=sm_120 -Xfatbin -compress-all", ".nv_fatbin", zstd, 1);
}

/* A cubin on its own and a raw .fatbin file (nvcc -cubin / -fatbin). */
static void test_cubin_and_raw_fatbin(void **state)
{
	(void)state;
	for (int raw = 0; raw < 2; raw++) {
		char obj[4200];
		build(raw ? "-fatbin -gencode arch=compute_89,code=[sm_89,compute_89]" : "-cubin -arch=sm_89", obj,
		      sizeof obj);
		struct arena a;
		arena_init(&a);
		struct fatbin_file f;
		struct scanned_file sf = scan_file(obj, &a, &f);
		assert_int_equal(f.n_containers, 1);
		assert_int_equal(f.n_entries, raw ? 2 : 1);
		assert_int_equal(f.entries[0].kind, FATBIN_KIND_ELF);
		assert_int_equal(f.entries[0].sm, 89);
		assert_int_equal(f.host, raw ? FATBIN_HOST_RAW : FATBIN_HOST_ELF);
		if (!raw) /* CUDA 13 cubins are ABI V2 (EI_ABIVERSION 8) */
			assert_int_equal(f.entries[0].minor, 8);
		arena_free(&a);
		scanned_file_unmap(sf);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_variants_and_ptx),
		cmocka_unit_test(test_ptx_only_arch_specific),
		cmocka_unit_test(test_rdc),
		cmocka_unit_test(test_compression_modes),
		cmocka_unit_test(test_cubin_and_raw_fatbin),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
