/* What a command asks about. `check` has no focus; `why NAME`, `tree FILE`, `arch FILE...`,
 * `probe` and `run` put their subjects here before the inventory is collected. The collectors resolve them
 * (collect_focus for the ELF loader, collect_windows for DLLs, collect_arch for GPU code, the
 * probe), the rules judge them like everything else in the inventory, and the command keeps the
 * findings about them (diag_focus_keep, src/diag/focus.h). So `why libcuda.so` and `check` see
 * the same stub through the same rule, with the same severity. */
#ifndef CUDX_COLLECT_FOCUS_H
#define CUDX_COLLECT_FOCUS_H

#include <stdbool.h>
#include <stddef.h>

#include "collect/inventory.h"

struct loader;
struct loader_why;
struct loader_tree;
struct win_query;

enum focus_kind {
	FOCUS_LIBRARY,  /* why NAME [--from OBJECT]: how dlopen(NAME) (or OBJECT's NEEDED edge) resolves */
	FOCUS_OBJECT,   /* tree FILE: a file and everything it loads */
	FOCUS_GPU_CODE, /* arch FILE: the GPU code inside a file */
	FOCUS_PROBE,    /* probe: what the live smoke test saw */
	FOCUS_LOADED,   /* cudx run: a file a process really loaded (a path), a name it searched for and
			 * never found, or the program it ran (collect/observed_inventory.h) */
};

struct focus_item {
	enum focus_kind kind;
	const char *name; /* as given: a library name (libcudnn.so.8, cudnn64_9.dll) or a path */
	const char *from; /* why --from OBJECT, or NULL */
	bool no_dlopen;   /* tree --no-dlopen: leave out the run-time loads */

	/* filled by the collectors */
	struct loader *loader;        /* the simulated process that resolved it (ELF), kept for traces */
	struct loader_why *why;       /* FOCUS_LIBRARY: the resolution and the other copies on disk */
	struct loader_tree *tree;     /* FOCUS_OBJECT: the tree; FOCUS_LIBRARY: the NEEDED closure of
				       * the file it resolved to (what loading it loads) */
	struct loader *tree_loader;   /* the process tree was built in (FOCUS_OBJECT: loader) */
	const struct win_query *query; /* Windows: the simulated load */
	const char *error;            /* the file (or --from) could not be read; nothing else is set */
};

/* Windows host settings of why/tree (--exe, --cwd, --dll-dir, --set-dll-directory): they set
 * the simulated process up for every load of the inventory. */
struct focus_windows {
	const char *exe, *cwd, *set_dll_dir;
	const char *dll_dirs[64];
	size_t n_dll_dirs;
	const char *from_dir; /* why --from MODULE: its folder */
	const char *reason;   /* shown as the query's reason: "asked for (cudx why)" */
};

struct focus {
	struct focus_item *items;
	size_t n_items, cap_items;
	struct focus_windows win;
	/* check --app: the subjects join the whole system's inventory, which collectors then do not
	 * narrow to them (arch scans every library as for check) */
	bool whole_system;
};

/* Add a subject; the returned item may be given from/no_dlopen before collecting. */
struct focus_item *focus_add(struct arena *a, struct focus *fo, enum focus_kind kind, const char *name);
/* The first item of a kind, or NULL. */
const struct focus_item *focus_first(const struct focus *fo, enum focus_kind kind);

/* Collect the inventory with a focus (NULL: exactly inventory_collect). */
void inventory_collect_about(struct cudx_ctx *ctx, struct inventory *inv, struct focus *focus);
/* The collector for FOCUS_LIBRARY and FOCUS_OBJECT on Linux: resolves them with the ld.so
 * simulator and adds the GPU libraries it met (and their directories) to the library survey. */
void collect_focus(struct cudx_ctx *ctx, struct inventory *inv);

#endif
