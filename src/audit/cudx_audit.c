/* cudx-audit.so: the LD_AUDIT library `cudx run` puts into the program it runs. It writes what
 * the real dynamic loader does (every name searched and every candidate tried, every object
 * opened and closed, in order) to the file named by CUDX_AUDIT_OUT, one line per event
 * (audit_proto.h). cudx reads the file after the program ends.
 *
 * Rules this file keeps, because it runs inside someone else's program:
 *   - it never changes what the loader does: la_objsearch returns the name it was given,
 *     la_objopen asks for no symbol-binding callbacks (no PLT cost), and nothing is printed;
 *   - no malloc, no stdio, no locks: only open/write/close/fstat/getpid/readlink, which are
 *     async-signal-safe. The loader calls these hooks with its lock held, one at a time, so one
 *     static line buffer serves them all;
 *   - no file descriptor stays open in the program: each event opens the record, appends one
 *     line and closes it (a program that closes every descriptor, or reuses the number, is
 *     unaffected; a crash right after a failed search still leaves the search on record);
 *   - bounded: a field is cut at AUDIT_FIELD_MAX bytes, and nothing is written once the file holds
 *     AUDIT_RECORD_MAX bytes.
 * It links only libc and is built without sanitizers (a sanitizer runtime cannot be loaded into
 * an arbitrary program). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <fcntl.h>
#include <link.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "audit_proto.h"

#define PUBLIC __attribute__((visibility("default")))

static char out_path[4096]; /* the record file; empty: disabled */
static pid_t my_pid;        /* the process the last line was written for (fork detection) */
static uintptr_t next_id = 1;
static int full; /* the record reached AUDIT_RECORD_MAX */
static char **saved_argv;
static char **saved_envp;
static char line[AUDIT_FIELD_MAX * 4 + AUDIT_ARGV_MAX * 4 + 256];
static size_t len;

/* glibc calls a library's constructors with (argc, argv, envp) before la_version: the
 * environment and arguments without getenv or /proc. */
__attribute__((constructor)) static void audit_init(int argc, char **argv, char **envp)
{
	(void)argc;
	saved_argv = argv;
	saved_envp = envp;
}

static const char *env_get(const char *name)
{
	size_t n = strlen(name);
	for (char **e = saved_envp; e && *e; e++)
		if (strncmp(*e, name, n) == 0 && (*e)[n] == '=')
			return *e + n + 1;
	return NULL;
}

static void put_char(char c)
{
	if (len < sizeof line - 1)
		line[len++] = c;
}

static void put_str(const char *s)
{
	while (*s)
		put_char(*s++);
}

static void put_num(uintmax_t v, int negative)
{
	char tmp[24];
	size_t n = 0;
	do
		tmp[n++] = (char)('0' + v % 10);
	while ((v /= 10) && n < sizeof tmp);
	if (negative)
		put_char('-');
	while (n)
		put_char(tmp[--n]);
}

static void put_field_num(intmax_t v)
{
	put_char(' ');
	put_num(v < 0 ? (uintmax_t)0 - (uintmax_t)v : (uintmax_t)v, v < 0);
}

/* Text, escaped, at most max bytes of s; returns the bytes of s taken. */
static size_t put_escaped(const char *s, size_t max)
{
	static const char hex[] = "0123456789abcdef";
	size_t i = 0;
	for (; s && s[i] && i < max; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c == '\\') {
			put_char('\\');
			put_char('\\');
		} else if (c == '\n') {
			put_char('\\');
			put_char('n');
		} else if (c < 0x20 || c == 0x7f) {
			put_char('\\');
			put_char('x');
			put_char(hex[c >> 4]);
			put_char(hex[c & 15]);
		} else
			put_char((char)c);
	}
	return i;
}

/* The free-text field: a space, then the escaped text. */
static void put_text(const char *s, size_t max)
{
	put_char(' ');
	put_escaped(s, max);
}

static void begin(char type);

/* Append the line to the record: one write of one line, so lines of several processes do not
 * mix (O_APPEND). */
static void flush_line(void)
{
	put_char('\n');
	int fd = open(out_path, O_WRONLY | O_APPEND | O_CLOEXEC | O_NOCTTY | O_NOFOLLOW);
	if (fd < 0)
		return;
	struct stat st;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
		if ((uintmax_t)st.st_size + len > AUDIT_RECORD_MAX) {
			full = 1;
			len = 0;
			begin('T');
			put_char('\n');
		}
		ssize_t w = write(fd, line, len);
		(void)w; /* nothing to do about a failed write: the program must not notice */
	}
	close(fd);
	len = 0;
}

/* Start a line "<type> <pid>"; the first line of a forked child says so first. */
static void begin(char type)
{
	pid_t pid = getpid();
	if (pid != my_pid && type != 'V' && type != 'T') {
		pid_t parent = my_pid;
		my_pid = pid;
		len = 0;
		put_char('F');
		put_field_num(pid);
		put_field_num(parent);
		flush_line();
	}
	my_pid = pid;
	len = 0;
	put_char(type);
	put_field_num(pid);
}

static int enabled(void)
{
	return out_path[0] && !full;
}

PUBLIC unsigned int la_version(unsigned int version)
{
	const char *p = env_get(AUDIT_ENV_OUT);
	if (!p || !*p || strlen(p) >= sizeof out_path || version < 1)
		return 0; /* not started by cudx run: the loader drops this library */
	memcpy(out_path, p, strlen(p) + 1);

	begin('V');
	put_field_num(getppid());
	put_field_num(AUDIT_FORMAT);
	char exe[4096];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	exe[n > 0 ? n : 0] = '\0';
	put_text(exe, AUDIT_FIELD_MAX);
	flush_line();

	/* the arguments, joined: enough to tell `sh -c ...` from `python3 train.py` */
	begin('G');
	put_char(' ');
	size_t budget = AUDIT_ARGV_MAX;
	for (char **a = saved_argv; a && *a && budget; a++) {
		if (a != saved_argv) {
			put_char(' ');
			budget--;
		}
		budget -= put_escaped(*a, budget);
	}
	flush_line();

	static const char *const vars[] = { "LD_LIBRARY_PATH", "LD_PRELOAD" };
	for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++) {
		const char *v = env_get(vars[i]);
		if (!v)
			continue;
		begin('E');
		put_char(' ');
		put_str(vars[i]);
		put_char('=');
		put_escaped(v, AUDIT_FIELD_MAX);
		flush_line();
	}
	return version < LAV_CURRENT ? version : LAV_CURRENT;
}

PUBLIC char *la_objsearch(const char *name, uintptr_t *cookie, unsigned int flag)
{
	if (enabled()) {
		/* cookies we did not set (objects opened before this library) are addresses */
		uintptr_t req = cookie && *cookie < next_id ? *cookie : 0;
		begin('S');
		put_field_num((intmax_t)req);
		put_field_num(flag);
		put_text(name, AUDIT_FIELD_MAX);
		flush_line();
	}
	return (char *)name;
}

PUBLIC unsigned int la_objopen(struct link_map *map, Lmid_t lmid, uintptr_t *cookie)
{
	uintptr_t id = next_id++;
	if (cookie)
		*cookie = id;
	if (enabled()) {
		begin('O');
		put_field_num((intmax_t)id);
		put_field_num(lmid);
		put_text(map ? map->l_name : "", AUDIT_FIELD_MAX);
		flush_line();
	}
	return 0; /* no la_symbind / la_pltenter: binding stays as fast as without audit */
}

PUBLIC unsigned int la_objclose(uintptr_t *cookie)
{
	if (enabled() && cookie && *cookie < next_id) {
		begin('C');
		put_field_num((intmax_t)*cookie);
		flush_line();
	}
	return 0;
}

PUBLIC void la_activity(uintptr_t *cookie, unsigned int flag)
{
	(void)cookie;
	if (enabled()) {
		begin('A');
		put_field_num(flag);
		flush_line();
	}
}

PUBLIC void la_preinit(uintptr_t *cookie)
{
	(void)cookie;
	if (enabled()) {
		begin('P');
		flush_line();
	}
}
