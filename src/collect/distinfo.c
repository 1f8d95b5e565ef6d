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

/* Keep only the shared libraries of RECORD ("nvidia/cudnn/lib/libcudnn.so.9,sha256=...,129240"):
 * owner lookups then compare a handful of names instead of searching megabytes of header paths. */
static void index_record(struct cudx_ctx *ctx, struct distinfo *d, const char *dir)
{
	size_t len, cap = 0, cap_sizes = 0, n_sizes = 0, cap_paths = 0, n_paths = 0;
	/* RECORD paths are relative to the directory holding the .dist-info (site-packages), except
	 * in a toolkit assembled from wheels, where the dist-info dirs sit in <toolkit>/dist-info and
	 * the files were moved: there only base names can be matched */
	const char *parent = path_dirname(ctx->arena, dir);
	bool moved = strcmp(path_basename(parent), "dist-info") == 0;
	/* compared with real paths: take the site-packages dir with its links resolved (venvs often
	 * reach it through lib64 -> lib) */
	struct sysroot_resolved pr;
	if (!moved && sysroot_resolve(&ctx->root, ctx->arena, parent, &pr) == 0)
		parent = pr.path;
	char *rec = sysroot_read_text(&ctx->root, ctx->arena, path_join(ctx->arena, dir, "RECORD"), RECORD_MAX,
				      &len, NULL);
	if (!rec)
		return;
	for (char *line = rec; line && *line;) {
		char *nl = strchr(line, '\n');
		char *comma = memchr(line, ',', nl ? (size_t)(nl - line) : strlen(line));
		if (comma) {
			char *base = line;
			for (char *p = line; p < comma; p++)
				if (*p == '/')
					base = p + 1;
			size_t bl = (size_t)(comma - base);
			if ((bl > 3 && (memmem(base, bl, ".so", 3) || memcmp(comma - 4, ".dll", 4) == 0))) {
				*ARENA_PUSH(ctx->arena, d->files, d->n_files, cap) = arena_strndup(ctx->arena, base, bl);
				*ARENA_PUSH(ctx->arena, d->paths, n_paths, cap_paths) =
					moved ? NULL
					      : path_normalize(ctx->arena,
							       path_join(ctx->arena, parent,
									 arena_strndup(ctx->arena, line, (size_t)(comma - line))));
				/* path,hash,size: the size is after the last comma of the line */
				size_t ll = nl ? (size_t)(nl - line) : strlen(line);
				while (ll && line[ll - 1] == '\r') /* RECORD files written on Windows */
					ll--;
				const char *last = line + ll;
				while (last > comma && last[-1] != ',')
					last--;
				long long size = -1;
				if (last > comma + 1 && last < line + ll) {
					size = 0;
					for (const char *q = last; q < line + ll && size >= 0; q++)
						size = *q >= '0' && *q <= '9' && size < (1LL << 50) ? size * 10 + (*q - '0') : -1;
				}
				*ARENA_PUSH(ctx->arena, d->sizes, n_sizes, cap_sizes) = size;
			}
		}
		line = nl ? nl + 1 : NULL;
	}
}

/* distinfo_for_dir is asked for every library directory; the ancestors overlap, so each
 * directory is scanned once per run. */
struct distinfo_cache {
	struct distinfo_cache *next;
	const char *dir;
	struct distinfo_set set;
};

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
		/* names in one listing are unique: no duplicate check needed here */
		struct distinfo *d = ARENA_PUSH(ctx->arena, set->v, set->n, set->cap);
		d->path = path;
		d->name = name;
		d->version = version;
		index_record(ctx, d, path);
	}
}

static void scan_dir_cached(struct cudx_ctx *ctx, const char *dir, struct distinfo_set *set)
{
	struct distinfo_cache *c;
	for (c = ctx->distinfo_cache; c; c = c->next)
		if (strcmp(c->dir, dir) == 0)
			break;
	if (!c) {
		c = arena_alloc(ctx->arena, sizeof *c);
		c->dir = arena_strdup(ctx->arena, dir);
		scan_dir(ctx, dir, &c->set);
		c->next = ctx->distinfo_cache;
		ctx->distinfo_cache = c;
	}
	for (size_t i = 0; i < c->set.n; i++) {
		bool dup = false;
		for (size_t k = 0; k < set->n && !dup; k++)
			dup = strcmp(set->v[k].path, c->set.v[i].path) == 0;
		if (!dup)
			*ARENA_PUSH(ctx->arena, set->v, set->n, set->cap) = c->set.v[i];
	}
}

void distinfo_for_dir(struct cudx_ctx *ctx, const char *dir, struct distinfo_set *set)
{
	char *d = path_normalize(ctx->arena, dir);
	for (int level = 0; level < 4 && strcmp(d, "/") != 0; level++) {
		d = path_dirname(ctx->arena, d);
		scan_dir_cached(ctx, d, set);
		scan_dir_cached(ctx, path_join(ctx->arena, d, "dist-info"), set);
	}
}

/* Which of d's files is real_path: the whole path in site-packages, the base name where the
 * files moved; -1 when none. */
static long file_index(const struct distinfo *d, const char *real_path)
{
	const char *base = path_basename(real_path);
	for (size_t k = 0; k < d->n_files; k++) {
		if (strcmp(d->files[k], base) != 0)
			continue;
		if (!d->paths || !d->paths[k] || strcmp(d->paths[k], real_path) == 0)
			return (long)k;
	}
	return -1;
}

long long distinfo_recorded_size(const struct distinfo *d, const char *real_path)
{
	long k = file_index(d, real_path);
	return k < 0 ? -1 : d->sizes[k];
}

const struct distinfo *distinfo_owner(const struct distinfo_set *set, const char *real_path)
{
	for (size_t i = 0; i < set->n; i++)
		if (file_index(&set->v[i], real_path) >= 0)
			return &set->v[i];
	return NULL;
}
