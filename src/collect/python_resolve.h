/* How the python module asks "where would the loader find NAME, loaded from OBJECT?". A thin
 * adapter: the glibc rules live in src/loader/ (issue 4); until that lands here this file's
 * implementation follows the same order on the same sysroot and env snapshot (RPATH unless
 * RUNPATH, LD_LIBRARY_PATH, RUNPATH, ld.so.cache, default dirs; $ORIGIN of the opened path). */
#ifndef CUDX_PYTHON_RESOLVE_H
#define CUDX_PYTHON_RESOLVE_H

#include <stdbool.h>
#include <stddef.h>

#include "sys/context.h"

struct py_object {
	const char *path;      /* as opened (inside the root) */
	const char **needed;
	size_t n_needed;
	const char *rpath;     /* raw DT_RPATH, or NULL */
	const char *runpath;   /* raw DT_RUNPATH, or NULL */
};

struct py_resolution {
	const char *path; /* where it is found, NULL when not */
	const char *how;  /* "rpath", "LD_LIBRARY_PATH", "runpath", "ld.so.cache", "default dir" */
};

/* Read an object's dynamic section. false with *why when it is absent or not a readable ELF. */
bool py_object_open(struct cudx_ctx *ctx, const char *path, struct py_object *obj, const char **why);
/* dlopen(name) from obj (NULL: from the interpreter, which has no RUNPATH of interest). */
void py_resolve(struct cudx_ctx *ctx, const struct py_object *from, const char *name,
		struct py_resolution *out);
/* When name is not found: copies of the same library with another major in the directories that
 * were searched ("libcudnn.so.9" when "libcudnn.so.8" is wanted). */
size_t py_other_majors(struct cudx_ctx *ctx, const struct py_object *from, const char *name,
		       const char ***out);
/* Canonical path inside the root (links followed), or the normalised path. */
const char *py_canon(struct cudx_ctx *ctx, const char *path);

#endif
