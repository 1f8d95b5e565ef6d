/* The ELF subjects of `why` and `tree` (collect/focus.h), resolved by the ld.so simulator as the
 * commands always did, now as part of the inventory: the loader rules judge the resolution (and
 * every edge of the tree) exactly as they judge the dependencies of the libraries `check` finds,
 * and the GPU libraries met on the way join the library survey, so the library and driver rules
 * see a stub, a damaged file or a broken link there too. */
#include <string.h>

#include "collect/focus.h"
#include "loader/loader_present.h"
#include "loader/loader_why.h"

/* Directories already added to the survey by this collector, and the origin the copies found
 * there get ("asked about"; "needed by APP" for a tree). */
struct dirs_seen {
	const char **v;
	size_t n, cap;
	const char *origin;
};

static void survey_dir(struct cudx_ctx *ctx, struct inventory *inv, struct dirs_seen *seen, const char *path)
{
	if (!path || path[0] != '/')
		return;
	const char *dir = path_dirname(ctx->arena, path);
	for (size_t i = 0; i < seen->n; i++)
		if (strcmp(seen->v[i], dir) == 0)
			return;
	*ARENA_PUSH(ctx->arena, seen->v, seen->n, seen->cap) = dir;
	if (sysroot_is_dir(&ctx->root, dir))
		inventory_add_lib_dir(ctx, inv, dir, seen->origin, NULL);
}

/* Every place a resolution looked, and what it took: the files there are the subject's copies. */
static void survey_result(struct cudx_ctx *ctx, struct inventory *inv, struct dirs_seen *seen,
			  const struct loader_result *r)
{
	for (size_t i = 0; i < r->n_cands; i++)
		if (r->cands[i].how != LOADER_HOW_ALREADY_LOADED && r->cands[i].how != LOADER_HOW_LDCACHE)
			survey_dir(ctx, inv, seen, r->cands[i].path);
	survey_dir(ctx, inv, seen, r->path);
	survey_dir(ctx, inv, seen, r->real_path);
}

static void survey_tree(struct cudx_ctx *ctx, struct inventory *inv, struct dirs_seen *seen,
			const struct loader *L, const struct loader_tree *t)
{
	for (size_t i = 0; i < L->n_objects; i++) {
		survey_dir(ctx, inv, seen, L->objects[i]->path);
		survey_dir(ctx, inv, seen, L->objects[i]->real_path);
	}
	for (size_t i = 0; i < t->n_edges; i++)
		if (!t->edges[i].result->object)
			survey_result(ctx, inv, seen, t->edges[i].result);
}

static struct loader *new_loader(struct cudx_ctx *ctx, bool no_dlopen)
{
	struct loader *L = arena_alloc(ctx->arena, sizeof *L);
	loader_present_init(ctx, L);
	L->cfg.no_dlopen_edges = no_dlopen;
	return L;
}

static void resolve_library(struct cudx_ctx *ctx, struct inventory *inv, struct dirs_seen *seen,
			    struct focus_item *it)
{
	struct loader *L = new_loader(ctx, true);
	struct loader_why *w = arena_alloc(ctx->arena, sizeof *w);
	const char *err;
	loader_why(L, it->name, it->from, w, &err);
	if (!w->result) {
		it->error = err ? err : "cannot read the object";
		return;
	}
	/* the other copies: in the search dirs, and among the libraries the survey found */
	const char **extra = arena_calloc(ctx->arena, inv->n_libs + 1, sizeof *extra);
	for (size_t i = 0; i < inv->n_libs; i++)
		extra[i] = inv->libs[i].path;
	loader_why_copies(L, w, extra, inv->n_libs);
	it->loader = L;
	it->why = w;
	survey_result(ctx, inv, seen, w->result);
	for (size_t i = 0; i < w->n_copies; i++)
		survey_dir(ctx, inv, seen, w->copies[i].path);
	if (!w->result->object)
		return;
	/* what loading it loads: its NEEDED closure, as when a program without RPATH dlopens it */
	struct loader *T = new_loader(ctx, true);
	struct loader_tree *t = arena_alloc(ctx->arena, sizeof *t);
	loader_tree(T, w->result->path, t);
	if (!t->root)
		return;
	it->tree = t;
	it->tree_loader = T;
	survey_tree(ctx, inv, seen, T, t);
}

static void resolve_object(struct cudx_ctx *ctx, struct inventory *inv, struct dirs_seen *seen,
			   struct focus_item *it)
{
	struct loader *L = new_loader(ctx, it->no_dlopen);
	struct loader_tree *t = arena_alloc(ctx->arena, sizeof *t);
	loader_tree(L, it->name, t);
	if (!t->root) {
		it->error = t->error ? t->error : "cannot read the file";
		return;
	}
	it->loader = it->tree_loader = L;
	it->tree = t;
	survey_tree(ctx, inv, seen, L, t);
}

void collect_focus(struct cudx_ctx *ctx, struct inventory *inv)
{
	struct focus *fo = inv->focus;
	if (!fo)
		return;
	struct dirs_seen seen = { 0 };
	for (size_t i = 0; i < fo->n_items; i++) {
		struct focus_item *it = &fo->items[i];
		seen.origin = it->kind == FOCUS_OBJECT ? arena_printf(ctx->arena, "needed by %s", it->name) : "asked about";
		if (it->kind == FOCUS_LIBRARY)
			resolve_library(ctx, inv, &seen, it);
		else if (it->kind == FOCUS_OBJECT)
			resolve_object(ctx, inv, &seen, it);
	}
}
