/* Differential test: the fat-binary scan lists the same SASS and PTX targets, with the same
 * counts, as NVIDIA's cuobjdump 11.8 (Debian nvidia-cuda-toolkit) on the CUDA 11.8 libraries of
 * Debian (libcublas11, libcublaslt11). Skips when the packages are missing or cuobjdump cannot run. */
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

#define MAX_T 64

struct tally {
	char name[MAX_T][24]; /* "cubin sm_80", "ptx sm_90" */
	unsigned count[MAX_T];
	size_t n;
};

static void tally_add(struct tally *t, const char *name)
{
	for (size_t i = 0; i < t->n; i++)
		if (strcmp(t->name[i], name) == 0) {
			t->count[i]++;
			return;
		}
	assert_true(t->n < MAX_T);
	snprintf(t->name[t->n], sizeof t->name[0], "%s", name);
	t->count[t->n++] = 1;
}

static const char *pkg_path(char *buf, size_t n, const char *rel)
{
	const char *cache = getenv("CUDX_PKG_CACHE");
	snprintf(buf, n, "%s/%s", cache ? cache : "build/pkgs", rel);
	return buf;
}

/* "ELF file    1: libcublas.so.11.11.3.1.sm_35.cubin" -> "cubin sm_35" */
static bool cuobjdump_tally(const char *lib, struct tally *t)
{
	char tool[4096], cmd[9000];
	pkg_path(tool, sizeof tool, "nvidia-cuda-toolkit/root/usr/bin/cuobjdump");
	if (access(tool, X_OK) != 0)
		return false;
	snprintf(cmd, sizeof cmd, "'%s' --list-elf --list-ptx '%s' 2>/dev/null", tool, lib);
	FILE *p = popen(cmd, "r");
	if (!p)
		return false;
	char line[1024];
	while (fgets(line, sizeof line, p)) {
		line[strcspn(line, "\n")] = 0;
		char *dot = strrchr(line, '.');
		if (!dot)
			continue;
		const char *kind = strcmp(dot, ".cubin") == 0 ? "cubin" : strcmp(dot, ".ptx") == 0 ? "ptx" : NULL;
		if (!kind)
			continue;
		*dot = 0;
		char *arch = strrchr(line, '.');
		if (!arch)
			continue;
		char name[64];
		snprintf(name, sizeof name, "%s %s", kind, arch + 1);
		tally_add(t, name);
	}
	return pclose(p) == 0 && t->n > 0;
}

static void scan_tally(const char *lib, struct tally *t)
{
	struct arena a;
	arena_init(&a);
	struct fatbin_file f;
	struct scanned_file sf = scan_file(lib, &a, &f);
	assert_int_equal(f.n_problems_total, 0);
	for (size_t i = 0; i < f.n_entries; i++) {
		const struct fatbin_entry *e = &f.entries[i];
		char name[64];
		/* cuobjdump names PTX by "sm_NN" too */
		snprintf(name, sizeof name, "%s sm_%u", e->kind == FATBIN_KIND_PTX ? "ptx" : "cubin", e->sm);
		if (e->kind == FATBIN_KIND_PTX || e->kind == FATBIN_KIND_ELF)
			tally_add(t, name);
	}
	arena_free(&a);
	scanned_file_unmap(sf);
}

static void compare(const char *rel)
{
	char lib[4096];
	pkg_path(lib, sizeof lib, rel);
	if (access(lib, R_OK) != 0) {
		fprintf(stderr, "SKIP: %s missing (tests/fixtures/fetch-nvidia-debs.sh)\n", lib);
		skip();
	}
	struct tally want = { 0 }, got = { 0 };
	if (!cuobjdump_tally(lib, &want)) {
		fprintf(stderr, "SKIP: cuobjdump 11.8 (nvidia-cuda-toolkit) missing or cannot run\n");
		skip();
	}
	scan_tally(lib, &got);
	assert_int_equal(got.n, want.n);
	for (size_t i = 0; i < want.n; i++) {
		bool found = false;
		for (size_t k = 0; k < got.n; k++)
			if (strcmp(want.name[i], got.name[k]) == 0) {
				if (want.count[i] != got.count[k])
					fail_msg("%s: cuobjdump %u, cudx %u", want.name[i], want.count[i], got.count[k]);
				found = true;
			}
		if (!found)
			fail_msg("cuobjdump lists %s, cudx does not", want.name[i]);
	}
}

static void test_cublas11(void **state)
{
	(void)state;
	compare("libcublas11/root/usr/lib/x86_64-linux-gnu/libcublas.so.11");
}

static void test_cublaslt11(void **state)
{
	(void)state;
	compare("libcublaslt11/root/usr/lib/x86_64-linux-gnu/libcublasLt.so.11");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cublas11),
		cmocka_unit_test(test_cublaslt11),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
