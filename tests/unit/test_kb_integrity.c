/* Integrity of the knowledge tables: every table has rows and sources, every source key resolves,
 * versions are well formed, keys are unique beyond spelling (12.4 vs 12.4.0), driver minimums never
 * decrease with the CUDA version inside a major, and every name the catalogue holds classifies back
 * to itself. The generator already rejects malformed rows at build time; these checks cover what
 * needs more than one row. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "fmt/version.h"
#include "kb/kb.h"
#include "kb/kb_rows.h"
#include "kb_tables.h"

static void check_sources(const struct kb_fact *f, const char *what)
{
	char buf[256];
	if (!f->source || !f->source[0])
		fail_msg("%s: no source", what);
	snprintf(buf, sizeof buf, "%s", f->source);
	for (char *save = NULL, *k = strtok_r(buf, ",", &save); k; k = strtok_r(NULL, ",", &save))
		if (!kb_source(k))
			fail_msg("%s: unknown source key '%s'", what, k);
}

static void every_table_has_rows_and_sources(void **state)
{
	(void)state;
	assert_true(kbt_meta_n >= 12);
	for (size_t i = 0; i < kbt_meta_n; i++) {
		assert_true(kbt_meta[i].rows > 0);
		if (strstr(kbt_meta[i].file, "sources.tsv"))
			continue;
		if (!kbt_meta[i].has_source)
			fail_msg("%s has no source column", kbt_meta[i].file);
	}
	for (size_t i = 0; i < kbt_source_n; i++)
		assert_non_null(kbt_source[i].title);
}

static void every_row_has_known_sources(void **state)
{
	(void)state;
	char what[128];
#define CHECK_TABLE(arr)                                                        \
	for (size_t i = 0; i < arr##_n; i++) {                                  \
		snprintf(what, sizeof what, "%s row %zu", #arr, i + 1);         \
		check_sources(&arr[i].fact, what);                              \
	}
	CHECK_TABLE(kbt_cuda_release)
	CHECK_TABLE(kbt_minor_compat)
	CHECK_TABLE(kbt_version_encoding)
	CHECK_TABLE(kbt_arch)
	CHECK_TABLE(kbt_gpu)
	CHECK_TABLE(kbt_lib)
	CHECK_TABLE(kbt_lib_edge)
	CHECK_TABLE(kbt_pip_wheel)
	CHECK_TABLE(kbt_cudnn)
	CHECK_TABLE(kbt_error)
	CHECK_TABLE(kbt_tf_build)
	CHECK_TABLE(kbt_torch)
	CHECK_TABLE(kbt_framework)
	CHECK_TABLE(kbt_framework_load)
	CHECK_TABLE(kbt_ptx_isa)
#undef CHECK_TABLE
}

static void cuda_releases_are_well_formed_and_unique(void **state)
{
	(void)state;
	struct version a, b, s;
	for (size_t i = 0; i < kbt_cuda_release_n; i++) {
		const struct kb_cuda_release *r = &kbt_cuda_release[i];
		assert_true(version_parse(r->cuda, &a));
		assert_true(version_parse(r->series, &s));
		assert_int_equal(s.n, 2);
		/* the release belongs to its series */
		assert_int_equal(version_cmp_parts(&a, &s, 2), 0);
		if (r->linux_driver)
			assert_true(version_parse(r->linux_driver, &b) && b.part[0] >= r->branch);
		else
			assert_true(r->branch > 0);
		for (size_t j = i + 1; j < kbt_cuda_release_n; j++) {
			assert_true(version_parse(kbt_cuda_release[j].cuda, &b));
			if (version_cmp(&a, &b) == 0)
				fail_msg("CUDA %s and %s are the same release", r->cuda, kbt_cuda_release[j].cuda);
		}
	}
}

/* Inside one CUDA major, a later release never needs an older driver (Linux, Windows, branch). */
static void driver_minimums_never_decrease_within_a_major(void **state)
{
	(void)state;
	for (size_t i = 0; i < kbt_cuda_release_n; i++) {
		for (size_t j = 0; j < kbt_cuda_release_n; j++) {
			const struct kb_cuda_release *x = &kbt_cuda_release[i], *y = &kbt_cuda_release[j];
			struct version vx, vy;
			version_parse(x->cuda, &vx);
			version_parse(y->cuda, &vy);
			if (vx.part[0] != vy.part[0] || version_cmp(&vx, &vy) >= 0)
				continue;
			if (y->branch < x->branch)
				fail_msg("CUDA %s has branch %d < %d of %s", y->cuda, y->branch, x->branch, x->cuda);
			if (x->linux_driver && y->linux_driver && version_strcmp(y->linux_driver, x->linux_driver) < 0)
				fail_msg("CUDA %s needs Linux %s < %s of CUDA %s", y->cuda, y->linux_driver, x->linux_driver,
					 x->cuda);
			if (x->windows_driver && y->windows_driver &&
			    version_strcmp(y->windows_driver, x->windows_driver) < 0)
				fail_msg("CUDA %s needs Windows %s < %s of CUDA %s", y->cuda, y->windows_driver,
					 x->windows_driver, x->cuda);
		}
	}
}

static void minor_compat_floors_fit_the_releases(void **state)
{
	(void)state;
	for (size_t i = 0; i < kbt_minor_compat_n; i++) {
		const struct kb_minor_compat *m = &kbt_minor_compat[i];
		struct version f;
		assert_true(version_parse(m->floor, &f));
		assert_true(f.part[0] >= m->branch_min);
		assert_true(m->branch_max == 0 || f.part[0] < m->branch_max);
		/* the floor is no newer than the major's newest toolkit minimum */
		char ga[16];
		snprintf(ga, sizeof ga, "%d.0", m->cuda_major);
		const struct kb_cuda_release *r = kb_cuda_release(ga);
		assert_non_null(r);
		const char *need = kb_cuda_release_driver(r, m->os);
		if (need && m->cuda_major != 11) /* 11.0 GA predates the 11.x floor (450.80.02) */
			assert_true(version_strcmp(m->floor, need) <= 0);
	}
}

static void arch_rows_are_ordered(void **state)
{
	(void)state;
	for (size_t i = 0; i < kbt_arch_n; i++) {
		const struct kb_arch_support *a = &kbt_arch[i];
		if (a->removed)
			assert_true(version_strcmp(a->added, a->removed) < 0);
		if (a->deprecated) {
			assert_true(version_strcmp(a->added, a->deprecated) <= 0);
			assert_true(!a->removed || version_strcmp(a->deprecated, a->removed) < 0);
		}
		/* every SM has a GPU row standing for its compute capability */
		char sm[16];
		snprintf(sm, sizeof sm, "sm_%d", a->sm);
		const struct kb_gpu *g = kb_gpu_lookup(sm);
		if (!g)
			fail_msg("%s has no compute-capability row in gpus.tsv", sm);
		assert_int_equal(g->cc_major * 10 + g->cc_minor, a->sm);
	}
}

static void every_gpu_name_finds_itself(void **state)
{
	(void)state;
	for (size_t i = 0; i < kbt_gpu_n; i++) {
		const struct kb_gpu *g = &kbt_gpu[i];
		if (strcmp(g->segment, "arch") == 0)
			continue;
		const struct kb_gpu *h = kb_gpu_lookup(g->name);
		if (h != g)
			fail_msg("'%s' looks up as '%s'", g->name, h ? h->name : "(none)");
		char sm[16];
		snprintf(sm, sizeof sm, "%d.%d", g->cc_major, g->cc_minor);
		if (!kb_gpu_lookup(sm))
			fail_msg("%s: compute capability %s has no arch row", g->name, sm);
	}
}

static void every_library_name_classifies_as_itself(void **state)
{
	(void)state;
	for (size_t i = 0; i < kbt_lib_n; i++) {
		const struct kb_lib *l = &kbt_lib[i];
		size_t n = strlen(l->name);
		if (l->os == OS_WINDOWS)
			assert_true(n > 4 && strcmp(l->name + n - 4, ".dll") == 0);
		else
			assert_non_null(strstr(l->name, ".so"));
		const struct kb_lib *c = kb_lib_classify(l->name, l->os);
		if (!c || strcmp(c->name, l->name) != 0)
			fail_msg("%s classifies as %s", l->name, c ? c->name : "(none)");
		if (l->pip_wheel)
			assert_non_null(l->pip_dir);
		if (!l->cuda_major && strcmp(l->family, "cudnn") == 0)
			assert_null(l->pip_wheel); /* cuDNN's wheel depends on the CUDA major: pip_wheels.tsv */
	}
}

static void dlopen_edges_name_known_libraries(void **state)
{
	(void)state;
	for (size_t i = 0; i < kbt_lib_edge_n; i++) {
		const struct kb_lib_edge *e = &kbt_lib_edge[i];
		if (!kb_lib_classify(e->from, e->os))
			fail_msg("dlopen edge from unknown library %s", e->from);
		if (!kb_lib_classify(e->to, e->os))
			fail_msg("dlopen edge to unknown library %s", e->to);
		assert_string_equal(kbt_lib_edge_to[i], e->to);
	}
}

static void cudnn_rows_ascend_without_overlap(void **state)
{
	(void)state;
	for (size_t i = 0; i < kbt_cudnn_n; i++) {
		const struct kb_cudnn_release *r = &kbt_cudnn[i];
		const char *end = r->last ? r->last : r->version;
		assert_true(version_strcmp(r->version, end) <= 0);
		if (i + 1 < kbt_cudnn_n && version_strcmp(end, kbt_cudnn[i + 1].version) >= 0)
			fail_msg("cuDNN rows %s..%s and %s overlap or are out of order", r->version, end,
				 kbt_cudnn[i + 1].version);
	}
}

static void error_names_are_unique_per_api(void **state)
{
	(void)state;
	for (size_t i = 0; i < kbt_error_n; i++) {
		const struct kb_error *e = &kbt_error[i];
		assert_true(e->text[0] != '\0');
		for (size_t j = i + 1; j < kbt_error_n; j++)
			if (strcmp(e->api, kbt_error[j].api) == 0 && strcmp(e->name, kbt_error[j].name) == 0)
				fail_msg("%s %s appears twice", e->api, e->name);
		assert_ptr_equal(kb_error_lookup(e->api, e->code), e);
	}
}

static void framework_rows_are_consistent(void **state)
{
	(void)state;
	struct version v;
	for (size_t i = 0; i < kbt_torch_n; i++) {
		const struct kb_torch_variant *t = &kbt_torch[i];
		/* cu124 <-> 12.4 */
		char want[16];
		assert_true(version_parse(t->cuda, &v));
		snprintf(want, sizeof want, "cu%d%d", v.part[0], v.part[1]);
		assert_string_equal(t->variant, want);
		if (t->cudnn)
			assert_true(version_parse(t->cudnn, &v) && v.n == 4);
	}
	for (size_t i = 0; i < kbt_tf_build_n; i++)
		if (kbt_tf_build[i].last)
			assert_true(version_strcmp(kbt_tf_build[i].version, kbt_tf_build[i].last) < 0);
	for (size_t i = 0; i < kbt_framework_n; i++) {
		const struct kb_framework_req *f = &kbt_framework[i];
		/* the row's own first version falls inside it */
		const struct kb_framework_req *out[16];
		size_t n = kb_framework_find(f->framework, f->version, out, 16);
		bool found = false;
		for (size_t k = 0; k < n && k < 16; k++)
			found |= out[k] == f;
		if (!found)
			fail_msg("%s %s is not found by its own version", f->framework, f->version);
	}
}

/* Framework load rows name catalogue components; PTX ISA rows ascend with their CUDA release. */
static void framework_loads_and_ptx_rows_are_consistent(void **state)
{
	(void)state;
	for (size_t i = 0; i < kbt_framework_load_n; i++) {
		char buf[256];
		snprintf(buf, sizeof buf, "%s", kbt_framework_load[i].components);
		for (char *save = NULL, *c = strtok_r(buf, ",", &save); c; c = strtok_r(NULL, ",", &save)) {
			const struct kb_lib *rows[1];
			if (!kb_lib_find(c, 0, kbt_framework_load[i].os, rows, 1))
				fail_msg("%s loads unknown component %s", kbt_framework_load[i].framework, c);
		}
		assert_true(strcmp(kbt_framework_load[i].how, "needed") == 0 || strcmp(kbt_framework_load[i].how, "dlopen") == 0);
	}
	for (size_t i = 0; i < kbt_ptx_isa_n; i++) {
		const struct kb_ptx_isa *p = &kbt_ptx_isa[i];
		assert_true(version_strcmp(p->cuda, p->driver_cuda) <= 0);
		if (i + 1 < kbt_ptx_isa_n) {
			assert_true(version_strcmp(p->ptx_isa, kbt_ptx_isa[i + 1].ptx_isa) < 0);
			assert_true(version_strcmp(p->cuda, kbt_ptx_isa[i + 1].cuda) < 0);
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_table_has_rows_and_sources),
		cmocka_unit_test(every_row_has_known_sources),
		cmocka_unit_test(cuda_releases_are_well_formed_and_unique),
		cmocka_unit_test(driver_minimums_never_decrease_within_a_major),
		cmocka_unit_test(minor_compat_floors_fit_the_releases),
		cmocka_unit_test(arch_rows_are_ordered),
		cmocka_unit_test(every_gpu_name_finds_itself),
		cmocka_unit_test(every_library_name_classifies_as_itself),
		cmocka_unit_test(dlopen_edges_name_known_libraries),
		cmocka_unit_test(cudnn_rows_ascend_without_overlap),
		cmocka_unit_test(error_names_are_unique_per_api),
		cmocka_unit_test(framework_rows_are_consistent),
		cmocka_unit_test(framework_loads_and_ptx_rows_are_consistent),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
