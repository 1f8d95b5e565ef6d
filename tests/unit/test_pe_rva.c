/* The PE section map gives, for every RVA, the section the reader's rule gives: the first section in
 * the table whose virtual range [va, va + max(vsize, raw_size)) holds it. Checked against that rule
 * written as the plain scan it replaced, on hand-made overlapping tables and on random ones with
 * ranges that touch, nest, are empty or run past 4 GB. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "fmt/pe_rva.h"

static int first_holder(const struct pe_section *s, uint16_t n, uint32_t rva)
{
	for (uint16_t i = 0; i < n; i++) {
		uint32_t len = s[i].vsize > s[i].raw_size ? s[i].vsize : s[i].raw_size;
		if (rva >= s[i].va && (uint64_t)rva < (uint64_t)s[i].va + len)
			return i;
	}
	return -1;
}

/* every boundary of every section, and its neighbours, plus the ends of the address space */
static void check_all_edges(const struct pe_section *s, uint16_t n)
{
	struct pe_rva_map m;
	pe_rva_map_build(&m, s, n);
	uint32_t probes[] = { 0, 1, UINT32_MAX - 1, UINT32_MAX };
	for (size_t p = 0; p < sizeof probes / sizeof *probes; p++)
		assert_int_equal(pe_rva_map_find(&m, probes[p]), first_holder(s, n, probes[p]));
	for (uint16_t i = 0; i < n; i++) {
		uint32_t len = s[i].vsize > s[i].raw_size ? s[i].vsize : s[i].raw_size;
		uint64_t edges[] = { s[i].va, (uint64_t)s[i].va + len };
		for (size_t e = 0; e < 2; e++)
			for (int64_t d = -1; d <= 1; d++) {
				int64_t rva = (int64_t)edges[e] + d;
				if (rva < 0 || rva > UINT32_MAX)
					continue;
				assert_int_equal(pe_rva_map_find(&m, (uint32_t)rva), first_holder(s, n, (uint32_t)rva));
			}
	}
}

static void linker_layout(void **state)
{
	(void)state;
	/* .text .rdata .data (a .bss-like tail) .reloc, as a linker lays them out */
	struct pe_section s[] = {
		{ 0x1000, 0x1234, 0x400, 0x1400 },
		{ 0x3000, 0x800, 0x1800, 0x800 },
		{ 0x4000, 0x3000, 0x2000, 0x200 },
		{ 0x7000, 0x40, 0x2200, 0x200 },
	};
	struct pe_rva_map m;
	pe_rva_map_build(&m, s, 4);
	assert_int_equal(pe_rva_map_find(&m, 0xfff), -1);
	assert_int_equal(pe_rva_map_find(&m, 0x1000), 0);
	assert_int_equal(pe_rva_map_find(&m, 0x23ff), 0); /* past vsize, inside the raw data */
	assert_int_equal(pe_rva_map_find(&m, 0x2400), -1);
	assert_int_equal(pe_rva_map_find(&m, 0x2800), -1);
	assert_int_equal(pe_rva_map_find(&m, 0x6fff), 2);
	assert_int_equal(pe_rva_map_find(&m, 0x7200), -1);
	check_all_edges(s, 4);
}

static void overlapping(void **state)
{
	(void)state;
	/* a crafted table: section 0 spans everything after it, section 2 nests in 1, section 3 is
	 * empty, section 4 runs past 4 GB */
	struct pe_section s[] = {
		{ 0x1000, 0x13b8, 0x3ff, 0xfffc1400 },
		{ 0x800, 0x1000, 0, 0x10 },
		{ 0x900, 0x10, 0, 0 },
		{ 0x5000, 0, 0, 0 },
		{ 0xfff00000, 0xffffffff, 0, 4 },
	};
	struct pe_rva_map m;
	pe_rva_map_build(&m, s, 5);
	assert_int_equal(pe_rva_map_find(&m, 0x900), 1); /* 2 holds it too, but comes later */
	assert_int_equal(pe_rva_map_find(&m, 0x1000), 0);
	assert_int_equal(pe_rva_map_find(&m, 0x5000), 0);
	assert_int_equal(pe_rva_map_find(&m, 0xfffc2400), 4);
	assert_int_equal(pe_rva_map_find(&m, UINT32_MAX), 4);
	check_all_edges(s, 5);
}

static uint32_t rnd(uint64_t *x)
{
	*x ^= *x << 13, *x ^= *x >> 7, *x ^= *x << 17; /* xorshift64: the same tables every run */
	return (uint32_t)(*x >> 16);
}

static void random_tables(void **state)
{
	(void)state;
	uint64_t x = 0x9e3779b97f4a7c15u;
	struct pe_section s[PE_RVA_MAX_SECTIONS];
	for (int t = 0; t < 3000; t++) {
		uint16_t n = (uint16_t)(rnd(&x) % (t < 2900 ? 9 : PE_RVA_MAX_SECTIONS + 1));
		for (uint16_t i = 0; i < n; i++) {
			/* mostly small values so that ranges meet; now and then anywhere in 32 bits */
			uint32_t v[4];
			for (int j = 0; j < 4; j++)
				v[j] = rnd(&x) % 4 == 0 ? rnd(&x) << 16 | rnd(&x) : rnd(&x) % 0x4000;
			s[i] = (struct pe_section){ v[0], v[1], v[2], v[3] };
		}
		check_all_edges(s, n);
		struct pe_rva_map m;
		pe_rva_map_build(&m, s, n);
		for (int q = 0; q < 64; q++) {
			uint32_t rva = q % 2 ? rnd(&x) % 0x8000 : rnd(&x) << 16 | rnd(&x);
			assert_int_equal(pe_rva_map_find(&m, rva), first_holder(s, n, rva));
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(linker_layout),
		cmocka_unit_test(overlapping),
		cmocka_unit_test(random_tables),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
