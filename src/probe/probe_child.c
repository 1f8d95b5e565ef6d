#include "probe/probe_child.h"

#include <dlfcn.h>
#include <limits.h>
#include <link.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

double probe_now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

double probe_begin(struct probe_child *c, const char *step)
{
	struct probe_rec_buf r;
	probe_rec_start(&r, PROBE_REC_BEGIN);
	probe_rec_str(&r, PROBE_F_NAME, step);
	probe_rec_send(&r, c->fd);
	return probe_now_ms();
}

static void send_step(struct probe_child *c, const char *step, double t0, enum probe_outcome o,
		      const long *code, const char *value)
{
	char num[32], ms[32];
	struct probe_rec_buf r;
	probe_rec_start(&r, PROBE_REC_STEP);
	probe_rec_str(&r, PROBE_F_NAME, step);
	snprintf(num, sizeof num, "%d", (int)o);
	probe_rec_str(&r, PROBE_F_OUTCOME, num);
	if (code) {
		snprintf(num, sizeof num, "%ld", *code);
		probe_rec_str(&r, PROBE_F_CODE, num);
		probe_rec_str(&r, PROBE_F_API, c->api);
		if (c->name_code) {
			const char *text = NULL;
			const char *name = c->name_code(c->name_ctx, *code, &text);
			probe_rec_str(&r, PROBE_F_LIB_NAME, name);
			probe_rec_str(&r, PROBE_F_LIB_TEXT, text);
		}
	}
	probe_rec_str(&r, PROBE_F_LIBRARY, c->library);
	probe_rec_str(&r, PROBE_F_VALUE, value);
	snprintf(ms, sizeof ms, "%.3f", t0 > 0 ? probe_now_ms() - t0 : 0.0);
	probe_rec_str(&r, PROBE_F_MS, ms);
	probe_rec_send(&r, c->fd);
}

bool probe_code(struct probe_child *c, const char *step, double t0, long code, const char *value)
{
	send_step(c, step, t0, code == 0 ? PROBE_OK : PROBE_FAILED, &code, value);
	return code == 0;
}

void probe_outcome(struct probe_child *c, const char *step, double t0, enum probe_outcome o,
		   const char *value)
{
	send_step(c, step, t0, o, NULL, value);
}

void probe_fact_for(struct probe_child *c, const char *target, const char *key, const char *value)
{
	struct probe_rec_buf r;
	probe_rec_start(&r, PROBE_REC_FACT);
	probe_rec_str(&r, PROBE_F_KEY, key);
	probe_rec_str(&r, PROBE_F_VALUE, value);
	probe_rec_str(&r, PROBE_F_TARGET, target);
	probe_rec_send(&r, c->fd);
}

void probe_fact(struct probe_child *c, const char *key, const char *fmt, ...)
{
	char v[PROBE_FIELD_MAX];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(v, sizeof v, fmt, ap);
	va_end(ap);
	probe_fact_for(c, NULL, key, v);
}

const char *probe_loaded_file(void *handle, char *buf, size_t len)
{
	struct link_map *lm = NULL;
	if (dlinfo(handle, RTLD_DI_LINKMAP, &lm) != 0 || !lm || !lm->l_name || !*lm->l_name)
		return NULL;
	char real[PATH_MAX];
	const char *p = realpath(lm->l_name, real) ? real : lm->l_name;
	snprintf(buf, len, "%s", p);
	return buf;
}

/* The snapshot's LD_LIBRARY_PATH, searched as ld.so would (directories in order, empty element =
 * current directory), for when the snapshot is not this process's own environment. */
static void *open_from_snapshot_path(const char *lpath, const char *name, int flags)
{
	char dir[PATH_MAX], file[PATH_MAX];
	const char *p = lpath;
	while (p && *p != '\0') {
		const char *end = strpbrk(p, ":;");
		size_t n = end ? (size_t)(end - p) : strlen(p);
		if (n < sizeof dir) {
			memcpy(dir, p, n);
			dir[n] = '\0';
			int w = snprintf(file, sizeof file, "%s/%s", n ? dir : ".", name);
			if (w > 0 && (size_t)w < sizeof file && access(file, R_OK) == 0) {
				void *h = dlopen(file, flags);
				if (h)
					return h;
			}
		}
		p = end ? end + 1 : NULL;
	}
	return NULL;
}

void *probe_load(struct probe_child *c, const char *name, char *file)
{
	char step[PATH_MAX + 8];
	snprintf(step, sizeof step, "load %s", name);
	double t0 = probe_begin(c, step);
	void *h = NULL;
	int flags = c->lazy ? RTLD_LAZY | RTLD_LOCAL : RTLD_NOW | RTLD_LOCAL;
	if (!strchr(name, '/') && c->search_myself)
		h = open_from_snapshot_path(c->ld_library_path, name, flags);
	if (!h)
		h = dlopen(name, flags);
	if (!h) {
		const char *err = dlerror();
		const char *saved = c->library;
		c->library = NULL;
		probe_outcome(c, step, t0, PROBE_MISSING, err ? err : "not found");
		c->library = saved;
		file[0] = '\0';
		return NULL;
	}
	if (!probe_loaded_file(h, file, PROBE_PATH_MAX))
		snprintf(file, PROBE_PATH_MAX, "%s", name);
	c->library = file;
	probe_outcome(c, step, t0, PROBE_OK, file);
	return h;
}

void *probe_sym(struct probe_child *c, void *lib, const char *sym)
{
	void *p = dlsym(lib, sym);
	if (!p) {
		char step[128];
		snprintf(step, sizeof step, "dlsym %s", sym);
		probe_outcome(c, step, 0, PROBE_MISSING, "symbol not exported");
	}
	return p;
}

void probe_bind(void *fns, size_t size, void *lib, const struct probe_sym_entry *t, size_t n)
{
	memset(fns, 0, size);
	for (size_t i = 0; i < n; i++) {
		void *cur;
		memcpy(&cur, (char *)fns + t[i].offset, sizeof cur);
		if (cur)
			continue;
		void *p = dlsym(lib, t[i].name);
		memcpy((char *)fns + t[i].offset, &p, sizeof p);
	}
}

void *probe_open(struct probe_child *c, char *file, void *fns, size_t size, const struct probe_sym_entry *t,
		 size_t n)
{
	void *lib = probe_load(c, c->target, file);
	if (lib)
		probe_bind(fns, size, lib, t, n);
	return lib;
}

void probe_name_codes(struct probe_child *c, const char *api, const char *(*name_code)(void *, long, const char **),
		      void *ctx)
{
	c->api = api;
	c->name_code = name_code;
	c->name_ctx = ctx;
}

const char *probe_names_of(void *ctx, long code, const char **text)
{
	const struct probe_code_names *n = ctx;
	*text = n->text ? n->text((int)code) : NULL;
	return n->name ? n->name((int)code) : NULL;
}

bool probe_int_call(struct probe_child *c, const char *step, int (*fn)(int *), const char *key, int *out)
{
	int n = 0;
	char v[32];
	double t0 = probe_begin(c, step);
	int rc = fn(&n);
	snprintf(v, sizeof v, "%d", n);
	if (!probe_code(c, step, t0, rc, v))
		return false;
	if (key)
		probe_fact(c, key, "%d", n);
	if (out)
		*out = n;
	return true;
}

void probe_dev_begin(struct probe_child *c, struct probe_dev_step *s, const char *call, unsigned index,
		     const char *what)
{
	snprintf(s->name, sizeof s->name, "%s %u%s%s", call, index, what ? " " : "", what ? what : "");
	s->index = index;
	s->t0 = probe_begin(c, s->name);
}

bool probe_dev_end(struct probe_child *c, const struct probe_dev_step *s, int rc, const char *key, const char *value)
{
	if (!probe_code(c, s->name, s->t0, rc, value))
		return false;
	if (key) {
		char k[64];
		snprintf(k, sizeof k, "device.%u.%s", s->index, key);
		probe_fact_for(c, NULL, k, value);
	}
	return true;
}
