/* Pieces shared by `cudx why` and `cudx tree`: a loader set up from the run's context, the
 * inventory's library files, and the candidate list as JSON and text. (Printing helpers belong
 * in src/report/ by the design; they sit here until that module takes them.) */
#ifndef CUDX_LOADER_PRESENT_H
#define CUDX_LOADER_PRESENT_H

#include <jansson.h>

#include "loader/loader.h"
#include "sys/context.h"

/* Loader rules for ctx's root and env (cwd: the real one on the live system, "/" in a root). */
void loader_present_init(struct cudx_ctx *ctx, struct loader *L);
/* Paths of the GPU libraries the inventory knows of (toolkits, pip wheels, cache, LD_LIBRARY_PATH). */
size_t loader_present_known_libs(struct cudx_ctx *ctx, const char ***paths);
json_t *loader_present_candidates_json(const struct loader_result *r);
void loader_present_candidates_text(struct cudx_ctx *ctx, const struct loader_result *r, const char *indent);

#endif
