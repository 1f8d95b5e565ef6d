/* The loader behind explain's library checks: how ld.so would resolve the library a message
 * names, with every place tried (the `why` view). Uses the glibc loader simulator
 * (src/loader/loader.h) when this build has it; without it explain falls back to the inventory's
 * list of copies. */
#include <ctype.h>
#include <string.h>
#include <strings.h>

#include "explain/explain_loader.h"

#if defined(__has_include)
#if __has_include("loader/loader.h")
#define EXPLAIN_HAVE_LOADER 1
#include "loader/loader.h"
#endif
#endif

#if defined(__has_include)
#if __has_include("collect/windows.h")
#define EXPLAIN_HAVE_WIN_LOADER 1
#include "collect/windows.h"
#include "loader/win_path.h"
#endif
#endif

#ifdef EXPLAIN_HAVE_WIN_LOADER
struct win_cookie {
	struct cudx_ctx *ctx;
	struct win_loader *L;
};

/* A DLL the message names by its path ("x64\\yolo_gpu.dll" next to the program, "C:\\...\\x.dll"):
 * LoadLibrary takes that file; when it is there, what fails is one of its imports. */
static void resolve_windows_path(struct win_cookie *c, struct arena *a, const char *name, struct explain_resolution *out)
{
	const char *full = name;
	bool absolute = (isalpha((unsigned char)name[0]) && name[1] == ':') || name[0] == '\\';
	if (!absolute && !c->L->t.app_dir)
		return; /* relative to a program folder that --app did not name */
	if (!absolute)
		full = arena_printf(a, "%s\\%s", c->L->t.app_dir, name);
	struct win_tree *t = arena_calloc(a, 1, sizeof *t);
	win_tree_build(c->L, full, NULL, t);
	const struct win_candidate *ch = t->n ? win_chosen(&t->nodes[0].res) : NULL;
	if (!ch || !ch->path)
		return; /* not in the tree (another drive) or not there: nothing to say of that load */
	out->available = true;
	out->system = true;
	out->loader = "Windows";
	out->path = win_path_from_root(a, ch->path);
	out->how = "the path the message names";
	for (size_t i = 1; i < t->n && !out->dep_missing; i++) {
		const struct win_node *nd = &t->nodes[i];
		if (nd->delay || nd->repeat || nd->res.system || win_chosen(&nd->res))
			continue;
		const char *importer = nd->parent > 0 ? t->nodes[nd->parent].name : out->path;
		out->dep_missing =
			arena_printf(a, "%s imports %s, which no directory Windows searches holds", importer, nd->name);
		if (nd->res.n_other_major)
			out->dep_other_major = arena_printf(a, "%s imports %s, which is not installed here; another major is: "
							      "%s in %s (%s)",
							    importer, nd->name, nd->res.other_major[0].detail,
							    nd->res.other_major[0].dir, nd->res.other_major[0].origin);
	}
}

/* A DLL a message names, as the Windows loader of the analysed tree would search for it (the
 * environment's PATH, the program's folder when --app names one, System32). */
static void resolve_windows(void *cookie, struct arena *a, const char *name, struct explain_resolution *out)
{
	struct win_cookie *c = cookie;
	memset(out, 0, sizeof *out);
	size_t n = strlen(name);
	if (n < 5 || strcasecmp(name + n - 4, ".dll") != 0)
		return;
	if (strchr(name, '\\') || strchr(name, '/')) {
		resolve_windows_path(c, a, name, out);
		return;
	}
	struct win_resolution *r = arena_calloc(a, 1, sizeof *r);
	win_resolve(c->L, name, NULL, r);
	out->available = true;
	out->system = true; /* a C: drive with System32 is a system a program runs on */
	out->loader = "Windows";
	const struct win_candidate *ch = win_chosen(r);
	if (ch && ch->path) {
		out->path = win_path_from_root(a, ch->path);
		out->how = ch->origin;
		return;
	}
	if (r->system) { /* an API set or KnownDLL: Windows provides it */
		out->path = name;
		out->how = r->system;
		return;
	}
	out->tried = arena_calloc(a, r->n_cands ? r->n_cands : 1, sizeof *out->tried);
	for (size_t i = 0; i < r->n_cands && out->n_tried < 16; i++)
		out->tried[out->n_tried++] = arena_printf(a, "tried %s (%s): %s", r->cands[i].dir, r->cands[i].origin,
							  win_cand_result_name(r->cands[i].result));
	/* another major in a directory the search went through, or on PATH (a toolkit installed and
	 * set up, even where Python 3.8+ ignores PATH): the program wants another CUDA than the one the
	 * machine has. One only elsewhere (%CUDA_PATH%\bin not on PATH) says as much about the search
	 * path as about the major, and is no evidence for either. */
	for (size_t k = 0; k < r->n_other_major && !out->other_major; k++) {
		bool searched = r->other_major[k].origin && strncmp(r->other_major[k].origin, "PATH", 4) == 0;
		for (size_t i = 0; i < r->n_cands && !searched; i++)
			searched = strcasecmp(r->cands[i].dir, r->other_major[k].dir) == 0;
		if (searched)
			out->other_major = arena_printf(a, "%s in %s (%s)", r->other_major[k].detail, r->other_major[k].dir,
							r->other_major[k].origin);
	}
}
#endif

#ifdef EXPLAIN_HAVE_LOADER
static void resolve(void *cookie, struct arena *a, const char *name, struct explain_resolution *out)
{
	struct cudx_ctx *ctx = cookie;
	memset(out, 0, sizeof *out);
	if (!strstr(name, ".so") || strchr(name, '/'))
		return;
	struct loader *L = arena_calloc(a, 1, sizeof *L);
	struct loader_config cfg;
	memset(&cfg, 0, sizeof cfg);
	cfg.root = &ctx->root;
	cfg.env = &ctx->env;
	loader_init(L, a, &cfg);
	/* a run-time load by a program without RPATH: what frameworks do for CUDA libraries */
	struct loader_result *r = loader_resolve(L, name, NULL, true);
	out->available = true;
	out->system = L->interp_path && !L->no_libc;
	if (!r)
		return;
	out->path = r->path;
	out->how = r->path ? loader_how_name(r->how) : NULL;
	out->tried = arena_calloc(a, r->n_cands ? r->n_cands : 1, sizeof *out->tried);
	for (size_t i = 0; i < r->n_cands && out->n_tried < 16; i++)
		out->tried[out->n_tried++] =
			arena_printf(a, "tried %s (%s): %s", r->cands[i].path,
				     r->cands[i].via ? r->cands[i].via : loader_how_name(r->cands[i].how),
				     r->cands[i].reason ? r->cands[i].reason : "");
	for (size_t i = 0; !r->path && i < r->n_cands && !out->dangling; i++)
		if (r->cands[i].dangling)
			out->dangling = arena_printf(a, "%s: %s", r->cands[i].path, r->cands[i].reason);
	for (size_t i = 0; !r->path && i < r->n_cands && !out->placeholder; i++)
		if (r->cands[i].empty)
			out->placeholder = r->cands[i].path;
	if (r->path && r->how == LOADER_HOW_LD_LIBRARY_PATH) {
		/* the same search without the environment: a directory LD_LIBRARY_PATH names may also
		 * be a default one or in ld.so.cache */
		static const struct envsnap none = { .origin = "no environment" };
		struct loader *bare = arena_calloc(a, 1, sizeof *bare);
		cfg.env = &none;
		loader_init(bare, a, &cfg);
		const struct loader_result *b = loader_resolve(bare, name, NULL, true);
		out->env_only = !b || !b->path;
	}
}
#endif

void explain_machine_loader(struct explain_machine *m, struct cudx_ctx *ctx)
{
#ifdef EXPLAIN_HAVE_WIN_LOADER
	if (ctx->os == OS_WINDOWS && m->inv && m->inv->windows) {
		struct win_cookie *c = arena_calloc(ctx->arena, 1, sizeof *c);
		c->ctx = ctx;
		c->L = &m->inv->windows->loader;
		m->resolve = resolve_windows;
		m->cookie = c;
		return;
	}
#endif
#ifdef EXPLAIN_HAVE_LOADER
	if (ctx->os != OS_WINDOWS) {
		m->resolve = resolve;
		m->cookie = ctx;
	}
#else
	(void)m, (void)ctx;
#endif
}
