/* Environment snapshots. A file given with --env may come from `env` (NAME=VALUE lines), from
 * cmd.exe's `set` (the same, with CRLF), or from /proc/PID/environ (NUL-separated); the reader
 * accepts all three and takes later duplicates over earlier ones, as env(1) and execve do. */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "sys/envsnap.h"

static bool valid_name(const char *s, size_t n)
{
	if (n == 0 || n > 4096)
		return false;
	/* Windows allows names such as "ProgramFiles(x86)" and "CommonProgramW6432" */
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c == '=' || c < 0x20 || c == 0x7f || c == ' ')
			return false;
	}
	return true;
}

/* Case folding is ASCII only, as Windows' own comparison of variable names is for the names that
 * matter here; the hash and the comparison must fold alike. */
static unsigned char fold_char(unsigned char c, bool fold)
{
	return fold && c >= 'A' && c <= 'Z' ? (unsigned char)(c + ('a' - 'A')) : c;
}

static uint32_t name_hash(const char *s, size_t n, bool fold)
{
	uint32_t h = 2166136261u; /* FNV-1a */
	for (size_t i = 0; i < n; i++)
		h = (h ^ fold_char((unsigned char)s[i], fold)) * 16777619u;
	return h;
}

/* stored is NUL-terminated; s has n bytes and no NUL (valid_name rejects control characters), so
 * the scan stops at stored's end before reading past it. */
static bool name_eq(const char *stored, const char *s, size_t n, bool fold)
{
	for (size_t i = 0; i < n; i++)
		if (fold_char((unsigned char)stored[i], fold) != fold_char((unsigned char)s[i], fold))
			return false;
	return stored[n] == '\0';
}

/* The names held so far, so that "later duplicates win" costs one probe per record rather than a
 * scan of every name (70,000 distinct names took 12 s). Open addressing with linear probing; a slot
 * holds an index into vars plus one (0: empty); the table is kept at most half full. */
struct env_index {
	uint32_t *slot;
	size_t mask; /* slots - 1, slots a power of two */
};

static void index_init(struct env_index *ix, struct arena *a, size_t names)
{
	size_t slots = 64;
	while (slots < 2 * names + 2)
		slots *= 2;
	ix->slot = arena_calloc(a, slots, sizeof *ix->slot);
	ix->mask = slots - 1;
}

static uint32_t *index_find(const struct env_index *ix, const struct env_var *vars, const char *name,
			    size_t nlen, bool fold)
{
	for (size_t i = name_hash(name, nlen, fold) & ix->mask;; i = (i + 1) & ix->mask) {
		uint32_t *s = &ix->slot[i];
		if (*s == 0 || name_eq(vars[*s - 1].name, name, nlen, fold))
			return s;
	}
}

struct env_builder {
	struct envsnap *e;
	struct arena *a;
	size_t cap; /* of e->vars */
	struct env_index ix;
};

static void builder_init(struct env_builder *b, struct envsnap *e, struct arena *a)
{
	b->e = e;
	b->a = a;
	b->cap = 0;
	index_init(&b->ix, a, 0);
}

static void put(struct env_builder *b, const char *name, size_t nlen, const char *value, size_t vlen)
{
	struct envsnap *e = b->e;
	bool fold = e->case_insensitive;
	if (e->n < ENVSNAP_MAX_VARS && 2 * (e->n + 1) > b->ix.mask + 1) {
		index_init(&b->ix, b->a, e->n + 1);
		for (size_t i = 0; i < e->n; i++)
			*index_find(&b->ix, e->vars, e->vars[i].name, strlen(e->vars[i].name), fold) =
				(uint32_t)(i + 1);
	}
	uint32_t *s = index_find(&b->ix, e->vars, name, nlen, fold);
	if (*s) {
		e->vars[*s - 1].value = arena_strndup(b->a, value, vlen);
		return;
	}
	/* a bound on what input can make us hold; the caller reports the rest */
	if (e->n >= ENVSNAP_MAX_VARS) {
		e->dropped++;
		return;
	}
	struct env_var *v = ARENA_PUSH(b->a, e->vars, e->n, b->cap);
	v->name = arena_strndup(b->a, name, nlen);
	v->value = arena_strndup(b->a, value, vlen);
	*s = (uint32_t)e->n;
}

void envsnap_from_environ(struct envsnap *e, struct arena *a, char *const *environ_)
{
	struct env_builder b;
	memset(e, 0, sizeof *e);
	e->origin = "this process";
	builder_init(&b, e, a);
	for (char *const *p = environ_; p && *p; p++) {
		const char *eq = strchr(*p, '=');
		if (!eq || !valid_name(*p, (size_t)(eq - *p)))
			continue;
		put(&b, *p, (size_t)(eq - *p), eq + 1, strlen(eq + 1));
	}
}

void envsnap_fold_case(struct envsnap *e, struct arena *a)
{
	struct env_index ix;
	size_t out = 0;
	e->case_insensitive = true;
	index_init(&ix, a, e->n);
	/* compact in place: vars[0, out) are the names kept, and the index points into them */
	for (size_t i = 0; i < e->n; i++) {
		uint32_t *s = index_find(&ix, e->vars, e->vars[i].name, strlen(e->vars[i].name), true);
		if (*s) {
			e->vars[*s - 1].value = e->vars[i].value;
			continue;
		}
		e->vars[out++] = e->vars[i];
		*s = (uint32_t)out;
	}
	e->n = out;
}

size_t envsnap_parse(struct envsnap *e, struct arena *a, struct span text, const char *origin)
{
	struct env_builder b;
	memset(e, 0, sizeof *e);
	e->origin = arena_strdup(a, origin);
	/* NUL-separated when the first NUL comes before the first newline (as /proc/PID/environ, whose
	 * values may hold newlines); a newline dump with one stray NUL in a value stays line-based. */
	const uint8_t *first_nul = text.n ? memchr(text.p, 0, text.n) : NULL;
	const uint8_t *first_nl = text.n ? memchr(text.p, '\n', text.n) : NULL;
	bool nul_sep = first_nul && (!first_nl || first_nul < first_nl);
	/* A Windows `set` dump has CRLF and names like Path, SystemRoot: compare case-insensitively */
	if (span_find(text, 0, "SystemRoot=", 11) >= 0 || span_find(text, 0, "SYSTEMROOT=", 11) >= 0 ||
	    span_find(text, 0, "windir=", 7) >= 0)
		e->case_insensitive = true;
	builder_init(&b, e, a);
	size_t pos = 0;
	while (pos < text.n) {
		const uint8_t *start = text.p + pos;
		const uint8_t *end = memchr(start, nul_sep ? 0 : '\n', text.n - pos);
		size_t len = end ? (size_t)(end - start) : text.n - pos;
		pos += len + 1;
		if (!nul_sep && len > 0 && start[len - 1] == '\r')
			len--;
		const char *line = (const char *)start;
		/* `export NAME=VALUE` and `declare -x NAME="VALUE"` as shells print them */
		if (len > 7 && memcmp(line, "export ", 7) == 0)
			line += 7, len -= 7;
		else if (len > 11 && memcmp(line, "declare -x ", 11) == 0)
			line += 11, len -= 11;
		const char *eq = memchr(line, '=', len);
		if (!eq)
			continue;
		size_t nlen = (size_t)(eq - line);
		if (!valid_name(line, nlen))
			continue;
		const char *val = eq + 1;
		size_t vlen = len - nlen - 1;
		if (vlen >= 2 && val[0] == '"' && val[vlen - 1] == '"')
			val++, vlen -= 2;
		put(&b, line, nlen, val, vlen);
	}
	return e->n;
}

static int read_host_file(struct arena *a, const char *path, struct span *out)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return errno;
	size_t cap = 64 * 1024, got = 0;
	uint8_t *buf = arena_alloc(a, cap);
	for (;;) {
		uint8_t probe;
		bool full = got == cap && cap >= ENVSNAP_MAX_FILE;
		if (got == cap && !full) {
			buf = arena_grow(a, buf, got, cap * 2, 1);
			cap *= 2;
		}
		/* at the limit, one byte more means the file is too large: cutting it would leave the
		 * last record half-read and the rest unknown */
		ssize_t r = full ? read(fd, &probe, 1) : read(fd, buf + got, cap - got);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			int err = errno;
			close(fd);
			return err;
		}
		if (r == 0)
			break;
		if (full) {
			close(fd);
			return EFBIG;
		}
		got += (size_t)r;
	}
	close(fd);
	*out = span_make(buf, got);
	return 0;
}

int envsnap_from_file(struct envsnap *e, struct arena *a, const char *path)
{
	struct span data;
	int err = read_host_file(a, path, &data);
	if (err)
		return err;
	envsnap_parse(e, a, data, arena_printf(a, "file %s", path));
	return 0;
}

int envsnap_from_pid(struct envsnap *e, struct arena *a, int pid)
{
	char path[64];
	struct span data;
	snprintf(path, sizeof path, "/proc/%d/environ", pid);
	int err = read_host_file(a, path, &data);
	if (err)
		return err;
	envsnap_parse(e, a, data, arena_printf(a, "pid %d", pid));
	return 0;
}

const char *envsnap_get(const struct envsnap *e, const char *name)
{
	size_t nlen = strlen(name);
	for (size_t i = 0; i < e->n; i++)
		if (name_eq(e->vars[i].name, name, nlen, e->case_insensitive))
			return e->vars[i].value;
	return NULL;
}

size_t env_split_path(struct arena *a, const char *value, char sep, const char ***out)
{
	size_t n = 0, cap = 0;
	*out = NULL;
	if (!value)
		return 0;
	const char *p = value;
	for (;;) {
		const char *end = strchr(p, sep);
		size_t len = end ? (size_t)(end - p) : strlen(p);
		const char **slot = ARENA_PUSH(a, *out, n, cap);
		*slot = arena_strndup(a, p, len);
		if (!end)
			break;
		p = end + 1;
	}
	return n;
}
