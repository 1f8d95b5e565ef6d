/* src/fmt/fatbin.c: synthetic containers (layout, malformed input, bounded work) and the real
 * NVIDIA libraries under /usr/local/cuda (expected listings from research/formats.md §1.5, which
 * were measured with an independent Python walker). */
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
#include <time.h>
#include <unistd.h>

#include "fmt/fatbin.h"
#include "fmt/ptx_text.h"

/* --- building containers in memory ------------------------------------------------------- */

struct buf {
	uint8_t *p;
	size_t n, cap;
};

static void put(struct buf *b, const void *src, size_t n)
{
	if (b->n + n > b->cap) {
		b->cap = (b->n + n) * 2 + 64;
		b->p = realloc(b->p, b->cap);
		assert_non_null(b->p);
	}
	memcpy(b->p + b->n, src, n);
	b->n += n;
}

static void put_u16(struct buf *b, uint16_t v) { put(b, &v, 2); }
static void put_u32(struct buf *b, uint32_t v) { put(b, &v, 4); }
static void put_u64(struct buf *b, uint64_t v) { put(b, &v, 8); }
static void put_zero(struct buf *b, size_t n)
{
	static const uint8_t z[256];
	while (n) {
		size_t k = n < sizeof z ? n : sizeof z;
		put(b, z, k);
		n -= k;
	}
}

struct ent {
	uint16_t kind, major, minor;
	uint32_t sm, hsz;
	uint64_t payload, flags;
};

/* A container header followed by the entries; returns the container's offset. */
static size_t put_container(struct buf *b, const struct ent *e, size_t n)
{
	size_t at = b->n;
	uint64_t fat = 0;
	for (size_t i = 0; i < n; i++)
		fat += (e[i].hsz ? e[i].hsz : 64) + e[i].payload;
	put_u32(b, FATBIN_MAGIC);
	put_u16(b, 1);
	put_u16(b, 16);
	put_u64(b, fat);
	for (size_t i = 0; i < n; i++) {
		uint32_t hsz = e[i].hsz ? e[i].hsz : 64;
		put_u16(b, e[i].kind);
		put_u16(b, 0x0101);
		put_u32(b, hsz);
		put_u64(b, e[i].payload);
		put_u32(b, (e[i].flags & FATBIN_FLAG_ZSTD) ? (uint32_t)e[i].payload - 3 : 0);
		put_u32(b, 0);
		put_u16(b, e[i].minor);
		put_u16(b, e[i].major);
		put_u32(b, e[i].sm);
		put_u32(b, 0);
		put_u32(b, 0);
		put_u64(b, e[i].flags);
		put_u64(b, 0);
		put_u64(b, (e[i].flags & FATBIN_FLAG_ZSTD) ? e[i].payload * 3 : 0);
		put_zero(b, hsz - 64);
		put_zero(b, e[i].payload);
	}
	return at;
}

static void scan(struct buf *b, struct arena *a, struct fatbin_file *f)
{
	arena_init(a);
	fatbin_scan(span_make(b->p, b->n), a, NULL, f);
}

static void test_layout(void **state)
{
	(void)state;
	struct buf b = { 0 };
	put_zero(&b, 24); /* junk before: the raw-file scan must find it anywhere */
	const struct ent e[] = {
		{ FATBIN_KIND_ELF, 1, 8, 90, 64, 128, 0x11 | FATBIN_FLAG_ARCH_SPECIFIC },
		{ FATBIN_KIND_ELF, 1, 8, 100, 112, 40, 0x11 | FATBIN_FLAG_FAMILY_SPECIFIC | FATBIN_FLAG_ZSTD | 0x1000000 },
		{ FATBIN_KIND_PTX, 9, 0, 120, 72, 16, 0x11 | FATBIN_FLAG_LZ4 },
		{ FATBIN_KIND_LTOIR, 9, 0, 90, 64, 8, 0x11 | 0x10000 | FATBIN_FLAG_ZSTD },
	};
	size_t at = put_container(&b, e, 4);
	put_zero(&b, 40);
	struct arena a;
	struct fatbin_file f;
	scan(&b, &a, &f);
	assert_int_equal(f.host, FATBIN_HOST_RAW);
	assert_int_equal(f.n_containers, 1);
	assert_int_equal(f.containers[0].offset, at);
	assert_int_equal(f.n_entries, 4);
	assert_int_equal(f.n_problems_total, 0);
	char t[32];
	assert_string_equal(fatbin_target_name(&f.entries[0], t, sizeof t), "sm_90a");
	assert_string_equal(fatbin_target_name(&f.entries[1], t, sizeof t), "sm_100f");
	assert_string_equal(fatbin_target_name(&f.entries[2], t, sizeof t), "compute_120");
	assert_string_equal(fatbin_target_name(&f.entries[3], t, sizeof t), "lto_90");
	assert_int_equal(f.entries[0].compression, FATBIN_COMP_NONE);
	assert_int_equal(f.entries[1].compression, FATBIN_COMP_ZSTD);
	assert_int_equal(f.entries[1].header_size, 112);
	assert_int_equal(f.entries[1].uncompressed_size, 120);
	assert_int_equal(f.entries[2].compression, FATBIN_COMP_LZ4);
	assert_int_equal(f.entries[2].major, 9);
	assert_int_equal(f.entries[2].minor, 0);
	/* entries are stepped by header_size + payload_size, never by a fixed 64 */
	assert_int_equal(f.entries[1].offset, at + 16 + 64 + 128);
	assert_int_equal(f.entries[2].offset, f.entries[1].offset + 112 + 40);
	arena_free(&a);
	free(b.p);
}

static void test_back_to_back_and_gaps(void **state)
{
	(void)state;
	struct buf b = { 0 };
	const struct ent e = { FATBIN_KIND_ELF, 1, 8, 80, 64, 32, 0x11 };
	for (int i = 0; i < 5; i++) {
		put_container(&b, &e, 1);
		put_zero(&b, (size_t)(i % 3) * 8); /* cuFFT's .ldata has 0/8/16-byte gaps */
	}
	struct arena a;
	struct fatbin_file f;
	scan(&b, &a, &f);
	assert_int_equal(f.n_containers, 5);
	assert_int_equal(f.n_entries, 5);
	assert_int_equal(f.n_problems_total, 0);
	arena_free(&a);
	free(b.p);
}

/* A container whose size runs past the end of the file, an entry whose payload lies, an entry
 * header below 64 bytes, a bad entry version: each is reported and skipped, and the good
 * container after them is still found. */
static void test_malformed(void **state)
{
	(void)state;
	const struct ent good = { FATBIN_KIND_ELF, 1, 8, 86, 64, 8, 0x11 };
	for (int kind = 0; kind < 5; kind++) {
		struct buf b = { 0 };
		size_t at = put_container(&b, &good, 1);
		switch (kind) {
		case 0: /* fat_size beyond the file */
			memcpy(b.p + at + 8, &(uint64_t){ UINT64_MAX - 4 }, 8);
			break;
		case 1: /* payload size lies */
			memcpy(b.p + at + 16 + 8, &(uint64_t){ 1u << 30 }, 8);
			break;
		case 2: /* entry header size below the minimum: would loop on zero-size steps */
			memcpy(b.p + at + 16 + 4, &(uint32_t){ 0 }, 4);
			memcpy(b.p + at + 16 + 8, &(uint64_t){ 0 }, 8);
			break;
		case 3: /* entry version */
			memcpy(b.p + at + 16 + 2, &(uint16_t){ 0x0202 }, 2);
			break;
		case 4: /* container shorter than one entry header */
			memcpy(b.p + at + 8, &(uint64_t){ 40 }, 8);
			break;
		}
		put_container(&b, &good, 1);
		struct arena a;
		struct fatbin_file f;
		scan(&b, &a, &f);
		assert_int_equal(f.n_containers, 1);
		assert_int_equal(f.n_entries, 1);
		assert_true(f.n_problems_total >= 1);
		assert_non_null(strstr(f.problems[0], "fat binary at 0x0:"));
		arena_free(&a);
		free(b.p);
	}
}

/* Many overlapping headers that each claim the rest of the file and fail at its very end: a
 * naive scanner does quadratic work. The budget must stop it quickly with a message. */
static void test_bounded_work(void **state)
{
	(void)state;
	const size_t n = 8u << 20;
	uint8_t *p = calloc(1, n);
	assert_non_null(p);
	/* a header every 64 bytes; entries in between are valid 64-byte empty SASS entries */
	for (size_t off = 0; off + 64 <= n; off += 64) {
		memcpy(p + off, "\x50\xed\x55\xba\x01\x00\x10\x00", 8);
		uint64_t fat = n - off - 16;
		memcpy(p + off + 8, &fat, 8);
		memcpy(p + off + 16, "\x02\x00\x01\x01\x40\x00\x00\x00", 8); /* overlaps the next header */
	}
	struct arena a;
	arena_init(&a);
	struct fatbin_file f;
	clock_t t0 = clock();
	fatbin_scan(span_make(p, n), &a, NULL, &f);
	double secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
	assert_true(secs < 5.0);
	assert_true(f.n_problems_total >= 1);
	arena_free(&a);
	free(p);
}

static void test_empty_and_tiny(void **state)
{
	(void)state;
	struct arena a;
	arena_init(&a);
	struct fatbin_file f;
	fatbin_scan(span_make(NULL, 0), &a, NULL, &f);
	assert_int_equal(f.n_containers, 0);
	fatbin_scan(span_make("\x7f" "ELF", 4), &a, NULL, &f);
	assert_int_equal(f.n_containers, 0);
	fatbin_scan(span_make("MZ", 2), &a, NULL, &f);
	assert_int_equal(f.n_containers, 0);
	arena_free(&a);
}

/* A PTX text file: its header gives one PTX image (ISA version, target, a/f variant); anything
 * else that merely looks like text is no GPU code. */
static void test_ptx_text(void **state)
{
	(void)state;
	struct arena a;
	arena_init(&a);
	struct fatbin_file f;
	static const char nvvm[] = "//\n// Generated by NVIDIA NVVM Compiler\n/* block\n comment */\n"
				   ".version 8.5\n.target sm_90a\n.address_size 64\n";
	fatbin_scan(span_make(nvvm, sizeof nvvm - 1), &a, NULL, &f);
	assert_int_equal(f.n_containers, 1);
	assert_int_equal(f.n_entries, 1);
	assert_int_equal(f.entries[0].kind, FATBIN_KIND_PTX);
	assert_int_equal(f.entries[0].sm, 90);
	assert_int_equal(f.entries[0].variant, 'a');
	assert_int_equal(f.entries[0].major, 8);
	assert_int_equal(f.entries[0].minor, 5);
	char name[32];
	assert_string_equal(fatbin_target_name(&f.entries[0], name, sizeof name), "compute_90a");
	/* modifiers after the target */
	struct ptx_text_header h;
	assert_true(ptx_text_header(span_make(".version 7.0\r\n.target sm_52, debug\n", 34), &h));
	assert_int_equal(h.sm, 52);
	assert_int_equal(h.isa_major, 7);
	assert_int_equal(h.variant, 0);
	/* not PTX: no .version first, no .target, an unclosed comment, a bad target, a bare number */
	static const char *const bad[] = { ".target sm_80\n.version 8.0\n", ".version 8.0\n.address_size 64\n",
					   "/* .version 8.0\n.target sm_80\n", ".version 8.0\n.target sm_80x\n",
					   ".version 8\n.target sm_80\n", ".version 8.0\n.target compute_80\n",
					   ".version 123456.0\n.target sm_80\n", "" };
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		assert_false(ptx_text_header(span_make(bad[i], strlen(bad[i])), &h));
		fatbin_scan(span_make(bad[i], strlen(bad[i])), &a, NULL, &f);
		assert_int_equal(f.n_entries, 0);
	}
	arena_free(&a);
}

/* A PE image: code sections are not scanned, .nv_fatb (the 8-character PE name of .nv_fatbin)
 * and other data sections are. */
static void test_pe_sections(void **state)
{
	(void)state;
	const struct ent e = { FATBIN_KIND_ELF, 1, 8, 86, 64, 16, 0x11 | 0x40 };
	struct buf c = { 0 };
	put_container(&c, &e, 1);
	struct buf b = { 0 };
	put(&b, "MZ", 2);
	put_zero(&b, 0x3C - 2);
	put_u32(&b, 0x40);          /* e_lfanew */
	put(&b, "PE\0\0", 4);
	put_u16(&b, 0x8664);        /* machine */
	put_u16(&b, 2);             /* sections */
	put_zero(&b, 12);
	put_u16(&b, 0);             /* SizeOfOptionalHeader */
	put_u16(&b, 0x2022);
	const uint32_t text_at = 0x200, fatb_at = 0x400, size = (uint32_t)c.n;
	const char *names[2] = { ".text", ".nv_fatb" };
	const uint32_t at[2] = { text_at, fatb_at }, ch[2] = { 0x60000020, 0x40000040 };
	for (int i = 0; i < 2; i++) {
		char name[8] = { 0 };
		memcpy(name, names[i], strlen(names[i]));
		put(&b, name, 8);
		put_u32(&b, size);   /* VirtualSize */
		put_u32(&b, at[i]);  /* VirtualAddress */
		put_u32(&b, size);   /* SizeOfRawData */
		put_u32(&b, at[i]);  /* PointerToRawData */
		put_zero(&b, 12);
		put_u32(&b, ch[i]);
	}
	put_zero(&b, text_at - b.n);
	put(&b, c.p, c.n); /* a fat binary in code: never looked at */
	put_zero(&b, fatb_at - b.n);
	put(&b, c.p, c.n);
	struct arena a;
	struct fatbin_file f;
	scan(&b, &a, &f);
	assert_int_equal(f.host, FATBIN_HOST_PE);
	assert_int_equal(f.n_containers, 1);
	assert_int_equal(f.containers[0].offset, fatb_at);
	assert_string_equal(f.regions[f.containers[0].region].name, ".nv_fatb");
	arena_free(&a);
	free(b.p);
	free(c.p);
}

/* An ELF without section headers (stripped with sstrip): the whole file is scanned. */
static void test_elf_without_sections(void **state)
{
	(void)state;
	struct buf b = { 0 };
	put(&b, "\x7f" "ELF\x02\x01\x01", 7);
	put_zero(&b, 64 - 7); /* e_shoff = 0 */
	const struct ent e = { FATBIN_KIND_PTX, 8, 5, 90, 64, 8, 0x11 };
	put_container(&b, &e, 1);
	struct arena a;
	struct fatbin_file f;
	scan(&b, &a, &f);
	assert_int_equal(f.host, FATBIN_HOST_ELF);
	assert_int_equal(f.n_containers, 1);
	assert_string_equal(f.regions[0].name, "(whole file)");
	assert_int_equal(f.entries[0].major * 10 + f.entries[0].minor, 85);
	arena_free(&a);
	free(b.p);
}

/* --- real libraries ---------------------------------------------------------------------- */

struct mapped {
	uint8_t *p;
	size_t n;
};

static bool map_file(const char *path, struct mapped *m)
{
	int fd = open(path, O_RDONLY);
	if (fd < 0)
		return false;
	struct stat st;
	if (fstat(fd, &st) != 0 || st.st_size == 0) {
		close(fd);
		return false;
	}
	m->n = (size_t)st.st_size;
	m->p = mmap(NULL, m->n, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	return m->p != MAP_FAILED;
}

static size_t count(const struct fatbin_file *f, uint16_t kind, uint32_t sm, char variant, const char *region)
{
	size_t n = 0;
	for (size_t i = 0; i < f->n_entries; i++) {
		const struct fatbin_entry *e = &f->entries[i];
		if (e->kind != kind || e->sm != sm || e->variant != variant)
			continue;
		if (region && strcmp(f->regions[f->containers[e->container].region].name, region) != 0)
			continue;
		n++;
	}
	return n;
}

static size_t count_region(const struct fatbin_file *f, const char *region)
{
	for (size_t i = 0; i < f->n_regions; i++)
		if (strcmp(f->regions[i].name, region) == 0)
			return f->regions[i].containers;
	return 0;
}

#define NEED_FILE(path, m)                                            \
	do {                                                          \
		if (!map_file(path, m)) {                             \
			fprintf(stderr, "SKIP: %s not readable\n", path); \
			skip();                                       \
		}                                                     \
	} while (0)

static void test_real_cublas13(void **state)
{
	(void)state;
	struct mapped m;
	NEED_FILE("/usr/local/cuda/lib64/libcublas.so.13", &m);
	struct arena a;
	arena_init(&a);
	struct fatbin_file f;
	fatbin_scan(span_make(m.p, m.n), &a, NULL, &f);
	assert_int_equal(f.host, FATBIN_HOST_ELF);
	assert_int_equal(f.n_problems_total, 0);
	assert_int_equal(f.n_containers, 193);
	assert_int_equal(f.n_entries, 1257);
	assert_int_equal(count_region(&f, ".nv_fatbin"), 193);
	const uint32_t sms[] = { 75, 80, 86, 90, 100, 120 };
	const size_t want[] = { 190, 191, 114, 191, 191, 192 };
	size_t sass = 0;
	for (size_t i = 0; i < 6; i++) {
		assert_int_equal(count(&f, FATBIN_KIND_ELF, sms[i], 0, NULL), want[i]);
		sass += want[i];
	}
	assert_int_equal(count(&f, FATBIN_KIND_PTX, 120, 0, NULL), 188);
	assert_int_equal(sass + 188, f.n_entries); /* nothing else in there */
	for (size_t i = 0; i < f.n_entries; i++)
		assert_int_equal(f.entries[i].compression, FATBIN_COMP_ZSTD);
	arena_free(&a);
	munmap(m.p, m.n);
}

static void test_real_cudnn_engines(void **state)
{
	(void)state;
	struct mapped m;
	NEED_FILE("/usr/local/cuda/lib64/libcudnn_engines_precompiled.so.9", &m);
	struct arena a;
	arena_init(&a);
	struct fatbin_file f;
	fatbin_scan(span_make(m.p, m.n), &a, NULL, &f);
	assert_int_equal(f.n_problems_total, 0);
	assert_int_equal(count_region(&f, ".nv_fatbin"), 1379);
	assert_true(count_region(&f, ".cask_resource") > 0);
	assert_int_equal(count(&f, FATBIN_KIND_ELF, 90, 'a', ".nv_fatbin"), 288);
	assert_int_equal(count(&f, FATBIN_KIND_ELF, 100, 'f', ".nv_fatbin"), 329);
	assert_int_equal(count(&f, FATBIN_KIND_ELF, 120, 'f', ".nv_fatbin"), 407);
	assert_int_equal(count(&f, FATBIN_KIND_ELF, 100, 'f', ".cask_resource"), 116);
	assert_int_equal(count(&f, FATBIN_KIND_PTX, 121, 0, NULL), 93);
	size_t cask = 0;
	for (size_t i = 0; i < f.n_entries; i++) {
		const struct fatbin_entry *e = &f.entries[i];
		if (strcmp(f.regions[f.containers[e->container].region].name, ".cask_resource") == 0) {
			assert_int_equal(e->kind, FATBIN_KIND_ELF);
			cask++;
		}
		if (e->kind == FATBIN_KIND_PTX) { /* cuDNN 9.19 ships PTX ISA 9.1 */
			assert_int_equal(e->major, 9);
			assert_int_equal(e->minor, 1);
		}
	}
	assert_int_equal(cask, 125);
	arena_free(&a);
	munmap(m.p, m.n);
}

static void test_real_cufft(void **state)
{
	(void)state;
	struct mapped m;
	NEED_FILE("/usr/local/cuda/lib64/libcufft.so.12", &m);
	struct arena a;
	arena_init(&a);
	struct fatbin_file f;
	fatbin_scan(span_make(m.p, m.n), &a, NULL, &f);
	assert_int_equal(f.n_problems_total, 0);
	assert_int_equal(count_region(&f, ".nv_fatbin"), 1);
	assert_int_equal(count_region(&f, ".ldata"), 23983); /* almost all of cuFFT's code */
	size_t lz4 = 0, zstd = 0, lto = 0;
	for (size_t i = 0; i < f.n_entries; i++) {
		lz4 += f.entries[i].compression == FATBIN_COMP_LZ4;
		zstd += f.entries[i].compression == FATBIN_COMP_ZSTD;
		lto += f.entries[i].kind == FATBIN_KIND_LTOIR;
	}
	assert_true(lz4 > 0);
	assert_true(zstd > 0);
	assert_true(lto > 0);
	arena_free(&a);
	munmap(m.p, m.n);
}

/* The release callback is called with increasing offsets that never pass the file size. */
struct rel_check {
	uint64_t last, n;
	size_t calls;
	bool monotonic;
};

static void rel_cb(void *ud, uint64_t upto)
{
	struct rel_check *r = ud;
	if (upto < r->last || upto > r->n)
		r->monotonic = false;
	r->last = upto;
	r->calls++;
}

static void test_real_cublaslt_release(void **state)
{
	(void)state;
	struct mapped m;
	NEED_FILE("/usr/local/cuda/lib64/libcublasLt.so.13", &m);
	if (m.n < (100u << 20)) {
		fprintf(stderr, "SKIP: /usr/local/cuda/lib64/libcublasLt.so.13 is %zu bytes, not the real "
				"540 MB library (overwritten through a hard link?)\n", m.n);
		munmap(m.p, m.n);
		skip();
	}
	struct arena a;
	arena_init(&a);
	struct fatbin_file f;
	struct rel_check r = { 0, m.n, 0, true };
	struct fatbin_opts o = { rel_cb, &r };
	fatbin_scan(span_make(m.p, m.n), &a, &o, &f);
	assert_true(r.monotonic);
	assert_true(r.calls > 10);
	assert_int_equal(count_region(&f, ".nv_fatbin"), 2782);
	assert_int_equal(count_region(&f, ".cask_resource"), 383);
	assert_int_equal(f.n_entries, 6120);
	arena_free(&a);
	munmap(m.p, m.n);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_layout),
		cmocka_unit_test(test_back_to_back_and_gaps),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_bounded_work),
		cmocka_unit_test(test_empty_and_tiny),
		cmocka_unit_test(test_ptx_text),
		cmocka_unit_test(test_pe_sections),
		cmocka_unit_test(test_elf_without_sections),
		cmocka_unit_test(test_real_cublas13),
		cmocka_unit_test(test_real_cudnn_engines),
		cmocka_unit_test(test_real_cufft),
		cmocka_unit_test(test_real_cublaslt_release),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
