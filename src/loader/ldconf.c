/* /etc/ld.so.conf as ldconfig reads it: one directory a line, '#' comments, "include GLOB"
 * (relative globs are relative to the including file's directory), "hwcap" lines ignored.
 * ld.so never reads it (formats.md §2.1): cudx uses it only to tell a stale cache
 * (ldcache-stale) and to list copies. Includes are followed with a queue, not recursion. */
#include <fnmatch.h>
#include <string.h>

#include "loader/loader_internal.h"
#include "loader/loader_why.h"

#define LDCONF_MAX_FILES 64
#define LDCONF_MAX_BYTES (1 << 20)

size_t loader_ldconf_dirs(struct loader *L, const char ***dirs)
{
	const char *queue[LDCONF_MAX_FILES];
	size_t nq = 0, head = 0, n = 0, cap = 0;
	*dirs = NULL;
	queue[nq++] = "/etc/ld.so.conf";
	while (head < nq) {
		const char *file = queue[head++];
		size_t len;
		int err;
		char *text = sysroot_read_text(L->cfg.root, L->a, file, LDCONF_MAX_BYTES, &len, &err);
		if (!text)
			continue;
		for (char *line = text; line && *line;) {
			char *nl = strchr(line, '\n');
			if (nl)
				*nl = 0;
			char *hash = strchr(line, '#');
			if (hash)
				*hash = 0;
			while (*line == ' ' || *line == '\t')
				line++;
			size_t l = strlen(line);
			while (l && (line[l - 1] == ' ' || line[l - 1] == '\t' || line[l - 1] == '\r'))
				line[--l] = 0;
			if (strncmp(line, "include", 7) == 0 && (line[7] == ' ' || line[7] == '\t')) {
				const char *pat = line + 8;
				while (*pat == ' ' || *pat == '\t')
					pat++;
				if (*pat != '/')
					pat = path_join(L->a, path_dirname(L->a, file), pat);
				const char *dir = path_dirname(L->a, pat), *base = path_basename(pat);
				struct sysroot_dirent *ents;
				size_t ne;
				if (sysroot_list_dir(L->cfg.root, L->a, dir, &ents, &ne, 4096) == 0)
					for (size_t i = 0; i < ne && nq < LDCONF_MAX_FILES; i++)
						if (fnmatch(base, ents[i].name, 0) == 0)
							queue[nq++] = path_join(L->a, dir, ents[i].name);
			} else if (line[0] == '/' && n < LOADER_MAX_DIRS) {
				*(const char **)ARENA_PUSH(L->a, *dirs, n, cap) = arena_strdup(L->a, line);
			}
			line = nl ? nl + 1 : NULL;
		}
	}
	return n;
}
