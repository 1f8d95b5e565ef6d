/* POSIX implementation of the sysroot. Symlinks are resolved by walking the path one component
 * at a time, so an absolute link target inside an analysed tree is taken relative to the tree's
 * root, ".." stops at the root, and every hop is recorded for the report (symlink chains are
 * evidence: "libcudnn.so.8 -> libcudnn.so.8.9.7 (missing)"). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "sys/sysroot.h"

enum memo_kind { MEMO_STAT = 1, MEMO_LSTAT, MEMO_RESOLVE, MEMO_MAP, MEMO_LIST };

#define SYSROOT_MAX_SHARED_MAPS 2048

struct memo_entry {
	const char *path;
	uint32_t hash;
	int kind;
	int err;
	struct stat st;
	struct sysroot_resolved resolved;
	struct mapped_file map;
	struct sysroot_dirent *ents;
	size_t n_ents, max_ents;
};

struct sysroot_memo {
	struct arena *a;
	struct memo_entry **v; /* open addressing over pointers: the table stays small to zero */
	size_t cap, n;
	size_t n_maps; /* mappings kept for the run */
};

static uint32_t memo_hash(const char *path, int kind)
{
	uint32_t h = 2166136261u ^ (uint32_t)kind;
	for (const unsigned char *p = (const unsigned char *)path; *p; p++)
		h = (h ^ *p) * 16777619u;
	return h;
}

static struct memo_entry *memo_find(const struct sysroot *sr, const char *path, int kind, bool *found)
{
	struct sysroot_memo *m = sr->memo;
	*found = false;
	if (!m)
		return NULL;
	if ((m->n + 1) * 2 > m->cap) {
		size_t cap = m->cap ? m->cap * 2 : 512;
		struct memo_entry **v = arena_calloc(m->a, cap, sizeof *v);
		for (size_t i = 0; i < m->cap; i++) {
			if (!m->v[i])
				continue;
			size_t j = m->v[i]->hash & (cap - 1);
			while (v[j])
				j = (j + 1) & (cap - 1);
			v[j] = m->v[i];
		}
		m->v = v; /* the old table stays in the arena until the run ends */
		m->cap = cap;
	}
	uint32_t h = memo_hash(path, kind);
	size_t i = h & (m->cap - 1);
	while (m->v[i]) {
		struct memo_entry *e = m->v[i];
		if (e->hash == h && e->kind == kind && e->path && strcmp(e->path, path) == 0) {
			*found = true;
			return e;
		}
		i = (i + 1) & (m->cap - 1);
	}
	struct memo_entry *e = arena_alloc(m->a, sizeof *e);
	e->hash = h;
	e->kind = kind;
	m->v[i] = e; /* the caller fills it and sets path last (memo_commit) */
	m->n++;
	return e;
}

/* Find without inserting. */
static const struct memo_entry *memo_lookup(const struct sysroot *sr, const char *path, int kind)
{
	const struct sysroot_memo *m = sr->memo;
	if (!m || !m->cap)
		return NULL;
	uint32_t h = memo_hash(path, kind);
	for (size_t i = h & (m->cap - 1); m->v[i]; i = (i + 1) & (m->cap - 1)) {
		const struct memo_entry *e = m->v[i];
		if (e->hash == h && e->kind == kind && e->path && strcmp(e->path, path) == 0)
			return e;
	}
	return NULL;
}

static void memo_commit(const struct sysroot *sr, struct memo_entry *e, const char *path)
{
	e->path = arena_strdup(sr->memo->a, path);
}

void sysroot_forget(struct sysroot *sr)
{
	if (sr->memo) {
		sr->memo->v = NULL;
		sr->memo->cap = sr->memo->n = 0;
	}
}

int sysroot_init(struct sysroot *sr, struct arena *a, const char *root)
{
	sr->memo = arena_alloc(a, sizeof *sr->memo);
	sr->memo->a = a;
	if (!root || !*root || strcmp(root, "/") == 0) {
		sr->root = "";
		sr->live = true;
		return 0;
	}
	char *real = realpath(root, NULL);
	if (!real)
		return errno;
	struct stat st;
	if (stat(real, &st) != 0 || !S_ISDIR(st.st_mode)) {
		free(real);
		return ENOTDIR;
	}
	sr->live = strcmp(real, "/") == 0;
	sr->root = sr->live ? "" : arena_strdup(a, real);
	free(real);
	return 0;
}

char *sysroot_host_path(const struct sysroot *sr, struct arena *a, const char *path)
{
	if (!*sr->root)
		return arena_strdup(a, path);
	return arena_printf(a, "%s%s%s", sr->root, path[0] == '/' ? "" : "/", path);
}

/* Host path into a fixed buffer; false when too long. */
static bool host_path_buf(const struct sysroot *sr, const char *path, char *buf, size_t n)
{
	size_t rl = strlen(sr->root), pl = strlen(path);
	bool slash = path[0] != '/';
	if (rl + pl + slash + 1 > n)
		return false;
	memcpy(buf, sr->root, rl);
	if (slash)
		buf[rl++] = '/';
	memcpy(buf + rl, path, pl + 1);
	return true;
}

static int resolve_walk(const struct sysroot *sr, struct arena *a, const char *path,
			struct sysroot_resolved *out);

int sysroot_resolve(const struct sysroot *sr, struct arena *a, const char *path,
		    struct sysroot_resolved *out)
{
	bool found;
	struct memo_entry *e = memo_find(sr, path, MEMO_RESOLVE, &found);
	if (found) {
		*out = e->resolved;
		return out->err;
	}
	/* results go to the memo's arena when there is one: they outlive this call */
	int err = resolve_walk(sr, e ? sr->memo->a : a, path, out);
	if (e) {
		e->resolved = *out;
		e->err = err;
		memo_commit(sr, e, path);
	}
	return err;
}

static int resolve_walk(const struct sysroot *sr, struct arena *a, const char *path,
			struct sysroot_resolved *out)
{
	memset(out, 0, sizeof *out);
	size_t cap_links = 0;
	/* resolved: canonical prefix inside the root ("" = "/"); pending: what is left to walk */
	char resolved[PATH_MAX], pending[2 * PATH_MAX], host[PATH_MAX + 4096], tmp[2 * PATH_MAX];
	size_t rlen = 0;
	resolved[0] = '\0';
	if (strlen(path) >= sizeof pending) {
		out->err = ENAMETOOLONG;
		out->failed_at = arena_strdup(a, path);
		return out->err;
	}
	strcpy(pending, path);
	size_t pos = 0;
	int hops = 0;

	while (pending[pos]) {
		while (pending[pos] == '/')
			pos++;
		if (!pending[pos])
			break;
		size_t start = pos;
		while (pending[pos] && pending[pos] != '/')
			pos++;
		size_t clen = pos - start;
		bool more = false;
		for (size_t k = pos; pending[k]; k++)
			if (pending[k] != '/') {
				more = true;
				break;
			}
		if (clen == 1 && pending[start] == '.')
			continue;
		if (clen == 2 && pending[start] == '.' && pending[start + 1] == '.') {
			while (rlen > 0 && resolved[rlen - 1] != '/')
				rlen--;
			if (rlen > 0)
				rlen--;
			resolved[rlen] = '\0';
			continue;
		}
		if (rlen + 1 + clen >= sizeof resolved) {
			out->err = ENAMETOOLONG;
			out->failed_at = arena_strdup(a, path);
			return out->err;
		}
		size_t prev = rlen;
		resolved[rlen++] = '/';
		memcpy(resolved + rlen, pending + start, clen);
		rlen += clen;
		resolved[rlen] = '\0';

		struct stat st;
		if (!host_path_buf(sr, resolved, host, sizeof host)) {
			out->err = ENAMETOOLONG;
			out->failed_at = arena_strdup(a, resolved);
			return out->err;
		}
		if (lstat(host, &st) != 0) {
			out->err = errno;
			out->failed_at = arena_strdup(a, resolved);
			return out->err;
		}
		if (S_ISLNK(st.st_mode)) {
			if (++hops > SYSROOT_MAX_LINKS) {
				out->err = ELOOP;
				out->failed_at = arena_strdup(a, resolved);
				return out->err;
			}
			char target[PATH_MAX];
			ssize_t tl = readlink(host, target, sizeof target - 1);
			if (tl < 0) {
				out->err = errno;
				out->failed_at = arena_strdup(a, resolved);
				return out->err;
			}
			target[tl] = '\0';
			struct sysroot_link *l = ARENA_PUSH(a, out->links, out->n_links, cap_links);
			l->path = arena_strdup(a, resolved);
			l->target = arena_strdup(a, target);
			l->final = !more;
			/* continue with target + rest of pending */
			int w = snprintf(tmp, sizeof tmp, "%s%s", target, pending + pos);
			if (w < 0 || (size_t)w >= sizeof pending) {
				out->err = ENAMETOOLONG;
				out->failed_at = arena_strdup(a, resolved);
				return out->err;
			}
			memcpy(pending, tmp, (size_t)w + 1);
			pos = 0;
			/* an absolute target restarts at the root; a relative one at the link's dir */
			rlen = target[0] == '/' ? 0 : prev;
			resolved[rlen] = '\0';
			continue;
		}
		if (more && !S_ISDIR(st.st_mode)) {
			out->err = ENOTDIR;
			out->failed_at = arena_strdup(a, resolved);
			return out->err;
		}
	}
	out->path = rlen ? arena_strdup(a, resolved) : arena_strdup(a, "/");
	return 0;
}

/* Resolve into a host path using a scratch arena; NULL + errno value on failure. */
static char *resolve_host(const struct sysroot *sr, struct arena *scratch, const char *path, int *err)
{
	if (!*sr->root) {
		*err = 0;
		return (char *)path; /* the live root: the kernel resolves links the same way */
	}
	struct sysroot_resolved r;
	if (sysroot_resolve(sr, scratch, path, &r) != 0) {
		*err = r.err;
		return NULL;
	}
	*err = 0;
	return sysroot_host_path(sr, scratch, r.path);
}

static int raw_stat(const struct sysroot *sr, const char *path, struct stat *st)
{
	struct arena scratch;
	int err;
	arena_init(&scratch);
	char *host = resolve_host(sr, &scratch, path, &err);
	if (host && stat(host, st) != 0)
		err = errno;
	arena_free(&scratch);
	return err;
}

/* Host path of path's last component in its directory resolved inside the root: lstat and
 * readlink must not let the host kernel follow a directory link out of the tree. */
static char *host_of_last(const struct sysroot *sr, struct arena *a, const char *path, int *err)
{
	*err = 0;
	if (!*sr->root)
		return (char *)path;
	const char *base = path_basename(path);
	char *dir = path_dirname(a, path);
	struct sysroot_resolved r;
	if (sysroot_resolve(sr, a, dir, &r) != 0) {
		*err = r.err;
		return NULL;
	}
	return sysroot_host_path(sr, a, path_join(a, r.path, base));
}

static int raw_lstat(const struct sysroot *sr, const char *path, struct stat *st)
{
	struct arena scratch;
	int err;
	arena_init(&scratch);
	char *host = host_of_last(sr, &scratch, path, &err);
	if (host && lstat(host, st) != 0)
		err = errno;
	arena_free(&scratch);
	return err;
}

static int stat_memoized(const struct sysroot *sr, const char *path, struct stat *st, int kind,
			 int (*raw)(const struct sysroot *, const char *, struct stat *))
{
	bool found;
	struct memo_entry *e = memo_find(sr, path, kind, &found);
	if (found) {
		*st = e->st;
		return e->err;
	}
	int err = raw(sr, path, st);
	if (e) {
		e->err = err;
		if (!err)
			e->st = *st;
		memo_commit(sr, e, path);
	}
	return err;
}

int sysroot_stat(const struct sysroot *sr, const char *path, struct stat *st)
{
	return stat_memoized(sr, path, st, MEMO_STAT, raw_stat);
}

int sysroot_lstat(const struct sysroot *sr, const char *path, struct stat *st)
{
	return stat_memoized(sr, path, st, MEMO_LSTAT, raw_lstat);
}

char *sysroot_readlink(const struct sysroot *sr, struct arena *a, const char *path)
{
	struct arena scratch;
	char target[PATH_MAX];
	int err;
	arena_init(&scratch);
	char *host = host_of_last(sr, &scratch, path, &err);
	ssize_t n = host ? readlink(host, target, sizeof target - 1) : -1;
	arena_free(&scratch);
	if (n < 0)
		return NULL;
	return arena_strndup(a, target, (size_t)n);
}

int sysroot_open(const struct sysroot *sr, const char *path, int flags)
{
	struct arena scratch;
	int err, fd = -1;
	arena_init(&scratch);
	char *host = resolve_host(sr, &scratch, path, &err);
	bool read_only = (flags & O_ACCMODE) == O_RDONLY;
	if (host) {
		fd = open(host, flags | O_CLOEXEC | (read_only ? O_NONBLOCK : 0));
		if (fd < 0)
			err = errno;
	}
	arena_free(&scratch);
	if (fd >= 0 && read_only) {
		struct stat st;
		if (fstat(fd, &st) != 0 || !(S_ISREG(st.st_mode) || S_ISDIR(st.st_mode))) {
			close(fd);
			return -EINVAL;
		}
		/* back to blocking reads for the regular file */
		int fl = fcntl(fd, F_GETFL);
		if (fl >= 0 && !(flags & O_NONBLOCK))
			fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
	}
	return fd >= 0 ? fd : -err;
}

int sysroot_access(const struct sysroot *sr, const char *path, int mode)
{
	struct arena scratch;
	int err;
	arena_init(&scratch);
	char *host = resolve_host(sr, &scratch, path, &err);
	if (host && access(host, mode) != 0)
		err = errno;
	arena_free(&scratch);
	return err;
}

static int dirent_cmp(const void *a, const void *b)
{
	return strcmp(((const struct sysroot_dirent *)a)->name, ((const struct sysroot_dirent *)b)->name);
}

static int list_dir(const struct sysroot *sr, struct arena *a, const char *path,
		    struct sysroot_dirent **ents, size_t *n, size_t max);

/* Directory listings are memoised too: the library directories are listed by the collector and
 * again by several rules, and sorting /usr/lib/x86_64-linux-gnu each time is the cost. */
int sysroot_list_dir(const struct sysroot *sr, struct arena *a, const char *path,
		     struct sysroot_dirent **ents, size_t *n, size_t max)
{
	if (max == 0)
		max = 100000;
	bool found;
	struct memo_entry *e = memo_find(sr, path, MEMO_LIST, &found);
	/* a listing cut at a smaller bound cannot answer a larger one */
	if (found && (e->n_ents < e->max_ents || max <= e->max_ents)) {
		*ents = e->ents;
		*n = e->n_ents < max ? e->n_ents : max;
		return e->err;
	}
	int err = list_dir(sr, e ? sr->memo->a : a, path, ents, n, max);
	if (e) {
		e->ents = *ents;
		e->n_ents = *n;
		e->max_ents = max;
		e->err = err;
		if (!found)
			memo_commit(sr, e, path);
	}
	return err;
}

static int list_dir(const struct sysroot *sr, struct arena *a, const char *path,
		    struct sysroot_dirent **ents, size_t *n, size_t max)
{
	struct arena scratch;
	int err;
	size_t cap = 0;
	*ents = NULL;
	*n = 0;
	if (max == 0)
		max = 100000;
	arena_init(&scratch);
	char *host = resolve_host(sr, &scratch, path, &err);
	DIR *d = host ? opendir(host) : NULL;
	if (host && !d)
		err = errno;
	arena_free(&scratch);
	if (!d)
		return err;
	struct dirent *de;
	while ((de = readdir(d)) && *n < max) {
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		struct sysroot_dirent *e = ARENA_PUSH(a, *ents, *n, cap);
		e->name = arena_strdup(a, de->d_name);
		e->type = de->d_type;
	}
	closedir(d);
	if (*n > 1)
		qsort(*ents, *n, sizeof **ents, dirent_cmp);
	return 0;
}

static int map_file(const struct sysroot *sr, const char *path, struct mapped_file *m);

int sysroot_map(const struct sysroot *sr, const char *path, struct mapped_file *m)
{
	bool found;
	/* at most SYSROOT_MAX_SHARED_MAPS mappings are kept for the run: a tree with tens of
	 * thousands of libraries must not run into the kernel's limit on mappings */
	if (sr->memo && sr->memo->n_maps >= SYSROOT_MAX_SHARED_MAPS) {
		const struct memo_entry *kept = memo_lookup(sr, path, MEMO_MAP);
		if (kept) {
			*m = kept->map;
			return kept->err;
		}
		return map_file(sr, path, m);
	}
	struct memo_entry *e = memo_find(sr, path, MEMO_MAP, &found);
	if (found) {
		*m = e->map;
		return e->err;
	}
	int err = map_file(sr, path, m);
	if (e) {
		if (!err && m->base) {
			m->shared = true;
			sr->memo->n_maps++;
		}
		e->map = *m;
		e->err = err;
		memo_commit(sr, e, path);
	}
	return err;
}

static int map_file(const struct sysroot *sr, const char *path, struct mapped_file *m)
{
	memset(m, 0, sizeof *m);
	int fd = sysroot_open(sr, path, O_RDONLY);
	if (fd < 0)
		return -fd;
	struct stat st;
	if (fstat(fd, &st) != 0) {
		int e = errno;
		close(fd);
		return e;
	}
	if (S_ISDIR(st.st_mode)) {
		close(fd);
		return EISDIR;
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		return EINVAL;
	}
	if (st.st_size == 0) {
		close(fd);
		m->data = span_make("", 0);
		return 0;
	}
	void *p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	int e = errno;
	close(fd);
	if (p == MAP_FAILED)
		return e;
	m->base = p;
	m->map_len = (size_t)st.st_size;
	m->data = span_make(p, (size_t)st.st_size);
	return 0;
}

void sysroot_unmap(struct mapped_file *m)
{
	if (m->base && !m->shared)
		munmap(m->base, m->map_len);
	memset(m, 0, sizeof *m);
}

char *sysroot_read_text(const struct sysroot *sr, struct arena *a, const char *path, size_t max,
			size_t *len, int *err)
{
	int fd = sysroot_open(sr, path, O_RDONLY);
	if (fd < 0) {
		if (err)
			*err = -fd;
		return NULL;
	}
	struct stat st = { 0 };
	if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
		close(fd);
		if (err)
			*err = EISDIR;
		return NULL;
	}
	/* /proc and /sys files report size 0: only for those take the caller's bound up front */
	if (S_ISREG(st.st_mode) && st.st_size > 0 && (uint64_t)st.st_size < max)
		max = (size_t)st.st_size + 1; /* +1 notices a file that grew */
	char *buf = arena_alloc(a, max + 1);
	size_t got = 0;
	while (got < max) {
		ssize_t r = read(fd, buf + got, max - got);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			int e = errno;
			close(fd);
			if (err)
				*err = e;
			return NULL;
		}
		if (r == 0)
			break;
		got += (size_t)r;
	}
	close(fd);
	buf[got] = '\0';
	if (len)
		*len = got;
	if (err)
		*err = 0;
	return buf;
}

bool sysroot_exists(const struct sysroot *sr, const char *path)
{
	struct stat st;
	return sysroot_stat(sr, path, &st) == 0;
}

bool sysroot_is_dir(const struct sysroot *sr, const char *path)
{
	struct stat st;
	return sysroot_stat(sr, path, &st) == 0 && S_ISDIR(st.st_mode);
}
