/* Where dlopen(NAME) from a program without RPATH would find a library, in ld.so's order:
 * LD_LIBRARY_PATH, ld.so.cache, the default directories. The inventory uses it to say which
 * libcuda a process would get; the full simulator with every rule is src/loader/. */
#ifndef CUDX_SEARCH_H
#define CUDX_SEARCH_H

#include "collect/inventory.h"

/* The in-root path found, or NULL; *how says by which step ("LD_LIBRARY_PATH", "ld.so.cache",
 * "default dir"). */
const char *search_first(struct cudx_ctx *ctx, const struct inventory *inv, const char *name,
			 const char **how);

#endif
