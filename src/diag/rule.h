/* Rules: pure functions of the inventory and the knowledge base that emit findings. One file per
 * family exports a `const struct rule_family`; registry.c lists the families. A new diagnosis is a
 * new table entry plus its scenario test. */
#ifndef CUDX_RULE_H
#define CUDX_RULE_H

#include "collect/inventory.h"
#include "diag/finding.h"
#include "util/compiler.h"

struct diag_ctx {
	struct cudx_ctx *ctx;
	const struct inventory *inv;
	struct findings *out;
};

struct rule {
	const char *id; /* the finding id it emits (stable API) */
	enum severity severity;
	void (*check)(struct diag_ctx *d, const struct rule *self);
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
	rules_probe, rules_python, rules_windows, rules_message;

/* Run every rule of every family. */
void diag_run(struct diag_ctx *d);
/* A finding from a rule, with its id and severity from the table entry. */
struct finding *rule_emit(struct diag_ctx *d, const struct rule *self, const char *summary_fmt, ...)
	CUDX_PRINTF(3, 4);

#endif
