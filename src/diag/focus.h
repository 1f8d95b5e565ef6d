/* Focusing a report on a command's subject (collect/focus.h). Every command runs all the rules
 * over the same inventory; `why`, `tree`, `arch` and `probe` then keep only the findings about
 * what they were asked. A finding is about the subject when
 *   - its subject or one of its paths (finding_path) is a file of the subject, compared by real
 *     path: the file a name resolved to, every candidate the search tried, the other copies of the
 *     same name, the directory it was found in, every object of its dependency closure or tree
 *     (`arch`: the files given);
 *   - or it names the library asked for, or a library the closure misses;
 *   - or its rule is `about` the library family of one of those (no-driver for libcuda.so.1);
 *   - or, for `probe`, the probe family made it or added its evidence to it.
 * The rules decide severity; focusing never changes a finding, it only leaves some out. */
#ifndef CUDX_DIAG_FOCUS_H
#define CUDX_DIAG_FOCUS_H

#include "diag/rule.h"

/* Copy into out (initialised by the caller) the findings of all about inv->focus, in order. With
 * no focus, every finding. */
void diag_focus_keep(struct cudx_ctx *ctx, const struct inventory *inv, const struct findings *all,
		     struct findings *out);

/* A file a focus subject loads: the name it was asked by, its path and real path. */
typedef void (*diag_focus_object_fn)(void *ud, const char *name, const char *path, const char *real_path);
/* Call fn for every file the focus subjects load (why's resolution and its closure, tree's
 * objects): rules that judge files (a stub libcuda) look at these beside the library survey. */
void diag_focus_each_object(const struct inventory *inv, diag_focus_object_fn fn, void *ud);

#endif
