/* Framework facts (data/python/frameworks_extra.tsv, compiled into python_facts.c; test_py_facts keeps
 * the two equal). Only the python module reads them, through these lookups. When src/kb/ gains
 * framework tables these become thin wrappers over kb_*. */
#ifndef CUDX_PYTHON_FACTS_H
#define CUDX_PYTHON_FACTS_H

#include <stddef.h>

struct py_fact {
	const char *kind, *framework, *version, *cuda, *cudnn, *os, *extra, *source;
};

extern const struct py_fact py_facts[];
extern const size_t py_n_facts;

/* The build row for a release: framework equal, row version a prefix of version (at a dot
 * boundary; "-" matches any), os equal ("linux"/"windows"); when cuda is given, the row whose
 * CUDA major.minor equals it wins (torch has one row per CUDA variant). NULL when none. */
const struct py_fact *py_fact_build(const char *framework, const char *version, const char *cuda,
				    const char *os);
/* The file name a framework dlopens for a component ("cudnn", 9 -> "libcudnn.so.9"), or NULL. */
const char *py_fact_soname(const char *component, int major);
/* The loads row of a framework, or NULL. */
const struct py_fact *py_fact_loads(const char *framework);

/* Minor-version-compatibility floor of a CUDA major (fallback for kb_minor_compat_floor). */
const char *py_fact_floor(int cuda_major, const char *os);

#endif
