/* `cudx why`: one resolution explained. Resolves the name (as dlopen from a program without
 * RPATH, or as the NEEDED edge / a dlopen from an object after its NEEDED closure is loaded), then,
 * when it fails or is wrong, lists every other copy on disk and turns the trace into findings with
 * a fix. */
#include <stdlib.h>
#include <string.h>

#include "kb/kb.h"
#include "loader/loader_why.h"

/* "libcudnn.so.8" -> "libcudnn.so"; the part every copy of any version shares. */
static const char *name_stem(struct arena *a, const char *name)
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
	else
		c->relation = "same major, other file name";
	c->major = major;
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
	struct scan sc = { .L = L, .w = w, .stem = name_stem(L->a, path_basename(w->result->name)) };
	const struct loader_result *r = w->result;
	for (size_t i = 0; i < r->n_cands; i++)
		if (r->cands[i].how != LOADER_HOW_ALREADY_LOADED && r->cands[i].path[0] == '/')
			scan_dir(&sc, path_dirname(L->a, r->cands[i].path));
	for (size_t i = 0; i < L->cfg.n_default_dirs; i++)
		scan_dir(&sc, L->cfg.default_dirs[i]);
	for (size_t i = 0; i < w->n_conf_dirs; i++)
		scan_dir(&sc, w->conf_dirs[i]);
	size_t sl = strlen(sc.stem);
	if (L->have_cache)
		for (size_t i = 0; i < L->cache.n; i++)
			if (strncmp(L->cache.entries[i].name, sc.stem, sl) == 0)
				scan_dir(&sc, path_dirname(L->a, L->cache.entries[i].path));
	for (size_t i = 0; i < n_extra; i++) {
		const char *base = path_basename(extra[i]);
		if (strncmp(base, sc.stem, sl) == 0)
			scan_dir(&sc, path_dirname(L->a, extra[i]));
	}
}

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
		finding_evidence(f, "%zu. %s [%s] %s", i + 1, r->cands[i].path, r->cands[i].via,
				 r->cands[i].reason);
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
		return arena_printf(a, "pip install %s  (then add its %s directory to LD_LIBRARY_PATH)",
				    lib->pip_wheel, lib->pip_dir ? lib->pip_dir : "lib");
	const struct kb_pip_wheel *wh = kb_pip_wheel(lib->family, lib->cuda_major ? lib->cuda_major : 12);
	if (wh)
		return arena_printf(a, "install %s %d (e.g. pip install %s) and put its %s directory on the search path",
				    lib->family, lib->major, wh->wheel, wh->linux_dir ? wh->linux_dir : "lib");
	return arena_printf(a, "install the package that provides %s (%s %d)", name, lib->family, lib->major);
}

void loader_why_findings(struct loader *L, struct loader_why *w, struct findings *fs)
{
	const struct loader_result *r = w->result;
	const char *name = r->name;
	if (r->object) {
		bool hard = false;
		for (size_t i = 0; i < r->n_missing_versions; i++)
			hard |= !r->missing_weak[i];
		if (r->n_missing_versions) {
			struct finding *f = finding_add(fs, "lib-symbol-version-missing", hard ? SEV_ERROR : SEV_WARNING,
							"%s: version '%s' not found (required by %s)", r->path,
							r->missing_versions[0], r->from ? r->from : "the program");
			finding_subject(f, r->path);
			finding_cause(f, "The copy of %s the loader picks does not define the symbol version node(s) %s needs; "
					 "ld.so refuses to start the program (or dlopen fails) with this message.",
				      name, r->from ? path_basename(r->from) : "the program");
			for (size_t i = 0; i < r->n_missing_versions; i++)
				finding_evidence(f, "missing version node: %s%s", r->missing_versions[i],
						 r->missing_weak[i] ? " (weak: a warning only)" : "");
			finding_evidence(f, "%s was found by %s", r->path, loader_how_name(r->how));
			for (size_t i = 0; i < w->n_copies; i++)
				if (strcmp(w->copies[i].real_path, r->real_path) != 0 && w->copies[i].right_arch)
					finding_fix(f, "a different copy exists: %s; put its directory first on LD_LIBRARY_PATH",
						    w->copies[i].path);
			finding_fix(f, "use the %s that %s was built against (same major version and release)", name,
				    r->from ? path_basename(r->from) : "the program");
		}
		return;
	}
	/* not found: pick the root cause from the copies on disk */
	const struct loader_copy *stale = NULL, *elsewhere = NULL, *wrong_arch = NULL;
	const struct loader_copy *other_major = NULL;
	for (size_t i = 0; i < w->n_copies; i++) {
		const struct loader_copy *c = &w->copies[i];
		bool same = strcmp(c->relation, "same name") == 0;
		const char *dir = path_dirname(L->a, c->path);
		if (same && !c->right_arch)
			wrong_arch = wrong_arch ? wrong_arch : c;
		else if (same && in_list(dir, w->conf_dirs, w->n_conf_dirs) && !c->in_cache)
			stale = stale ? stale : c;
		else if (same)
			elsewhere = elsewhere ? elsewhere : c;
		else if (strcmp(c->relation, "other major") == 0 && c->right_arch)
			other_major = other_major ? other_major : c;
	}
	struct finding *f;
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
	if (stop) {
		f = finding_add(fs, "lib-not-found", SEV_ERROR, "%s: the search stops at %s: %s", name, stop->path,
				stop->reason);
		finding_cause(f, "ld.so gives up at the first candidate it can open but not load (a file that is not "
				 "an ELF object, a symbolic-link loop); the copies after it are never tried.");
		finding_fix(f, "remove or repair %s", stop->path);
	} else if (nodeflib_note) {
		f = finding_add(fs, "lib-not-found", SEV_ERROR, "%s: not found because %s was linked with -z nodefaultlib",
				name, r->from ? r->from : "the program");
		finding_cause(f, "DF_1_NODEFLIB makes ld.so skip the default directories and cache entries in them; "
				 "only RPATH/RUNPATH, LD_LIBRARY_PATH and cache entries elsewhere are searched.");
		const struct loader_copy *c = w->n_copies ? &w->copies[0] : NULL;
		if (c)
			finding_fix(f, "export LD_LIBRARY_PATH=%s${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}",
				    path_dirname(L->a, c->path));
		finding_fix(f, "or relink %s without -z nodefaultlib", r->from ? path_basename(r->from) : "the program");
	} else if (stale) {
		f = finding_add(fs, "ldcache-stale", SEV_ERROR, "%s is in %s, a directory ldconfig is configured for, but not in ld.so.cache",
				name, path_dirname(L->a, stale->path));
		finding_cause(f, "ld.so never reads /etc/ld.so.conf: directories listed there are searched only through the cache, "
				 "and the cache was written before this library was installed.");
		finding_fix(f, "sudo ldconfig");
	} else if (elsewhere) {
		f = finding_add(fs, "lib-not-found", SEV_ERROR, "%s exists at %s, but not on the loader's search path",
				name, elsewhere->path);
		finding_cause(f, "The loader looks only in RPATH/RUNPATH, LD_LIBRARY_PATH, ld.so.cache and the default "
				 "directories; %s is in none of them.", path_dirname(L->a, elsewhere->path));
		finding_fix(f, "export LD_LIBRARY_PATH=%s${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}",
			    path_dirname(L->a, elsewhere->path));
		finding_fix(f, "or: echo %s | sudo tee /etc/ld.so.conf.d/cudx-%s.conf && sudo ldconfig",
			    path_dirname(L->a, elsewhere->path), name_stem(L->a, name));
	} else if (wrong_arch) {
		f = finding_add(fs, "lib-wrong-arch", SEV_ERROR, "the only %s on disk is for %s (%d-bit), not %s (%d-bit)", name,
				elf_machine_name(wrong_arch->machine), wrong_arch->elf_class,
				elf_machine_name(L->machine), L->elf_class);
		finding_cause(f, "ld.so skips libraries of another ELF class or machine without a word and reports "
				 "\"cannot open shared object file\".");
		finding_fix(f, "install the %s build of %s", elf_machine_name(L->machine), name);
	} else if (other_major) {
		f = finding_add(fs, "lib-wrong-major", SEV_ERROR, "%s is wanted but only %s (major %d) exists", name,
				path_basename(other_major->path), other_major->major);
		finding_cause(f, "A library's major version is part of its name: a program linked against %s cannot use "
				 "another major, and renaming or symlinking the file does not work (the symbol version "
				 "nodes carry the major).", name);
		const char *hint = install_hint(L->a, name);
		if (hint)
			finding_fix(f, "%s", hint);
		finding_fix(f, "or use a build of %s made for the installed major",
			    r->from ? path_basename(r->from) : "the program");
	} else {
		f = finding_add(fs, "lib-not-found", SEV_ERROR, "%s: %s", name, r->error ? r->error : "not found");
		finding_cause(f, "No copy of %s exists in any directory the loader searches, nor anywhere else cudx looked.", name);
		const struct kb_lib *lib = kb_lib_classify(name, OS_LINUX);
		const char *hint = lib && strcmp(lib->family, "driver") == 0
					   ? "install the NVIDIA driver (its user-space libraries provide this file); in a container, run it with the NVIDIA container runtime (--gpus)"
					   : install_hint(L->a, name);
		finding_fix(f, "%s", hint ? hint : "install the package that provides it");
	}
	finding_subject(f, name);
	evidence_trace(f, r);
	for (size_t i = 0; i < w->n_copies; i++)
		finding_evidence(f, "on disk: %s (%s, %s%s)", w->copies[i].path, w->copies[i].relation,
				 w->copies[i].soname ? w->copies[i].soname : "no SONAME",
				 w->copies[i].right_arch ? "" : ", wrong architecture");
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
