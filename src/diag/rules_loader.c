/* Loader rules for `check`: every GPU library copy in the inventory has its DT_NEEDED edges
 * resolved by the ld.so simulator (src/loader/), as they would be when that copy is loaded; a
 * missing dependency, a wrong-major or wrong-arch one, a missing symbol version, a dependency
 * taken from elsewhere while the copy's own sibling is ignored, and configured directories the
 * cache does not cover become findings. */
#include <string.h>

#include "diag/rule.h"
#include "kb/kb.h"
#include "loader/loader_why.h"

#define RULES_LOADER_MAX_COPIES 200

/* One resolved edge handed to the rules. */
struct edge_ctx {
	struct loader *L;
	const struct lib_file *lib;
	struct loader_result *r;
};

typedef void (*edge_fn)(struct diag_ctx *d, const struct rule *self, struct edge_ctx *e);

static bool seen_path(const char **seen, size_t n, const char *p)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(seen[i], p) == 0)
			return true;
	return false;
}

struct edge_list {
	struct edge_ctx *v;
	size_t n, cap;
};

/* Resolve the NEEDED of each distinct real file among the inventory's copies, once per run: five
 * rules look at the same edges. */
static const struct edge_list *resolved_edges(struct diag_ctx *d)
{
	static const char memo_key;
	struct cudx_ctx *ctx = d->ctx;
	struct edge_list *edges = ctx_memo_get(ctx, &memo_key);
	if (edges)
		return edges;
	edges = arena_alloc(ctx->arena, sizeof *edges);
	ctx_memo_put(ctx, &memo_key, edges);
	const struct inventory *inv = d->inv;
	const char **seen = arena_calloc(ctx->arena, inv->n_libs + 1, sizeof *seen);
	size_t n_seen = 0;
	for (size_t i = 0; i < inv->n_libs && n_seen < RULES_LOADER_MAX_COPIES; i++) {
		const struct lib_file *lib = &inv->libs[i];
		if (lib->is_stub || lib->broken_link || !lib->real_path || seen_path(seen, n_seen, lib->real_path))
			continue;
		seen[n_seen++] = lib->real_path;
		/* one loader per copy, kept for the findings' traces */
		struct loader *L = arena_alloc(ctx->arena, sizeof *L);
		struct loader_config cfg = { .root = &ctx->root, .env = &ctx->env, .no_dlopen_edges = true,
					    .memo = &ctx->ldcache_memo };
		loader_init(L, ctx->arena, &cfg);
		const char *err = NULL;
		/* the copy as the first object: its own RPATH/RUNPATH apply, as when a program
		 * without RPATH loads it */
		struct loader_object *o = loader_open_main(L, lib->path, &err);
		if (!o)
			continue;
		for (size_t k = 0; k < o->elf.n_needed; k++) {
			struct edge_ctx *e = ARENA_PUSH(ctx->arena, edges->v, edges->n, edges->cap);
			*e = (struct edge_ctx){ L, lib, loader_resolve(L, o->elf.needed[k], o, false) };
		}
	}
	return edges;
}

static void for_each_edge(struct diag_ctx *d, const struct rule *self, edge_fn fn)
{
	const struct edge_list *edges = resolved_edges(d);
	for (size_t i = 0; i < edges->n; i++)
		fn(d, self, &edges->v[i]);
}

static void emit_why(struct diag_ctx *d, const struct rule *self, struct edge_ctx *e, const char *want_id)
{
	struct loader_why w = { .result = e->r };
	w.n_conf_dirs = loader_ldconf_dirs(e->L, &w.conf_dirs);
	loader_why_copies(e->L, &w, NULL, 0);
	struct findings tmp;
	findings_init(&tmp, d->ctx->arena);
	loader_why_findings(e->L, &w, &tmp);
	for (size_t i = 0; i < tmp.n; i++) {
		const struct finding *t = &tmp.v[i];
		if (strcmp(t->id, want_id) != 0)
			continue;
		struct finding *f = rule_emit(d, self, "%s (needed by %s)", t->summary, e->lib->path);
		finding_subject(f, arena_printf(d->ctx->arena, "%s -> %s", e->lib->path, e->r->name));
		if (t->cause)
			finding_cause(f, "%s", t->cause);
		for (size_t k = 0; k < t->n_evidence; k++)
			finding_evidence(f, "%s", t->evidence[k]);
		for (size_t k = 0; k < t->n_fix; k++)
			finding_fix(f, "%s", t->fix[k]);
	}
}

static void edge_not_found(struct diag_ctx *d, const struct rule *self, struct edge_ctx *e)
{
	if (e->r->object || e->r->base_absent) /* a tree without a C library: no-libc, once */
		return;
	/* a missing driver library (libcuda.so.1, libnvidia-ml.so.1) is the driver family's finding
	 * (no-driver, or normal in an image the container runtime completes) */
	const struct kb_lib *k = kb_lib_classify(e->r->name, d->ctx->os);
	if (k && k->family && strcmp(k->family, "driver") == 0)
		return;
	emit_why(d, self, e, self->id);
}

static void edge_versions(struct diag_ctx *d, const struct rule *self, struct edge_ctx *e)
{
	if (e->r->object && e->r->n_missing_versions)
		emit_why(d, self, e, self->id);
}

/* The copy's own directory has the dependency, but the loader takes another file first. */
static void edge_shadowed(struct diag_ctx *d, const struct rule *self, struct edge_ctx *e)
{
	struct loader_result *r = e->r;
	if (!r->object || r->how == LOADER_HOW_ALREADY_LOADED || !e->lib->real_path)
		return;
	struct arena *a = d->ctx->arena;
	const char *sib_dirs[2] = { path_dirname(a, e->lib->path), path_dirname(a, e->lib->real_path) };
	for (int k = 0; k < 2; k++) {
		const char *sib = path_join(a, sib_dirs[k], r->name);
		struct sysroot_resolved sr;
		if (sysroot_resolve(&d->ctx->root, a, sib, &sr) != 0 || !r->real_path ||
		    strcmp(sr.path, r->real_path) == 0)
			continue;
		struct finding *f = rule_emit(d, self, "%s loads %s from %s, not the copy next to it (%s)",
					      e->lib->path, r->name, r->path, sib);
		finding_subject(f, arena_printf(a, "%s -> %s", e->lib->path, r->name));
		finding_cause(f, "The loader found %s earlier on the search path (%s) than the copy shipped with %s; "
				 "a different build or release may be loaded than the one it was packaged with.",
			      r->name, loader_how_name(r->how), path_basename(e->lib->path));
		finding_evidence(f, "taken: %s (%s)", r->path, loader_how_name(r->how));
		finding_evidence(f, "shipped alongside: %s -> %s", sib, sr.path);
		if (r->how == LOADER_HOW_LD_LIBRARY_PATH)
			finding_fix(f, "remove %s from LD_LIBRARY_PATH, or put %s before it",
				    path_dirname(a, r->path), sib_dirs[k]);
		else
			finding_fix(f, "prepend %s to LD_LIBRARY_PATH when running programs that use %s",
				    sib_dirs[k], path_basename(e->lib->path));
		return;
	}
}

static void check_not_found(struct diag_ctx *d, const struct rule *self)
{
	for_each_edge(d, self, edge_not_found);
}

static void check_versions(struct diag_ctx *d, const struct rule *self)
{
	for_each_edge(d, self, edge_versions);
}

static void check_shadowed(struct diag_ctx *d, const struct rule *self)
{
	for_each_edge(d, self, edge_shadowed);
}

/* A tree without a C library (an image layer, a copied library dir): one note instead of a
 * lib-not-found for libc.so.6, libm.so.6, ... of every library. */
static void check_no_libc(struct diag_ctx *d, const struct rule *self)
{
	const struct edge_list *edges = resolved_edges(d);
	struct finding *f = NULL;
	for (size_t i = 0; i < edges->n; i++) {
		const struct edge_ctx *e = &edges->v[i];
		if (!e->r->base_absent)
			continue;
		if (!f) {
			f = rule_emit(d, self, "%s", e->L->no_libc);
			finding_cause(f, "The libraries here need the C library (and its program interpreter), which this tree does "
					 "not contain: it is a layer or a copy of libraries, not a system that can run a program. "
					 "Their other dependencies were still checked.");
			finding_fix(f, "analyse the complete image (all layers, e.g. docker export of a container) or the system "
				       "these libraries are installed on");
		}
		if (f->n_evidence < 8)
			finding_evidence(f, "%s needs %s", e->lib->path, e->r->name);
	}
}

/* GPU libraries in ld.so.conf directories whose SONAME has no cache entry: ldconfig was not run
 * after they were installed, and ld.so (which never reads ld.so.conf) cannot find them. */
static void check_ldcache_stale(struct diag_ctx *d, const struct rule *self)
{
	struct cudx_ctx *ctx = d->ctx;
	struct loader L;
	struct loader_config cfg = { .root = &ctx->root, .env = &ctx->env, .memo = &ctx->ldcache_memo };
	loader_init(&L, ctx->arena, &cfg);
	if (!L.have_cache)
		return;
	const char **dirs;
	size_t n = loader_ldconf_dirs(&L, &dirs);
	for (size_t i = 0; i < n; i++) {
		struct sysroot_dirent *ents;
		size_t ne;
		if (sysroot_list_dir(&ctx->root, ctx->arena, dirs[i], &ents, &ne, 20000) != 0)
			continue;
		for (size_t k = 0; k < ne; k++) {
			const struct kb_lib *lib = kb_lib_classify(ents[k].name, OS_LINUX);
			if (!lib || strcmp(ents[k].name, lib->name) != 0)
				continue; /* only the SONAME-named file: the key ld.so looks up */
			if (ldcache_lookup(&L.cache, ents[k].name, L.elf_class, L.machine))
				continue;
			const char *path = path_join(ctx->arena, dirs[i], ents[k].name);
			struct finding *f = rule_emit(d, self, "%s is not in ld.so.cache although %s is configured in /etc/ld.so.conf",
						      path, dirs[i]);
			finding_subject(f, path);
			finding_cause(f, "ld.so never reads /etc/ld.so.conf: its directories are searched only through "
					 "the cache, which was written before this library was installed.");
			finding_evidence(f, "%s has no entry for %s", L.cfg.cache_path, ents[k].name);
			finding_fix(f, "sudo ldconfig");
		}
	}
}

static const struct rule table[] = {
	{ "lib-not-found", SEV_ERROR, check_not_found },
	{ "lib-wrong-major", SEV_ERROR, check_not_found },
	{ "lib-wrong-arch", SEV_ERROR, check_not_found },
	{ "lib-symbol-version-missing", SEV_ERROR, check_versions },
	{ "lib-shadowed", SEV_WARNING, check_shadowed },
	{ "ldcache-stale", SEV_WARNING, check_ldcache_stale },
	{ "no-libc", SEV_INFO, check_no_libc },
};

RULE_FAMILY(rules_loader, "loader", table);
