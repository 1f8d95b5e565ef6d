/* Every copy of every known GPU library: where the loader would look (LD_LIBRARY_PATH, the
 * ld.so.cache, the default directories), the toolkits, WSL's driver dir and CUDA forward-compat
 * dirs. Python environments add theirs through inventory_add_lib_dir(). For each copy: its path,
 * symlink chain, SONAME, ELF class, version and where that version came from. */
#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include "collect/distinfo.h"
#include "collect/inventory.h"
#include "collect/libversion.h"
#include "fmt/elf.h"
#include "fmt/ldcache.h"
#include "fmt/pymeta.h"
#include "kb/kb.h"

#define DIR_MAX_ENTRIES 50000

/* glibc's trusted directories and the multiarch ones Debian, Ubuntu, RHEL and SUSE use */
static const char *const default_dirs[] = {
	"/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu", "/lib64", "/usr/lib64", "/lib", "/usr/lib",
	"/lib/aarch64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/usr/local/lib",
};

/* The chain of the file's own links (libcudnn.so -> libcudnn.so.9 -> libcudnn.so.9.1.0); links of
 * directories on the way (/lib -> usr/lib) are not part of it. */
static size_t fill_chain(struct cudx_ctx *ctx, struct lib_file *l, const struct sysroot_resolved *r)
{
	size_t cap = 0, n_final = 0;
	*ARENA_PUSH(ctx->arena, l->chain, l->n_chain, cap) = l->path;
	for (size_t i = 0; i < r->n_links; i++)
		if (r->links[i].final) {
			*ARENA_PUSH(ctx->arena, l->chain, l->n_chain, cap) = r->links[i].target;
			n_final++;
		}
	return n_final;
}

static size_t count_final_links(const struct sysroot_resolved *r)
{
	size_t n = 0;
	for (size_t i = 0; i < r->n_links; i++)
		n += r->links[i].final;
	return n;
}

/* Entries by key (real path, or the path of a broken link) -> index in inv->libs, so adding a copy
 * does not scan every earlier one (a tree can hold tens of thousands). */
struct lib_index {
	const char **keys;
	size_t *idx;
	size_t cap, n;
};

static uint32_t str_hash(const char *s)
{
	uint32_t h = 2166136261u;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

static struct lib_index *lib_index(struct cudx_ctx *ctx)
{
	static const char memo_key;
	struct lib_index *x = ctx_memo_get(ctx, &memo_key);
	if (!x) {
		x = arena_alloc(ctx->arena, sizeof *x);
		ctx_memo_put(ctx, &memo_key, x);
	}
	return x;
}

static struct lib_file *index_get(struct cudx_ctx *ctx, struct inventory *inv, const char *key)
{
	struct lib_index *x = lib_index(ctx);
	if (!x->cap)
		return NULL;
	for (size_t i = str_hash(key) & (x->cap - 1); x->keys[i]; i = (i + 1) & (x->cap - 1))
		if (strcmp(x->keys[i], key) == 0)
			return &inv->libs[x->idx[i]];
	return NULL;
}

static void index_put(struct cudx_ctx *ctx, const char *key, size_t at)
{
	struct lib_index *x = lib_index(ctx);
	if ((x->n + 1) * 2 > x->cap) {
		size_t cap = x->cap ? x->cap * 2 : 256;
		const char **keys = arena_calloc(ctx->arena, cap, sizeof *keys);
		size_t *idx = arena_calloc(ctx->arena, cap, sizeof *idx);
		for (size_t i = 0; i < x->cap; i++) {
			if (!x->keys[i])
				continue;
			size_t j = str_hash(x->keys[i]) & (cap - 1);
			while (keys[j])
				j = (j + 1) & (cap - 1);
			keys[j] = x->keys[i];
			idx[j] = x->idx[i];
		}
		x->keys = keys;
		x->idx = idx;
		x->cap = cap;
	}
	size_t i = str_hash(key) & (x->cap - 1);
	while (x->keys[i])
		i = (i + 1) & (x->cap - 1);
	x->keys[i] = key;
	x->idx[i] = at;
	x->n++;
}

static void read_elf(struct cudx_ctx *ctx, struct inventory *inv, struct lib_file *l)
{
	struct mapped_file m;
	int err = sysroot_map(&ctx->root, l->real_path, &m);
	if (err) {
		l->problem = arena_printf(ctx->arena, "cannot read: %s", strerror(err));
		inventory_note(ctx, inv, l->path, "cannot read: %s", strerror(err));
		return;
	}
	l->size = (long long)m.data.n;
	struct elf_info info;
	const char *why = NULL;
	if (elf_parse(m.data, ctx->arena, &info, &why)) {
		l->soname = info.soname;
		l->elf_class = info.elf_class;
		l->elf_machine = info.machine;
		const char *odd = info.problem ? info.problem
				  : !info.has_dynamic ? "no dynamic section: not a shared library the loader can use"
						      : NULL;
		if (odd) {
			l->problem = arena_printf(ctx->arena, "damaged ELF file: %s", odd);
			inventory_note(ctx, inv, l->path, "damaged ELF file: %s", odd);
		}
		libversion_from_content(ctx, l, m.data);
	} else {
		l->problem = arena_printf(ctx->arena, "not a usable ELF file: %s", why ? why : "unknown");
		inventory_note(ctx, inv, l->path, "not a usable ELF file: %s", why ? why : "unknown");
	}
	sysroot_unmap(&m);
}

struct lib_file *inventory_add_lib(struct cudx_ctx *ctx, struct inventory *inv, const char *path,
				   const char *origin, const char *owner)
{
	const char *name = path_basename(path);
	const struct kb_lib *k = kb_lib_classify(name, ctx->os);
	if (!k)
		return NULL;
	struct sysroot_resolved r;
	int err = sysroot_resolve(&ctx->root, ctx->arena, path, &r);
	/* a failure that is not a link of the file itself (a missing file, a broken directory link on
	 * the way) is no copy here: a cache entry pointing nowhere is the loader rules' business */
	if (err && count_final_links(&r) == 0)
		return NULL;
	/* an unversioned development link (libcublas.so) fits every major of its library: the file it
	 * reaches says which (libcublas.so.7.5.18), and one of a major the catalogue does not know is
	 * no catalogued library, as it is under its own name */
	if (!err && ctx->os == OS_LINUX && kb_lib_name_unversioned(name)) {
		const char *real = path_basename(r.path);
		if (strcmp(real, name) != 0 && !kb_lib_name_unversioned(real)) {
			k = kb_lib_classify(real, ctx->os);
			if (!k)
				return NULL;
		}
	}
	struct lib_file *o = index_get(ctx, inv, err ? path : r.path);
	if (o) {
		/* the same file again: keep one entry, named by its SONAME when we meet that name */
		if (!err && o->soname && strcmp(name, o->soname) == 0 && strcmp(o->name, name) != 0) {
			o->path = arena_strdup(ctx->arena, path);
			o->name = path_basename(o->path);
			o->dir = path_dirname(ctx->arena, o->path);
			o->n_chain = 0;
			fill_chain(ctx, o, &r);
		}
		return o;
	}
	struct lib_file *l = ARENA_PUSH(ctx->arena, inv->libs, inv->n_libs, inv->cap_libs);
	l->path = arena_strdup(ctx->arena, path);
	l->name = path_basename(l->path);
	l->dir = path_dirname(ctx->arena, l->path);
	l->component = k->component;
	l->family = k->family;
	l->major = k->major;
	l->cuda_major = k->cuda_major;
	l->origin = origin;
	l->owner = owner;
	l->size = l->recorded_size = -1;
	fill_chain(ctx, l, &r);
	index_put(ctx, err ? l->path : r.path, inv->n_libs - 1);
	if (err) {
		l->broken_link = true;
		l->problem = arena_printf(ctx->arena, "broken symlink: %s at %s", strerror(err),
					  r.failed_at ? r.failed_at : path);
		return l;
	}
	l->real_path = r.path;
	libversion_from_name(ctx, l);
	if (ctx->os == OS_LINUX)
		read_elf(ctx, inv, l);
	return l;
}

void inventory_add_lib_dir(struct cudx_ctx *ctx, struct inventory *inv, const char *dir,
			   const char *origin, const char *owner)
{
	struct sysroot_dirent *ents;
	size_t n;
	int err = sysroot_list_dir(&ctx->root, ctx->arena, dir, &ents, &n, DIR_MAX_ENTRIES);
	if (err) {
		if (err != ENOENT && err != ENOTDIR)
			inventory_note(ctx, inv, dir, "cannot list directory: %s", strerror(err));
		return;
	}
	if (n == DIR_MAX_ENTRIES)
		inventory_note(ctx, inv, dir, "more than %d entries: only the first %d (in directory order) were examined",
			       DIR_MAX_ENTRIES, DIR_MAX_ENTRIES);
	struct distinfo_set wheels = { 0 };
	bool wheels_read = false;
	for (size_t i = 0; i < n; i++) {
		if (!kb_lib_classify(ents[i].name, ctx->os))
			continue;
		struct lib_file *l = inventory_add_lib(ctx, inv, path_join(ctx->arena, dir, ents[i].name),
						       origin, owner);
		if (!l || l->broken_link || l->recorded_size >= 0)
			continue;
		/* versions the file names do not carry, and the size the package installed: ask the
		 * wheel that installed the file */
		if (!wheels_read) {
			distinfo_for_dir(ctx, dir, &wheels);
			wheels_read = true;
		}
		const struct distinfo *d = distinfo_owner(&wheels, l->real_path);
		if (!d)
			continue;
		/* the package whose RECORD lists the file owns it, whatever the caller guessed from the
		 * directory (CUDA 13's wheels share nvidia/cu13/lib) */
		l->owner = arena_printf(ctx->arena, "%s %s",
					pymeta_normalize(ctx->arena, d->name, strlen(d->name)), d->version);
		/* the package's own file list says how big the file it installed was: a different size
		 * means the file was replaced or damaged since (rules_libs: lib-damaged) */
		l->recorded_size = distinfo_recorded_size(d, l->real_path);
		struct stat st;
		if (l->recorded_size >= 0 && sysroot_stat(&ctx->root, l->real_path, &st) == 0)
			l->size = (long long)st.st_size;
		if (!l->version) {
			l->version = d->version;
			l->version_source = arena_printf(ctx->arena, "dist-info %s", path_basename(d->path));
		}
	}
}

static void add_ldcache(struct cudx_ctx *ctx, struct inventory *inv)
{
	struct mapped_file m;
	int err = sysroot_map(&ctx->root, "/etc/ld.so.cache", &m);
	if (err) {
		if (err != ENOENT)
			inventory_note(ctx, inv, "/etc/ld.so.cache", "cannot read: %s", strerror(err));
		return;
	}
	struct ldcache cache;
	const char *why = NULL;
	if (!ldcache_parse(m.data, ctx->arena, &cache, &why)) {
		inventory_note(ctx, inv, "/etc/ld.so.cache", "unreadable cache, ignored: %s",
			       why ? why : "unknown format");
		sysroot_unmap(&m);
		return;
	}
	sysroot_unmap(&m);
	for (size_t i = 0; i < cache.n; i++)
		if (kb_lib_classify(cache.entries[i].name, ctx->os))
			inventory_add_lib(ctx, inv, cache.entries[i].path, "ld.so.cache", NULL);
}

void collect_libs(struct cudx_ctx *ctx, struct inventory *inv)
{
	if (ctx->os != OS_LINUX)
		return;
	const char **dirs;
	size_t n = env_split_path(ctx->arena, envsnap_get(&ctx->env, "LD_LIBRARY_PATH"), ':', &dirs);
	/* the same bound the LD_LIBRARY_PATH rules use: a hostile variable cannot make the survey
	 * unbounded (repeated elements cost nothing more: listings are memoised) */
	for (size_t i = 0; i < n && i < 256; i++)
		if (dirs[i][0] == '/')
			inventory_add_lib_dir(ctx, inv, dirs[i], "LD_LIBRARY_PATH", NULL);
	add_ldcache(ctx, inv);
	for (size_t i = 0; i < sizeof default_dirs / sizeof default_dirs[0]; i++)
		inventory_add_lib_dir(ctx, inv, default_dirs[i], "default dir", NULL);
	inventory_add_lib_dir(ctx, inv, "/usr/lib/wsl/lib", "WSL driver dir", NULL);
	/* where systems keep the driver off the default path (NixOS): the copy exists even when the
	 * loader cannot reach it, which the driver rules tell apart from no driver at all */
	const struct kb_driver_dir *dd;
	for (size_t i = 0, n_dd = kb_driver_dirs(&dd); i < n_dd; i++)
		inventory_add_lib_dir(ctx, inv, dd[i].dir, arena_printf(ctx->arena, "driver dir (%s)", dd[i].system), NULL);
	for (size_t t = 0; t < inv->n_toolkits; t++) {
		const struct toolkit *tk = &inv->toolkits[t];
		static const char *const sub[] = { "lib64", "lib", "targets/x86_64-linux/lib",
						   "targets/sbsa-linux/lib", "lib64/stubs", "lib/stubs",
						   "targets/x86_64-linux/lib/stubs", "compat" };
		const char *origin = arena_printf(ctx->arena, "toolkit %s", tk->path);
		for (size_t s = 0; s < sizeof sub / sizeof sub[0]; s++)
			inventory_add_lib_dir(ctx, inv, path_join(ctx->arena, tk->path, sub[s]), origin, NULL);
	}
}
