#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "sys/context.h"

extern char **environ;

/* A root holding Windows\System32 (any case) is a Windows tree. */
static enum target_os infer_os(const struct sysroot *sr, struct arena *a)
{
	struct sysroot_dirent *ents;
	size_t n;
	if (sysroot_list_dir(sr, a, "/", &ents, &n, 4096) != 0)
		return OS_LINUX;
	for (size_t i = 0; i < n; i++)
		if (strcasecmp(ents[i].name, "Windows") == 0 &&
		    (sysroot_is_dir(sr, path_join(a, path_join(a, "/", ents[i].name), "System32")) ||
		     sysroot_is_dir(sr, path_join(a, path_join(a, "/", ents[i].name), "system32"))))
			return OS_WINDOWS;
	return OS_LINUX;
}

struct ctx_memo {
	struct ctx_memo *next;
	const void *key;
	void *value;
};

void *ctx_memo_get(const struct cudx_ctx *ctx, const void *key)
{
	for (const struct ctx_memo *m = ctx->memo; m; m = m->next)
		if (m->key == key)
			return m->value;
	return NULL;
}

void ctx_memo_put(struct cudx_ctx *ctx, const void *key, void *value)
{
	struct ctx_memo *m = arena_alloc(ctx->arena, sizeof *m);
	m->key = key;
	m->value = value;
	m->next = ctx->memo;
	ctx->memo = m;
}

int ctx_init(struct cudx_ctx *ctx, struct arena *a, struct options *opt)
{
	memset(ctx, 0, sizeof *ctx);
	ctx->arena = a;
	ctx->opt = opt;
	ctx->out = stdout;
	int err = sysroot_init(&ctx->root, a, opt->root);
	if (err) {
		fprintf(stderr, "cudx: --root %s: %s\n", opt->root, strerror(err));
		return 2;
	}
	if (opt->env_file) {
		err = envsnap_from_file(&ctx->env, a, opt->env_file);
		if (err) {
			if (err == EFBIG)
				fprintf(stderr, "cudx: --env %s: %s (over %u MB)\n", opt->env_file,
					strerror(err), ENVSNAP_MAX_FILE >> 20);
			else
				fprintf(stderr, "cudx: --env %s: %s\n", opt->env_file, strerror(err));
			return 2;
		}
	} else if (opt->pid) {
		err = envsnap_from_pid(&ctx->env, a, opt->pid);
		if (err) {
			fprintf(stderr, "cudx: --pid %d: cannot read its environment: %s%s\n", opt->pid,
				strerror(err), err == EACCES ? " (another user's process: run as that user)" : "");
			return 2;
		}
	} else if (!ctx->root.live) {
		/* Analysing a tree with no --env: the target's environment is unknown; use an empty one
		 * rather than leaking this shell's LD_LIBRARY_PATH into the verdict. */
		envsnap_parse(&ctx->env, a, span_make("", 0), "empty (no --env given for --root)");
		ctx->env.unknown = true;
	} else
		envsnap_from_environ(&ctx->env, a, environ);
	/* the live system is the OS cudx was built for; only a tree needs looking at */
	ctx->os = opt->os != OS_AUTO ? opt->os : ctx->root.live ? OS_LINUX : infer_os(&ctx->root, a);
	/* a Windows `set` dump without SystemRoot= was read case-sensitively: Path and PATH are one
	 * variable there, and the later one is the value */
	if (ctx->os == OS_WINDOWS && !ctx->env.case_insensitive)
		envsnap_fold_case(&ctx->env, a);
	if (ctx->env.dropped)
		fprintf(stderr, "cudx: warning: environment of %s: %zu variables past the first %d ignored\n",
			ctx->env.origin, ctx->env.dropped, ENVSNAP_MAX_VARS);
	return 0;
}
