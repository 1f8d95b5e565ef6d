/* The search itself, mirroring glibc 2.3x elf/dl-load.c (_dl_map_object, open_path, open_verify,
 * _dl_dst_substitute) as described and verified in formats.md §2. Comments name the glibc
 * behaviour each step mirrors. Nothing here recurses; every list is bounded. */
#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include "loader/loader_internal.h"

const char *loader_how_name(enum loader_how how)
{
	static const char *const names[] = { "not_found", "already_loaded", "path", "rpath",
					     "ld_library_path", "runpath", "ldcache", "default" };
	return (unsigned)how < sizeof names / sizeof names[0] ? names[how] : "?";
}

const char *loader_verdict_name(enum loader_verdict v)
{
	static const char *const names[] = { "taken",     "not_found",  "wrong_class", "wrong_machine",
					     "not_elf",   "unreadable", "link_loop",   "is_directory",
					     "nodeflib",  "secure_dropped" };
	return (unsigned)v < sizeof names / sizeof names[0] ? names[v] : "?";
}

/* --- small string set (candidate paths tried in one lookup; names of loaded objects) ---------- */

struct strset {
	const char **slots;
	void **vals;
	size_t cap, n;
};

static uint64_t str_hash(const char *s)
{
	uint64_t h = 1469598103934665603ull;
	while (*s)
		h = (h ^ (uint8_t)*s++) * 1099511628211ull;
	return h;
}

static void *strset_get(const struct strset *s, const char *key)
{
	if (!s->cap)
		return NULL;
	for (size_t i = str_hash(key) & (s->cap - 1);; i = (i + 1) & (s->cap - 1)) {
		if (!s->slots[i])
			return NULL;
		if (strcmp(s->slots[i], key) == 0)
			return s->vals[i];
	}
}

static void strset_put(struct arena *a, struct strset *s, const char *key, void *val)
{
	if ((s->n + 1) * 2 > s->cap) {
		struct strset bigger = { 0 };
		bigger.cap = s->cap ? s->cap * 2 : 64;
		bigger.slots = arena_calloc(a, bigger.cap, sizeof *bigger.slots);
		bigger.vals = arena_calloc(a, bigger.cap, sizeof *bigger.vals);
		for (size_t i = 0; i < s->cap; i++)
			if (s->slots[i])
				strset_put(a, &bigger, s->slots[i], s->vals[i]);
		*s = bigger;
	}
	size_t i = str_hash(key) & (s->cap - 1);
	while (s->slots[i]) {
		if (strcmp(s->slots[i], key) == 0) {
			return; /* the first object that claimed a name keeps it, as in ld.so's list order */
		}
		i = (i + 1) & (s->cap - 1);
	}
	s->slots[i] = key;
	s->vals[i] = val;
	s->n++;
}

/* Loader-private state that does not belong in the public struct. */
struct loader_priv {
	struct strset names; /* name or SONAME -> loader_object (ld.so's _dl_name_match_p) */
	struct loader_object **by_file; /* open addressing on (dev, ino) */
	size_t cap_file, n_file;
};

static size_t file_slot(uint64_t dev, uint64_t ino, size_t cap)
{
	return (size_t)((dev * 0x9E3779B97F4A7C15ull) ^ (ino * 0xC2B2AE3D27D4EB4Full)) & (cap - 1);
}

static struct loader_priv *priv(struct loader *L)
{
	return (struct loader_priv *)L->objects_priv;
}

void loader_init(struct loader *L, struct arena *a, const struct loader_config *cfg)
{
	memset(L, 0, sizeof *L);
	L->a = a;
	L->cfg = *cfg;
	L->objects_priv = arena_calloc(a, 1, sizeof(struct loader_priv));
	loader_defaults(L);
}

/* --- opening a candidate: ld.so's open_verify ------------------------------------------------- */

/* Path used for file access: relative candidates are relative to the process's cwd. */
static const char *access_path(struct loader *L, const char *path)
{
	return path[0] == '/' ? path : path_join(L->a, L->cfg.cwd, path);
}

struct opened {
	enum loader_verdict verdict;
	const char *reason;
	bool dangling; /* the name is a symlink to a missing file */
	bool empty;    /* a file of 0 bytes */
	const char *real_path;
	struct elf_info elf;
	uint64_t dev, ino;
};

static const char *class_name(int cls)
{
	return cls == 32 ? "ELFCLASS32" : "ELFCLASS64";
}

static void try_open(struct loader *L, const char *path, struct opened *o)
{
	memset(o, 0, sizeof *o);
	const char *ap = access_path(L, path);
	struct sysroot_resolved r;
	int e = sysroot_resolve(L->cfg.root, L->a, ap, &r);
	if (e != 0) {
		o->verdict = e == ELOOP ? LOADER_LINK_LOOP : e == EACCES ? LOADER_UNREADABLE : LOADER_NOT_FOUND;
		struct stat lst;
		if (e == ELOOP)
			o->reason = arena_printf(L->a, "too many levels of symbolic links at %s", r.failed_at);
		else if (e == ENOENT && sysroot_lstat(L->cfg.root, ap, &lst) == 0 && S_ISLNK(lst.st_mode)) {
			o->dangling = true;
			o->reason = arena_printf(L->a, "dangling symlink -> %s (missing)",
						 r.n_links ? r.links[r.n_links - 1].target : "?");
		}
		else if (e == ENOENT && !sysroot_is_dir(L->cfg.root, path_dirname(L->a, ap)))
			o->reason = "no such directory";
		else
			o->reason = e == ENOENT ? "no such file" : arena_strdup(L->a, strerror(e));
		return;
	}
	o->real_path = r.path;
	struct stat st;
	if (sysroot_stat(L->cfg.root, r.path, &st) != 0) {
		o->verdict = LOADER_NOT_FOUND;
		o->reason = "no such file";
		return;
	}
	if (S_ISDIR(st.st_mode)) {
		o->verdict = LOADER_IS_DIR;
		o->reason = "is a directory";
		return;
	}
	o->dev = (uint64_t)st.st_dev, o->ino = (uint64_t)st.st_ino;
	struct mapped_file m;
	e = sysroot_map(L->cfg.root, r.path, &m);
	if (e != 0) {
		o->verdict = e == EACCES ? LOADER_UNREADABLE : LOADER_NOT_FOUND;
		o->reason = arena_printf(L->a, "cannot open: %s", strerror(e));
		return;
	}
	const char *err = NULL;
	if (m.data.n < 64) {
		/* open_verify: a short read of the ELF header is "file too short" (fatal) */
		o->verdict = LOADER_NOT_ELF;
		o->reason = "file too short";
		o->empty = m.data.n == 0;
	} else if (!elf_parse(m.data, L->a, &o->elf, &err)) {
		o->verdict = LOADER_NOT_ELF;
		o->reason = "invalid ELF header";
	} else if (o->elf.elf_class != L->elf_class) {
		/* open_verify: a wrong class is not fatal, the search goes on */
		o->verdict = LOADER_WRONG_CLASS;
		o->reason = arena_printf(L->a, "wrong ELF class: %s", class_name(o->elf.elf_class));
	} else if (o->elf.machine != L->machine) {
		o->verdict = LOADER_WRONG_MACHINE;
		o->reason = arena_printf(L->a, "wrong machine: %s, not %s",
					 elf_machine_name(o->elf.machine), elf_machine_name(L->machine));
	} else {
		o->verdict = LOADER_OK;
		o->reason = "taken";
	}
	sysroot_unmap(&m);
}

/* --- objects in the simulated process --------------------------------------------------------- */

static struct loader_object *find_by_file(struct loader *L, uint64_t dev, uint64_t ino)
{
	struct loader_priv *p = priv(L);
	if (!p->cap_file)
		return NULL;
	for (size_t i = file_slot(dev, ino, p->cap_file);; i = (i + 1) & (p->cap_file - 1)) {
		struct loader_object *o = p->by_file[i];
		if (!o)
			return NULL;
		if (o->dev == dev && o->ino == ino)
			return o;
	}
}

static void index_file(struct loader *L, struct loader_object *o)
{
	struct loader_priv *p = priv(L);
	if ((p->n_file + 1) * 2 > p->cap_file) {
		size_t cap = p->cap_file ? p->cap_file * 2 : 64;
		struct loader_object **t = arena_calloc(L->a, cap, sizeof *t);
		for (size_t i = 0; i < p->cap_file; i++)
			if (p->by_file[i]) {
				size_t j = file_slot(p->by_file[i]->dev, p->by_file[i]->ino, cap);
				while (t[j])
					j = (j + 1) & (cap - 1);
				t[j] = p->by_file[i];
			}
		p->by_file = t;
		p->cap_file = cap;
	}
	size_t j = file_slot(o->dev, o->ino, p->cap_file);
	while (p->by_file[j])
		j = (j + 1) & (p->cap_file - 1);
	p->by_file[j] = o;
	p->n_file++;
}

static void add_name(struct loader *L, struct loader_object *o, const char *name)
{
	if (strset_get(&priv(L)->names, name))
		return;
	*(const char **)ARENA_PUSH(L->a, o->names, o->n_names, o->cap_names) = arena_strdup(L->a, name);
	strset_put(L->a, &priv(L)->names, o->names[o->n_names - 1], o);
}

static struct loader_object *new_object(struct loader *L, const char *path, struct opened *op,
					struct loader_object *loaded_by)
{
	if (L->n_objects >= LOADER_MAX_OBJECTS) {
		L->problem = "more than 20000 objects in one process; the rest were not loaded";
		return NULL;
	}
	struct loader_object *o = arena_calloc(L->a, 1, sizeof *o);
	o->id = L->n_objects;
	o->path = arena_strdup(L->a, path);
	o->real_path = op->real_path;
	o->elf = op->elf;
	o->problem = op->elf.problem;
	o->dev = op->dev, o->ino = op->ino;
	o->loaded_by = loaded_by;
	o->depth = loaded_by ? loaded_by->depth + 1 : 0;
	*(struct loader_object **)ARENA_PUSH(L->a, L->objects, L->n_objects, L->cap_objects) = o;
	index_file(L, o);
	/* ld.so registers the SONAME lazily on the first miss of the name list; registering it up
	 * front gives the same matches (a name only ever maps to the first object that claimed it) */
	if (o->elf.soname && !strset_get(&priv(L)->names, o->elf.soname))
		strset_put(L->a, &priv(L)->names, o->elf.soname, o);
	return o;
}

/* The program interpreter is in the process before anything else: rtld.c puts its own link map
 * on the list under the PT_INTERP path and its SONAME, so libc's NEEDED ld-linux-x86-64.so.2 is
 * "already loaded", never searched. A library taken as the program (or a bare lookup) has no
 * PT_INTERP: the machine's default interpreter stands in, as for any program that would load it.
 * Where the tree lacks it, no dynamically linked program of the tree can start at all: the tree
 * has no C library, and its base libraries are not reported missing one by one (base_absent). */
static void load_interp(struct loader *L, const struct loader_object *first)
{
	if (L->interp_tried)
		return;
	L->interp_tried = true;
	const char *path = first && first->elf.interp ? first->elf.interp : loader_default_interp(L->elf_class, L->machine);
	if (!path)
		return;
	L->interp_path = path;
	if (first && first->elf.interp)
		loader_use_interp(L, path);
	struct opened op;
	try_open(L, path, &op);
	if (op.verdict != LOADER_OK) {
		L->no_libc = arena_printf(L->a, "no C library: the program interpreter %s is not in the tree (%s), "
					  "so no dynamically linked program in it can start",
					  path, op.reason);
		return;
	}
	struct loader_object *o = find_by_file(L, op.dev, op.ino);
	if (!o) {
		o = new_object(L, path, &op, NULL);
		if (!o)
			return;
		add_name(L, o, path);
	}
	L->interp = o;
}

static struct loader_object *open_first(struct loader *L, const char *path,
					struct loader_object *loaded_by, bool is_main,
					const char **err)
{
	struct opened op;
	bool first = L->n_objects == 0;
	if (first) /* the first object sets the class and machine every candidate must match */
		L->elf_class = 0;
	if (first) {
		/* read it without the class check */
		int saved_cls = L->elf_class;
		uint16_t saved_m = L->machine;
		struct mapped_file m;
		const char *ap = access_path(L, path);
		if (sysroot_map(L->cfg.root, ap, &m) == 0) {
			int cls;
			uint16_t mach;
			if (elf_ident(m.data, &cls, &mach))
				L->elf_class = cls, L->machine = mach;
			sysroot_unmap(&m);
		}
		if (!L->elf_class)
			L->elf_class = saved_cls ? saved_cls : 64, L->machine = saved_m;
	}
	try_open(L, path, &op);
	if (op.verdict != LOADER_OK) {
		*err = op.reason;
		return NULL;
	}
	struct loader_object *o = find_by_file(L, op.dev, op.ino);
	if (o)
		return o;
	/* $ORIGIN of the main program is the directory of its real file (formats.md §2.3) */
	o = new_object(L, is_main ? op.real_path : path, &op, loaded_by);
	if (!o) {
		*err = L->problem;
		return NULL;
	}
	o->is_main = is_main;
	if (is_main)
		L->main = o;
	else
		add_name(L, o, path);
	if (first && !is_main) /* a library as the first object: the process is some program's */
		load_interp(L, NULL);
	return o;
}

struct loader_object *loader_open_main(struct loader *L, const char *path, const char **err)
{
	struct loader_object *o = open_first(L, path, NULL, true, err);
	if (o && L->n_objects == 1)
		loader_defaults(L); /* the machine may differ from the root's /bin/sh */
	if (o)
		load_interp(L, o);
	return o;
}

struct loader_object *loader_open_object(struct loader *L, const char *path,
					 struct loader_object *loaded_by, const char **err)
{
	return open_first(L, path, loaded_by ? loaded_by : L->main, false, err);
}

/* --- search-path strings: decompose_rpath + _dl_dst_substitute --------------------------------- */

static bool is_trusted(struct loader *L, const char *dir)
{
	const char *norm = path_normalize(L->a, dir);
	for (size_t i = 0; i < L->cfg.n_default_dirs; i++) {
		size_t n = strlen(L->cfg.default_dirs[i]);
		if (strncmp(norm, L->cfg.default_dirs[i], n) == 0 && (norm[n] == '/' || norm[n] == 0))
			return true;
	}
	return false;
}

/* Length of a DST name at s (after the '$'), matching "NAME" or "{NAME}". */
static size_t dst_len(const char *s, const char *name)
{
	size_t n = strlen(name);
	if (s[0] == '{')
		return strncmp(s + 1, name, n) == 0 && s[1 + n] == '}' ? n + 2 : 0;
	if (strncmp(s, name, n) != 0)
		return 0;
	char c = s[n];
	/* an unbraced name ends at a character that cannot be part of an identifier */
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'
		       ? 0
		       : n;
}

/* Expand one element. Returns NULL when ld.so would drop it (with *why). */
static const char *expand_element(struct loader *L, const char *el, const struct loader_object *obj,
				  const char **why)
{
	if (!strchr(el, '$'))
		return el;
	/* built on the stack and copied once: this runs for every RPATH/RUNPATH element of every
	 * object, and a zeroed 8 KB arena block each time was most of check's page faults */
	char out[32768];
	if (strlen(el) + 1 >= sizeof out) {
		*why = "element too long";
		return NULL;
	}
	/* invariant: o + strlen(rest of el) < cap, so every copy below stays inside out */
	const size_t cap = strlen(el) + 8192 < sizeof out ? strlen(el) + 8192 : sizeof out;
	size_t o = 0;
	bool origin_used = false;
	const char *start = el;
	for (const char *p = el; *p;) {
		if (*p != '$') {
			out[o++] = *p++;
			continue;
		}
		const char *repl = NULL;
		size_t len;
		if ((len = dst_len(p + 1, "ORIGIN"))) {
			if (L->cfg.secure && (p != start || (p[1 + len] != 0 && p[1 + len] != '/'))) {
				*why = "secure-execution mode: $ORIGIN allowed only alone at the start";
				return NULL;
			}
			if (!obj) {
				*why = "$ORIGIN has no value here (no object)";
				return NULL;
			}
			repl = path_dirname(L->a, obj->path);
			origin_used = true;
		} else if ((len = dst_len(p + 1, "LIB")))
			repl = L->cfg.lib;
		else if ((len = dst_len(p + 1, "PLATFORM")))
			repl = L->cfg.platform;
		else {
			out[o++] = *p++; /* not a DST: the '$' stays */
			continue;
		}
		size_t rl = strlen(repl);
		if (o + rl + strlen(p) >= cap) {
			*why = "expansion too long";
			return NULL;
		}
		memcpy(out + o, repl, rl);
		o += rl;
		p += 1 + len;
	}
	out[o] = 0;
	if (L->cfg.secure && origin_used && !is_trusted(L, out)) {
		*why = "secure-execution mode: $ORIGIN expands outside the trusted directories";
		return NULL;
	}
	return arena_strndup(L->a, out, o);
}

struct dirlist {
	const char **dirs;
	size_t n, cap;
};

static void expand_list(struct loader *L, const char *list, const struct loader_object *obj,
			bool llp, struct dirlist *out, struct loader_result *res)
{
	memset(out, 0, sizeof *out);
	const char *p = list;
	for (size_t k = 0; k < LOADER_MAX_DIRS; k++) {
		size_t len = llp ? strcspn(p, ":;") : strcspn(p, ":");
		const char *el = arena_strndup(L->a, p, len);
		const char *why = NULL;
		/* an empty element is the current directory (fillin_rpath: "./"-less relative path) */
		const char *d = expand_element(L, el, obj, &why);
		if (d)
			*(const char **)ARENA_PUSH(L->a, out->dirs, out->n, out->cap) = d;
		else if (res)
			*(const char **)ARENA_PUSH(L->a, res->notes, res->n_notes, res->cap_notes) =
				arena_printf(L->a, "element \"%s\" dropped: %s", el, why);
		if (!p[len])
			return;
		p += len + 1;
	}
	if (res)
		*(const char **)ARENA_PUSH(L->a, res->notes, res->n_notes, res->cap_notes) =
			"search path longer than 256 elements: the rest ignored";
}

size_t loader_expand_path(struct loader *L, const char *list, const struct loader_object *obj,
			  bool is_ld_library_path, const char ***dirs)
{
	struct dirlist dl;
	expand_list(L, list, obj, is_ld_library_path, &dl, NULL);
	*dirs = dl.dirs;
	return dl.n;
}

static void rpath_dirs(struct loader *L, struct loader_object *o, struct dirlist *dl,
		       struct loader_result *res)
{
	if (!o->rpath_expanded) {
		struct dirlist tmp;
		expand_list(L, o->elf.rpath, o, false, &tmp, res);
		o->rpath_dirs = tmp.dirs;
		o->n_rpath_dirs = tmp.n;
		o->rpath_expanded = true;
	}
	dl->dirs = o->rpath_dirs;
	dl->n = o->n_rpath_dirs;
	dl->cap = 0;
}

/* --- the search ---------------------------------------------------------------------------------- */

struct search {
	struct loader *L;
	struct loader_result *res;
	struct strset tried; /* candidate path -> (void*)1: a repeat gives the same answer */
	struct strset tried_dirs; /* directories searched in this lookup (same name, same answer) */
	bool fatal;          /* open_verify hit a fatal error: the search stops */
	bool found;
	bool saw_eacces;
	size_t attempted; /* files ld.so would have tried to open */
	struct opened hit;
	const char *hit_path;
};

static void note(struct loader_result *res, struct arena *a, const char *fmt, const char *arg)
{
	*(const char **)ARENA_PUSH(a, res->notes, res->n_notes, res->cap_notes) = arena_printf(a, fmt, arg);
}

static struct loader_candidate *add_cand(struct search *s, const char *path, enum loader_how how,
					 const char *via)
{
	struct loader_candidate *c =
		ARENA_PUSH(s->L->a, s->res->cands, s->res->n_cands, s->res->cap_cands);
	c->path = path;
	c->how = how;
	c->via = via;
	return c;
}

/* Try one file; true when the search is over (found, or a fatal error). */
static bool try_candidate(struct search *s, const char *path, enum loader_how how, const char *via)
{
	if (strset_get(&s->tried, path))
		return false; /* already tried in this lookup (the same dir in two RPATHs) */
	strset_put(s->L->a, &s->tried, path, (void *)1);
	struct loader_candidate *c = add_cand(s, path, how, via);
	struct opened op;
	s->attempted++;
	try_open(s->L, path, &op);
	c->verdict = op.verdict;
	c->reason = op.reason;
	c->dangling = op.dangling;
	c->empty = op.empty;
	if (op.verdict == LOADER_UNREADABLE)
		s->saw_eacces = true;
	if (op.verdict == LOADER_NOT_ELF) {
		s->fatal = true;
		s->res->error = arena_printf(s->L->a, "%s: %s", path, op.reason);
		return true;
	}
	if (op.verdict == LOADER_LINK_LOOP) {
		/* open_path: an error other than ENOENT/EACCES on an existing entry ends the search
		 * (VERIFIED: a looping link before the real file makes the program fail, and ld.so
		 * still says "No such file or directory") */
		s->fatal = true;
		s->res->error = "cannot open shared object file: No such file or directory";
		return true;
	}
	if (op.verdict != LOADER_OK)
		return false;
	s->found = true;
	s->hit = op;
	s->hit_path = path;
	s->res->how = how;
	return true;
}

/* open_path: each directory, its supported glibc-hwcaps subdirectories first (formats.md §2.2).
 * A hwcaps subdirectory is listed only where <dir>/glibc-hwcaps exists, to keep traces readable;
 * the outcome is the same since a missing directory holds no file. */
static bool search_dirs(struct search *s, const struct dirlist *dl, enum loader_how how,
			const char *via)
{
	struct loader *L = s->L;
	const char *name = s->res->name;
	for (size_t i = 0; i < dl->n; i++) {
		const char *dir = dl->dirs[i];
		if (strset_get(&s->tried_dirs, dir))
			continue; /* the same directory in two RPATHs: ld.so would find the same nothing */
		strset_put(L->a, &s->tried_dirs, dir, (void *)1);
		const char *v = via;
		if (!*dir)
			v = arena_printf(L->a, "%s (empty element: the current directory %s)", via, L->cfg.cwd);
		if (L->cfg.n_hwcaps) {
			const char *hw = *dir ? path_join(L->a, dir, "glibc-hwcaps") : "glibc-hwcaps";
			if (sysroot_is_dir(L->cfg.root, access_path(L, hw)))
				for (size_t k = 0; k < L->cfg.n_hwcaps; k++) {
					const char *sub = path_join(L->a, hw, L->cfg.hwcaps[k]);
					if (try_candidate(s, path_join(L->a, sub, name), how,
							  arena_printf(L->a, "%s, glibc-hwcaps/%s", v, L->cfg.hwcaps[k])))
						return true;
				}
		}
		if (try_candidate(s, *dir ? path_join(L->a, dir, name) : name, how, v))
			return true;
	}
	return false;
}

static void check_versions(struct loader *L, struct loader_result *res, struct loader_object *req)
{
	struct loader_object *prov = res->object;
	if (!req || !prov)
		return;
	for (size_t i = 0; i < req->elf.n_verneeds; i++) {
		const struct elf_verneed *vn = &req->elf.verneeds[i];
		if (strcmp(vn->file, res->name) != 0)
			continue;
		if (prov->elf.n_verdefs == 0) {
			/* ld.so: "no version information available (required by ...)", a warning */
			res->provider_unversioned = vn->n_names > 0;
			continue;
		}
		for (size_t j = 0; j < vn->n_names; j++) {
			if (elf_defines_version(&prov->elf, vn->names[j]))
				continue;
			*(const char **)ARENA_PUSH(L->a, res->missing_versions, res->n_missing_versions,
						   res->cap_missing) = vn->names[j];
			size_t nw = res->n_missing_versions - 1, wcap = res->cap_missing;
			bool *w = arena_calloc(L->a, wcap, sizeof *w);
			if (res->missing_weak)
				memcpy(w, res->missing_weak, nw * sizeof *w);
			w[nw] = vn->weak[j];
			res->missing_weak = w;
		}
	}
}

static bool has_slash(const char *s)
{
	return strchr(s, '/') != NULL;
}

struct loader_result *loader_resolve(struct loader *L, const char *name,
				     struct loader_object *requester, bool dlopen)
{
	struct loader_result *res = arena_calloc(L->a, 1, sizeof *res);
	res->name = arena_strdup(L->a, name);
	res->dlopen = dlopen;
	struct loader_object *req = requester ? requester : L->main;
	res->from = req ? req->path : NULL;
	struct search s = { .L = L, .res = res };
	if (!L->n_objects) /* a bare lookup: a program's process, with its interpreter */
		load_interp(L, NULL);

	/* 0. already loaded: a name it was opened under, or its SONAME (_dl_map_object's first loop) */
	struct loader_object *loaded = strset_get(&priv(L)->names, name);
	if (loaded) {
		struct loader_candidate *c = add_cand(&s, loaded->path, LOADER_HOW_ALREADY_LOADED,
						      "already loaded in the process");
		c->reason = loaded->elf.soname && strcmp(loaded->elf.soname, name) == 0
				    ? "taken: an object with this SONAME is already loaded"
				    : "taken: already loaded under this name";
		res->how = LOADER_HOW_ALREADY_LOADED;
		res->path = loaded->path;
		res->real_path = loaded->real_path;
		res->object = loaded;
		check_versions(L, res, req);
		return res;
	}

	if (has_slash(name)) {
		/* a name with a slash is opened as it is, relative to the cwd, no search (§2.1) */
		const char *why = NULL;
		const char *p = expand_element(L, name, req, &why);
		if (!p) {
			res->error = arena_printf(L->a, "%s: %s", name, why);
			return res;
		}
		if (L->cfg.secure && strchr(name, '$'))
			note(res, L->a, "%s", "secure-execution mode: dynamic string tokens in a path are refused");
		try_candidate(&s, p, LOADER_HOW_PATH, "the name contains a slash: opened as a path");
	} else if (L->musl) {
		/* musl (ldso/dynlink.c, load_library): LD_LIBRARY_PATH, then the RUNPATH (else RPATH) of
		 * the requester and of each object that loaded it, then the system path; no cache, no
		 * glibc-hwcaps, no DF_1_NODEFLIB */
		const char *llp = L->cfg.env ? envsnap_get(L->cfg.env, "LD_LIBRARY_PATH") : NULL;
		if (llp && *llp && !L->cfg.secure) {
			struct dirlist dl;
			expand_list(L, llp, L->main, true, &dl, res);
			search_dirs(&s, &dl, LOADER_HOW_LD_LIBRARY_PATH, "LD_LIBRARY_PATH");
		}
		size_t depth = 0;
		for (struct loader_object *l = req; l && !s.found && !s.fatal && ++depth <= LOADER_MAX_CHAIN;
		     l = l->loaded_by) {
			const char *list = l->elf.runpath ? l->elf.runpath : l->elf.rpath;
			if (!list)
				continue;
			struct dirlist dl;
			expand_list(L, list, l, false, &dl, res);
			search_dirs(&s, &dl, l->elf.runpath ? LOADER_HOW_RUNPATH : LOADER_HOW_RPATH,
				    arena_printf(L->a, "%s of %s%s", l->elf.runpath ? "RUNPATH" : "RPATH", l->path,
						 l == req ? "" : " (inherited)"));
		}
		if (!s.found && !s.fatal) {
			struct dirlist dl = { (const char **)L->cfg.default_dirs, L->cfg.n_default_dirs, 0 };
			search_dirs(&s, &dl, LOADER_HOW_DEFAULT, "musl's system path");
		}
	} else {
		/* 1. DT_RPATH of the requester and its loaders, then of the main program, unless the
		 *    requester has DT_RUNPATH (§2.1 step 1) */
		if (!req || !req->elf.runpath) {
			bool did_main = false;
			size_t depth = 0;
			for (struct loader_object *l = req; l && !s.found && !s.fatal; l = l->loaded_by) {
				if (++depth > LOADER_MAX_CHAIN) {
					note(res, L->a, "%s", "loader chain longer than 4096 objects: the RPATHs above were not searched");
					break;
				}
				if (l->elf.rpath && l->elf.runpath) {
					note(res, L->a, "RPATH of %s ignored: it also has RUNPATH", l->path);
					continue;
				}
				if (!l->elf.rpath)
					continue;
				struct dirlist dl;
				rpath_dirs(L, l, &dl, res);
				search_dirs(&s, &dl, LOADER_HOW_RPATH,
					    arena_printf(L->a, l == req ? "RPATH of %s" : "RPATH of %s (inherited)", l->path));
				did_main |= l == L->main;
			}
			struct loader_object *m = L->main;
			if (!s.found && !s.fatal && !did_main && m && m != req && m->elf.rpath &&
			    !m->elf.runpath) {
				struct dirlist dl;
				rpath_dirs(L, m, &dl, res);
				search_dirs(&s, &dl, LOADER_HOW_RPATH,
					    arena_printf(L->a, "RPATH of the main program %s", m->path));
			}
		} else {
			size_t depth = 0;
			for (struct loader_object *l = req; l && ++depth < LOADER_MAX_CHAIN; l = l->loaded_by)
				if (l->elf.rpath && l != req) {
					note(res, L->a, "RPATH search skipped: %s has RUNPATH", req->path);
					break;
				}
		}
		/* 2. LD_LIBRARY_PATH (ignored in secure mode; "" set means nothing, not the cwd) */
		const char *llp = L->cfg.env ? envsnap_get(L->cfg.env, "LD_LIBRARY_PATH") : NULL;
		if (!s.found && !s.fatal && llp && *llp) {
			if (L->cfg.secure)
				note(res, L->a, "%s", "LD_LIBRARY_PATH ignored: secure-execution mode");
			else {
				struct dirlist dl;
				/* DSTs in LD_LIBRARY_PATH expand for the main program */
				expand_list(L, llp, L->main, true, &dl, res);
				search_dirs(&s, &dl, LOADER_HOW_LD_LIBRARY_PATH, "LD_LIBRARY_PATH");
			}
		}
		/* 3. DT_RUNPATH of the requester only (not inherited) */
		if (!s.found && !s.fatal && req && req->elf.runpath) {
			struct dirlist dl;
			expand_list(L, req->elf.runpath, req, false, &dl, res);
			search_dirs(&s, &dl, LOADER_HOW_RUNPATH, arena_printf(L->a, "RUNPATH of %s", req->path));
		}
		bool nodeflib = req && (req->elf.flags_1 & ELF_DF_1_NODEFLIB);
		/* 4. ld.so.cache: the best supported glibc-hwcaps entry, else the first plain one */
		if (!s.found && !s.fatal && !L->cfg.inhibit_cache) {
			const struct ldcache_entry *e = NULL;
			if (L->have_cache) {
				e = ldcache_lookup_hwcaps(&L->cache, name, L->elf_class, L->machine,
							  L->cfg.hwcaps, L->cfg.n_hwcaps);
				if (!e)
					e = ldcache_lookup(&L->cache, name, L->elf_class, L->machine);
			}
			if (e && nodeflib) {
				bool in_default = false;
				for (size_t i = 0; i < L->cfg.n_default_dirs; i++) {
					size_t n = strlen(L->cfg.default_dirs[i]);
					if (strncmp(e->path, L->cfg.default_dirs[i], n) == 0 && e->path[n] == '/')
						in_default = true;
				}
				if (in_default) {
					struct loader_candidate *c = add_cand(&s, e->path, LOADER_HOW_LDCACHE, "ld.so.cache");
					c->verdict = LOADER_NODEFLIB;
					c->reason = "skipped: in a default directory and the requester has DF_1_NODEFLIB";
					e = NULL;
				}
			}
			if (e)
				try_candidate(&s, e->path, LOADER_HOW_LDCACHE,
					      e->hwcaps_subdir ? arena_printf(L->a, "ld.so.cache (glibc-hwcaps %s)", e->hwcaps_subdir)
							       : "ld.so.cache");
			else if (!L->have_cache && L->cache_problem)
				note(res, L->a, "ld.so.cache not used: %s", L->cache_problem);
			else if (L->have_cache && !nodeflib) {
				/* ld.so consults the cache without a file name to show: say what it held */
				struct loader_candidate *c = add_cand(&s, L->cfg.cache_path, LOADER_HOW_LDCACHE, "ld.so.cache");
				c->verdict = LOADER_NOT_FOUND;
				c->reason = arena_printf(L->a, "no entry for %s (%s)", name,
							 ldcache_flags_str(ldcache_flags_for(L->elf_class, L->machine)));
			}
		}
		/* 5. default directories, unless DF_1_NODEFLIB */
		if (!s.found && !s.fatal) {
			if (nodeflib)
				note(res, L->a, "default directories skipped: %s has DF_1_NODEFLIB", req->path);
			else {
				struct dirlist dl = { (const char **)L->cfg.default_dirs, L->cfg.n_default_dirs, 0 };
				search_dirs(&s, &dl, LOADER_HOW_DEFAULT, "default directories");
			}
		}
	}

	if (!s.found) {
		res->how = LOADER_HOW_NONE;
		/* ld.so appends strerror of the last open; with no open at all (everything skipped)
		 * errno is 0 and the message ends after "file" (VERIFIED with -z nodefaultlib) */
		if (!res->error)
			res->error = s.saw_eacces ? "cannot open shared object file: Permission denied"
				     : s.attempted ? "cannot open shared object file: No such file or directory"
						   : "cannot open shared object file";
		/* dlopen by full path of a wrong-class file says so (formats.md §2.1) */
		if (has_slash(name) && res->n_cands && res->cands[res->n_cands - 1].verdict == LOADER_WRONG_CLASS)
			res->error = res->cands[res->n_cands - 1].reason;
		res->base_absent = L->no_libc && !has_slash(name) && loader_is_base_lib(name);
		return res;
	}
	/* the same file already loaded under another name is reused (_dl_map_object_from_fd) */
	struct loader_object *o = find_by_file(L, s.hit.dev, s.hit.ino);
	if (o) {
		note(res, L->a, "the file found is already loaded as %s: that object is reused", o->path);
		add_name(L, o, name);
	} else {
		o = new_object(L, s.hit_path, &s.hit, req);
		if (!o) {
			res->error = L->problem;
			return res;
		}
		o->runtime = dlopen;
		add_name(L, o, name);
	}
	res->path = s.hit_path;
	res->real_path = s.hit.real_path;
	res->object = o;
	check_versions(L, res, req);
	return res;
}
