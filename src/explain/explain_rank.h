/* Ranking the causes of one recognised message against a machine: the findings of `check` (and
 * the other rule families) confirm a cause; a few facts of the inventory contradict one. */
#ifndef CUDX_EXPLAIN_RANK_H
#define CUDX_EXPLAIN_RANK_H

#include "collect/inventory.h"
#include "diag/finding.h"
#include "explain/explain.h"

enum explain_conf {
	EXPLAIN_CONFIRMED, /* the machine shows the finding: "high" */
	EXPLAIN_LIKELY,    /* the catalogue's first not-contradicted cause: "medium" */
	EXPLAIN_POSSIBLE,  /* "low" */
	EXPLAIN_RULED_OUT,
};

struct explain_fact {
	const char *key, *value;
};

struct explain_cause_result {
	const struct explain_cause_def *def;
	enum explain_conf conf;
	const char *summary; /* placeholders filled */
	const char **evidence;
	size_t n_evidence, cap_evidence;
	const char **fix;
	size_t n_fix, cap_fix;
	const char *ruled_out_because;
	const char *check;   /* what to run where the message happened */
};

struct explain_result {
	const struct explain_hit *hit;
	struct explain_fact *facts;
	size_t n_facts, cap_facts;
	struct explain_cause_result causes[EXPLAIN_MAX_CAUSES];
	size_t n_causes;
	/* set when the machine contradicts the message: it probably came from elsewhere */
	const char *elsewhere;
};

/* How the loader of the machine resolves a library name (src/explain/explain_loader.c). */
struct explain_resolution {
	bool available;     /* false: no loader simulator in this build */
	const char *path;   /* where it resolves, NULL when not found */
	const char *how;    /* "ld.so.cache", "LD_LIBRARY_PATH", ... */
	const char **tried; /* "tried /usr/lib/libx.so.8: no such file" ... */
	size_t n_tried;
};

/* What ranking may look at; inv/fs NULL = no machine (everything "cannot confirm here"). */
struct explain_machine {
	const struct inventory *inv;
	const struct findings *fs;
	enum target_os os;
	const char *env_origin; /* "this process", "pid 1234", "file F" */
	/* resolve a Linux library name as ld.so would here; NULL = not available */
	void (*resolve)(void *cookie, struct arena *a, const char *name, struct explain_resolution *out);
	void *cookie;
};

const char *explain_conf_name(enum explain_conf c);
/* Facts of the message: its captures plus derived ones (library base name, its major). */
void explain_facts(struct arena *a, const struct explain_hit *hit, struct explain_result *r);
const char *explain_fact_get(const struct explain_result *r, const char *key);
/* Fill r (facts included) for hit, ranking its causes against m. */
void explain_rank(struct arena *a, const struct explain_machine *m, const struct explain_hit *hit,
		  struct explain_result *r);
/* Names of the machine checks a cause row may name in rule_out (for the catalogue test). */
bool explain_rule_out_known(const char *name);

#endif
