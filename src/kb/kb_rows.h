/* Row types of the generated tables (gen/kb_tables.c includes this). The public row types live in
 * kb.h; this adds what only the kb module and its integrity tests need. */
#ifndef CUDX_KB_ROWS_H
#define CUDX_KB_ROWS_H

#include <stdbool.h>
#include <stddef.h>

#include "kb/kb.h"

/* One entry per generated table, for the integrity tests and `cudx kb tables`. */
struct kb_table_meta {
	const char *file;  /* "data/cuda_driver.tsv" */
	const char *array; /* "kbt_cuda_release" */
	int rows;
	bool has_source;   /* every table but sources.tsv has a source column */
};

#endif
