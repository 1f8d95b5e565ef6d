#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "diag/finding.h"

const char *severity_name(enum severity s)
{
	switch (s) {
	case SEV_ERROR:
		return "error";
	case SEV_WARNING:
		return "warning";
	default:
		return "info";
	}
}

void findings_init(struct findings *fs, struct arena *a)
{
	memset(fs, 0, sizeof *fs);
	fs->arena = a;
}

struct finding *finding_add(struct findings *fs, const char *id, enum severity sev,
			    const char *summary_fmt, ...)
{
	struct finding *f = ARENA_PUSH(fs->arena, fs->v, fs->n, fs->cap);
	va_list ap;
	va_start(ap, summary_fmt);
	f->summary = arena_vprintf(fs->arena, summary_fmt, ap);
	va_end(ap);
	f->id = id;
	f->severity = sev;
	f->arena = fs->arena;
	return f;
}

void finding_cause(struct finding *f, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	f->cause = arena_vprintf(f->arena, fmt, ap);
	va_end(ap);
}

void finding_subject(struct finding *f, const char *subject)
{
	f->subject = arena_strdup(f->arena, subject);
}

#define PUSH_FORMATTED(f, arr, n, cap, fmt)                        \
	do {                                                       \
		va_list ap;                                        \
		va_start(ap, fmt);                                 \
		char *s = arena_vprintf((f)->arena, fmt, ap);      \
		va_end(ap);                                        \
		*ARENA_PUSH((f)->arena, (f)->arr, (f)->n, (f)->cap) = s; \
	} while (0)

void finding_evidence(struct finding *f, const char *fmt, ...)
{
	PUSH_FORMATTED(f, evidence, n_evidence, cap_evidence, fmt);
}

void finding_fix(struct finding *f, const char *fmt, ...)
{
	PUSH_FORMATTED(f, fix, n_fix, cap_fix, fmt);
}

void finding_ref(struct finding *f, const char *url)
{
	for (size_t i = 0; i < f->n_refs; i++)
		if (strcmp(f->refs[i], url) == 0)
			return;
	*ARENA_PUSH(f->arena, f->refs, f->n_refs, f->cap_refs) = arena_strdup(f->arena, url);
}

const struct finding *findings_find(const struct findings *fs, const char *id)
{
	for (size_t i = 0; i < fs->n; i++)
		if (strcmp(fs->v[i].id, id) == 0)
			return &fs->v[i];
	return NULL;
}

bool findings_has(const struct findings *fs, const char *id)
{
	return findings_find(fs, id) != NULL;
}

void findings_sort(struct findings *fs)
{
	/* stable: insertion sort by descending severity (lists are short) */
	for (size_t i = 1; i < fs->n; i++) {
		struct finding key = fs->v[i];
		size_t j = i;
		while (j > 0 && fs->v[j - 1].severity < key.severity) {
			fs->v[j] = fs->v[j - 1];
			j--;
		}
		fs->v[j] = key;
	}
}

enum severity findings_worst(const struct findings *fs)
{
	enum severity w = SEV_INFO;
	for (size_t i = 0; i < fs->n; i++)
		if (fs->v[i].severity > w)
			w = fs->v[i].severity;
	return w;
}

int findings_exit_status(const struct findings *fs)
{
	return fs->n > 0 && findings_worst(fs) == SEV_ERROR ? 1 : 0;
}
