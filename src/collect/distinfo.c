#include <string.h>

#include "collect/distinfo.h"

#define RECORD_MAX (4u << 20)

bool distinfo_parse_dirname(struct arena *a, const char *dirname, const char **name,
			    const char **version)
{
	size_t len = strlen(dirname);
	static const char suffix[] = ".dist-info";
	if (len <= sizeof suffix - 1 || strcmp(dirname + len - (sizeof suffix - 1), suffix) != 0)
		return false;
	len -= sizeof suffix - 1;
	/* the name never contains '-' (wheel spec escapes it to '_'); the version follows the first '-' */
	const char *dash = memchr(dirname, '-', len);
	if (!dash || dash == dirname || (size_t)(dash - dirname) + 1 >= len)
		return false;
	*name = arena_strndup(a, dirname, (size_t)(dash - dirname));
	*version = arena_strndup(a, dash + 1, len - (size_t)(dash - dirname) - 1);
	return true;
}

static void scan_dir(struct cudx_ctx *ctx, const char *dir, struct distinfo_set *set)
{
	struct sysroot_dirent *ents;
	size_t n;
	if (sysroot_list_dir(&ctx->root, ctx->arena, dir, &ents, &n, 20000) != 0)
		return;
	for (size_t i = 0; i < n; i++) {
		const char *name, *version;
		if (!distinfo_parse_dirname(ctx->arena, ents[i].name, &name, &version))
			continue;
		char *path = path_join(ctx->arena, dir, ents[i].name);
		bool dup = false;
		for (size_t k = 0; k < set->n; k++)
			if (strcmp(set->v[k].path, path) == 0)
				dup = true;
		if (dup)
			continue;
		struct distinfo *d = ARENA_PUSH(ctx->arena, set->v, set->n, set->cap);
		d->path = path;
		d->name = name;
		d->version = version;
		d->record = sysroot_read_text(&ctx->root, ctx->arena, path_join(ctx->arena, path, "RECORD"),
					      RECORD_MAX, NULL, NULL);
	}
}

void distinfo_for_dir(struct cudx_ctx *ctx, const char *dir, struct distinfo_set *set)
{
	char *d = path_normalize(ctx->arena, dir);
	for (int level = 0; level < 4 && strcmp(d, "/") != 0; level++) {
		d = path_dirname(ctx->arena, d);
		scan_dir(ctx, d, set);
		scan_dir(ctx, path_join(ctx->arena, d, "dist-info"), set);
	}
}

const struct distinfo *distinfo_owner(const struct distinfo_set *set, const char *basename)
{
	size_t bl = strlen(basename);
	for (size_t i = 0; i < set->n; i++) {
		const char *r = set->v[i].record;
		if (!r)
			continue;
		/* RECORD lines: path,hash,size — match "<dir>/<basename>," or "<basename>," at line start */
		for (const char *p = strstr(r, basename); p; p = strstr(p + 1, basename)) {
			bool start_ok = p == r || p[-1] == '/' || p[-1] == '\n';
			if (start_ok && p[bl] == ',')
				return &set->v[i];
		}
	}
	return NULL;
}
