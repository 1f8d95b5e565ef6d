/* Rules: pure functions of the inventory and the knowledge base that emit findings.
 *
 * Every finding id is owned by exactly one rule entry (`struct rule`) in one family table
 * (`struct rule_family`, one file per family; registry.c lists the families). The entry gives
 * every finding with its id the severity, and the cause, fix and reference it shows when the code
 * that made it had nothing more specific to say. A finding is made only through the functions
 * below, so its severity never depends on the command that shows it: every command runs all the
 * rules over the same inventory and only keeps the findings about its subject (diag/focus.h).
 *
 * A new diagnosis is one entry plus its test:
 *
 *   static void check_foo(struct diag_ctx *d, const struct rule *self)
 *   {
 *           if (!bad(d->inv))
 *                   return;
 *           struct finding *f = rule_emit(d, self, "foo is broken at %s", path);
 *           finding_subject(f, path);         // what it is about: focused commands match on it
 *           finding_evidence(f, "...");       // what was seen
 *           finding_fix(f, "...");            // subject-specific steps (else the entry's fix)
 *   }
 *   static const struct rule rules[] = {
 *           { "foo-broken", SEV_ERROR, check_foo,
 *             .cause = "Why foo breaks things, in plain words.",
 *             .fix = "the generic fix\nanother step" },
 *   };
 *   RULE_FAMILY(rules_foo, "foo", rules);    // and one line in registry.c's families[]
 *
 * and the id documented in docs/findings/<module>.md. */
#ifndef CUDX_RULE_H
#define CUDX_RULE_H

#include "collect/inventory.h"
#include "diag/finding.h"
#include "util/compiler.h"

struct diag_ctx {
	struct cudx_ctx *ctx;
	const struct inventory *inv;
	struct findings *out; /* out->family_bit: the family whose rules run (diag_run_family) */
};

struct rule {
	/* The finding id it owns (stable API). NULL for a walker: a detector that owns no id and
	 * emits the ids of other entries (its family's, or another family's through rule_join). */
	const char *id;
	enum severity severity; /* of every finding with this id, unless mild_when holds */
	/* The detector: looks at the inventory and emits findings with this id (or, for a walker
	 * that explains several ids at once, the ids of sibling entries). NULL for an id that only
	 * such a walker emits. */
	void (*check)(struct diag_ctx *d, const struct rule *self);
	const char *cause; /* the explanation a finding shows when its detector gave none */
	const char *fix;   /* fix steps ('\n' between them) a finding shows when its detector gave none */
	const char *ref;   /* a reference URL a finding shows when its detector gave none */
	const char *about; /* the knowledge base's library family the problem belongs to ("driver",
			    * "cudnn"): `why`/`tree` of a library of that family keep the finding; "toolkit"
			    * for the build toolkit's. explain joins a machine's error to a message's
			    * causes of the same family */
	/* The one fact that makes the problem milder, in words (docs, `cudx kb findings`), and the
	 * severity then: a finding gets it through finding_mild(). NULL: one severity only. */
	const char *mild_when;
	enum severity mild;
};

struct rule_family {
	const char *name;
	const struct rule *rules;
	size_t n_rules;
};

#define RULE_FAMILY(var, fname, table) \
	const struct rule_family var = { fname, table, sizeof table / sizeof table[0] }

/* Target systems a family judges (enum target_os bits), in registry.c's table. */
#define RULE_LINUX (1u << OS_LINUX)
#define RULE_WINDOWS (1u << OS_WINDOWS)
#define RULE_ANY_OS (RULE_LINUX | RULE_WINDOWS)

extern const struct rule_family rules_driver, rules_env, rules_ldpath, rules_libs, rules_loader, rules_arch,
	rules_probe, rules_python, rules_windows, rules_process, rules_message;
extern const struct rule_family rules_fleet; /* cudx compare: judges inv->fleet (rules_fleet.c) */

/* --- running (registry.c) ------------------------------------------------------------------- */

/* Run every family that judges the target OS, then complete the findings (diag_finish). */
void diag_run(struct diag_ctx *d);
/* The entry that owns id, or NULL. */
const struct rule *diag_rule(const char *id);
/* Every family in the registry, in order (n families); a family's index is its finding bit. */
const struct rule_family *const *diag_families(size_t *n);
/* Whether family fam emitted or joined f. */
bool diag_finding_from(const struct finding *f, const struct rule_family *fam);

/* --- emitting (emit.c; the only way to make a finding) ------------------------------------- */

/* A new finding with self's id and severity, the summary printf-formatted. */
struct finding *rule_emit(struct diag_ctx *d, const struct rule *self, const char *summary_fmt, ...)
	CUDX_PRINTF(3, 4);
/* The finding with owner's id (and subject, when not NULL) that another rule already made, else a
 * new one as rule_emit makes it; *created says which. For a second family that sees the same
 * problem from another side (the probe's error 35 and the static driver check): it adds its
 * evidence instead of making a twin. */
struct finding *rule_join(struct diag_ctx *d, const struct rule *owner, const char *subject, bool *created,
			  const char *summary_fmt, ...) CUDX_PRINTF(5, 6);
/* Give f its rule's milder severity: the rule found the fact its entry's mild_when names. */
void finding_mild(struct finding *f);
/* The entry of fam that owns id, or NULL (a walker finding its sibling entries). */
const struct rule *rule_family_find(const struct rule_family *fam, const char *id);
/* Run one family's rules (the registry's diag_run runs them all). */
void diag_run_family(struct diag_ctx *d, const struct rule_family *fam, unsigned family_bit);
/* Fill what the detectors left out from the entries (cause, fix, ref) and sort the findings. */
void diag_finish(struct diag_ctx *d);

#endif
