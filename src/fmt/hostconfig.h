/* Reader of a CUDA toolkit's include/crt/host_config.h: the newest GCC major nvcc accepts as its
 * host compiler. The header refuses newer ones with
 *   #if __GNUC__ > 12
 *   #error -- unsupported GNU version! gcc versions later than 12 are not supported! ...
 * (the same words from CUDA 9 to 13), and nvcc prints that line to users; the number is read from
 * it. Text, as a bounded span; nothing is preprocessed. */
#ifndef CUDX_HOSTCONFIG_H
#define CUDX_HOSTCONFIG_H

#include <stdbool.h>

#include "util/span.h"

/* false when the text has no such check (not a host_config.h, or a toolkit without it) */
bool hostconfig_gcc_max(struct span text, int *max_major);

#endif
