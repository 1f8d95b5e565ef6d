/* Every environment read of cudx goes through an env snapshot: the real environment, a file
 * (--env FILE: `env` output, `set` from cmd.exe, NUL-separated /proc/PID/environ) or another
 * process (--pid PID). */
#ifndef CUDX_ENVSNAP_H
#define CUDX_ENVSNAP_H

#include <stdbool.h>
#include <stddef.h>

#include "util/arena.h"
#include "util/span.h"

#define ENVSNAP_MAX_VARS 65536
/* A larger --env file or /proc/PID/environ is an error (EFBIG), not a silently cut last record. */
#define ENVSNAP_MAX_FILE (16u << 20)

struct env_var {
	const char *name;
	const char *value;
};

struct envsnap {
	struct env_var *vars;
	size_t n;
	const char *origin;    /* "this process", "file /path", "pid 1234" */
	bool case_insensitive; /* Windows: Path == PATH */
	bool unknown;          /* a stand-in: a --root tree analysed without --env */
	size_t dropped;        /* records ignored once ENVSNAP_MAX_VARS names were held */
};

void envsnap_from_environ(struct envsnap *e, struct arena *a, char *const *environ);
/* Parse NAME=VALUE records separated by '\n' (or "\r\n") or by NUL (when the first NUL comes
 * before the first newline, as in /proc/PID/environ); lines without '=' are skipped, as are lines
 * that are not variable assignments. Later duplicates win, as with env(1). Past ENVSNAP_MAX_VARS
 * names, new names are counted in e->dropped and not kept. Returns the number of variables read. */
size_t envsnap_parse(struct envsnap *e, struct arena *a, struct span text, const char *origin);
/* Read a file through the host file system (not the sysroot: the file describes the target).
 * 0 or errno; EFBIG for a file over ENVSNAP_MAX_FILE bytes. */
int envsnap_from_file(struct envsnap *e, struct arena *a, const char *path);
int envsnap_from_pid(struct envsnap *e, struct arena *a, int pid);
/* Make names compare without case (a Windows target) and merge the names that now collide: the
 * first one's name and place, the last one's value ("later duplicates win"). */
void envsnap_fold_case(struct envsnap *e, struct arena *a);
const char *envsnap_get(const struct envsnap *e, const char *name);
/* Split a search-path variable. Empty elements are kept as "" (the loader reads them as "."). */
size_t env_split_path(struct arena *a, const char *value, char sep, const char ***out);

#endif
