/* Environment snapshots. A file given with --env may come from `env` (NAME=VALUE lines), from
 * cmd.exe's `set` (the same, with CRLF), or from /proc/PID/environ (NUL-separated); the reader
 * accepts all three and takes later duplicates over earlier ones, as env(1) and execve do. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "sys/envsnap.h"

#define ENVSNAP_MAX_FILE (16u << 20)

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

static int name_cmp(const struct envsnap *e, const char *a, const char *b)
{
	return e->case_insensitive ? strcasecmp(a, b) : strcmp(a, b);
}

static void put(struct envsnap *e, struct arena *a, size_t *cap, const char *name, size_t nlen,
		const char *value, size_t vlen)
{
	char *nm = arena_strndup(a, name, nlen);
	for (size_t i = 0; i < e->n; i++)
		if (name_cmp(e, e->vars[i].name, nm) == 0) {
			e->vars[i].value = arena_strndup(a, value, vlen);
			return;
		}
	if (e->n >= ENVSNAP_MAX_VARS)
		return;
	struct env_var *v = ARENA_PUSH(a, e->vars, e->n, *cap);
	v->name = nm;
	v->value = arena_strndup(a, value, vlen);
}

void envsnap_from_environ(struct envsnap *e, struct arena *a, char *const *environ_)
{
	size_t cap = 0;
	memset(e, 0, sizeof *e);
	e->origin = "this process";
	for (char *const *p = environ_; p && *p; p++) {
		const char *eq = strchr(*p, '=');
		if (!eq || !valid_name(*p, (size_t)(eq - *p)))
			continue;
		put(e, a, &cap, *p, (size_t)(eq - *p), eq + 1, strlen(eq + 1));
	}
}

size_t envsnap_parse(struct envsnap *e, struct arena *a, struct span text, const char *origin)
{
	size_t cap = 0;
	memset(e, 0, sizeof *e);
	e->origin = arena_strdup(a, origin);
	/* NUL-separated when the data contains a NUL before its end (as /proc/PID/environ) */
	bool nul_sep = text.n > 0 && memchr(text.p, 0, text.n) != NULL;
	/* A Windows `set` dump has CRLF and names like Path, SystemRoot: compare case-insensitively */
	if (span_find(text, 0, "SystemRoot=", 11) >= 0 || span_find(text, 0, "SYSTEMROOT=", 11) >= 0 ||
	    span_find(text, 0, "windir=", 7) >= 0)
		e->case_insensitive = true;
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
		put(e, a, &cap, line, nlen, val, vlen);
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
		if (got == cap) {
			if (cap >= ENVSNAP_MAX_FILE)
				break;
			buf = arena_grow(a, buf, got, cap * 2, 1);
			cap *= 2;
		}
		ssize_t r = read(fd, buf + got, cap - got);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			int err = errno;
			close(fd);
			return err;
		}
		if (r == 0)
			break;
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
	for (size_t i = 0; i < e->n; i++)
		if (name_cmp(e, e->vars[i].name, name) == 0)
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
