/* The loader family: resolutions by the ld.so simulator (src/loader/) judged. It judges
 *   - the DT_NEEDED edges of every GPU library copy in the inventory, each resolved as when that
 *     copy is loaded (check),
 *   - the subjects of the focus list: `why NAME` (the name as dlopen or --from's edge resolves it)
 *     and `tree FILE` (every edge of its tree, run-time loads included),
 * with one judge: a missing dependency and its root cause (the search stopped, -z nodefaultlib, a
 * stale cache, a copy elsewhere, only the wrong architecture or another major), a missing symbol
 * version, a dependency taken from elsewhere while the copy's own sibling is ignored; and, from
 * the ld.so.conf directories, libraries the cache does not cover. */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "collect/focus.h"
#include "diag/rule.h"
#include "kb/kb.h"
#include "loader/loader_why.h"

#define RULES_LOADER_MAX_COPIES 200

/* One resolution to judge. */
struct edge_ctx {
	struct loader *L;
	const char *needer;   /* the object that wants the name, NULL for `why NAME` without --from */
	bool runtime;         /* a dlopen edge of a tree */
	struct loader_result *r;
	struct loader_why *why; /* its other copies when already searched (why), else NULL */
};

struct edge_list {
	struct edge_ctx *v;
	size_t n, cap;
};

static bool seen_path(const char **seen, size_t n, const char *p)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(seen[i], p) == 0)
			return true;
	return false;
}

static void add_edge(struct arena *a, struct edge_list *edges, struct edge_ctx e)
{
	*ARENA_PUSH(a, edges->v, edges->n, edges->cap) = e;
}

/* The edges of the focus subjects: why's resolution and its NEEDED closure (dlopen fails when
 * a dependency of the file does), tree's whole tree. */
static void focus_edges(struct cudx_ctx *ctx, const struct focus *fo, struct edge_list *edges)
{
	for (size_t i = 0; fo && i < fo->n_items; i++) {
		const struct focus_item *it = &fo->items[i];
		if (it->error || !it->loader)
			continue;
		if (it->why)
			add_edge(ctx->arena, edges,
				 (struct edge_ctx){ it->loader, it->from, false, it->why->result, it->why });
		if (it->tree && it->tree_loader)
			for (size_t k = 0; k < it->tree->n_edges; k++) {
				const struct loader_edge *e = &it->tree->edges[k];
				add_edge(ctx->arena, edges,
					 (struct edge_ctx){ it->tree_loader, e->from->path, e->runtime, e->result, NULL });
			}
	}
}

/* Resolve the NEEDED of each distinct real file among the inventory's copies, once per run (the
 * rules of this family look at the same edges), then the focus subjects' edges. */
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
		for (size_t k = 0; k < o->elf.n_needed; k++)
			add_edge(ctx->arena, edges,
				 (struct edge_ctx){ L, lib->path, false, loader_resolve(L, o->elf.needed[k], o, false), NULL });
	}
	focus_edges(ctx, inv->focus, edges);
	return edges;
}

static const struct rule *sibling(const char *id)
{
	return rule_family_find(&rules_loader, id);
}

/* --- the judge ---------------------------------------------------------------------------- */

static bool in_list(const char *dir, const char *const *dirs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(dir, dirs[i]) == 0)
			return true;
	return false;
}

static void evidence_trace(struct finding *f, const struct loader_result *r)
{
	for (size_t i = 0; i < r->n_cands && i < 40; i++)
		finding_evidence(f, "%zu. %s [%s] %s", i + 1, r->cands[i].path, r->cands[i].via, r->cands[i].reason);
	if (r->n_cands > 40)
		finding_evidence(f, "... %zu more candidates", r->n_cands - 40);
}

/* The package to install for a name, from the catalogue. */
static const char *install_hint(struct arena *a, const char *name)
{
	const struct kb_lib *lib = kb_lib_classify(name, OS_LINUX);
	if (!lib)
		return NULL;
	if (lib->pip_wheel)
		return arena_printf(a, "pip install %s  (then add its %s directory to LD_LIBRARY_PATH)", lib->pip_wheel,
				    lib->pip_dir ? lib->pip_dir : "lib");
	const struct kb_pip_wheel *wh = kb_pip_wheel(lib->family, lib->cuda_major ? lib->cuda_major : 12);
	if (wh)
		return arena_printf(a, "install %s %d (e.g. pip install %s) and put its %s directory on the search path",
				    lib->family, lib->major, wh->wheel, wh->linux_dir ? wh->linux_dir : "lib");
	return arena_printf(a, "install the package that provides %s (%s %d)", name, lib->family, lib->major);
}

static bool driver_library(const char *name)
{
	const struct kb_lib *k = kb_lib_classify(name, OS_LINUX);
	return k && k->family && strcmp(k->family, "driver") == 0;
}

/* " (needed by X)": the edge's requester, for a summary. */
static const char *needed_by(struct arena *a, const struct edge_ctx *e)
{
	return e->needer ? arena_printf(a, " (needed by %s)", e->needer) : "";
}

static const char *edge_subject(struct arena *a, const struct edge_ctx *e)
{
	return e->needer ? arena_printf(a, "%s -> %s", e->needer, e->r->name) : e->r->name;
}

static void judge_versions(struct diag_ctx *d, const struct edge_ctx *e, const struct loader_why *w)
{
	struct arena *a = d->ctx->arena;
	const struct loader_result *r = e->r;
	const struct rule *owner = sibling("lib-symbol-version-missing");
	const char *subject = edge_subject(a, e);
	/* the same edge met twice (a library of the survey that is also why's --from or in a tree) */
	for (size_t i = 0; i < d->out->n; i++)
		if (d->out->v[i].rule == owner && strcmp(d->out->v[i].subject, subject) == 0)
			return;
	bool hard = false;
	for (size_t i = 0; i < r->n_missing_versions; i++)
		hard |= !r->missing_weak[i];
	struct finding *f = rule_emit(d, owner, "%s: version '%s' not found (required by %s)%s",
				      r->path, r->missing_versions[0], r->from ? r->from : "the program",
				      needed_by(a, e));
	if (!hard)
		finding_mild(f);
	finding_subject(f, subject);
	finding_path(f, r->path);
	finding_path(f, e->needer);
	finding_cause(f, "The copy of %s the loader picks does not define the symbol version node(s) %s needs; "
			 "ld.so refuses to start the program (or dlopen fails) with this message.",
		      r->name, r->from ? path_basename(r->from) : "the program");
	for (size_t i = 0; i < r->n_missing_versions; i++)
		finding_evidence(f, "missing version node: %s%s", r->missing_versions[i],
				 r->missing_weak[i] ? " (weak: a warning only)" : "");
	finding_evidence(f, "%s was found by %s", r->path, loader_how_name(r->how));
	for (size_t i = 0; w && i < w->n_copies; i++)
		if (r->real_path && strcmp(w->copies[i].real_path, r->real_path) != 0 && w->copies[i].right_arch)
			finding_fix(f, "a different copy exists: %s; put its directory first on LD_LIBRARY_PATH",
				    w->copies[i].path);
	finding_fix(f, "use the %s that %s was built against (same major version and release)", r->name,
		    r->from ? path_basename(r->from) : "the program");
}

/* A name that several objects want and none gets is one finding: the others are evidence. The
 * judge's not-found findings hold the missing name as their first path. */
static bool merged_missing(struct diag_ctx *d, const struct edge_ctx *e)
{
	static const char *const ids[] = { "lib-not-found", "lib-wrong-major", "lib-wrong-arch" };
	for (size_t i = 0; i < d->out->n; i++) {
		struct finding *f = &d->out->v[i];
		bool mine = false;
		for (size_t k = 0; k < sizeof ids / sizeof ids[0]; k++)
			mine |= f->rule == sibling(ids[k]);
		if (!mine || f->n_paths == 0 || strcmp(f->paths[0], e->r->name) != 0)
			continue;
		if (e->needer) {
			size_t before = f->n_paths;
			finding_path(f, e->needer);
			if (f->n_paths > before)
				finding_evidence(f, "also wanted by %s%s", e->needer, e->runtime ? " (dlopen)" : "");
		}
		return true;
	}
	return false;
}

/* Not found: pick the root cause from the copies on disk. */
static void judge_not_found(struct diag_ctx *d, const struct edge_ctx *e, const struct loader_why *w)
{
	struct loader *L = e->L;
	struct arena *a = d->ctx->arena;
	const struct loader_result *r = e->r;
	const char *name = r->name, *nb = needed_by(a, e);
	const struct loader_copy *stale = NULL, *elsewhere = NULL, *wrong_arch = NULL, *other_major = NULL;
	for (size_t i = 0; i < w->n_copies; i++) {
		const struct loader_copy *c = &w->copies[i];
		bool same = strcmp(c->relation, "same name") == 0;
		const char *dir = path_dirname(a, c->path);
		if (same && !c->right_arch)
			wrong_arch = wrong_arch ? wrong_arch : c;
		else if (same && in_list(dir, w->conf_dirs, w->n_conf_dirs) && !c->in_cache)
			stale = stale ? stale : c;
		else if (same)
			elsewhere = elsewhere ? elsewhere : c;
		else if (strcmp(c->relation, "other major") == 0 && c->right_arch)
			other_major = other_major ? other_major : c;
	}
	const struct loader_candidate *stop = NULL, *nodeflib = NULL;
	for (size_t i = 0; i < r->n_cands; i++) {
		if (r->cands[i].verdict == LOADER_LINK_LOOP || r->cands[i].verdict == LOADER_NOT_ELF)
			stop = &r->cands[i];
		if (r->cands[i].verdict == LOADER_NODEFLIB)
			nodeflib = &r->cands[i];
	}
	bool nodeflib_note = nodeflib != NULL;
	for (size_t i = 0; i < r->n_notes; i++)
		nodeflib_note |= strstr(r->notes[i], "DF_1_NODEFLIB") != NULL;
	/* a driver library that exists nowhere is the driver family's finding (no-driver, or normal
	 * in an image the container runtime completes) */
	if (!stop && !nodeflib_note && !stale && !elsewhere && !wrong_arch && !other_major && driver_library(name))
		return;
	const struct rule *not_found = sibling("lib-not-found");
	struct finding *f;
	const char *where = NULL; /* the file the root cause is about */
	if (stop) {
		f = rule_emit(d, not_found, "%s: the search stops at %s: %s%s", name, stop->path, stop->reason, nb);
		finding_cause(f, "ld.so gives up at the first candidate it can open but not load (a file that is not "
				 "an ELF object, a symbolic-link loop); the copies after it are never tried.");
		finding_fix(f, "remove or repair %s", stop->path);
		where = stop->path;
	} else if (nodeflib_note) {
		f = rule_emit(d, not_found, "%s: not found because %s was linked with -z nodefaultlib%s", name,
			      r->from ? r->from : "the program", nb);
		finding_cause(f, "DF_1_NODEFLIB makes ld.so skip the default directories and cache entries in them; "
				 "only RPATH/RUNPATH, LD_LIBRARY_PATH and cache entries elsewhere are searched.");
		const struct loader_copy *c = w->n_copies ? &w->copies[0] : NULL;
		if (c)
			finding_fix(f, "export LD_LIBRARY_PATH=%s${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}", path_dirname(a, c->path));
		finding_fix(f, "or relink %s without -z nodefaultlib", r->from ? path_basename(r->from) : "the program");
	} else if (L->own_glibc && (stale || elsewhere)) {
		/* a program with its own glibc (Nix, Guix, /opt): the system's cache and directories are
		 * not its loader's, whatever ldconfig says */
		const struct loader_copy *c = stale ? stale : elsewhere;
		f = rule_emit(d, not_found, "%s is at %s, outside the search of a program with its own glibc (%s)%s", name,
			      c->path, L->own_glibc, nb);
		finding_cause(f, "%s's interpreter %s reads %s/etc/ld.so.cache and searches %s/lib: the system's "
				 "/etc/ld.so.cache and default directories, where %s is, are not its loader's (a Nix- or "
				 "Guix-built program, or one linked against a glibc in /opt).",
			      r->from ? r->from : "the program", L->interp_path, L->own_glibc, L->own_glibc,
			      path_dirname(a, c->path));
		finding_fix(f, "export LD_LIBRARY_PATH=%s${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}", path_dirname(a, c->path));
		finding_fix(f, "for the NVIDIA driver's libraries under Nix: run the program through nixGL, or LD_PRELOAD "
			       "the host's libcuda.so.1");
		where = c->path;
	} else if (L->musl && (stale || elsewhere)) {
		/* a musl system (Alpine): its linker reads no cache, whatever ldconfig wrote, and has its
		 * own short list of directories */
		const struct loader_copy *c = stale ? stale : elsewhere;
		const char *dir = path_dirname(a, c->path);
		f = rule_emit(d, not_found, "%s exists at %s, a directory musl's linker does not search%s", name, c->path, nb);
		finding_cause(f, "The linker here is musl's (no glibc): it reads no ld.so.cache and searches, after "
				 "LD_LIBRARY_PATH and the RUNPATH or RPATH of the objects that load the library, only the "
				 "directories of %s (or /lib, /usr/local/lib and /usr/lib without that file); %s is not "
				 "among them.",
			      L->musl_path_file, dir);
		finding_fix(f, "export LD_LIBRARY_PATH=%s${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}", dir);
		finding_fix(f, "or list %s in %s (a new file replaces /lib:/usr/local/lib:/usr/lib: list those too); a "
			       "library built for glibc still needs a glibc image",
			    dir, L->musl_path_file);
		where = c->path;
	} else if (stale) {
		/* the library is there, the cache is not: the load fails (an error), and the scan of
		 * the ld.so.conf directories reports the stale cache itself (ldcache-stale) */
		f = rule_emit(d, not_found, "%s is in %s, a directory ldconfig is configured for, but not in ld.so.cache%s",
			      name, path_dirname(a, stale->path), nb);
		finding_cause(f, "ld.so never reads /etc/ld.so.conf: directories listed there are searched only through the "
				 "cache, and the cache was written before this library was installed.");
		finding_fix(f, "sudo ldconfig");
		where = stale->path;
	} else if (elsewhere) {
		f = rule_emit(d, not_found, "%s exists at %s, but not on the loader's search path%s", name, elsewhere->path, nb);
		finding_cause(f, "The loader looks only in RPATH/RUNPATH, LD_LIBRARY_PATH, ld.so.cache and the default "
				 "directories; %s is in none of them.",
			      path_dirname(a, elsewhere->path));
		finding_fix(f, "export LD_LIBRARY_PATH=%s${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}", path_dirname(a, elsewhere->path));
		finding_fix(f, "or: echo %s | sudo tee /etc/ld.so.conf.d/cudx-%s.conf && sudo ldconfig",
			    path_dirname(a, elsewhere->path), loader_name_stem(a, name));
	} else if (wrong_arch) {
		f = rule_emit(d, sibling("lib-wrong-arch"), "the only %s on disk is for %s (%d-bit), not %s (%d-bit)%s", name,
			      elf_machine_name(wrong_arch->machine), wrong_arch->elf_class, elf_machine_name(L->machine),
			      L->elf_class, nb);
		finding_cause(f, "ld.so skips libraries of another ELF class or machine without a word and reports "
				 "\"cannot open shared object file\".");
		finding_fix(f, "install the %s build of %s", elf_machine_name(L->machine), name);
		where = wrong_arch->path;
	} else if (other_major) {
		/* the same major: a SONAME that carries the minor (libcublas.so.9.1 for 9.0) */
		const char *so = strstr(name, ".so.");
		bool same_major = so && other_major->major == atoi(so + 4) && other_major->soname;
		f = rule_emit(d, sibling("lib-wrong-major"), "%s is wanted but only %s (%s) exists%s", name,
			      path_basename(other_major->path),
			      same_major ? arena_printf(a, "SONAME %s", other_major->soname)
					 : arena_printf(a, "major %d", other_major->major),
			      nb);
		finding_cause(f, "A library's major version is part of its name: a program linked against %s cannot use "
				 "another major, and renaming or symlinking the file does not work (the symbol version "
				 "nodes carry the major).",
			      name);
		const char *hint = install_hint(a, name);
		if (hint)
			finding_fix(f, "%s", hint);
		finding_fix(f, "or use a build of %s made for the installed major", r->from ? path_basename(r->from) : "the program");
	} else {
		f = rule_emit(d, not_found, "%s: %s%s", name, r->error ? r->error : "not found", nb);
		finding_cause(f, "No copy of %s exists in any directory the loader searches, nor anywhere else cudx looked.", name);
		const char *hint = install_hint(a, name);
		finding_fix(f, "%s", hint ? hint : "install the package that provides it");
	}
	finding_path(f, name); /* first: merged_missing matches on it */
	finding_path(f, e->needer);
	finding_path(f, where);
	finding_subject(f, edge_subject(a, e));
	evidence_trace(f, r);
	for (size_t i = 0; i < w->n_copies; i++)
		finding_evidence(f, "on disk: %s (%s, %s%s)", w->copies[i].path, w->copies[i].relation,
				 w->copies[i].soname ? w->copies[i].soname : "no SONAME",
				 w->copies[i].right_arch ? "" : ", wrong architecture");
}

/* Its other copies: the search dirs, the ld.so.conf dirs, the cache, the directories of the
 * inventory's copies (a toolkit's lib64: a CUDA 9.1 next to the 9.0 a program wants), computed
 * once, when needed. */
static const struct loader_why *copies_of(struct diag_ctx *d, const struct edge_ctx *e)
{
	if (e->why)
		return e->why;
	struct loader_why *w = arena_calloc(e->L->a, 1, sizeof *w);
	w->result = e->r;
	w->n_conf_dirs = loader_ldconf_dirs(e->L, &w->conf_dirs);
	/* a driver copy off the path is the driver family's finding: no survey directories then */
	size_t n_extra = driver_library(e->r->name) ? 0 : d->inv->n_libs;
	const char **extra = arena_calloc(e->L->a, n_extra + 1, sizeof *extra);
	for (size_t i = 0; i < n_extra; i++)
		extra[i] = d->inv->libs[i].path;
	loader_why_copies(e->L, w, extra, n_extra);
	/* the survey's directories add only other majors: what ld.so would find there under the same
	 * name is a process's environment, not this system's search path; and where a copy of the very
	 * name exists (a toolkit's lib64 off the path), the name is installed, only not found */
	bool same_name = false;
	for (size_t i = 0; i < w->n_copies; i++)
		same_name |= strncmp(w->copies[i].relation, "same ", 5) == 0;
	size_t kept = 0;
	for (size_t i = 0; i < w->n_copies; i++)
		if (!w->copies[i].from_extra || (!same_name && strcmp(w->copies[i].relation, "other major") == 0))
			w->copies[kept++] = w->copies[i];
	w->n_copies = kept;
	return w;
}

/* The dynamic linker (ld-linux-x86-64.so.2, ld-linux-aarch64.so.1, ld64.so.2): the interpreter of
 * every program, in the process before anything it loads. A library judged on its own (a copy
 * of the survey, why's file as a program dlopens it) finds it there, whatever its directory. */
static bool dynamic_linker(const char *name)
{
	return strncmp(name, "ld-linux", 8) == 0 || strncmp(name, "ld64.so", 7) == 0;
}

/* The walker of lib-not-found, lib-wrong-major, lib-wrong-arch and lib-symbol-version-missing:
 * each resolution judged once, by the entry whose id names its root cause. */
static void check_resolutions(struct diag_ctx *d, const struct rule *self)
{
	(void)self;
	const struct edge_list *edges = resolved_edges(d);
	for (size_t i = 0; i < edges->n; i++) {
		const struct edge_ctx *e = &edges->v[i];
		if (e->r->object && e->r->n_missing_versions)
			judge_versions(d, e, e->why);
		else if (!e->r->object && !e->r->base_absent && !dynamic_linker(e->r->name) && !merged_missing(d, e))
			judge_not_found(d, e, copies_of(d, e));
	}
}

/* The copy's own directory has the dependency, but the loader takes another file first. */
static void edge_shadowed(struct diag_ctx *d, const struct rule *self, const struct edge_ctx *e)
{
	struct loader_result *r = e->r;
	if (!e->needer || !r->object || r->how == LOADER_HOW_ALREADY_LOADED)
		return;
	struct arena *a = d->ctx->arena;
	struct sysroot_resolved own;
	if (sysroot_resolve(&d->ctx->root, a, e->needer, &own) != 0)
		return;
	const char *sib_dirs[2] = { path_dirname(a, e->needer), path_dirname(a, own.path) };
	for (int k = 0; k < 2; k++) {
		const char *sib = path_join(a, sib_dirs[k], r->name);
		struct sysroot_resolved sr;
		if (sysroot_resolve(&d->ctx->root, a, sib, &sr) != 0 || !r->real_path || strcmp(sr.path, r->real_path) == 0)
			continue;
		struct finding *f = rule_emit(d, self, "%s loads %s from %s, not the copy next to it (%s)", e->needer,
					      r->name, r->path, sib);
		finding_subject(f, arena_printf(a, "%s -> %s", e->needer, r->name));
		finding_path(f, r->path);
		finding_path(f, sib);
		finding_cause(f, "The loader found %s earlier on the search path (%s) than the copy shipped with %s; "
				 "a different build or release may be loaded than the one it was packaged with.",
			      r->name, loader_how_name(r->how), path_basename(e->needer));
		finding_evidence(f, "taken: %s (%s)", r->path, loader_how_name(r->how));
		finding_evidence(f, "shipped alongside: %s -> %s", sib, sr.path);
		if (r->how == LOADER_HOW_LD_LIBRARY_PATH)
			finding_fix(f, "remove %s from LD_LIBRARY_PATH, or put %s before it", path_dirname(a, r->path),
				    sib_dirs[k]);
		else
			finding_fix(f, "prepend %s to LD_LIBRARY_PATH when running programs that use %s", sib_dirs[k],
				    path_basename(e->needer));
		return;
	}
}

static void check_shadowed(struct diag_ctx *d, const struct rule *self)
{
	const struct edge_list *edges = resolved_edges(d);
	for (size_t i = 0; i < edges->n; i++)
		edge_shadowed(d, self, &edges->v[i]);
}

/* A tree without glibc's program interpreter: one note instead of a lib-not-found for libc.so.6,
 * libm.so.6, ... of every library (the walker skips base_absent). Its paths are the objects and the
 * names, so `why` and `tree` of one of them keep it. Without any C library the tree is an image
 * layer or a copied library directory (no-libc, a note); with musl's it is a musl system (Alpine),
 * where the driver's glibc programs and libraries cannot run at all (glibc-on-musl, an error). */
static void emit_no_glibc(struct diag_ctx *d, const struct rule *self, bool on_musl)
{
	const struct edge_list *edges = resolved_edges(d);
	struct finding *f = NULL;
	for (size_t i = 0; i < edges->n; i++) {
		const struct edge_ctx *e = &edges->v[i];
		if (!e->r->base_absent || (e->L->musl_system != NULL) != on_musl)
			continue;
		if (!f && on_musl) {
			f = rule_emit(d, self, "glibc programs on a musl system: the tree's C library is musl's (%s) and "
				      "glibc's program interpreter %s is not there, so the GPU libraries and programs "
				      "here, built for glibc, cannot run", e->L->musl_system, e->L->interp_path);
			finding_subject(f, e->L->interp_path);
			finding_evidence(f, "%s is musl's dynamic linker", e->L->musl_system);
		} else if (!f) {
			f = rule_emit(d, self, "%s", e->L->no_libc);
			finding_subject(f, e->L->interp_path);
		}
		finding_path(f, e->needer);
		finding_path(f, e->r->name);
		if (f->n_evidence < 8)
			finding_evidence(f, "%s needs %s", e->needer ? e->needer : "the program", e->r->name);
	}
}

static void check_no_libc(struct diag_ctx *d, const struct rule *self)
{
	emit_no_glibc(d, self, false);
}

static void check_glibc_on_musl(struct diag_ctx *d, const struct rule *self)
{
	emit_no_glibc(d, self, true);
}

static bool dir_has(const struct sysroot_dirent *ents, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(ents[i].name, name) == 0)
			return true;
	return false;
}

/* Whether a directory entry is a release's own file of the catalogued library (libcuda.so.430.40
 * of libcuda.so.1, libcublas.so.12.4.5.8 of libcublas.so.12), not a link to one. */
static bool versioned_file_of(const struct sysroot_dirent *e, const struct kb_lib *lib)
{
	if (e->type != DT_REG && e->type != DT_UNKNOWN)
		return false;
	size_t n = strlen(lib->name);
	if (strncmp(e->name, lib->name, n) == 0 && e->name[n] == '.')
		return true;
	const char *so = strstr(e->name, ".so.");
	return lib->driver_versioned && so && strncmp(e->name, lib->name, (size_t)(so - e->name) + 4) == 0;
}

/* GPU libraries in ld.so.conf directories whose SONAME has no cache entry: ldconfig was not run
 * after they were installed, and ld.so (which never reads ld.so.conf) cannot find them. Also a
 * release's file there without its SONAME link (only ldconfig makes it). */
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
			if (!lib || ldcache_lookup(&L.cache, lib->name, L.elf_class, L.machine))
				continue;
			const char *path = path_join(ctx->arena, dirs[i], ents[k].name);
			if (strcmp(ents[k].name, lib->name) == 0) { /* the SONAME-named file: the key ld.so looks up */
				struct finding *f = rule_emit(
					d, self, "%s is not in ld.so.cache although %s is configured in /etc/ld.so.conf", path,
					dirs[i]);
				finding_subject(f, path);
				finding_path(f, ents[k].name);
				finding_evidence(f, "%s has no entry for %s", L.cfg.cache_path, ents[k].name);
				continue;
			}
			/* a real file of a release (libcuda.so.430.40, libcublas.so.12.4.5.8) without the SONAME
			 * link ldconfig makes for it: copied or mounted in, and ldconfig never ran */
			if (!versioned_file_of(&ents[k], lib) || dir_has(ents, ne, lib->name))
				continue;
			struct finding *f = rule_emit(d, self,
						      "%s has neither its %s link nor an ld.so.cache entry: ldconfig has not run "
						      "since it was installed",
						      path, lib->name);
			finding_subject(f, path);
			finding_path(f, lib->name);
			finding_evidence(f, "%s has no entry for %s, and %s has no file of that name", L.cfg.cache_path,
					 lib->name, dirs[i]);
		}
	}
}

static const struct rule table[] = {
	{ .check = check_resolutions }, /* walker */
	{ "lib-not-found", SEV_ERROR, NULL,
	  .cause = "The loader finds no usable copy of the library where it searches (RPATH/RUNPATH, LD_LIBRARY_PATH, "
		   "ld.so.cache, the default directories): \"cannot open shared object file\".",
	  .mild = SEV_WARNING,
	  .mild_when = "cudx run saw a program dlopen a library that is no GPU library (it may go on without it)" },
	{ "lib-wrong-major", SEV_ERROR, NULL,
	  .cause = "Only another major version of the library exists: the major is part of its name and its symbol "
		   "versions, so no other major can stand in." },
	{ "lib-wrong-arch", SEV_ERROR, NULL,
	  .cause = "The only copies on disk are for another ELF class or machine, which ld.so skips silently." },
	{ "lib-symbol-version-missing", SEV_ERROR, NULL,
	  .cause = "The copy the loader picks does not define a symbol version node the requester needs; ld.so "
		   "refuses to load it.",
	  .mild = SEV_WARNING, .mild_when = "only weak version references are missing (ld.so warns, the load goes on)" },
	{ "lib-shadowed", SEV_WARNING, check_shadowed,
	  .cause = "A library's dependency is taken from elsewhere on the search path, not the copy shipped next "
		   "to it: a different build may be loaded than the one it was packaged with." },
	{ "ldcache-stale", SEV_WARNING, check_ldcache_stale,
	  .cause = "ld.so never reads /etc/ld.so.conf: its directories are searched only through the cache, which "
		   "was written before this library was installed. A program asking for it by name does not find "
		   "it (lib-not-found names that failure).",
	  .fix = "sudo ldconfig" },
	{ "no-libc", SEV_INFO, check_no_libc,
	  .cause = "The libraries here need the C library (and its program interpreter), which this tree does not "
		   "contain: it is a layer or a copy of libraries, not a system that can run a program. Their other "
		   "dependencies were still checked.",
	  .fix = "analyse the complete image (all layers, e.g. docker export of a container) or the system these "
		 "libraries are installed on" },
	{ "glibc-on-musl", SEV_ERROR, check_glibc_on_musl,
	  .cause = "The system's C library is musl (an Alpine image or system), and the GPU libraries here (the "
		   "NVIDIA driver's, CUDA's) are built for glibc: a glibc program cannot start without glibc's program "
		   "interpreter (the shell reports the file itself as \"No such file or directory\" or \"not "
		   "found\"), and a glibc library loaded by musl fails on glibc's own symbols (\"Error relocating "
		   "...: symbol not found\"). The NVIDIA container runtime injects the host's glibc-built "
		   "nvidia-smi and driver libraries into any image, musl or not.",
	  .fix = "run the GPU program in an image based on a glibc distribution (Debian, Ubuntu, UBI), or use the "
		 "image's glibc variant" },
};

RULE_FAMILY(rules_loader, "loader", table);
