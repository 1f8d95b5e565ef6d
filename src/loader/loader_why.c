/* `cudx why`: one resolution explained. Resolves the name (as dlopen from a program without
 * RPATH, or as the NEEDED edge / a dlopen from an object after its NEEDED closure is loaded) and
 * lists every other copy on disk. The loader rules (src/diag/rules_loader.c) judge the result. */
#include <stdlib.h>
#include <string.h>

#include "loader/loader_why.h"

const char *loader_name_stem(struct arena *a, const char *name)
{
	const char *so = strstr(name, ".so");
	if (!so)
		return name;
	return arena_strndup(a, name, (size_t)(so + 3 - name));
}

/* The major in a file name: "libcudnn.so.9.19.0" -> 9; -1 when there is none. */
static int name_major(const char *name)
{
	const char *so = strstr(name, ".so.");
	if (!so || so[4] < '0' || so[4] > '9')
		return -1;
	return atoi(so + 4);
}

struct scan {
	struct loader *L;
	struct loader_why *w;
	const char *stem;
	bool extra; /* scanning the directories of the extra paths */
	struct strset_lite {
		const char **v;
		size_t n, cap;
	} seen_dirs, seen_files;
};

static bool seen(struct arena *a, struct strset_lite *s, const char *key)
{
	for (size_t i = 0; i < s->n; i++)
		if (strcmp(s->v[i], key) == 0)
			return true;
	*(const char **)ARENA_PUSH(a, s->v, s->n, s->cap) = key;
	return false;
}

static void add_copy(struct scan *sc, const char *path)
{
	struct loader *L = sc->L;
	struct sysroot_resolved r;
	if (sysroot_resolve(L->cfg.root, L->a, path, &r) != 0 || seen(L->a, &sc->seen_files, path))
		return;
	if (sc->w->n_copies >= 256)
		return;
	struct mapped_file m;
	if (sysroot_map(L->cfg.root, r.path, &m) != 0)
		return;
	struct elf_info info;
	const char *err;
	bool ok = elf_parse(m.data, L->a, &info, &err);
	sysroot_unmap(&m);
	if (!ok)
		return; /* a linker script or text file named libfoo.so */
	struct loader_copy *c = ARENA_PUSH(L->a, sc->w->copies, sc->w->n_copies, sc->w->cap_copies);
	c->path = path;
	c->real_path = r.path;
	c->soname = info.soname;
	c->elf_class = info.elf_class;
	c->machine = info.machine;
	const char *base = path_basename(path);
	const char *want = sc->w->result->name;
	int want_major = name_major(path_basename(want)), major = name_major(base);
	c->right_arch = info.elf_class == L->elf_class && info.machine == L->machine;
	if (strcmp(base, path_basename(want)) == 0)
		c->relation = "same name";
	else if (info.soname && strcmp(info.soname, path_basename(want)) == 0)
		c->relation = "same SONAME, other file name (the SONAME link is missing)";
	else if (want_major >= 0 && major >= 0 && major != want_major)
		c->relation = "other major";
	else if (major < 0)
		c->relation = "development link";
	/* a SONAME with a minor (CUDA 10.x and older: libcublas.so.9.0, libcublas.so.9.1) names a
	 * release the way a major does: a program linked against one cannot load the other */
	else if (want_major >= 0 && info.soname && name_major(info.soname) == want_major &&
		 strchr(strstr(path_basename(want), ".so.") + 4, '.') && strcmp(info.soname, path_basename(want)) != 0)
		c->relation = "other major";
	else
		c->relation = "same major, other file name";
	c->major = major;
	c->from_extra = sc->extra;
	/* in the cache: an entry for this path, or for the same file under another path */
	c->in_cache = false;
	if (L->have_cache)
		for (size_t i = 0; i < L->cache.n && !c->in_cache; i++) {
			const struct ldcache_entry *e = &L->cache.entries[i];
			if (strcmp(e->path, path) == 0)
				c->in_cache = true;
			else if (strcmp(path_basename(e->path), base) == 0) {
				struct sysroot_resolved er;
				c->in_cache = sysroot_resolve(L->cfg.root, L->a, e->path, &er) == 0 &&
					      strcmp(er.path, r.path) == 0;
			}
		}
}

static void scan_dir(struct scan *sc, const char *dir)
{
	struct loader *L = sc->L;
	if (!dir || !*dir || seen(L->a, &sc->seen_dirs, dir))
		return;
	struct sysroot_dirent *ents;
	size_t n;
	if (sysroot_list_dir(L->cfg.root, L->a, dir, &ents, &n, 20000) != 0)
		return;
	size_t sl = strlen(sc->stem);
	for (size_t i = 0; i < n; i++)
		if (strncmp(ents[i].name, sc->stem, sl) == 0 && (ents[i].name[sl] == 0 || ents[i].name[sl] == '.'))
			add_copy(sc, path_join(L->a, dir, ents[i].name));
}

void loader_why_copies(struct loader *L, struct loader_why *w, const char *const *extra, size_t n_extra)
{
	struct scan sc = { .L = L, .w = w, .stem = loader_name_stem(L->a, path_basename(w->result->name)) };
	const struct loader_result *r = w->result;
	for (size_t i = 0; i < r->n_cands; i++)
		if (r->cands[i].how != LOADER_HOW_ALREADY_LOADED && r->cands[i].path[0] == '/')
			scan_dir(&sc, path_dirname(L->a, r->cands[i].path));
	for (size_t i = 0; i < L->cfg.n_default_dirs; i++)
		scan_dir(&sc, L->cfg.default_dirs[i]);
	for (size_t i = 0; i < L->n_system_dirs; i++) /* a program with its own glibc: the system's */
		scan_dir(&sc, L->system_dirs[i]);
	for (size_t i = 0; i < w->n_conf_dirs; i++)
		scan_dir(&sc, w->conf_dirs[i]);
	size_t sl = strlen(sc.stem);
	if (L->have_cache)
		for (size_t i = 0; i < L->cache.n; i++)
			if (strncmp(L->cache.entries[i].name, sc.stem, sl) == 0)
				scan_dir(&sc, path_dirname(L->a, L->cache.entries[i].path));
	sc.extra = true;
	for (size_t i = 0; i < n_extra; i++) {
		const char *base = path_basename(extra[i]);
		if (strncmp(base, sc.stem, sl) == 0)
			scan_dir(&sc, path_dirname(L->a, extra[i]));
	}
}

void loader_why(struct loader *L, const char *name, const char *from, struct loader_why *w,
		const char **err)
{
	memset(w, 0, sizeof *w);
	*err = NULL;
	w->n_conf_dirs = loader_ldconf_dirs(L, &w->conf_dirs);
	if (!from) {
		w->result = loader_resolve(L, name, NULL, true);
		return;
	}
	/* load the object's NEEDED closure first (what is "already loaded" matters), then take its
	 * own edge for name, or resolve name as a dlopen from it */
	L->cfg.no_dlopen_edges = true;
	struct loader_tree t;
	loader_tree(L, from, &t);
	if (!t.root) {
		*err = t.error;
		return;
	}
	for (size_t i = 0; i < t.n_edges; i++)
		if (t.edges[i].from == t.root && strcmp(t.edges[i].result->name, name) == 0) {
			w->result = t.edges[i].result;
			return;
		}
	w->result = loader_resolve(L, name, t.root, true);
}
