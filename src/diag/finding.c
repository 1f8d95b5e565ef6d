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

/* Append s to a list unless it is there already. */
static void push_unique(struct arena *a, const char ***v, size_t *n, size_t *cap, const char *s)
{
	for (size_t i = 0; i < *n; i++)
		if (strcmp((*v)[i], s) == 0)
			return;
	*ARENA_PUSH(a, *v, *n, *cap) = arena_strdup(a, s);
}

void finding_ref(struct finding *f, const char *url)
{
	push_unique(f->arena, &f->refs, &f->n_refs, &f->cap_refs, url);
}

void finding_path(struct finding *f, const char *path)
{
	if (path)
		push_unique(f->arena, &f->paths, &f->n_paths, &f->cap_paths, path);
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
