/* A glibc ld.so simulator (glibc 2.3x rules, shared/research/formats.md §2 and §3) over a sysroot and
 * an env snapshot. It never loads anything: it reads ELF headers and the ld.so.cache, and answers
 * "which file would ld.so open for this name, requested by this object, and why" with a trace of
 * every candidate tried, in order, taken or rejected with the reason.
 *
 * Model: a simulated process. loader_init() sets the rules up (defaults from the root: multiarch
 * dirs, $LIB, $PLATFORM, hwcaps levels, /etc/ld.so.cache). loader_open_main() or
 * loader_open_object() puts a first object in; loader_resolve() resolves one name for a requester as
 * ld.so's _dl_map_object would (already loaded -> RPATH chain -> LD_LIBRARY_PATH -> RUNPATH -> cache
 * -> default dirs); loader_tree() loads a whole program breadth-first, as _dl_map_object_deps does,
 * then adds the run-time (dlopen) edges the knowledge base knows of. */
#ifndef CUDX_LOADER_H
#define CUDX_LOADER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fmt/elf.h"
#include "fmt/ldcache.h"
#include "sys/envsnap.h"
#include "sys/sysroot.h"
#include "util/arena.h"

#define LOADER_MAX_OBJECTS 20000 /* objects in one simulated process */
#define LOADER_MAX_DIRS 256      /* directories taken from one search-path string */
#define LOADER_MAX_HWCAPS 8

/* How a library was found: the search step that produced the winning candidate. */
enum loader_how {
	LOADER_HOW_NONE = 0,       /* not found */
	LOADER_HOW_ALREADY_LOADED, /* an object already in the process matched the name or SONAME */
	LOADER_HOW_PATH,           /* the name has a slash: opened as a path, no search */
	LOADER_HOW_RPATH,          /* DT_RPATH of the requester or of an object up its loader chain */
	LOADER_HOW_LD_LIBRARY_PATH,
	LOADER_HOW_RUNPATH, /* DT_RUNPATH of the requester */
	LOADER_HOW_LDCACHE, /* /etc/ld.so.cache */
	LOADER_HOW_DEFAULT, /* the compiled-in default directories */
};

/* Why a candidate was not taken (LOADER_OK for the one taken). */
enum loader_verdict {
	LOADER_OK = 0,
	LOADER_NOT_FOUND,     /* no such file (or a dangling symlink) */
	LOADER_WRONG_CLASS,   /* ELFCLASS32 vs ELFCLASS64: skipped, the search goes on */
	LOADER_WRONG_MACHINE, /* another e_machine (AArch64 on x86-64): skipped, the search goes on */
	LOADER_NOT_ELF,       /* "invalid ELF header" / "file too short": ld.so stops with this error */
	LOADER_UNREADABLE,    /* EACCES and the like: ld.so remembers it and goes on */
	LOADER_LINK_LOOP,     /* ELOOP */
	LOADER_IS_DIR,
	LOADER_NODEFLIB,      /* a cache hit in a default dir while the requester has DF_1_NODEFLIB */
	LOADER_SECURE_DROPPED, /* secure-execution mode ignored this element */
};

struct loader_candidate {
	const char *path;       /* as ld.so forms it (dir + "/" + name, not normalised) */
	enum loader_how how;    /* the search step it belongs to */
	const char *via;        /* "RPATH of /usr/bin/python3", "LD_LIBRARY_PATH element 2", "ld.so.cache" */
	enum loader_verdict verdict;
	const char *reason;     /* human text: "taken", "no such file", "wrong ELF class: ELFCLASS32", ... */
	bool dangling;          /* LOADER_NOT_FOUND because the name is a symlink to a missing file */
	bool empty;             /* "file too short" of a file of 0 bytes (a bind mount's placeholder) */
};

struct loader_object; /* an object in the simulated process */

/* The answer for one name. */
struct loader_result {
	const char *name;      /* the name requested (NEEDED string or dlopen argument) */
	const char *from;      /* path of the requesting object, NULL for "the main program" */
	bool dlopen;           /* requested at run time (dlopen) rather than by DT_NEEDED */
	const char *path;      /* the path opened (inside the root), NULL when not found */
	const char *real_path; /* after following symlinks */
	enum loader_how how;
	const char *error;     /* ld.so's message when it fails: "cannot open shared object file: No such file or directory" */
	struct loader_candidate *cands;
	size_t n_cands, cap_cands;
	const char **notes;    /* remarks on the search: "RPATH of X ignored: it has RUNPATH" */
	size_t n_notes, cap_notes;
	struct loader_object *object; /* the object it resolved to (new or already loaded), or NULL */
	/* Symbol versions: what the requester needs from this library (VERNEED naming this NEEDED)
	 * that the provider does not define (VERDEF). */
	const char **missing_versions;
	bool *missing_weak;
	size_t n_missing_versions, cap_missing;
	bool provider_unversioned; /* provider has no VERDEF: ld.so warns "no version information" */
	/* not found, and a base-system library (libc.so.6, libm.so.6, libstdc++.so.6, the
	 * interpreter) in a tree without a C library (loader.no_libc): one fact about the tree, not a
	 * missing dependency of this library */
	bool base_absent;
};

struct loader_object {
	size_t id;              /* index in the process, in load order */
	const char *path;       /* the path it was opened by (what $ORIGIN derives from) */
	const char *real_path;
	const char **names;     /* names it was requested under (ld.so's l_libname list) */
	size_t n_names, cap_names;
	struct elf_info elf;
	const char *problem;    /* a read problem (elf_info.problem or an error) */
	struct loader_object *loaded_by; /* ld.so's l_loader: the object that caused it to load */
	bool is_main;
	bool runtime;           /* loaded by a dlopen edge */
	uint64_t dev, ino;      /* identity: the same file under two names is one object */
	size_t depth;           /* BFS depth from the main object */
	const char **rpath_dirs; /* DT_RPATH expanded once (ld.so caches l_rpath_dirs the same way) */
	size_t n_rpath_dirs;
	bool rpath_expanded;
};

struct loader_config {
	const struct sysroot *root;
	const struct envsnap *env;   /* LD_LIBRARY_PATH is read from it; NULL = empty environment */
	const char *cwd;             /* for empty LD_LIBRARY_PATH elements and relative names; NULL = "/" (or the live cwd) */
	const char *lib;             /* $LIB; NULL = from the root's layout */
	const char *platform;        /* $PLATFORM; NULL = from the host CPU (live) or the machine */
	const char **default_dirs;   /* NULL = from the root's layout (multiarch or lib64) */
	size_t n_default_dirs;
	const char *hwcaps[LOADER_MAX_HWCAPS]; /* supported glibc-hwcaps subdirs, best first */
	size_t n_hwcaps;             /* 0 and hwcaps_set false = from the host CPU when it matches */
	bool hwcaps_set;
	bool secure;                 /* simulate AT_SECURE (setuid program) */
	bool inhibit_cache;          /* ld.so --inhibit-cache */
	const char *cache_path;      /* NULL = /etc/ld.so.cache */
	bool no_dlopen_edges;        /* loader_tree: leave out the knowledge base's run-time loads */
	struct loader_cache_memo **memo; /* where to share the parsed ld.so.cache across loaders, or NULL */
};

/* A parsed ld.so.cache shared by the loaders of one run (see loader_config.memo). */
struct loader_cache_memo {
	const char *path;
	struct ldcache cache;
	bool ok;
	const char *problem;
};

struct loader {
	struct arena *a;
	struct loader_config cfg;
	int elf_class;          /* of the main object (what candidates must match) */
	uint16_t machine;
	struct ldcache cache;
	bool have_cache;
	const char *cache_problem; /* why the cache could not be used, or NULL */
	struct loader_object **objects;
	size_t n_objects, cap_objects;
	struct loader_object *main;
	const char *problem;    /* a limit hit (LOADER_MAX_OBJECTS) */
	/* The program interpreter is in every process from the start (glibc's rtld): the main
	 * object's PT_INTERP, or the machine's default when the first object is a library. */
	const char *interp_path;
	struct loader_object *interp; /* NULL when the tree lacks it */
	const char *own_glibc;  /* the prefix of a program interpreter outside the system's
				 * directories (/nix/store/...-glibc-2.33), whose cache and
				 * directories are searched instead; else NULL */
	const char **system_dirs; /* with own_glibc: the system's default directories it does not search */
	size_t n_system_dirs;
	const char *no_libc;    /* the tree has no C library (its interpreter is missing): why; else NULL */
	bool musl;              /* the linker is musl's: its order and directories, no ld.so.cache */
	const char *musl_path_file; /* with musl: /etc/ld-musl-ARCH.path */
	const char *musl_system; /* the tree is a musl system (Alpine): its /lib/ld-musl-ARCH.so.1; else NULL */
	bool interp_tried;
	void *objects_priv;     /* lookup tables (loader.c) */
};

/* One edge of the tree: object `from` asked for `name` and got `result`. */
struct loader_edge {
	struct loader_object *from;
	struct loader_result *result; /* result->object is the target, NULL when missing */
	bool runtime;                 /* a dlopen edge from the knowledge base */
	bool first;                   /* this edge loaded the target (it was not loaded before) */
};

struct loader_tree {
	struct loader_object *root;
	struct loader_edge *edges; /* in load order: breadth-first, then run-time loads */
	size_t n_edges, cap_edges;
	size_t n_missing, n_version_errors, n_wrong_arch;
	size_t n_base_absent;      /* edges not found only because the tree has no C library (not in n_missing) */
	const char *error;         /* the file itself could not be read */
};

/* A program interpreter outside the system's directories (Nix's, Guix's, a glibc in /opt): the
 * cache and default directories become that glibc's own (src/loader/loader_defaults.c). */
void loader_use_interp(struct loader *L, const char *interp);
/* Set up the rules from cfg (copied) and read the cache. Never fails: problems are noted. */
void loader_init(struct loader *L, struct arena *a, const struct loader_config *cfg);
/* Open the main object (an executable or a library treated as the program, whose RPATH then
 * applies to everything below). Returns NULL with *err set when it cannot be read. */
struct loader_object *loader_open_main(struct loader *L, const char *path, const char **err);
/* Put an object into the process as if loaded_by (NULL = the main object) had loaded it by
 * this path, e.g. a Python extension module before resolving what it dlopens. NULL + *err on failure. */
struct loader_object *loader_open_object(struct loader *L, const char *path,
					 struct loader_object *loaded_by, const char **err);
/* Resolve one name for requester (NULL = the main object, or "a program with no RPATH" when there
 * is none) as ld.so would; dlopen marks a run-time request (same search, no DT_NEEDED version
 * check unless the requester names it in VERNEED). A found object is added to the process. */
struct loader_result *loader_resolve(struct loader *L, const char *name,
				     struct loader_object *requester, bool dlopen);
/* The whole dependency closure of path (breadth-first, as ld.so loads), then the run-time loads. */
void loader_tree(struct loader *L, const char *path, struct loader_tree *out);

const char *loader_how_name(enum loader_how how);       /* "rpath", "ld_library_path", ... */
const char *loader_verdict_name(enum loader_verdict v); /* "taken", "not_found", "wrong_class", ... */

/* The expansion of one RPATH/RUNPATH/LD_LIBRARY_PATH string for object obj (NULL: no $ORIGIN),
 * as ld.so's decompose_rpath/_dl_dst_substitute would; dropped elements are reported in *notes. */
size_t loader_expand_path(struct loader *L, const char *list, const struct loader_object *obj,
			  bool is_ld_library_path, const char ***dirs);

#endif
