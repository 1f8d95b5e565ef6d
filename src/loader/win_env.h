/* The environment of a Windows target, from --env FILE. Besides what envsnap_parse reads (`set`
 * from cmd.exe: NAME=VALUE lines), this reads the table PowerShell prints for
 * `Get-ChildItem env:` (Name / Value columns), and files saved as UTF-16LE with a BOM, which is
 * what Windows PowerShell 5's `>` redirection writes. Names are case-insensitive (Path == PATH). */
#ifndef CUDX_WIN_ENV_H
#define CUDX_WIN_ENV_H

#include <stdbool.h>

#include "sys/envsnap.h"

#define WIN_ENV_MAX_FILE (16u << 20)

/* A PowerShell `Get-ChildItem env:` table? (a "Name  Value" header over a "----  -----" rule) */
bool win_env_is_pstable(struct span text);
/* Parse such a table. Values PowerShell cut to the console width end in "..." (or U+2026); they
 * are kept and counted in *truncated so the caller can warn. Returns the number of variables. */
size_t win_env_parse_pstable(struct envsnap *e, struct arena *a, struct span text, const char *origin,
			     size_t *truncated);
/* Text of a possibly UTF-16LE (BOM) file as UTF-8; other text is returned as is. */
struct span win_env_to_utf8(struct arena *a, struct span raw);
/* Load path (host file system) into e, whichever of the formats it is. 0 or errno; *truncated as
 * above (0 for `set` output). */
int win_env_load(struct envsnap *e, struct arena *a, const char *path, size_t *truncated);

/* A variable, names compared without case as Windows does; the last definition wins. */
const char *win_env_get(const struct envsnap *e, const char *name);

#endif
