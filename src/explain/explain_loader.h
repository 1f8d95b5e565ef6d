/* Hooks the machine's loader simulator into explain's ranking (when the build has one). */
#ifndef CUDX_EXPLAIN_LOADER_H
#define CUDX_EXPLAIN_LOADER_H

#include "explain/explain_rank.h"
#include "sys/context.h"

void explain_machine_loader(struct explain_machine *m, struct cudx_ctx *ctx);

#endif
