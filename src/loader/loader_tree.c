/* A whole program as ld.so loads it: the main object, then its DT_NEEDED breadth-first
 * (_dl_map_object_deps works through a queue, so load order and "who loaded whom" follow BFS), then
 * the run-time loads the knowledge base knows of (kb_lib_dlopens), each dlopen followed by its own
 * NEEDED closure as dlopen does. Cycles end at "already loaded"; every loop is bounded by
 * LOADER_MAX_OBJECTS objects. */
#include <string.h>

#include "kb/kb.h"
#include "loader/loader_internal.h"

static void add_edge(struct loader *L, struct loader_tree *t, struct loader_object *from,
		     struct loader_result *r, bool runtime, size_t n_before)
{
	struct loader_edge *e = ARENA_PUSH(L->a, t->edges, t->n_edges, t->cap_edges);
	e->from = from;
	e->result = r;
	e->runtime = runtime;
	e->first = r->object && r->object->id >= n_before;
	if (r->base_absent)
		t->n_base_absent++; /* one fact about the tree (loader.no_libc), not a missing library */
	else if (!r->object)
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

/* The CUDA major of the process: the highest the catalogue gives any loaded object (0 = none),
 * kept up to date incrementally (*done objects already looked at). */
static int process_cuda_major(struct loader *L, size_t *done, int major)
{
	for (size_t i = *done; i < L->n_objects; i++) {
		const struct loader_object *o = L->objects[i];
		const struct kb_lib *lib = kb_lib_classify(o->elf.soname ? o->elf.soname : path_basename(o->path), OS_LINUX);
		if (lib && lib->cuda_major > major)
			major = lib->cuda_major;
	}
	*done = L->n_objects;
	return major;
}

/* "libnvrtc.so.12" and "libnvrtc.so.13": the same library in two majors. */
static bool same_stem(const char *a, const char *b)
{
	const char *sa = strstr(a, ".so"), *sb = strstr(b, ".so");
	return sa && sb && sa - a == sb - b && strncmp(a, b, (size_t)(sa - a)) == 0;
}

/* A group of rows that differ by CUDA major. With the process's major known, that row only. Else
 * the build's major is unknown: try the newest first and keep the first that resolves (a failed
 * lookup changes nothing), or report the newest as missing. */
static void dlopen_variant(struct loader *L, struct loader_tree *t, struct loader_object *o,
			   const struct kb_lib_edge *rows, size_t n, int major, size_t *next_needed)
{
	const struct kb_lib_edge *order[16];
	size_t k = 0;
	for (size_t i = 0; i < n && k < 16; i++)
		if (!major || rows[i].cuda_major == major)
			order[k++] = &rows[i];
	for (size_t a = 0; a < k; a++) /* newest major first */
		for (size_t b = a + 1; b < k; b++)
			if (order[b]->cuda_major > order[a]->cuda_major) {
				const struct kb_lib_edge *tmp = order[a];
				order[a] = order[b], order[b] = tmp;
			}
	struct loader_result *first_fail = NULL;
	for (size_t i = 0; i < k; i++) {
		size_t before = L->n_objects;
		struct loader_result *r = loader_resolve(L, order[i]->to, o, true);
		if (r->object || k == 1) {
			add_edge(L, t, o, r, true, before);
			needed_closure(L, t, next_needed);
			return;
		}
		if (!first_fail)
			first_fail = r;
	}
	if (first_fail)
		add_edge(L, t, o, first_fail, true, L->n_objects);
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
	/* loader_open_main put the program interpreter in first: libc's NEEDED ld-linux-x86-64.so.2
	 * finds it as already loaded, as in glibc */
	needed_closure(L, out, &next_needed);
	if (L->cfg.no_dlopen_edges)
		return;
	const struct kb_lib_edge *rows;
	size_t n_rows = kb_lib_edges(&rows), classified = 0;
	int major = 0;
	while (next_dlopen < L->n_objects) {
		major = process_cuda_major(L, &classified, major);
		struct loader_object *o = L->objects[next_dlopen++];
		/* the catalogue's name for this object: its SONAME, else its file name */
		const struct kb_lib *lib = kb_lib_classify(o->elf.soname ? o->elf.soname : path_basename(o->path), OS_LINUX);
		const char *key = lib ? lib->name : o->elf.soname ? o->elf.soname : path_basename(o->path);
		for (size_t i = 0; i < n_rows; i++) {
			if (rows[i].os != OS_LINUX || strcmp(rows[i].from, key) != 0)
				continue;
			if (rows[i].cuda_major) {
				/* variants per CUDA major (libnvrtc.so.12 / .13): a build loads its own */
				size_t j = i;
				while (j < n_rows && rows[j].os == OS_LINUX && strcmp(rows[j].from, key) == 0 &&
				       rows[j].cuda_major && same_stem(rows[j].to, rows[i].to))
					j++;
				dlopen_variant(L, out, o, rows + i, j - i, major, &next_needed);
				i = j - 1;
				continue;
			}
			size_t before = L->n_objects;
			struct loader_result *r = loader_resolve(L, rows[i].to, o, true);
			add_edge(L, out, o, r, true, before);
			needed_closure(L, out, &next_needed);
		}
	}
}
