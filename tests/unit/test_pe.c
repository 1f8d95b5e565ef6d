/* PE reader: real PE files built by mingw-w64 / lld-link from tests/fixtures/windows (machine,
 * imports, delay-load imports, exports, VERSIONINFO), then damaged copies of them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <cmocka.h>

#include "fmt/pe.h"
#include "pe_fixtures.h"

static int fixtures_status;

static void need_fixture(const char *rel, unsigned char **buf, size_t *n)
{
	if (fixtures_status == 77)
		skip(); /* gcc-mingw-w64-x86-64 missing */
	assert_int_equal(fixtures_status, 0);
	*buf = winfix_read(rel, n);
	if (!*buf && strncmp(rel, "x64/", 4) != 0) {
		print_message("fixture %s not built (i686 mingw or clang/lld-link missing)\n", rel);
		skip();
	}
	assert_non_null(*buf);
}

static const struct pe_import *find_import(const struct pe_info *pe, const char *dll)
{
	for (size_t i = 0; i < pe->n_imports; i++)
		if (strcasecmp(pe->imports[i].dll, dll) == 0)
			return &pe->imports[i];
	return NULL;
}

static bool has_export(const struct pe_info *pe, const char *name)
{
	for (size_t i = 0; i < pe->n_exports; i++)
		if (pe->exports[i].name && strcmp(pe->exports[i].name, name) == 0)
			return true;
	return false;
}

static void test_cudnn_fixture(void **state)
{
	(void)state;
	unsigned char *buf;
	size_t n;
	need_fixture("x64/cudnn_cnn_infer64_8.dll", &buf, &n);
	struct arena a;
	arena_init(&a);
	struct pe_info pe;
	const char *err = NULL;
	assert_true(pe_parse(span_make(buf, n), &a, &pe, &err));
	assert_int_equal(pe.machine, PE_MACHINE_AMD64);
	assert_string_equal(pe_machine_name(pe.machine), "x64");
	assert_true(pe.pe32plus);
	assert_true(pe.is_dll);
	assert_null(pe.problem);

	const struct pe_import *z = find_import(&pe, "zlibwapi.dll");
	assert_non_null(z);
	assert_false(z->delay);
	assert_int_equal(z->n_funcs, 1);
	assert_string_equal(z->funcs[0], "inflate");
	const struct pe_import *lt = find_import(&pe, "cublasLt64_11.dll");
	assert_non_null(lt);
	assert_false(lt->delay);
	const struct pe_import *nv = find_import(&pe, "nvcuda.dll");
	assert_non_null(nv);
	assert_true(nv->delay);
	assert_int_equal(nv->n_funcs, 1);
	assert_string_equal(nv->funcs[0], "cuInit");
	bool delay = false;
	assert_true(pe_imports_dll(&pe, "NVCUDA.DLL", &delay));
	assert_true(delay);
	assert_false(pe_imports_dll(&pe, "cudart64_12.dll", NULL));

	assert_string_equal(pe.export_name, "cudnn_cnn_infer64_8.dll");
	assert_true(has_export(&pe, "cudnnCnnInferVersionCheck"));
	assert_true(has_export(&pe, "cudnnGetConvolutionForwardWorkspaceSize"));
	assert_int_equal(pe.n_exports, 2);

	assert_true(pe.version.present);
	assert_string_equal(pe_file_version(&a, &pe), "8.9.7.29");
	assert_string_equal(pe_product_version(&a, &pe), "8.9.7.0");
	assert_int_equal(pe.version.file_type, 2);
	assert_string_equal(pe.version.file_version_str, "8.9.7.29");
	assert_string_equal(pe.version.product_version_str, "8.9.7");
	assert_string_equal(pe.version.original_filename, "cudnn_cnn_infer64_8.dll");
	assert_string_equal(pe.version.company, "cudx test fixture");
	arena_free(&a);
	free(buf);
}

static void test_machines(void **state)
{
	(void)state;
	static const struct {
		const char *rel;
		uint16_t machine;
		bool plus;
	} cases[] = {
		{ "x64/zlibwapi.dll", PE_MACHINE_AMD64, true },
		{ "x86/zlibwapi.dll", PE_MACHINE_I386, false },
		{ "arm64/zlibwapi.dll", PE_MACHINE_ARM64, true },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		unsigned char *buf;
		size_t n;
		need_fixture(cases[i].rel, &buf, &n);
		struct arena a;
		arena_init(&a);
		struct pe_info pe;
		const char *err = NULL;
		assert_true(pe_parse(span_make(buf, n), &a, &pe, &err));
		assert_int_equal(pe.machine, cases[i].machine);
		assert_int_equal(pe.pe32plus, cases[i].plus);
		assert_true(has_export(&pe, "inflate"));
		uint16_t m = 0;
		bool dll = false;
		assert_true(pe_ident(span_make(buf, n), &m, &dll, &err));
		assert_int_equal(m, cases[i].machine);
		assert_true(dll);
		arena_free(&a);
		free(buf);
	}
}

static void test_exe_imports(void **state)
{
	(void)state;
	unsigned char *buf;
	size_t n;
	need_fixture("x64/app.exe", &buf, &n);
	struct arena a;
	arena_init(&a);
	struct pe_info pe;
	const char *err = NULL;
	assert_true(pe_parse(span_make(buf, n), &a, &pe, &err));
	assert_false(pe.is_dll);
	const struct pe_import *c = find_import(&pe, "cublas64_11.dll");
	assert_non_null(c);
	assert_string_equal(c->funcs[0], "cublasCreate_v2");
	assert_non_null(find_import(&pe, "cudart64_12.dll"));
	assert_non_null(find_import(&pe, "KERNEL32.dll"));
	arena_free(&a);
	free(buf);
}

static void test_not_pe(void **state)
{
	(void)state;
	struct arena a;
	arena_init(&a);
	struct pe_info pe;
	const char *err = NULL;
	static const unsigned char elf[64] = { 0x7f, 'E', 'L', 'F', 2, 1, 1 };
	assert_false(pe_parse(span_make(elf, sizeof elf), &a, &pe, &err));
	assert_string_equal(err, "not a PE file (no MZ header)");
	assert_false(pe_parse(span_make(elf, 0), &a, &pe, &err));
	/* MZ with e_lfanew pointing far past the end */
	unsigned char mz[64] = { 'M', 'Z' };
	mz[0x3c] = 0xff, mz[0x3d] = 0xff, mz[0x3e] = 0xff, mz[0x3f] = 0x7f;
	err = NULL;
	assert_false(pe_parse(span_make(mz, sizeof mz), &a, &pe, &err));
	assert_non_null(strstr(err, "past the end"));
	/* a DOS program: MZ, e_lfanew inside the file, no PE signature */
	mz[0x3c] = 0x10, mz[0x3d] = 0, mz[0x3e] = 0, mz[0x3f] = 0;
	assert_false(pe_parse(span_make(mz, sizeof mz), &a, &pe, &err));
	assert_non_null(strstr(err, "without PE signature"));
	arena_free(&a);
}

/* Every prefix of a real DLL: parse must never crash, and short prefixes must fail cleanly. */
static void test_truncations(void **state)
{
	(void)state;
	unsigned char *buf;
	size_t n;
	need_fixture("x64/cudnn_cnn_infer64_8.dll", &buf, &n);
	size_t ok = 0, failed = 0;
	for (size_t len = 0; len <= n; len += (len < 1024 ? 1 : 7)) {
		struct arena a;
		arena_init(&a);
		/* a fresh copy so ASan catches any read past len */
		unsigned char *copy = malloc(len ? len : 1);
		memcpy(copy, buf, len);
		struct pe_info pe;
		const char *err = NULL;
		if (pe_parse(span_make(copy, len), &a, &pe, &err)) {
			ok++;
			if (len < n)
				assert_true(pe.problem != NULL || pe.n_imports <= 3);
		} else {
			failed++;
			assert_non_null(err);
		}
		free(copy);
		arena_free(&a);
	}
	assert_true(ok > 0);
	assert_true(failed > 0);
	free(buf);
}

static uint32_t rd32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Export directory that claims 4 billion functions: a clear problem, no huge allocation. */
static void test_lying_export_count(void **state)
{
	(void)state;
	unsigned char *buf;
	size_t n;
	need_fixture("x64/cudnn_cnn_infer64_8.dll", &buf, &n);
	struct arena a;
	arena_init(&a);
	struct pe_info pe;
	const char *err = NULL;
	assert_true(pe_parse(span_make(buf, n), &a, &pe, &err));
	/* locate the export directory's file offset through the section table */
	uint32_t pe_off = rd32(buf + 0x3c);
	size_t opt = pe_off + 24, dirs = opt + 112;
	uint32_t exp_rva = rd32(buf + dirs);
	uint16_t n_sec = (uint16_t)(buf[pe_off + 6] | buf[pe_off + 7] << 8);
	uint16_t opt_size = (uint16_t)(buf[pe_off + 20] | buf[pe_off + 21] << 8);
	size_t exp_off = 0;
	for (uint16_t i = 0; i < n_sec; i++) {
		const unsigned char *s = buf + opt + opt_size + 40u * i;
		uint32_t va = rd32(s + 12), vs = rd32(s + 8), raw = rd32(s + 20);
		if (exp_rva >= va && exp_rva < va + vs)
			exp_off = exp_rva - va + raw;
	}
	assert_true(exp_off > 0 && exp_off + 40 <= n);
	memset(buf + exp_off + 20, 0xff, 4); /* NumberOfFunctions */
	struct pe_info bad;
	assert_true(pe_parse(span_make(buf, n), &a, &bad, &err));
	assert_int_equal(bad.n_exports, 0);
	assert_non_null(bad.problem);
	assert_non_null(strstr(bad.problem, "export"));
	/* the imports are still read */
	assert_non_null(find_import(&bad, "zlibwapi.dll"));
	arena_free(&a);
	free(buf);
}

static void put16(unsigned char *b, size_t off, uint16_t v)
{
	b[off] = (unsigned char)v, b[off + 1] = (unsigned char)(v >> 8);
}

static void put32(unsigned char *b, size_t off, uint32_t v)
{
	put16(b, off, (uint16_t)v), put16(b, off + 2, (uint16_t)(v >> 16));
}

/* A crafted PE32+ DLL (made here: no linker writes this) whose 4096 import descriptors all share
 * one lookup table of 65,535 entries: each descriptor is within its own limit, together they are
 * 268 M imports from a file under 700 KB. by_name: every entry names one function whose name is
 * 4,000 characters long (else they are ordinals). Returns the file (calloc'd) and its size. */
static unsigned char *craft_shared_lookup_table(bool by_name, size_t *size)
{
	enum { HDRS = 0x200, VA = 0x1000, N_DESC = PE_MAX_IMPORT_DLLS, N_THUNK = 65535, LONG = 4000 };
	const size_t desc_bytes = (N_DESC + 1) * 20, name_at = desc_bytes, func_at = name_at + 16;
	const size_t ilt_at = func_at + 2 + LONG + 6, raw = ilt_at + (N_THUNK + 1) * 8, n = HDRS + raw;
	unsigned char *b = calloc(1, n);
	assert_non_null(b);
	b[0] = 'M', b[1] = 'Z';
	put32(b, 0x3c, 0x40);
	memcpy(b + 0x40, "PE\0\0", 4);
	const size_t coff = 0x44, opt = coff + 20, opt_size = 240, sec = opt + opt_size;
	put16(b, coff, 0x8664); /* x64 */
	put16(b, coff + 2, 1);	/* one section */
	put16(b, coff + 16, opt_size);
	put16(b, coff + 18, 0x2022); /* executable image, large address aware, DLL */
	put16(b, opt, 0x20b);	     /* PE32+ */
	put32(b, opt + 60, HDRS);
	put32(b, opt + 108, 16); /* data directories */
	put32(b, opt + 112 + 8, VA);
	put32(b, opt + 112 + 12, (uint32_t)desc_bytes);
	put32(b, sec + 8, (uint32_t)raw); /* virtual size */
	put32(b, sec + 12, VA);
	put32(b, sec + 16, (uint32_t)raw); /* raw size */
	put32(b, sec + 20, HDRS);
	unsigned char *data = b + HDRS;
	for (size_t i = 0; i < N_DESC; i++) {
		put32(data, i * 20, (uint32_t)(VA + ilt_at));	    /* lookup table */
		put32(data, i * 20 + 12, (uint32_t)(VA + name_at)); /* DLL name */
		put32(data, i * 20 + 16, (uint32_t)(VA + ilt_at));  /* address table */
	}
	memcpy(data + name_at, "a.dll", 6);
	memset(data + func_at + 2, 'f', LONG); /* {u16 hint, name} */
	for (size_t i = 0; i < N_THUNK; i++)
		if (by_name) {
			put32(data, ilt_at + i * 8, (uint32_t)(VA + func_at));
		} else {
			put32(data, ilt_at + i * 8, (uint32_t)(i + 1)); /* ordinals 1 to 65535 ... */
			put32(data, ilt_at + i * 8 + 4, 0x80000000u); /* ... by ordinal (bit 63) */
		}
	*size = n;
	return b;
}

/* The reader stops at the limits, quickly and with a problem, instead of allocating gigabytes
 * (before the limits: 5.9 GB and still running after 90 s for the ordinals). */
static void test_shared_lookup_table(void **state)
{
	(void)state;
	for (int by_name = 0; by_name <= 1; by_name++) {
		size_t n;
		unsigned char *b = craft_shared_lookup_table(by_name, &n);
		struct arena a;
		arena_init(&a);
		struct pe_info pe;
		const char *err = NULL;
		assert_true(pe_parse(span_make(b, n), &a, &pe, &err));
		size_t total = 0;
		for (size_t i = 0; i < pe.n_imports; i++)
			total += pe.imports[i].n_funcs;
		assert_true(total <= PE_MAX_IMPORT_FUNCS_TOTAL);
		assert_true(total >= 65535); /* the first DLL's table is read whole */
		assert_non_null(pe.problem);
		assert_non_null(strstr(pe.problem, "limit"));
		if (by_name) { /* names are kept up to the byte limit, then '?' */
			assert_int_equal(strlen(pe.imports[0].funcs[0]), 4000);
		} else {
			assert_string_equal(pe.imports[0].funcs[0], "#1");
			assert_string_equal(pe.imports[0].funcs[9], "#10");
			assert_string_equal(pe.imports[0].funcs[65534], "#65535");
		}
		assert_true(a.total < 64u << 20); /* the names alone would be 1 GB */
		arena_free(&a);
		free(b);
	}
}

int main(void)
{
	fixtures_status = winfix_build();
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cudnn_fixture),
		cmocka_unit_test(test_machines),
		cmocka_unit_test(test_exe_imports),
		cmocka_unit_test(test_not_pe),
		cmocka_unit_test(test_truncations),
		cmocka_unit_test(test_lying_export_count),
		cmocka_unit_test(test_shared_lookup_table),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
