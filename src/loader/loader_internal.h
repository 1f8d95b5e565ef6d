/* Shared between the loader's files; not for other modules. */
#ifndef CUDX_LOADER_INTERNAL_H
#define CUDX_LOADER_INTERNAL_H

#include "loader/loader.h"

#define LOADER_MAX_CHAIN 4096 /* loader-chain objects whose RPATH one lookup walks */

/* Fill in what cfg left open (dirs, $LIB, $PLATFORM, hwcaps, the cache). */
void loader_defaults(struct loader *L);

#endif
