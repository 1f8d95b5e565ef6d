/* A finding: what cudx concluded, with a stable id (public API: scripts match on it), the
 * evidence it saw, and the fix. Only rules make findings (rule_emit, src/diag/rule.h): the rule
 * entry that owns an id gives every finding with that id its severity and default texts. Printed
 * only by src/report/. */
#ifndef CUDX_FINDING_H
#define CUDX_FINDING_H

#include <stdbool.h>
#include <stddef.h>

#include "util/arena.h"
#include "util/compiler.h"

enum severity { SEV_INFO = 0, SEV_WARNING = 1, SEV_ERROR = 2 };

struct rule;

struct finding {
	const char *id;
	enum severity severity;
	const struct rule *rule; /* the entry that owns id (its severity, default cause and fix) */
	unsigned families;       /* bit i: the registry's family i emitted it or added to it */
	const char *summary; /* one line */
	const char *cause;   /* plain words, may be several sentences */
	const char *subject; /* what it is about (a path, a library, a GPU) — used to merge duplicates */
	const char **evidence;
	size_t n_evidence, cap_evidence;
	const char **fix; /* commands or steps a user can follow, one per entry */
	size_t n_fix, cap_fix;
	const char **refs; /* URLs */
	size_t n_refs, cap_refs;
	/* Files and library names it is about beside the subject (every copy a rule weighed, every
	 * object that wants a missing library): a command focused on one of them keeps the finding. */
	const char **paths;
	size_t n_paths, cap_paths;
	struct arena *arena;
};

struct findings {
	struct finding *v;
	size_t n, cap;
	struct arena *arena;
	unsigned family_bit; /* while a rule family runs, its bit: marks what it emits or joins */
};

const char *severity_name(enum severity s);
void findings_init(struct findings *fs, struct arena *a);
void finding_cause(struct finding *f, const char *fmt, ...) CUDX_PRINTF(2, 3);
void finding_subject(struct finding *f, const char *subject);
void finding_evidence(struct finding *f, const char *fmt, ...) CUDX_PRINTF(2, 3);
void finding_fix(struct finding *f, const char *fmt, ...) CUDX_PRINTF(2, 3);
void finding_ref(struct finding *f, const char *url);
/* Another file or name the finding is about (see paths above); duplicates are dropped. */
void finding_path(struct finding *f, const char *path);
bool findings_has(const struct findings *fs, const char *id);
const struct finding *findings_find(const struct findings *fs, const char *id);
/* Errors first, then warnings, then info; order within a severity kept. */
void findings_sort(struct findings *fs);
enum severity findings_worst(const struct findings *fs);
/* 0 when no error finding, 1 otherwise (the exit status of check) */
int findings_exit_status(const struct findings *fs);

#endif
