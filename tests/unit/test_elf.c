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

/* `readelf OPTIONS PATH` in the C locale, its output to read (pclose it) */
static FILE *readelf_run(const char *options, const char *path)
{
	char cmd[1200];
	snprintf(cmd, sizeof cmd, "LC_ALL=C readelf %s '%s' 2>/dev/null", options, path);
	FILE *p = popen(cmd, "r");
	assert_non_null(p);
	return p;
}

static void readelf(const char *path, struct readelf_view *v)
{
	memset(v, 0, sizeof *v);
	char line[4096];
	FILE *p = readelf_run("-dVW", path);
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

/* --- elf_sections() against `readelf -SW` ------------------------------------------------- */

#define MAX_SECTIONS 256

struct section_row {
	char name[128];
	uint32_t type;
	uint64_t flags, offset, size;
	bool type_known;
};

struct section_list {
	struct section_row v[MAX_SECTIONS];
	int n;
	int stop_after; /* 0: never stop the walk */
};

static bool collect_section(void *ud, const struct elf_section_info *s)
{
	struct section_list *l = ud;
	assert_true(l->n < MAX_SECTIONS);
	struct section_row *r = &l->v[l->n++];
	assert_non_null(s->name);
	snprintf(r->name, sizeof r->name, "%.*s", (int)s->name_len, s->name);
	r->type = s->type;
	r->flags = s->flags;
	r->offset = s->offset;
	r->size = s->size;
	return l->stop_after == 0 || l->n < l->stop_after;
}

/* 1 when the first section has a name, 2 when it comes without one; stops the walk */
static bool note_first_name(void *ud, const struct elf_section_info *s)
{
	*(int *)ud = s->name ? 1 : 2;
	return false;
}

/* sh_type for the names readelf prints; false for the ones not listed here */
static bool type_of(const char *name, uint32_t *type)
{
	static const struct {
		const char *name;
		uint32_t type;
	} types[] = {
		{ "PROGBITS", 1 },       { "SYMTAB", 2 },           { "STRTAB", 3 },     { "RELA", 4 },
		{ "HASH", 5 },           { "DYNAMIC", 6 },          { "NOTE", 7 },       { "NOBITS", 8 },
		{ "REL", 9 },            { "DYNSYM", 11 },          { "INIT_ARRAY", 14 }, { "FINI_ARRAY", 15 },
		{ "GNU_HASH", 0x6ffffff6 }, { "VERDEF", 0x6ffffffd }, { "VERNEED", 0x6ffffffe },
		{ "VERSYM", 0x6fffffff },
	};
	for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
		if (strcmp(types[i].name, name) == 0) {
			*type = types[i].type;
			return true;
		}
	return false;
}

/* Section headers 1.. as `readelf -SW` lists them: [Nr] Name Type Address Off Size ES Flg Lk Inf Al
 * (Flg may be empty). */
static void readelf_sections(const char *path, struct section_list *l)
{
	memset(l, 0, sizeof *l);
	char line[4096];
	FILE *p = readelf_run("-SW", path);
	while (fgets(line, sizeof line, p)) {
		const char *open_br = strchr(line, '['), *close_br = strchr(line, ']');
		int idx;
		if (!open_br || !close_br || sscanf(open_br, "[%d]", &idx) != 1 || idx == 0)
			continue;
		char tok[10][128];
		int nt = 0, used;
		const char *q = close_br + 1;
		while (nt < 10 && sscanf(q, "%127s%n", tok[nt], &used) == 1)
			q += used, nt++;
		assert_true(nt == 9 || nt == 10);
		assert_true(l->n < MAX_SECTIONS);
		struct section_row *r = &l->v[l->n++];
		snprintf(r->name, sizeof r->name, "%s", tok[0]);
		r->type_known = type_of(tok[1], &r->type);
		r->offset = strtoull(tok[3], NULL, 16);
		r->size = strtoull(tok[4], NULL, 16);
		const char *flg = nt == 10 ? tok[6] : "";
		r->flags = (strchr(flg, 'W') ? ELF_SHF_WRITE : 0) | (strchr(flg, 'A') ? ELF_SHF_ALLOC : 0) |
			   (strchr(flg, 'X') ? ELF_SHF_EXECINSTR : 0);
	}
	pclose(p);
}

/* Returns the number of sections compared (0 when the file is not there). */
static int compare_sections_with_readelf(const char *path)
{
	struct map m;
	if (!map_file(path, &m)) {
		printf("SKIP %s: not present\n", path);
		return 0;
	}
	static struct section_list want, got;
	readelf_sections(path, &want);
	memset(&got, 0, sizeof got);
	assert_true(elf_sections(m.s, collect_section, &got));
	assert_true(want.n > 10);
	assert_int_equal(got.n, want.n);
	for (int i = 0; i < want.n; i++) {
		assert_string_equal(got.v[i].name, want.v[i].name);
		if (want.v[i].type_known)
			assert_int_equal(got.v[i].type, want.v[i].type);
		assert_int_equal(got.v[i].offset, want.v[i].offset);
		assert_int_equal(got.v[i].size, want.v[i].size);
		assert_int_equal(got.v[i].flags & (ELF_SHF_WRITE | ELF_SHF_ALLOC | ELF_SHF_EXECINSTR), want.v[i].flags);
	}
	printf("%s: %d sections agree with readelf -SW\n", path, want.n);
	unmap_file(&m);
	return want.n;
}

static void test_sections_match_readelf(void **state)
{
	(void)state;
	int n = compare_sections_with_readelf("/lib/x86_64-linux-gnu/libc.so.6") +
		compare_sections_with_readelf("/usr/local/cuda/lib64/stubs/libcuda.so");
	if (compare_sections_with_readelf("/usr/local/cuda/lib64/libcublas.so.13")) {
		/* the section the fat binary scan starts from */
		struct map m;
		assert_true(map_file("/usr/local/cuda/lib64/libcublas.so.13", &m));
		static struct section_list got;
		memset(&got, 0, sizeof got);
		assert_true(elf_sections(m.s, collect_section, &got));
		int k = 0;
		while (k < got.n && strcmp(got.v[k].name, ".nv_fatbin") != 0)
			k++;
		assert_true(k < got.n);
		assert_int_equal(got.v[k].type, ELF_SHT_PROGBITS);
		assert_int_equal(got.v[k].flags & (ELF_SHF_ALLOC | ELF_SHF_EXECINSTR), ELF_SHF_ALLOC);
		unmap_file(&m);
		n++;
	}
	if (n == 0)
		skip();
}

/* On a copy of a small real library: fn stops the walk; extended numbering gives the same
 * sections; a table cut by the end of the file, or none at all, gives false. */
static void test_sections_edges(void **state)
{
	(void)state;
	struct map m;
	if (!map_file("/usr/local/cuda/lib64/stubs/libcuda.so", &m) &&
	    !map_file("/lib/x86_64-linux-gnu/libc.so.6", &m))
		skip();
	uint8_t *copy = malloc(m.s.n);
	assert_non_null(copy);
	memcpy(copy, m.s.p, m.s.n);
	struct span s = span_make(copy, m.s.n);
	static struct section_list all, some, ext;
	memset(&all, 0, sizeof all);
	assert_true(elf_sections(s, collect_section, &all));
	assert_true(all.n > 3);

	memset(&some, 0, sizeof some);
	some.stop_after = 3;
	assert_true(elf_sections(s, collect_section, &some));
	assert_int_equal(some.n, 3);

	/* extended numbering: e_shnum 0 and e_shstrndx SHN_XINDEX, the real values in header 0 */
	uint64_t shoff;
	uint16_t shnum, shstrndx;
	memcpy(&shoff, copy + 0x28, 8);
	memcpy(&shnum, copy + 0x3C, 2);
	memcpy(&shstrndx, copy + 0x3E, 2);
	assert_int_equal(shnum, all.n + 1);
	uint64_t size0 = shnum;
	uint32_t link0 = shstrndx;
	memcpy(copy + shoff + 32, &size0, 8);
	memcpy(copy + shoff + 40, &link0, 4);
	memset(copy + 0x3C, 0, 2);
	memset(copy + 0x3E, 0xff, 2);
	memset(&ext, 0, sizeof ext);
	assert_true(elf_sections(s, collect_section, &ext));
	assert_int_equal(ext.n, all.n);
	for (int i = 0; i < all.n; i++) {
		assert_string_equal(ext.v[i].name, all.v[i].name);
		assert_int_equal(ext.v[i].offset, all.v[i].offset);
	}

	/* a section name offset outside the name table: the section comes with a NULL name */
	uint32_t bad = 0xfffffff0u;
	memcpy(copy + shoff + 64, &bad, 4); /* sh_name of header 1 */
	int first = 0;
	assert_true(elf_sections(s, note_first_name, &first));
	assert_int_equal(first, 2);

	/* cut the table by one byte; then no table at all (e_shoff 0) */
	static struct section_list none;
	memset(&none, 0, sizeof none);
	const size_t table_end = (size_t)(shoff + (uint64_t)shnum * 64);
	assert_true(table_end <= m.s.n);
	assert_false(elf_sections(span_make(copy, table_end - 1), collect_section, &none));
	memset(copy + 0x28, 0, 8);
	assert_false(elf_sections(s, collect_section, &none));
	assert_int_equal(none.n, 0);
	const char text[] = "not an ELF file";
	assert_false(elf_sections(span_make(text, sizeof text), collect_section, &none));
	assert_false(elf_sections(span_make(NULL, 0), collect_section, &none));
	assert_int_equal(none.n, 0);
	free(copy);
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
		int first = 0;
		(void)elf_sections(span_make(copy, n), note_first_name, &first);
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
			int first = 0;
			(void)elf_sections(span_make(s.b, sizeof s.b), note_first_name, &first);
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
		cmocka_unit_test(test_not_elf),             cmocka_unit_test(test_sections_match_readelf),
		cmocka_unit_test(test_sections_edges),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
