/* All file access of cudx goes through a sysroot: "/" for the live system, or --root DIR for an
 * unpacked container image, a chroot or a copied Windows tree. Paths given to these functions are
 * paths *inside* the root ("/usr/lib/x86_64-linux-gnu/libcuda.so.1"); symlinks are followed inside
 * the root (an absolute link target is taken relative to the root, ".." never climbs above it),
 * so analysing a tree never reads the host's files by accident. */
#ifndef CUDX_SYSROOT_H
#define CUDX_SYSROOT_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "util/arena.h"
#include "util/span.h"

#define SYSROOT_MAX_LINKS 40 /* as the kernel's ELOOP limit */

struct sysroot_memo;

struct sysroot {
	const char *root; /* host path of the root, no trailing slash; "" for the live system */
	bool live;        /* true when root is "/" */
	/* Answers of stat, lstat and resolve, remembered for the run: the loader and the rules ask
	 * about the same candidate paths thousands of times. NULL = no memo. */
	struct sysroot_memo *memo;
};

struct sysroot_link {
	const char *path;   /* the link, inside the root */
	const char *target; /* its target as stored in the link */
	bool final;         /* a link of the last path component (the file itself), not of a directory on the way */
};

struct sysroot_resolved {
	const char *path;      /* canonical path inside the root; NULL when resolution failed */
	int err;               /* 0, or ENOENT, ELOOP, ENOTDIR, EACCES, ENAMETOOLONG */
	const char *failed_at; /* the component (inside the root) where it failed */
	struct sysroot_link *links; /* every link followed, in order */
	size_t n_links;
};

struct sysroot_dirent {
	const char *name;
	unsigned char type; /* DT_REG, DT_LNK, DT_DIR, ... as readdir reports it; DT_UNKNOWN possible */
};

struct mapped_file {
	struct span data; /* the whole file, read-only */
	void *base;       /* for unmapping; NULL when data is empty */
	size_t map_len;
	bool shared;      /* held by the sysroot's memo for the run: unmap leaves it mapped */
};

/* root NULL, "" or "/" means the live system. Returns 0 or an errno value. The memo lives in a;
 * files are assumed not to change while a lives (call sysroot_forget after changing them). */
int sysroot_init(struct sysroot *sr, struct arena *a, const char *root);
void sysroot_forget(struct sysroot *sr);
/* Host path of an in-root path, without following links (for messages and for stat of the link). */
char *sysroot_host_path(const struct sysroot *sr, struct arena *a, const char *path);
/* Follow every symlink of path inside the root. Returns 0 or out->err. */
int sysroot_resolve(const struct sysroot *sr, struct arena *a, const char *path,
		    struct sysroot_resolved *out);
/* stat following links inside the root / lstat of the path itself. 0 or errno. */
int sysroot_stat(const struct sysroot *sr, const char *path, struct stat *st);
int sysroot_lstat(const struct sysroot *sr, const char *path, struct stat *st);
/* The target of a symlink as stored; NULL when path is not a link. */
char *sysroot_readlink(const struct sysroot *sr, struct arena *a, const char *path);
/* open(2) following links inside the root; returns an fd or -errno. Read-only opens never block
 * and refuse anything but regular files and directories (EINVAL): a FIFO in an analysed tree
 * must not hang cudx. */
int sysroot_open(const struct sysroot *sr, const char *path, int flags);
/* access(2) on the resolved path (meaningful for the live system: device node permissions). */
int sysroot_access(const struct sysroot *sr, const char *path, int mode);
/* Directory entries sorted by name, "." and ".." left out, at most max (0 = 100000). 0 or errno. */
int sysroot_list_dir(const struct sysroot *sr, struct arena *a, const char *path,
		     struct sysroot_dirent **ents, size_t *n, size_t max);
/* Map a regular file read-only. An empty file gives an empty span. 0 or errno (EISDIR etc.).
 * With a memo the mapping is kept for the run and shared by later calls for the same path (only
 * the pages a reader touches count towards memory; a reader that sweeps a large file must
 * release its pages itself, as collect_arch does). */
int sysroot_map(const struct sysroot *sr, const char *path, struct mapped_file *m);
void sysroot_unmap(struct mapped_file *m);
/* Read at most max bytes of a (possibly /proc) file into the arena, NUL-terminated.
 * Returns NULL on error with *err set. */
char *sysroot_read_text(const struct sysroot *sr, struct arena *a, const char *path, size_t max,
			size_t *len, int *err);
bool sysroot_exists(const struct sysroot *sr, const char *path);
bool sysroot_is_dir(const struct sysroot *sr, const char *path);

/* Path helpers (pure string work, no file access). */
char *path_join(struct arena *a, const char *dir, const char *name);
const char *path_basename(const char *path);
char *path_dirname(struct arena *a, const char *path);
/* Lexical normalisation: collapse "//", "/./", "dir/.."; keeps a leading "/". */
char *path_normalize(struct arena *a, const char *path);

#endif
