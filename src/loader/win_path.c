#include "loader/win_path.h"
#include "loader/win_env.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>

#define WIN_MAX_COMPONENTS 128
#define WIN_DIR_MAX_ENTRIES 20000

struct win_dircache {
	struct win_dircache *next;
	const char *dir;
	struct sysroot_dirent *ents;
	size_t n;
	bool missing;
};

void win_fs_init(struct win_fs *fs, const struct sysroot *sr, struct arena *a)
{
	fs->sr = sr;
	fs->a = a;
	fs->cache = NULL;
	fs->n_cached = 0;
}

bool win_name_eq(const char *x, const char *y)
{
	return strcasecmp(x, y) == 0;
}

const char *win_path_to_root(struct arena *a, const char *p, const char **why)
{
	const char *w = "";
	if (!p || !*p) {
		w = "empty path";
		goto out;
	}
	if ((p[0] == '\\' || p[0] == '/') && (p[1] == '\\' || p[1] == '/')) {
		w = "a network (UNC) path: not part of the analysed tree";
		goto out;
	}
	const char *rest = p;
	if (isalpha((unsigned char)p[0]) && p[1] == ':') {
		if (toupper((unsigned char)p[0]) != 'C') {
			w = "on another drive than C:, which the analysed tree does not hold";
			goto out;
		}
		rest = p + 2;
		if (*rest != '\\' && *rest != '/') {
			w = "a drive-relative path";
			goto out;
		}
	} else if (p[0] != '\\' && p[0] != '/') {
		w = "a relative path";
		goto out;
	}
	size_t n = strlen(rest);
	char *s = arena_alloc(a, n + 2);
	for (size_t i = 0; i < n; i++)
		s[i] = rest[i] == '\\' ? '/' : rest[i];
	s[n] = 0;
	return path_normalize(a, s);
out:
	if (why)
		*why = w;
	return NULL;
}

const char *win_path_from_root(struct arena *a, const char *rp)
{
	size_t n = strlen(rp);
	char *s = arena_alloc(a, n + 3);
	s[0] = 'C', s[1] = ':';
	for (size_t i = 0; i < n; i++)
		s[i + 2] = rp[i] == '/' ? '\\' : rp[i];
	if (n == 0 || (n == 1 && rp[0] == '/'))
		s[2] = '\\', s[3] = 0;
	return s;
}

const char *win_dir_clean(struct arena *a, const char *p)
{
	size_t n = strlen(p);
	while (n > 3 && (p[n - 1] == '\\' || p[n - 1] == '/'))
		n--;
	return arena_strndup(a, p, n);
}

const struct sysroot_dirent *win_fs_list(struct win_fs *fs, const char *dir, size_t *n)
{
	for (struct win_dircache *c = fs->cache; c; c = c->next)
		if (strcmp(c->dir, dir) == 0) {
			*n = c->n;
			return c->ents;
		}
	struct win_dircache *c = arena_alloc(fs->a, sizeof *c);
	c->dir = arena_strdup(fs->a, dir);
	if (sysroot_list_dir(fs->sr, fs->a, dir, &c->ents, &c->n, WIN_DIR_MAX_ENTRIES) != 0) {
		c->ents = NULL;
		c->n = 0;
		c->missing = true;
	}
	c->next = fs->cache;
	fs->cache = c;
	fs->n_cached++;
	*n = c->n;
	return c->ents;
}

const char *win_fs_find(struct win_fs *fs, const char *rp)
{
	if (!rp)
		return NULL;
	const char *cur = "/";
	const char *p = rp;
	for (int depth = 0; depth < WIN_MAX_COMPONENTS; depth++) {
		while (*p == '/')
			p++;
		if (!*p)
			return cur;
		size_t len = strcspn(p, "/");
		char *comp = arena_strndup(fs->a, p, len);
		p += len;
		size_t n;
		const struct sysroot_dirent *e = win_fs_list(fs, cur, &n);
		const char *hit = NULL;
		for (size_t i = 0; i < n && !hit; i++)
			if (strcmp(e[i].name, comp) == 0)
				hit = e[i].name;
		for (size_t i = 0; i < n && !hit; i++)
			if (strcasecmp(e[i].name, comp) == 0)
				hit = e[i].name;
		if (!hit)
			return NULL;
		cur = path_join(fs->a, cur, hit);
	}
	return NULL;
}

const char *win_fs_find_win(struct win_fs *fs, const char *winpath)
{
	const char *rp = win_path_to_root(fs->a, winpath, NULL);
	return rp ? win_fs_find(fs, rp) : NULL;
}

const char *win_expand_vars(struct arena *a, const struct envsnap *env, const char *s)
{
	if (!strchr(s, '%'))
		return s;
	size_t cap = strlen(s) + 1, n = 0;
	char *out = arena_alloc(a, cap);
	/* one pass, no re-expansion of what a variable expands to: bounded work, like cmd.exe */
	for (const char *p = s; *p;) {
		const char *end = *p == '%' ? strchr(p + 1, '%') : NULL;
		const char *val = NULL;
		size_t vlen = 0;
		if (end && end > p + 1) {
			char *name = arena_strndup(a, p + 1, (size_t)(end - p - 1));
			val = win_env_get(env, name);
		}
		if (val) {
			vlen = strlen(val);
			p = end + 1;
		} else {
			val = p;
			vlen = 1;
			p++;
		}
		if (vlen > WIN_MAX_ENV_VALUE - n)
			vlen = WIN_MAX_ENV_VALUE - n;
		if (n + vlen + 1 > cap) {
			size_t ncap = (n + vlen + 1) * 2;
			if (ncap > WIN_MAX_ENV_VALUE + 1)
				ncap = WIN_MAX_ENV_VALUE + 1;
			out = arena_grow(a, out, n, ncap, 1);
			cap = ncap;
		}
		memcpy(out + n, val, vlen);
		n += vlen;
		if (n == WIN_MAX_ENV_VALUE)
			break;
	}
	out[n] = 0;
	return out;
}
