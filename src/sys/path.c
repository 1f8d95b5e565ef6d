/* Pure path string helpers: no file access, so they work the same for every root and OS. */
#include <string.h>

#include "sys/sysroot.h"

/* Called for every candidate path the loader and the collectors try: plain copies, no printf. */
char *path_join(struct arena *a, const char *dir, const char *name)
{
	size_t dl = strlen(dir);
	while (dl > 1 && dir[dl - 1] == '/')
		dl--;
	while (*name == '/')
		name++;
	size_t nl = strlen(name);
	if (dl == 0)
		return arena_strndup(a, name, nl);
	bool root = dl == 1 && dir[0] == '/';
	char *out = arena_alloc(a, dl + nl + 2);
	size_t o = 0;
	if (!root) {
		memcpy(out, dir, dl);
		o = dl;
	}
	out[o++] = '/';
	memcpy(out + o, name, nl + 1);
	return out;
}

const char *path_basename(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash ? slash + 1 : path;
}

char *path_dirname(struct arena *a, const char *path)
{
	const char *slash = strrchr(path, '/');
	if (!slash)
		return arena_strdup(a, ".");
	if (slash == path)
		return arena_strdup(a, "/");
	return arena_strndup(a, path, (size_t)(slash - path));
}

char *path_normalize(struct arena *a, const char *path)
{
	size_t len = strlen(path);
	char *out = arena_alloc(a, len + 2);
	size_t o = 0;
	bool absolute = path[0] == '/';
	if (absolute)
		out[o++] = '/';
	const char *p = path;
	while (*p) {
		while (*p == '/')
			p++;
		if (!*p)
			break;
		const char *end = strchr(p, '/');
		size_t clen = end ? (size_t)(end - p) : strlen(p);
		if (clen == 1 && p[0] == '.') {
			/* skip */
		} else if (clen == 2 && p[0] == '.' && p[1] == '.') {
			/* drop the last component, but never climb above "/" */
			size_t base = absolute ? 1 : 0;
			if (o > base) {
				while (o > base && out[o - 1] != '/')
					o--;
				if (o > base)
					o--;
			} else if (!absolute) {
				memcpy(out + o, "..", 2);
				o += 2;
				out[o++] = '/';
			}
			if (o > base && out[o - 1] == '/')
				o--;
		} else {
			if (o > 0 && out[o - 1] != '/')
				out[o++] = '/';
			memcpy(out + o, p, clen);
			o += clen;
		}
		p += clen;
	}
	if (o == 0)
		out[o++] = absolute ? '/' : '.';
	out[o] = '\0';
	return out;
}
