/* Prediction against observation: every search a watched process made is replayed in cudx's ld.so
 * simulator (src/loader/), in the same order, for the same requesting object, with the
 * LD_LIBRARY_PATH the process had. Where the simulator would pick another file (or none, or one
 * where the loader found none), that is a difference worth showing: either the simulator misses
 * a rule, or something the static view cannot see acted (LD_PRELOAD, a dlopen by full path, a
 * file that changed). After a difference the real object is put into the simulated process, so
 * one divergence does not spoil the rest. */
#include <limits.h>
#include <string.h>
#include <unistd.h>

#include "collect/observed_inventory.h"
#include "loader/loader.h"

/* The environment the process had: cudx's, with the loader variables the record carries. */
static struct envsnap *proc_env(struct cudx_ctx *ctx, const struct observed_process *p)
{
	struct envsnap *e = arena_alloc(ctx->arena, sizeof *e);
	*e = ctx->env;
	e->vars = arena_calloc(ctx->arena, ctx->env.n + 1, sizeof *e->vars);
	e->n = 0;
	for (size_t i = 0; i < ctx->env.n; i++)
		if (strcmp(ctx->env.vars[i].name, "LD_LIBRARY_PATH") != 0)
			e->vars[e->n++] = ctx->env.vars[i];
	if (p->ld_library_path)
		e->vars[e->n++] = (struct env_var){ "LD_LIBRARY_PATH", p->ld_library_path };
	return e;
}

static bool same(const char *a, const char *b)
{
	return a == b || (a && b && strcmp(a, b) == 0);
}

static void replay(struct cudx_ctx *ctx, struct run_observation *ro, size_t pi, size_t *budget)
{
	const struct observed_process *p = &ro->procs.procs[pi];
	struct run_prediction *pr = &ro->prediction;
	if (!p->n_objs || !p->objs[0].is_main || p->objs[0].inherited || !*p->objs[0].path) {
		pr->skipped += p->n_searches;
		return;
	}
	struct loader L;
	struct loader_config cfg = {
		.root = &ctx->root, .env = proc_env(ctx, p), .memo = &ctx->ldcache_memo, .no_dlopen_edges = true
	};
	char cwd[PATH_MAX];
	if (getcwd(cwd, sizeof cwd))
		cfg.cwd = arena_strdup(ctx->arena, cwd); /* the command ran in cudx's directory */
	loader_init(&L, ctx->arena, &cfg);
	const char *err = NULL;
	struct loader_object **sim = arena_calloc(ctx->arena, p->n_objs + 1, sizeof *sim);
	if (!(sim[0] = loader_open_main(&L, p->objs[0].path, &err))) {
		pr->skipped += p->n_searches;
		return;
	}
	const char **reals = arena_calloc(ctx->arena, p->n_objs + 1, sizeof *reals);
	for (size_t i = 0; i < p->n_objs; i++) /* a file gone since is still the one opened */
		if (!(reals[i] = observed_real_path(ctx, p->objs[i].path)))
			reals[i] = p->objs[i].path;
	for (size_t s = 0; s < p->n_searches; s++) {
		const struct observed_search *se = &p->searches[s];
		if (!*budget) {
			pr->skipped++;
			continue;
		}
		--*budget;
		size_t rb = se->requested_by;
		if (rb && !sim[rb - 1]) /* ld.so, or an object the simulator never met */
			sim[rb - 1] = loader_open_object(&L, p->objs[rb - 1].path, NULL, &err);
		struct loader_result *r = loader_resolve(&L, se->name, rb ? sim[rb - 1] : NULL, se->at_runtime);
		const char *predicted = r->object ? (r->real_path ? r->real_path : r->path) : NULL;
		const char *observed = se->opened ? reals[se->opened - 1] : NULL;
		/* nothing opened, but the simulator's file is already in the process: the loader found it
		 * loaded under another name too */
		bool agree = same(predicted, observed);
		for (size_t i = 0; !agree && !observed && predicted && i < p->n_objs; i++)
			agree = same(reals[i], predicted);
		if (agree)
			pr->agreed++;
		else {
			struct run_difference *d = ARENA_PUSH(ctx->arena, pr->diffs, pr->n_diffs, pr->cap_diffs);
			d->proc = pi;
			d->search = se;
			d->requested_by = rb ? p->objs[rb - 1].path : NULL;
			d->observed = observed;
			d->observed_how = se->opened ? observed_how_name(p->objs[se->opened - 1].how) : NULL;
			d->predicted = predicted;
			d->predicted_how = r->object ? loader_how_name(r->how) : NULL;
		}
		if (se->opened && !sim[se->opened - 1])
			sim[se->opened - 1] = agree ? r->object
						    : loader_open_object(&L, p->objs[se->opened - 1].path,
									 rb ? sim[rb - 1] : NULL, &err);
	}
}

void observed_predict(struct cudx_ctx *ctx, struct run_observation *ro)
{
	/* the processes that use GPU libraries first: the budget goes to them before the rest */
	size_t budget = RUN_MAX_PREDICTED;
	for (size_t j = 0; j < ro->n_judged; j++)
		replay(ctx, ro, ro->judged[j], &budget);
	for (size_t i = 0; i < ro->procs.n_procs; i++) {
		bool judged = false;
		for (size_t j = 0; j < ro->n_judged && !judged; j++)
			judged = ro->judged[j] == i;
		if (!judged)
			replay(ctx, ro, i, &budget);
	}
}
