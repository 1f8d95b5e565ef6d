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
struct loader_cache_memo;
struct ctx_memo;

struct cudx_ctx {
	struct arena *arena;
	struct options *opt;
	struct sysroot root;
	struct envsnap env;
	enum target_os os; /* resolved: OS_LINUX or OS_WINDOWS (from --os, or inferred from the root) */
	FILE *out;         /* where reports go (stdout) */
	/* per-run memos, living in the run's arena */
	struct distinfo_cache *distinfo_cache;   /* collect/distinfo.c */
	struct loader_cache_memo *ldcache_memo;  /* the parsed ld.so.cache (loader_config.memo) */
	struct ctx_memo *memo;                   /* ctx_memo_get / ctx_memo_put */
};

/* A memo for work several modules or rules of one run would otherwise repeat: key is the address
 * of a static object of the module that owns the value; the value lives in the run's arena. */
void *ctx_memo_get(const struct cudx_ctx *ctx, const void *key);
void ctx_memo_put(struct cudx_ctx *ctx, const void *key, void *value);

/* Set up root and env from the options. Returns 0, or 2 with a message on stderr. */
int ctx_init(struct cudx_ctx *ctx, struct arena *a, struct options *opt);

#endif
