/* What the driver family's files share (rules_driver.c holds the family's table, driver_too_old.c
 * the driver-too-old check). */
#ifndef CUDX_DIAG_DRIVER_CHECKS_H
#define CUDX_DIAG_DRIVER_CHECKS_H

#include <stdbool.h>

#include "diag/rule.h"

/* Whether path lies in a toolkit's compat directory (/usr/local/cuda-12.8/compat/libcuda.so.1): the
 * forward-compatibility libcuda CUDA images ship is part of the toolkit, not the driver's user
 * space (it works only over a kernel module). */
bool driver_in_compat_dir(const struct driver_info *drv, const char *path);

/* Whether the libcuda the loader picks is a forward-compatibility copy: in a compat directory, or
 * in a container a copy of a compat directory's libcuda that the container runtime mounted into
 * the library directory (newer than the loaded module). */
bool driver_libcuda_is_compat(const struct inventory *inv);

/* driver-too-old and driver-minor-compat: each CUDA runtime here against the driver. */
void driver_check_too_old(struct diag_ctx *d, const struct rule *self);

#endif
