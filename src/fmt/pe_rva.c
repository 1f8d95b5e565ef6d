/* RVA -> section: see pe_rva.h. */
#include "fmt/pe_rva.h"

#include <stdlib.h>

static uint64_t sec_end(const struct pe_section *s)
{
	return (uint64_t)s->va + (s->vsize > s->raw_size ? s->vsize : s->raw_size);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
}

void pe_rva_map_build(struct pe_rva_map *m, const struct pe_section *secs, uint16_t n)
{
	/* Every section starts or ends at a boundary, so between two neighbouring boundaries the set
	 * of sections holding an address does not change, nor does its first member. */
	uint64_t b[2 * PE_RVA_MAX_SECTIONS];
	size_t nb = 0;
	if (n > PE_RVA_MAX_SECTIONS)
		n = PE_RVA_MAX_SECTIONS;
	for (uint16_t i = 0; i < n; i++)
		if (sec_end(&secs[i]) > secs[i].va) {
			b[nb++] = secs[i].va;
			b[nb++] = sec_end(&secs[i]);
		}
	m->n = 0;
	if (nb == 0)
		return; /* no section holds anything: every RVA maps to none */
	qsort(b, nb, sizeof *b, cmp_u64);
	for (size_t k = 0; k < nb; k++) {
		if (b[k] > UINT32_MAX || (k && b[k] == b[k - 1]))
			continue;
		int first = -1;
		for (uint16_t i = 0; i < n && first < 0; i++)
			if (b[k] >= secs[i].va && b[k] < sec_end(&secs[i]))
				first = i;
		if (m->n && m->sec[m->n - 1] == first)
			continue; /* the same holder goes on */
		m->start[m->n] = (uint32_t)b[k];
		m->sec[m->n] = (int8_t)first;
		m->n++;
	}
}

int pe_rva_map_find(const struct pe_rva_map *m, uint32_t rva)
{
	/* the last interval starting at or before rva */
	size_t lo = 0, hi = m->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (m->start[mid] <= rva)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? m->sec[lo - 1] : -1;
}
