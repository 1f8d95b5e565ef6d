/* What every command and collector works with: the run's arena, the options, and the system view
 * (sysroot + env snapshot). Nothing reads the real system except through root and env. */
#ifndef CUDX_CONTEXT_H
#define CUDX_CONTEXT_H

#include <stdio.h>

#include "sys/envsnap.h"
#include "sys/options.h"
#include "sys/sysroot.h"
#include "util/arena.h"

struct distinfo_cache;

struct cudx_ctx {
	struct arena *arena;
	struct options *opt;
	struct sysroot root;
	struct envsnap env;
	enum target_os os; /* resolved: OS_LINUX or OS_WINDOWS (from --os, or inferred from the root) */
	FILE *out;         /* where reports go (stdout) */
	struct distinfo_cache *distinfo_cache; /* memo of collect/distinfo.c, per run */
};

/* Set up root and env from the options. Returns 0, or 2 with a message on stderr. */
int ctx_init(struct cudx_ctx *ctx, struct arena *a, struct options *opt);

#endif
