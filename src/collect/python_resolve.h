/* How the python module asks "where would the loader find NAME, loaded from OBJECT?": one
 * simulated process per framework on the glibc ld.so simulator (src/loader/), so RPATH/RUNPATH,
 * $ORIGIN, LD_LIBRARY_PATH, ld.so.cache, hwcaps and already-loaded SONAMEs follow glibc's rules. */
#ifndef CUDX_PYTHON_RESOLVE_H
#define CUDX_PYTHON_RESOLVE_H

#include <stdbool.h>
#include <stddef.h>

#include "loader/loader.h"
#include "sys/context.h"

/* A simulated python process that imports one framework. */
struct py_proc {
	struct loader L;
	/* the directories a search from dirs_from tries (py_other_majors), expanded once: the
	 * loader's expansion costs 8 KB per $ORIGIN element */
	const struct py_object *dirs_from;
	const char **dirs;
	size_t n_dirs;
	bool have_dirs;
};

struct py_object {
	const char *path;      /* as opened (inside the root) */
	const char **needed;
	size_t n_needed;
	const char *rpath;     /* raw DT_RPATH, or NULL */
	const char *runpath;   /* raw DT_RUNPATH, or NULL */
	struct loader_object *lo;
};

struct py_resolution {
	const char *path; /* where it is found, NULL when not */
	const char *how;  /* "rpath", "LD_LIBRARY_PATH", "runpath", "ld.so.cache", "default dir", "already loaded" */
	const char *error; /* ld.so's message when not found */
	struct loader_object *object;
};

void py_proc_init(struct py_proc *p, struct cudx_ctx *ctx);
/* Put the framework's object into the process (as the import of its extension module does).
 * false with *why when it is absent or not a readable ELF. */
bool py_object_open(struct py_proc *p, struct cudx_ctx *ctx, const char *path, struct py_object *obj,
		    const char **why);
/* Resolve name as requested by from (NULL: by the interpreter). dlopen: a run-time load. */
void py_resolve(struct py_proc *p, const struct py_object *from, struct loader_object *from_lo,
		const char *name, bool dlopen, struct py_resolution *out);
/* When name is not found: copies of the same library with another major in the directories a
 * search would try, and the default dirs ("libcudnn.so.9" when "libcudnn.so.8" is wanted). */
size_t py_other_majors(struct py_proc *p, const struct py_object *from, const char *name, const char ***out);
/* Canonical path inside the root (links followed), or the normalised path. */
const char *py_canon(struct cudx_ctx *ctx, const char *path);

#endif
