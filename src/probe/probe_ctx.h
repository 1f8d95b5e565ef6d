/* Probe options from the run's context: time limit, the env snapshot's LD_LIBRARY_PATH and
 * CUDA_VISIBLE_DEVICES, and the cudart files the collectors found on the live root. */
#ifndef CUDX_PROBE_CTX_H
#define CUDX_PROBE_CTX_H

#include "collect/inventory.h"
#include "probe/probe.h"

void probe_options_from_ctx(const struct cudx_ctx *ctx, const struct inventory *inv,
			    struct probe_options *o);
/* Run the probe with o when the run allows it (live root, no --no-probe); else record why not. */
void probe_collect(struct cudx_ctx *ctx, struct inventory *inv, const struct probe_options *o);

#endif
