/* PTX ISA -> CUDA release. Mirrors data/arch/ptx_isa.tsv row for row (the source of truth);
 * tests/unit/test_arch.c checks that the two agree, so edit the TSV and this table together.
 * When the kb generates the table (struct kb_ptx_isa), this file becomes a lookup over it. */
#include "arch/arch.h"

#define SRC_CUDA_PYTHON "S6: NVIDIA cuda-python cuda/bindings/utils/_ptx_utils.py (PTX ISA release history)"

static const struct arch_ptx_isa table[] = {
	{ 1, 0, "1.0", "1.0", SRC_CUDA_PYTHON },
	{ 1, 1, "1.1", "1.1", SRC_CUDA_PYTHON },
	{ 1, 2, "2.0", "2.0", SRC_CUDA_PYTHON },
	{ 1, 3, "2.1", "2.1", SRC_CUDA_PYTHON },
	{ 1, 4, "2.2", "2.2", SRC_CUDA_PYTHON },
	{ 2, 0, "3.0", "3.0", SRC_CUDA_PYTHON },
	{ 2, 1, "3.1", "3.1", SRC_CUDA_PYTHON },
	{ 2, 2, "3.2", "3.2", SRC_CUDA_PYTHON },
	{ 2, 3, "4.0", "4.0", SRC_CUDA_PYTHON },
	{ 3, 0, "4.1", "4.1", SRC_CUDA_PYTHON },
	{ 3, 1, "5.0", "5.0", SRC_CUDA_PYTHON },
	{ 3, 2, "5.5", "5.5", SRC_CUDA_PYTHON },
	{ 4, 0, "6.0", "6.0", SRC_CUDA_PYTHON },
	{ 4, 1, "6.5", "6.5", SRC_CUDA_PYTHON },
	{ 4, 2, "7.0", "7.0", SRC_CUDA_PYTHON },
	{ 4, 3, "7.5", "7.5", SRC_CUDA_PYTHON },
	{ 5, 0, "8.0", "8.0", SRC_CUDA_PYTHON },
	{ 6, 0, "9.0", "9.0", SRC_CUDA_PYTHON },
	{ 6, 1, "9.1", "9.1", SRC_CUDA_PYTHON },
	{ 6, 2, "9.2", "9.2", SRC_CUDA_PYTHON },
	{ 6, 3, "10.0", "10.0", SRC_CUDA_PYTHON },
	{ 6, 4, "10.1", "10.1", SRC_CUDA_PYTHON },
	{ 6, 5, "10.2", "10.2", SRC_CUDA_PYTHON },
	{ 7, 0, "11.0", "11.0", SRC_CUDA_PYTHON },
	{ 7, 1, "11.1", "11.1", SRC_CUDA_PYTHON },
	{ 7, 2, "11.2", "11.2", SRC_CUDA_PYTHON },
	{ 7, 3, "11.3", "11.3", SRC_CUDA_PYTHON },
	{ 7, 4, "11.4", "11.4", SRC_CUDA_PYTHON },
	{ 7, 5, "11.5", "11.5", SRC_CUDA_PYTHON },
	{ 7, 6, "11.6", "11.6", SRC_CUDA_PYTHON },
	{ 7, 7, "11.7", "11.7", SRC_CUDA_PYTHON },
	{ 7, 8, "11.8", "11.8", SRC_CUDA_PYTHON },
	{ 8, 0, "12.0", "12.0", SRC_CUDA_PYTHON },
	{ 8, 1, "12.1", "12.1", SRC_CUDA_PYTHON },
	{ 8, 2, "12.2", "12.2", SRC_CUDA_PYTHON },
	{ 8, 3, "12.3", "12.3", SRC_CUDA_PYTHON },
	{ 8, 4, "12.4", "12.4", SRC_CUDA_PYTHON },
	{ 8, 5, "12.5", "12.5", SRC_CUDA_PYTHON },
	{ 8, 6, "12.7", "12.8", SRC_CUDA_PYTHON },
	{ 8, 7, "12.8", "12.8", SRC_CUDA_PYTHON },
	{ 8, 8, "12.9", "12.9", SRC_CUDA_PYTHON },
	{ 9, 0, "13.0", "13.0", SRC_CUDA_PYTHON },
	{ 9, 1, "13.1", "13.1", SRC_CUDA_PYTHON },
};

size_t arch_ptx_isa_rows(const struct arch_ptx_isa **rows)
{
	*rows = table;
	return sizeof table / sizeof table[0];
}

const struct arch_ptx_isa *arch_ptx_isa_lookup(int major, int minor)
{
	for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
		if (table[i].major == major && table[i].minor == minor)
			return &table[i];
	return NULL;
}
