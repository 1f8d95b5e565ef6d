/* Which findings are about a command's subject (diag/focus.h). */
#include <string.h>
#include <strings.h>

#include "collect/focus.h"
#include "collect/windows.h"
#include "diag/focus.h"
#include "kb/kb.h"
#include "loader/loader_why.h"

struct strset {
	const char **v;
	size_t n, cap;
};

struct focus_set {
	struct strset paths;    /* files, as met and by real path */
	struct strset names;    /* library names */
	struct strset families; /* knowledge-base families of those names */
	bool family_probe;      /* keep what the probe family made or joined */
	bool fold;              /* Windows: names compare without case */
};

static bool set_has(const struct strset *s, const char *x, bool fold)
{
	for (size_t i = 0; i < s->n; i++)
		if ((fold ? strcasecmp(s->v[i], x) : strcmp(s->v[i], x)) == 0)
			return true;
	return false;
}

static void set_add(struct arena *a, struct strset *s, const char *x, bool fold)
{
	if (x && *x && !set_has(s, x, fold))
		*ARENA_PUSH(a, s->v, s->n, s->cap) = x;
}

/* The real file behind a path inside the root, or NULL. (The native Windows build compares DLL
 * names only: its findings name no files.) */
static const char *real_path(struct cudx_ctx *ctx, const char *p)
{
#ifdef CUDX_WIN_NATIVE
	(void)ctx, (void)p;
	return NULL;
#else
	struct sysroot_resolved r;
	return p[0] == '/' && sysroot_resolve(&ctx->root, ctx->arena, p, &r) == 0 ? r.path : NULL;
#endif
}

static void add_path(struct cudx_ctx *ctx, struct focus_set *fs, const char *p)
{
	if (!p)
		return;
	set_add(ctx->arena, &fs->paths, p, false);
	set_add(ctx->arena, &fs->paths, real_path(ctx, p), false);
}

/* A library name: itself, and its family (when the knowledge base knows it). */
static void add_name(struct cudx_ctx *ctx, struct focus_set *fs, const char *name)
{
	if (!name)
		return;
	const char *base = path_basename(name);
	set_add(ctx->arena, &fs->names, base, fs->fold);
	const struct kb_lib *k = kb_lib_classify(base, ctx->os);
	if (k && k->family)
		set_add(ctx->arena, &fs->families, k->family, false);
}

/* A file found for the subject: its path, real path and directory. */
static void add_file(struct cudx_ctx *ctx, struct focus_set *fs, const char *path, const char *real_path)
{
	add_path(ctx, fs, path);
	add_path(ctx, fs, real_path);
	if (path)
		add_path(ctx, fs, path_dirname(ctx->arena, path));
}

/* The closure or tree: every object, and the names it misses. */
static void add_tree(struct cudx_ctx *ctx, struct focus_set *fs, const struct loader_tree *t)
{
	if (!t || !t->root)
		return;
	add_file(ctx, fs, t->root->path, t->root->real_path);
	for (size_t i = 0; i < t->n_edges; i++) {
		const struct loader_result *r = t->edges[i].result;
		if (r->object) {
			add_path(ctx, fs, r->path);
			add_path(ctx, fs, r->real_path);
		} else
			add_name(ctx, fs, r->name);
	}
}

static void add_item(struct cudx_ctx *ctx, struct focus_set *fs, const struct focus_item *it)
{
	switch (it->kind) {
	case FOCUS_PROBE:
		fs->family_probe = true;
		return;
	case FOCUS_GPU_CODE:
		add_path(ctx, fs, it->name);
		return;
	case FOCUS_LOADED: /* a file as a resolved one (with its directory), or a name searched for */
		if (strchr(it->name, '/'))
			add_file(ctx, fs, it->name, NULL);
		add_name(ctx, fs, it->name);
		return;
	case FOCUS_LIBRARY:
	case FOCUS_OBJECT:
		break;
	}
	if (it->kind == FOCUS_LIBRARY)
		add_name(ctx, fs, it->name);
	else {
		add_path(ctx, fs, it->name);
		add_name(ctx, fs, it->name);
	}
	if (it->query) /* Windows: every DLL the load reached or missed */
		for (size_t i = 0; i < it->query->tree.n; i++)
			add_name(ctx, fs, it->query->tree.nodes[i].name);
	if (it->why) {
		const struct loader_result *r = it->why->result;
		for (size_t i = 0; i < r->n_cands; i++)
			if (r->cands[i].how != LOADER_HOW_LDCACHE || r->cands[i].verdict == LOADER_OK)
				add_path(ctx, fs, r->cands[i].path);
		add_file(ctx, fs, r->path, r->real_path);
		for (size_t i = 0; i < it->why->n_copies; i++)
			if (strcmp(it->why->copies[i].relation, "same name") == 0)
				add_path(ctx, fs, it->why->copies[i].path);
	}
	add_tree(ctx, fs, it->tree);
}

/* Whether s (a finding's subject or path: a file, a name, or "A -> B") is about the subject. */
static bool is_about(struct cudx_ctx *ctx, const struct focus_set *fs, const char *s)
{
	if (!s || !*s)
		return false;
	const char *arrow = strstr(s, " -> ");
	if (arrow)
		return is_about(ctx, fs, arena_strndup(ctx->arena, s, (size_t)(arrow - s))) || is_about(ctx, fs, arrow + 4);
	if (set_has(&fs->paths, s, false) || set_has(&fs->names, s, fs->fold))
		return true;
	const char *real = real_path(ctx, s);
	return real && set_has(&fs->paths, real, false);
}

static bool keep(struct cudx_ctx *ctx, const struct focus_set *fs, const struct finding *f)
{
#ifndef CUDX_WIN_NATIVE
	if (fs->family_probe && diag_finding_from(f, &rules_probe))
		return true;
#endif
	if (f->rule && f->rule->about && set_has(&fs->families, f->rule->about, false))
		return true;
	if (is_about(ctx, fs, f->subject))
		return true;
	for (size_t i = 0; i < f->n_paths; i++)
		if (is_about(ctx, fs, f->paths[i]))
			return true;
	return false;
}

void diag_focus_keep(struct cudx_ctx *ctx, const struct inventory *inv, const struct findings *all,
		     struct findings *out)
{
	const struct focus *fo = inv->focus;
	struct focus_set fs = { .fold = ctx->os == OS_WINDOWS };
	for (size_t i = 0; fo && i < fo->n_items; i++)
		add_item(ctx, &fs, &fo->items[i]);
	for (size_t i = 0; i < all->n; i++)
		if (!fo || keep(ctx, &fs, &all->v[i]))
			*ARENA_PUSH(out->arena, out->v, out->n, out->cap) = all->v[i];
}

void diag_focus_each_object(const struct inventory *inv, diag_focus_object_fn fn, void *ud)
{
	const struct focus *fo = inv->focus;
	for (size_t i = 0; fo && i < fo->n_items; i++) {
		const struct focus_item *it = &fo->items[i];
		if (it->why && it->why->result->object)
			fn(ud, it->why->result->name, it->why->result->path, it->why->result->real_path);
		const struct loader_tree *t = it->tree;
		if (!t || !t->root)
			continue;
		fn(ud, path_basename(t->root->path), t->root->path, t->root->real_path);
		for (size_t k = 0; k < t->n_edges; k++) {
			const struct loader_result *r = t->edges[k].result;
			if (r->object && t->edges[k].first)
				fn(ud, r->name, r->path, r->real_path);
		}
	}
}
