/* Where dlopen(NAME) from a program without RPATH would find a library (LD_LIBRARY_PATH, the
 * ld.so.cache, the default directories, with every glibc rule of src/loader/). The inventory
 * uses it to say which libcuda a process would get. */
#ifndef CUDX_SEARCH_H
#define CUDX_SEARCH_H

#include "collect/inventory.h"

/* The in-root path found, or NULL; *how says by which step (loader_how_name: "ld_library_path",
 * "ldcache", "default"). */
const char *search_first(struct cudx_ctx *ctx, const char *name, const char **how);

#endif
