/* ELF reader tests: real NVIDIA and system libraries compared field by field with readelf, a
 * synthesized 32/64-bit little/big-endian image, and damaged input (every truncation, absurd
 * offsets) that must give a message, never a crash. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "elf_synth.h"
#include "fmt/elf.h"

struct map {
	struct span s;
	void *base;
};

static bool map_file(const char *path, struct map *m)
{
	int fd = open(path, O_RDONLY);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) != 0 || st.st_size == 0) {
		if (fd >= 0)
			close(fd);
		return false;
	}
	m->base = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (m->base == MAP_FAILED)
		return false;
	m->s = span_make(m->base, (size_t)st.st_size);
	return true;
}

static void unmap_file(struct map *m)
{
	munmap(m->base, m->s.n);
}

/* What readelf says about a file's dynamic section and versions. */
struct readelf_view {
	char soname[256], runpath[1024], rpath[1024];
	char needed[64][256];
	int n_needed;
	char verdefs[64][128];
	int n_verdefs;
	char verneed_files[64][128];
	char verneed_names[256][128];
	int verneed_file_of[256];
	int n_vfiles, n_vnames;
};

static void bracket(const char *line, char *out, size_t n)
{
	const char *a = strchr(line, '['), *b = strrchr(line, ']');
	if (!a || !b || b < a)
		return;
	snprintf(out, n, "%.*s", (int)(b - a - 1), a + 1);
}

static void field(const char *line, const char *key, char *out, size_t n)
{
	const char *p = strstr(line, key);
	if (!p)
		return;
	p += strlen(key);
	size_t len = strcspn(p, " \n");
	snprintf(out, n, "%.*s", (int)len, p);
}

static void readelf(const char *path, struct readelf_view *v)
{
	memset(v, 0, sizeof *v);
	char cmd[1200], line[4096];
	snprintf(cmd, sizeof cmd, "LC_ALL=C readelf -dVW '%s' 2>/dev/null", path);
	FILE *p = popen(cmd, "r");
	assert_non_null(p);
	int section = 0; /* 1 verdef, 2 verneed */
	while (fgets(line, sizeof line, p)) {
		if (strstr(line, "(NEEDED)") && v->n_needed < 64)
			bracket(line, v->needed[v->n_needed++], 256);
		else if (strstr(line, "(SONAME)"))
			bracket(line, v->soname, sizeof v->soname);
		else if (strstr(line, "(RUNPATH)"))
			bracket(line, v->runpath, sizeof v->runpath);
		else if (strstr(line, "(RPATH)"))
			bracket(line, v->rpath, sizeof v->rpath);
		else if (strstr(line, "Version definition section"))
			section = 1;
		else if (strstr(line, "Version needs section"))
			section = 2;
		else if (strstr(line, "Version symbols section"))
			section = 0;
		else if (section == 1 && strstr(line, "Index:") && !strstr(line, "Flags: BASE") &&
			 v->n_verdefs < 64)
			field(line, "Name: ", v->verdefs[v->n_verdefs++], 128);
		else if (section == 2 && strstr(line, "File: ") && v->n_vfiles < 64)
			field(line, "File: ", v->verneed_files[v->n_vfiles++], 128);
		else if (section == 2 && strstr(line, "Name: ") && v->n_vnames < 256) {
			v->verneed_file_of[v->n_vnames] = v->n_vfiles - 1;
			field(line, "Name: ", v->verneed_names[v->n_vnames++], 128);
		}
	}
	pclose(p);
}

static void compare_with_readelf(const char *path)
{
	struct map m;
	if (!map_file(path, &m)) {
		printf("SKIP %s: not present\n", path);
		return;
	}
	struct readelf_view v;
	readelf(path, &v);
	struct arena a;
	arena_init(&a);
	struct elf_info info;
	const char *err = NULL;
	assert_true(elf_parse(m.s, &a, &info, &err));
	assert_null(info.problem);
	assert_string_equal(info.soname ? info.soname : "", v.soname);
	assert_string_equal(info.runpath ? info.runpath : "", v.runpath);
	assert_string_equal(info.rpath ? info.rpath : "", v.rpath);
	assert_int_equal(info.n_needed, v.n_needed);
	for (int i = 0; i < v.n_needed; i++)
		assert_string_equal(info.needed[i], v.needed[i]);
	assert_int_equal(info.n_verdefs, v.n_verdefs);
	for (int i = 0; i < v.n_verdefs; i++)
		assert_string_equal(info.verdefs[i], v.verdefs[i]);
	assert_int_equal(info.n_verneeds, v.n_vfiles);
	int k = 0;
	for (size_t i = 0; i < info.n_verneeds; i++) {
		assert_string_equal(info.verneeds[i].file, v.verneed_files[i]);
		for (size_t j = 0; j < info.verneeds[i].n_names; j++, k++) {
			assert_int_equal(v.verneed_file_of[k], (int)i);
			assert_string_equal(info.verneeds[i].names[j], v.verneed_names[k]);
		}
	}
	assert_int_equal(k, v.n_vnames);
	arena_free(&a);
	unmap_file(&m);
}

static void test_real_cuda_libs(void **state)
{
	(void)state;
	struct map m;
	if (!map_file("/usr/local/cuda/lib64/libcudnn.so.9", &m))
		skip();
	/* the comparison below is only meaningful when readelf saw something */
	struct readelf_view v;
	readelf("/usr/local/cuda/lib64/libcudnn_graph.so.9", &v);
	assert_true(v.n_needed > 0 && v.n_verdefs > 0 && v.n_vnames > 0 && v.runpath[0]);
	unmap_file(&m);
	compare_with_readelf("/usr/local/cuda/lib64/libcudnn.so.9");
	compare_with_readelf("/usr/local/cuda/lib64/libcudnn_graph.so.9");
	compare_with_readelf("/usr/local/cuda/lib64/libcublas.so.13");
	compare_with_readelf("/usr/local/cuda/lib64/libcusolver.so.12");
	compare_with_readelf("/usr/local/cuda/lib64/libnccl.so.2");
	compare_with_readelf("/usr/local/cuda/lib64/stubs/libcuda.so");
}

static void test_real_system_files(void **state)
{
	(void)state;
	compare_with_readelf("/bin/ls");
	compare_with_readelf("/lib/x86_64-linux-gnu/libc.so.6");
	compare_with_readelf("/lib/x86_64-linux-gnu/libstdc++.so.6");
	struct map m;
	assert_true(map_file("/bin/ls", &m));
	struct arena a;
	arena_init(&a);
	struct elf_info info;
	const char *err;
	assert_true(elf_parse(m.s, &a, &info, &err));
	assert_int_equal(info.elf_class, 64);
	assert_int_equal(info.machine, ELF_EM_X86_64);
	assert_string_equal(info.interp, "/lib64/ld-linux-x86-64.so.2");
	int cls = 0;
	uint16_t mach = 0;
	assert_true(elf_ident(m.s, &cls, &mach));
	assert_int_equal(cls, 64);
	assert_string_equal(elf_machine_name(mach), "x86-64");
	arena_free(&a);
	unmap_file(&m);
}

/* Debian's CUDA 11.8 libraries, when the package cache has them */
static void test_debian_cuda11(void **state)
{
	(void)state;
	const char *cache = getenv("CUDX_PKG_CACHE");
	char path[1024];
	snprintf(path, sizeof path, "%s/libcublas11/root/usr/lib/x86_64-linux-gnu",
		 cache ? cache : "/work/pkgcache");
	char cmd[1200], line[1024];
	snprintf(cmd, sizeof cmd, "ls %s/libcublas*.so.11* 2>/dev/null", path);
	FILE *p = popen(cmd, "r");
	int n = 0;
	while (p && fgets(line, sizeof line, p)) {
		line[strcspn(line, "\n")] = 0;
		compare_with_readelf(line);
		n++;
	}
	if (p)
		pclose(p);
	if (n == 0) {
		printf("SKIP: package libcublas11 not in CUDX_PKG_CACHE\n");
		skip();
	}
}

static void test_symbols_and_sections(void **state)
{
	(void)state;
	struct map m;
	if (!map_file("/usr/local/cuda/lib64/libcublas.so.13", &m))
		skip();
	assert_true(elf_has_symbol(m.s, "cublasCreate_v2"));
	assert_true(elf_has_symbol(m.s, "cublasSgemm_v2"));
	assert_false(elf_has_symbol(m.s, "cublasCreate_v2_no_such"));
	/* an undefined import is not an export */
	assert_false(elf_has_symbol(m.s, "cublasLtCreate"));
	struct span sec;
	assert_true(elf_section(m.s, ".dynstr", &sec));
	assert_true(sec.n > 0);
	assert_int_equal(sec.p[0], 0);
	assert_true(elf_section(m.s, ".bss", &sec)); /* NOBITS */
	assert_int_equal(sec.n, 0);
	assert_false(elf_section(m.s, ".no_such_section", &sec));
	unmap_file(&m);
}

/* Parsing the 540 MB cuBLASLt must touch only headers: well under a second even cold. */
static void test_big_file_cheap(void **state)
{
	(void)state;
	struct map m;
	if (!map_file("/usr/local/cuda/lib64/libcublasLt.so.13", &m))
		skip();
	if (m.s.n < (100u << 20)) {
		/* the real library is about 540 MB; anything small is not it (a damaged install) */
		printf("SKIP: /usr/local/cuda/lib64/libcublasLt.so.13 is %zu bytes, not the real cuBLASLt\n", m.s.n);
		unmap_file(&m);
		skip();
	}
	struct arena a;
	arena_init(&a);
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	struct elf_info info;
	const char *err;
	assert_true(elf_parse(m.s, &a, &info, &err));
	clock_gettime(CLOCK_MONOTONIC, &t1);
	double ms = (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6;
	printf("elf_parse libcublasLt.so.13 (%zu MB): %.2f ms\n", m.s.n >> 20, ms);
	assert_true(ms < 1000);
	assert_true(elf_defines_version(&info, info.soname));
	arena_free(&a);
	unmap_file(&m);
	compare_with_readelf("/usr/local/cuda/lib64/libcublasLt.so.13");
}

static void check_synth(int cls, int be, uint16_t machine)
{
	struct synth s;
	synth_build(&s, cls, be, machine);
	struct span sp = span_make(s.b, sizeof s.b);
	struct arena a;
	arena_init(&a);
	struct elf_info info;
	const char *err = NULL;
	assert_true(elf_parse(sp, &a, &info, &err));
	assert_null(info.problem);
	assert_int_equal(info.elf_class, cls);
	assert_int_equal(info.big_endian, be);
	assert_int_equal(info.machine, machine);
	assert_string_equal(info.soname, "libsynth.so.1");
	assert_int_equal(info.n_needed, 2);
	assert_string_equal(info.needed[0], "libbar.so.2");
	assert_string_equal(info.needed[1], "libbaz.so.3");
	assert_string_equal(info.runpath, "$ORIGIN/../lib");
	assert_null(info.rpath);
	assert_int_equal(info.flags_1, ELF_DF_1_NODEFLIB);
	assert_int_equal(info.n_verdefs, 1);
	assert_string_equal(info.verdefs[0], "SYNTH_1.0");
	assert_true(elf_defines_version(&info, "SYNTH_1.0"));
	assert_false(elf_defines_version(&info, "libsynth.so.1")); /* the BASE record is not a node */
	assert_int_equal(info.n_verneeds, 1);
	assert_string_equal(info.verneeds[0].file, "libbar.so.2");
	assert_int_equal(info.verneeds[0].n_names, 1);
	assert_string_equal(info.verneeds[0].names[0], "BAR_2.0");
	assert_true(info.verneeds[0].weak[0]);
	assert_true(elf_has_symbol(sp, "synth_fn"));
	assert_false(elf_has_symbol(sp, "synth"));
	int c;
	uint16_t mm;
	assert_true(elf_ident(sp, &c, &mm));
	assert_int_equal(c, cls);
	assert_int_equal(mm, machine);
	arena_free(&a);
}

static void test_synth_all_layouts(void **state)
{
	(void)state;
	check_synth(64, 0, ELF_EM_X86_64);
	check_synth(32, 0, ELF_EM_386);
	check_synth(64, 1, ELF_EM_PPC64);
	check_synth(32, 1, 20 /* PowerPC */);
	check_synth(64, 0, ELF_EM_AARCH64);
}

/* Every prefix of a valid image: no crash, and either an error or a problem note for the ones
 * that cut the dynamic data. */
static void test_truncations(void **state)
{
	(void)state;
	struct synth s;
	synth_build(&s, 64, 0, ELF_EM_X86_64);
	for (size_t n = 0; n <= sizeof s.b; n++) {
		uint8_t *copy = malloc(n ? n : 1);
		memcpy(copy, s.b, n);
		struct arena a;
		arena_init(&a);
		struct elf_info info;
		const char *err = NULL;
		bool ok = elf_parse(span_make(copy, n), &a, &info, &err);
		if (!ok)
			assert_non_null(err);
		if (n < 64)
			assert_false(ok && info.has_dynamic);
		struct span sec;
		(void)elf_section(span_make(copy, n), ".dynstr", &sec);
		(void)elf_has_symbol(span_make(copy, n), "synth_fn");
		arena_free(&a);
		free(copy);
	}
}

/* Absurd offsets and counts in every header field: message or problem note, never a crash. */
static void test_absurd_offsets(void **state)
{
	(void)state;
	static const uint64_t evil[] = { 0xffffffffffffffffull, 0x7fffffffffffffffull, 0xffffffffull,
					 0x80000000ull, SYNTH_SIZE, SYNTH_SIZE - 1 };
	for (size_t off = 0; off < 0x500; off += 4) {
		for (size_t e = 0; e < sizeof evil / sizeof evil[0]; e++) {
			struct synth s;
			synth_build(&s, 64, 0, ELF_EM_X86_64);
			if (off + 8 <= sizeof s.b && off >= 16)
				sw64(&s, off, evil[e]);
			struct arena a;
			arena_init(&a);
			struct elf_info info;
			const char *err = NULL;
			if (!elf_parse(span_make(s.b, sizeof s.b), &a, &info, &err))
				assert_non_null(err);
			struct span sec;
			(void)elf_section(span_make(s.b, sizeof s.b), ".text", &sec);
			(void)elf_has_symbol(span_make(s.b, sizeof s.b), "synth_fn");
			arena_free(&a);
		}
	}
	/* a string offset far outside the table is named, and the rest still read */
	struct synth s;
	synth_build(&s, 64, 0, ELF_EM_X86_64);
	sw64(&s, 0x400 + 2 * 16 + 8, 0xfffffff0u); /* DT_SONAME value */
	struct arena a;
	arena_init(&a);
	struct elf_info info;
	const char *err;
	assert_true(elf_parse(span_make(s.b, sizeof s.b), &a, &info, &err));
	assert_null(info.soname);
	assert_non_null(info.problem);
	assert_int_equal(info.n_needed, 2);
	arena_free(&a);
}

static void test_not_elf(void **state)
{
	(void)state;
	struct arena a;
	arena_init(&a);
	struct elf_info info;
	const char *err = NULL;
	const char text[] = "#!/bin/sh\necho hello\n";
	assert_false(elf_parse(span_make(text, sizeof text), &a, &info, &err));
	assert_string_equal(err, "not an ELF file (bad magic)");
	assert_false(elf_parse(span_make(NULL, 0), &a, &info, &err));
	assert_false(elf_ident(span_make(text, sizeof text), NULL, NULL));
	arena_free(&a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_real_cuda_libs),      cmocka_unit_test(test_real_system_files),
		cmocka_unit_test(test_debian_cuda11),       cmocka_unit_test(test_symbols_and_sections),
		cmocka_unit_test(test_big_file_cheap),      cmocka_unit_test(test_synth_all_layouts),
		cmocka_unit_test(test_truncations),         cmocka_unit_test(test_absurd_offsets),
		cmocka_unit_test(test_not_elf),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
