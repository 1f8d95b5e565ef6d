/* The version of a library copy, from the best static source: the real file's name
 * (libcudnn.so.8.9.7, libcuda.so.535.104.05), strings the library embeds (NCCL, cuDNN graph,
 * the driver), or the wheel that installed it (collect/distinfo.h). formats.md §6 lists which
 * library carries what. */
#ifndef CUDX_LIBVERSION_H
#define CUDX_LIBVERSION_H

#include "collect/inventory.h"

void libversion_from_name(struct cudx_ctx *ctx, struct lib_file *l);
/* Content checks on the mapped file: stub detection for libcuda, embedded version strings. */
void libversion_from_content(struct cudx_ctx *ctx, struct lib_file *l, struct span file);

#endif
