/* A whole program as ld.so loads it: the main object, then its DT_NEEDED breadth-first
 * (_dl_map_object_deps works through a queue, so load order and "who loaded whom" follow BFS), then
 * the run-time loads the knowledge base knows of (kb_lib_dlopens), each dlopen followed by its own
 * NEEDED closure as dlopen does. Cycles end at "already loaded"; every loop is bounded by
 * LOADER_MAX_OBJECTS objects. */
#include <string.h>

#include "kb/kb.h"
#include "loader/loader_internal.h"

/* The knowledge base may be absent from a build (it lands on its own branch); the tree then has
 * no run-time edges rather than failing to link. */
extern size_t kb_lib_dlopens(const char *from_name, enum target_os os, const char *const **names)
	__attribute__((weak));

static void add_edge(struct loader *L, struct loader_tree *t, struct loader_object *from,
		     struct loader_result *r, bool runtime, size_t n_before)
{
	struct loader_edge *e = ARENA_PUSH(L->a, t->edges, t->n_edges, t->cap_edges);
	e->from = from;
	e->result = r;
	e->runtime = runtime;
	e->first = r->object && r->object->id >= n_before;
	if (!r->object)
		t->n_missing++;
	for (size_t i = 0; i < r->n_missing_versions; i++)
		if (!r->missing_weak[i]) {
			t->n_version_errors++;
			break;
		}
	if (!r->object)
		for (size_t i = 0; i < r->n_cands; i++)
			if (r->cands[i].verdict == LOADER_WRONG_CLASS || r->cands[i].verdict == LOADER_WRONG_MACHINE) {
				t->n_wrong_arch++;
				break;
			}
}

/* Work through the NEEDED of every object from *next on. */
static void needed_closure(struct loader *L, struct loader_tree *t, size_t *next)
{
	while (*next < L->n_objects) {
		struct loader_object *o = L->objects[(*next)++];
		for (size_t i = 0; i < o->elf.n_needed; i++) {
			size_t before = L->n_objects;
			struct loader_result *r = loader_resolve(L, o->elf.needed[i], o, false);
			add_edge(L, t, o, r, false, before);
		}
	}
}

void loader_tree(struct loader *L, const char *path, struct loader_tree *out)
{
	memset(out, 0, sizeof *out);
	const char *err = NULL;
	out->root = loader_open_main(L, path, &err);
	if (!out->root) {
		out->error = arena_printf(L->a, "%s: %s", path, err ? err : "cannot be read");
		return;
	}
	size_t next_needed = 0, next_dlopen = 0;
	needed_closure(L, out, &next_needed);
	if (L->cfg.no_dlopen_edges || !kb_lib_dlopens)
		return;
	while (next_dlopen < L->n_objects) {
		struct loader_object *o = L->objects[next_dlopen++];
		const char *const *names = NULL;
		size_t n = 0;
		if (o->elf.soname)
			n = kb_lib_dlopens(o->elf.soname, OS_LINUX, &names);
		if (!n)
			n = kb_lib_dlopens(path_basename(o->path), OS_LINUX, &names);
		for (size_t i = 0; i < n && names; i++) {
			size_t before = L->n_objects;
			struct loader_result *r = loader_resolve(L, names[i], o, true);
			add_edge(L, out, o, r, true, before);
			needed_closure(L, out, &next_needed);
		}
	}
}
