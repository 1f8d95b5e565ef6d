/* src/arch: compatibility rules (verdict table), PTX verdicts against the knowledge base's PTX ISA
 * table, summaries, and the verdicts on the real CUDA 13 cuBLAS for a range of GPUs. */
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

#include "arch/arch.h"
#include "fmt/version.h"
#include "kb/kb.h"

/* --- a fatbin_file built by hand (what a scan would return) ---------------------------- */

struct img {
	uint16_t kind;
	uint32_t sm;
	char variant;
	uint16_t major, minor;
};

struct fake {
	struct arena a;
	struct fatbin_file f;
};

static void fake_init(struct fake *x)
{
	memset(x, 0, sizeof *x);
	arena_init(&x->a);
}

static void fake_module(struct fake *x, const struct img *imgs, size_t n)
{
	struct fatbin_file *f = &x->f;
	struct fatbin_container *c = ARENA_PUSH(&x->a, f->containers, f->n_containers, f->cap_containers);
	c->first_entry = (uint32_t)f->n_entries;
	c->n_entries = (uint32_t)n;
	for (size_t i = 0; i < n; i++) {
		struct fatbin_entry *e = ARENA_PUSH(&x->a, f->entries, f->n_entries, f->cap_entries);
		e->kind = imgs[i].kind;
		e->sm = imgs[i].sm;
		e->variant = imgs[i].variant;
		e->major = imgs[i].major ? imgs[i].major : 1;
		e->minor = imgs[i].major ? imgs[i].minor : 8;
		e->container = (uint32_t)(f->n_containers - 1);
		e->header_size = 64;
	}
}

#define SASS(sm, v) { FATBIN_KIND_ELF, sm, v, 0, 0 }
#define PTX(sm, v, ma, mi) { FATBIN_KIND_PTX, sm, v, ma, mi }

static enum arch_verdict judge(struct fake *x, const char *gpu, const char *driver_max_cuda,
			       struct arch_judgement *j)
{
	int ma, mi;
	assert_true(arch_parse_cc(gpu, &ma, &mi));
	arch_judge(&x->f, ma, mi, driver_max_cuda, j);
	return j->verdict;
}

static void test_rules(void **state)
{
	(void)state;
	/* plain SASS: same major, equal or higher minor */
	assert_true(arch_sass_runs(86, 0, 8, 9));
	assert_true(arch_sass_runs(80, 0, 8, 6));
	assert_false(arch_sass_runs(89, 0, 8, 6));
	assert_false(arch_sass_runs(80, 0, 9, 0));
	assert_false(arch_sass_runs(90, 0, 10, 0));
	assert_true(arch_sass_runs(120, 0, 12, 1));
	/* "a": the exact SM only */
	assert_true(arch_sass_runs(90, 'a', 9, 0));
	assert_false(arch_sass_runs(90, 'a', 10, 0));
	assert_false(arch_sass_runs(100, 'a', 10, 3));
	/* "f": the family (sm_100f on 10.0 and 10.3; not on 12.0) */
	assert_true(arch_sass_runs(100, 'f', 10, 0));
	assert_true(arch_sass_runs(100, 'f', 10, 3));
	assert_false(arch_sass_runs(100, 'f', 12, 0));
	assert_false(arch_sass_runs(103, 'f', 10, 0));
	/* PTX: any GPU at or above its target */
	assert_true(arch_ptx_jits(80, 0, 12, 0));
	assert_true(arch_ptx_jits(80, 0, 8, 6));
	assert_false(arch_ptx_jits(80, 0, 7, 5));
	assert_false(arch_ptx_jits(90, 'a', 10, 0));
	assert_true(arch_ptx_jits(90, 'a', 9, 0));
	assert_false(arch_ptx_jits(100, 'f', 12, 0));
	assert_true(arch_ptx_jits(120, 'f', 12, 1));
	/* garbage SM numbers from a file never match */
	assert_false(arch_sass_runs(0, 0, 0, 0));
	assert_false(arch_ptx_jits(4000000000u, 0, 9, 0));
}

static void test_parse_cc(void **state)
{
	(void)state;
	int ma, mi;
	assert_true(arch_parse_cc("sm_86", &ma, &mi));
	assert_int_equal(ma * 10 + mi, 86);
	assert_true(arch_parse_cc("compute_120", &ma, &mi));
	assert_int_equal(ma, 12);
	assert_int_equal(mi, 0);
	assert_true(arch_parse_cc("8.9", &ma, &mi));
	assert_int_equal(ma * 10 + mi, 89);
	assert_true(arch_parse_cc("sm_90a", &ma, &mi));
	assert_int_equal(ma * 10 + mi, 90);
	assert_true(arch_parse_cc("103", &ma, &mi));
	assert_int_equal(ma, 10);
	assert_int_equal(mi, 3);
	assert_false(arch_parse_cc("RTX 3090", &ma, &mi));
	assert_false(arch_parse_cc("sm_", &ma, &mi));
	assert_false(arch_parse_cc("8.10", &ma, &mi));
	assert_false(arch_parse_cc("7", &ma, &mi));
	assert_false(arch_parse_cc("", &ma, &mi));
}

/* The verdict table of issue 5. */
static void test_verdict_table(void **state)
{
	(void)state;
	struct arch_judgement j;
	struct fake x;

	/* sm_86 SASS on an sm_89 GPU (RTX 4090): native */
	fake_init(&x);
	fake_module(&x, (struct img[]){ SASS(86, 0) }, 1);
	assert_int_equal(judge(&x, "sm_89", NULL, &j), ARCH_NATIVE);
	assert_int_equal(j.best_sass->sm, 86);
	assert_int_equal(judge(&x, "sm_80", NULL, &j), ARCH_NO_IMAGE);
	assert_int_equal(j.nearest_sass->sm, 86);
	arena_free(&x.a);

	/* sm_90a on sm_90: native; on sm_100: no kernel image */
	fake_init(&x);
	fake_module(&x, (struct img[]){ SASS(90, 'a') }, 1);
	assert_int_equal(judge(&x, "sm_90", NULL, &j), ARCH_NATIVE);
	assert_int_equal(judge(&x, "sm_100", NULL, &j), ARCH_NO_IMAGE);
	assert_int_equal(j.modules_none, 1);
	arena_free(&x.a);

	/* PTX compute_80 (ISA 7.0, CUDA 11.0) on sm_120: JIT; a CUDA 10.2 driver cannot read it */
	fake_init(&x);
	fake_module(&x, (struct img[]){ SASS(80, 0), PTX(80, 0, 7, 0) }, 2);
	assert_int_equal(judge(&x, "sm_120", NULL, &j), ARCH_PTX_JIT);
	assert_int_equal(j.best_ptx->sm, 80);
	assert_string_equal(j.ptx_needs_cuda, "11.0");
	assert_int_equal(j.driver_ok, -1);
	assert_int_equal(judge(&x, "sm_120", "12.8", &j), ARCH_PTX_JIT);
	assert_int_equal(j.driver_ok, 1);
	assert_int_equal(judge(&x, "sm_120", "10.2", &j), ARCH_NO_IMAGE);
	assert_int_equal(j.driver_ok, 0);
	assert_int_equal(j.modules_jit_driver_too_old, 1);
	/* the SASS wins where it runs: sm_86 runs sm_80 natively */
	assert_int_equal(judge(&x, "8.6", "10.2", &j), ARCH_NATIVE);
	arena_free(&x.a);

	/* PTX ISA 8.6 came with the never-released CUDA 12.7: it needs a 12.8 driver */
	fake_init(&x);
	fake_module(&x, (struct img[]){ PTX(90, 0, 8, 6) }, 1);
	assert_int_equal(judge(&x, "sm_90", "12.6", &j), ARCH_NO_IMAGE);
	assert_string_equal(j.ptx_needs_cuda, "12.8");
	assert_int_equal(judge(&x, "sm_90", "12.8", &j), ARCH_PTX_JIT);
	arena_free(&x.a);

	/* partial coverage: one module native, one only via PTX, one with nothing for this GPU */
	fake_init(&x);
	fake_module(&x, (struct img[]){ SASS(86, 0) }, 1);
	fake_module(&x, (struct img[]){ SASS(75, 0), PTX(75, 0, 9, 0) }, 2);
	fake_module(&x, (struct img[]){ SASS(90, 'a') }, 1);
	assert_int_equal(judge(&x, "sm_86", NULL, &j), ARCH_NATIVE);
	assert_int_equal(j.modules, 3);
	assert_int_equal(j.modules_native, 1); /* sm_75 SASS does not run on 8.6 ... */
	assert_int_equal(j.modules_jit, 1);    /* ... but its compute_75 PTX JITs */
	assert_int_equal(j.modules_none, 1);   /* sm_90a: nothing for 8.6 */
	arena_free(&x.a);

	/* a library built for newer GPUs that kept one old module: sparse, judged no kernel image */
	fake_init(&x);
	for (int i = 0; i < 20; i++)
		fake_module(&x, (struct img[]){ SASS(86, 0), SASS(90, 0) }, 2);
	fake_module(&x, (struct img[]){ SASS(70, 0) }, 1);
	assert_int_equal(judge(&x, "sm_70", NULL, &j), ARCH_NO_IMAGE);
	assert_true(j.sparse);
	assert_int_equal(j.modules_native, 1);
	assert_int_equal(j.reference_native, 20);
	assert_int_equal(judge(&x, "sm_90", NULL, &j), ARCH_NATIVE);
	assert_false(j.sparse);
	arena_free(&x.a);

	/* LTO-IR-only modules (cuFFT) are neither loadable nor missing code */
	fake_init(&x);
	fake_module(&x, (struct img[]){ SASS(86, 0) }, 1);
	fake_module(&x, (struct img[]){ { FATBIN_KIND_LTOIR, 75, 0, 0, 0 } }, 1);
	assert_int_equal(judge(&x, "sm_86", NULL, &j), ARCH_NATIVE);
	assert_int_equal(j.modules_ltoir_only, 1);
	assert_int_equal(j.modules_none, 0);
	arena_free(&x.a);

	/* no fat binary at all */
	fake_init(&x);
	assert_int_equal(judge(&x, "sm_86", NULL, &j), ARCH_NO_GPU_CODE);
	arena_free(&x.a);
}

static void test_summary(void **state)
{
	(void)state;
	struct fake x;
	fake_init(&x);
	fake_module(&x, (struct img[]){ SASS(90, 0), SASS(75, 0), PTX(120, 0, 9, 0) }, 3);
	fake_module(&x, (struct img[]){ SASS(90, 'a'), SASS(90, 0), PTX(120, 0, 8, 8) }, 3);
	struct arch_summary s;
	arch_summarize(&x.f, &x.a, &s);
	assert_int_equal(s.n_entries, 6);
	assert_int_equal(s.n_sass, 4);
	assert_int_equal(s.n_ptx, 2);
	assert_int_equal(s.n_targets, 4);
	/* SASS first, by SM, plain before "a"; then PTX */
	assert_int_equal(s.targets[0].sm, 75);
	assert_int_equal(s.targets[1].sm, 90);
	assert_int_equal(s.targets[1].count, 2);
	assert_int_equal(s.targets[2].variant, 'a');
	assert_int_equal(s.targets[3].kind, FATBIN_KIND_PTX);
	assert_int_equal(s.targets[3].isa_min_major * 10 + s.targets[3].isa_min_minor, 88);
	assert_int_equal(s.targets[3].isa_max_major * 10 + s.targets[3].isa_max_minor, 90);
	arena_free(&x.a);
}

/* The PTX verdicts follow the knowledge base's PTX ISA table (data/ptx_isa.tsv) row by row: PTX
 * of each ISA JITs with a driver for the row's CUDA version and not with the driver of the
 * previous (lower) one; an ISA newer than the table cannot be judged against the driver. */
static void test_ptx_verdicts_follow_kb(void **state)
{
	(void)state;
	const struct kb_ptx_isa *rows;
	size_t n = kb_ptx_isa_rows(&rows);
	assert_true(n >= 40); /* ISA 1.0 .. 9.1 */
	const char *older = NULL; /* the highest driver_cuda below the current row's */
	for (size_t i = 0; i < n; i++) {
		int ma, mi;
		assert_int_equal(sscanf(rows[i].ptx_isa, "%d.%d", &ma, &mi), 2);
		assert_string_equal(arch_ptx_jit_needs_cuda(ma, mi), rows[i].driver_cuda);
		struct fake x;
		struct arch_judgement j;
		fake_init(&x);
		fake_module(&x, (struct img[]){ PTX(80, 0, (uint16_t)ma, (uint16_t)mi) }, 1);
		assert_int_equal(judge(&x, "sm_120", rows[i].driver_cuda, &j), ARCH_PTX_JIT);
		assert_string_equal(j.ptx_needs_cuda, rows[i].driver_cuda);
		assert_int_equal(j.ptx_isa_major * 100 + j.ptx_isa_minor, ma * 100 + mi);
		assert_int_equal(j.driver_ok, 1);
		if (older) {
			assert_int_equal(judge(&x, "sm_120", older, &j), ARCH_NO_IMAGE);
			assert_int_equal(j.driver_ok, 0);
			assert_int_equal(j.modules_jit_driver_too_old, 1);
		}
		arena_free(&x.a);
		if (i + 1 < n && version_strcmp(rows[i].driver_cuda, rows[i + 1].driver_cuda) < 0)
			older = rows[i].driver_cuda;
	}
	/* ISA 8.6 and 8.7 share the 12.8 driver floor: a 12.6 driver reads neither */
	assert_string_equal(arch_ptx_jit_needs_cuda(8, 6), "12.8");
	assert_string_equal(arch_ptx_jit_needs_cuda(8, 7), "12.8");

	/* newer than the table: JIT-able as far as the GPU goes, the driver cannot be judged */
	assert_null(arch_ptx_jit_needs_cuda(99, 9));
	struct fake x;
	struct arch_judgement j;
	fake_init(&x);
	fake_module(&x, (struct img[]){ PTX(80, 0, 99, 9) }, 1);
	assert_int_equal(judge(&x, "sm_120", "10.2", &j), ARCH_PTX_JIT);
	assert_null(j.ptx_needs_cuda);
	assert_int_equal(j.driver_ok, -1);
	assert_int_equal(j.modules_jit, 1);
	arena_free(&x.a);
}

/* Verdicts on the real CUDA 13 cuBLAS: SASS sm_75..120 and PTX compute_120 (ISA 9.0). */
static void test_real_cublas13_verdicts(void **state)
{
	(void)state;
	const char *path = "/usr/local/cuda/lib64/libcublas.so.13";
	int fd = open(path, O_RDONLY);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) != 0) {
		fprintf(stderr, "SKIP: %s not readable\n", path);
		if (fd >= 0)
			close(fd);
		skip();
	}
	void *p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	assert_true(p != MAP_FAILED);
	struct arena a;
	arena_init(&a);
	struct fatbin_file f;
	fatbin_scan(span_make(p, (size_t)st.st_size), &a, NULL, &f);
	struct arch_judgement j;

	arch_judge(&f, 6, 1, NULL, &j); /* Pascal: CUDA 13 dropped it */
	assert_int_equal(j.verdict, ARCH_NO_IMAGE);
	assert_int_equal(j.modules_none, 193);
	assert_int_equal(j.nearest_sass->sm, 75);

	arch_judge(&f, 8, 9, NULL, &j); /* Ada runs the sm_86/sm_80 SASS */
	assert_int_equal(j.verdict, ARCH_NATIVE);
	assert_int_equal(j.best_sass->sm, 86);
	/* two modules hold only sm_75 and only sm_120 (+compute_120) code: nothing for 8.9 */
	assert_int_equal(j.modules_native, 191);
	assert_int_equal(j.modules_none, 2);

	arch_judge(&f, 12, 1, "13.0", &j); /* GB10: sm_120 SASS */
	assert_int_equal(j.verdict, ARCH_NATIVE);
	assert_int_equal(j.best_sass->sm, 120);

	arch_judge(&f, 13, 0, "12.9", &j); /* a future CC 13.0 GPU: only the PTX, ISA 9.0 needs CUDA 13.0 */
	assert_int_equal(j.verdict, ARCH_NO_IMAGE);
	assert_int_equal(j.driver_ok, 0);
	arch_judge(&f, 13, 0, "13.0", &j);
	assert_int_equal(j.verdict, ARCH_PTX_JIT);
	assert_int_equal(j.ptx_isa_major * 10 + j.ptx_isa_minor, 90);

	arena_free(&a);
	munmap(p, (size_t)st.st_size);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rules),
		cmocka_unit_test(test_parse_cc),
		cmocka_unit_test(test_verdict_table),
		cmocka_unit_test(test_summary),
		cmocka_unit_test(test_ptx_verdicts_follow_kb),
		cmocka_unit_test(test_real_cublas13_verdicts),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
