/* Shared between the loader's files; not for other modules. */
#ifndef CUDX_LOADER_INTERNAL_H
#define CUDX_LOADER_INTERNAL_H

#include "loader/loader.h"

#define LOADER_MAX_CHAIN 4096 /* loader-chain objects whose RPATH one lookup walks */

/* Fill in what cfg left open (dirs, $LIB, $PLATFORM, hwcaps, the cache). */
void loader_defaults(struct loader *L);
/* glibc's program interpreter for a machine ("/lib64/ld-linux-x86-64.so.2"), or NULL. */
const char *loader_default_interp(int elf_class, uint16_t machine);
/* A library of the base system (glibc's, the interpreter, GCC's runtime): see loader_defaults.c. */
bool loader_is_base_lib(const char *name);

#endif
