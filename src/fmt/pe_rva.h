/* Which section of a PE image holds an RVA. The loader's rule, as pe.c reads it: the first section
 * in the table whose virtual range [va, va + max(vsize, raw_size)) holds it. Sections of a
 * linker's image never overlap, a crafted file's may; either way the table is turned once into
 * sorted, disjoint intervals, each naming its first holder, and a lookup is a binary search
 * instead of a scan of up to 96 sections (a crafted DLL asks for 262,144 import names). */
#ifndef CUDX_PE_RVA_H
#define CUDX_PE_RVA_H

#include <stdint.h>

#define PE_RVA_MAX_SECTIONS 96

struct pe_section {
	uint32_t va, vsize, raw_off, raw_size;
};

struct pe_rva_map {
	/* interval k covers [start[k], start[k + 1]) (the last one up to 2^32); sec[k] is the first
	 * section holding it, or -1 */
	uint32_t start[2 * PE_RVA_MAX_SECTIONS + 1];
	int8_t sec[2 * PE_RVA_MAX_SECTIONS + 1];
	uint16_t n;
};

/* n <= PE_RVA_MAX_SECTIONS. */
void pe_rva_map_build(struct pe_rva_map *m, const struct pe_section *secs, uint16_t n);
/* The index of the first section holding rva, or -1. */
int pe_rva_map_find(const struct pe_rva_map *m, uint32_t rva);

#endif
