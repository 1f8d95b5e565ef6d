/* Windows paths on an analysed tree. The --root directory holds the contents of C: ("C:\Windows"
 * is ROOT/Windows); other drives and UNC paths are outside the tree. Windows file names are
 * case-insensitive, a copied tree keeps whatever case the copy had, so every lookup matches each
 * component against the directory listing (sysroot_list_dir) without regard to case. */
#ifndef CUDX_WIN_PATH_H
#define CUDX_WIN_PATH_H

#include <stdbool.h>
#include <stddef.h>

#include "sys/envsnap.h"
#include "sys/sysroot.h"
#include "util/arena.h"

struct win_dircache;

struct win_fs {
	const struct sysroot *sr;
	struct arena *a;
	struct win_dircache *cache; /* listings already read, newest first */
	size_t n_cached;
};

void win_fs_init(struct win_fs *fs, const struct sysroot *sr, struct arena *a);
/* "C:\Program Files\X", "c:/x", "\Windows" -> "/Program Files/X" (lexically normalised, not
 * checked). Returns NULL for another drive, a UNC path or a relative path, with *why saying which. */
const char *win_path_to_root(struct arena *a, const char *winpath, const char **why);
/* "/Program Files/X" -> "C:\Program Files\X" */
const char *win_path_from_root(struct arena *a, const char *root_path);
/* Resolve an in-root path case-insensitively, component by component. Returns the path with the
 * case found on disk, or NULL when some component does not exist. */
const char *win_fs_find(struct win_fs *fs, const char *root_path);
/* Same for a Windows path; NULL when outside the tree or absent. */
const char *win_fs_find_win(struct win_fs *fs, const char *winpath);
/* Entries of an in-root directory (cached). n = 0 and NULL when absent. */
const struct sysroot_dirent *win_fs_list(struct win_fs *fs, const char *root_dir, size_t *n);
/* Expand %VAR% references from env (cmd.exe style; unknown ones are kept as written). The
 * result is cut at WIN_MAX_ENV_VALUE characters, Windows' own limit for a variable's value:
 * without it, a value of many references to a long variable grew with the square of the input. */
#define WIN_MAX_ENV_VALUE 32767
const char *win_expand_vars(struct arena *a, const struct envsnap *env, const char *s);
/* Windows directory name without trailing backslash, for messages and comparisons. */
const char *win_dir_clean(struct arena *a, const char *winpath);
bool win_name_eq(const char *x, const char *y);

#endif
