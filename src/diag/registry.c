/* The rule families and the target systems they judge. Adding a family is one line here (and its
 * `extern` in rule.h). Linux-only: the driver's kernel module, device nodes and libcuda, the ld.so
 * loader, ELF libraries and their GPU code, the dlopen probe (their collectors do not run for
 * Windows, see inventory.c), LD_LIBRARY_PATH (ldpath), and what processes loaded (process: --pid,
 * cudx run). env and python serve both.
 * The order matters where one family adds to another's finding (rule_join): the probe runs after
 * the static families whose findings it confirms, and process after the driver family whose no-driver
 * it completes. */
#include <string.h>

#include "diag/rule.h"

static const struct family {
	const struct rule_family *rules;
	unsigned os;
} families[] = {
	/* driver: every check but driver-too-old's is Linux-only inside (Windows: nvcuda.dll's version
	 * against the runtime DLLs the simulated loads reach) */
	{ &rules_driver, RULE_ANY_OS }, { &rules_env, RULE_ANY_OS },  { &rules_ldpath, RULE_LINUX },
	{ &rules_libs, RULE_LINUX },
	{ &rules_loader, RULE_LINUX }, { &rules_arch, RULE_LINUX },  { &rules_probe, RULE_LINUX },
	{ &rules_python, RULE_ANY_OS }, { &rules_windows, RULE_WINDOWS },
	{ &rules_process, RULE_LINUX },
	{ &rules_message, RULE_ANY_OS }, /* judges inv->message, which only explain sets */
	{ &rules_fleet, RULE_ANY_OS }, /* judges inv->fleet, which only compare sets */
};

#define N_FAMILIES (sizeof families / sizeof families[0])

void diag_run(struct diag_ctx *d)
{
	enum target_os os = d->ctx->os;
	for (size_t f = 0; f < N_FAMILIES; f++)
		if (families[f].os & (1u << os))
			diag_run_family(d, families[f].rules, 1u << f);
	diag_finish(d);
}

const struct rule *diag_rule(const char *id)
{
	for (size_t f = 0; f < N_FAMILIES; f++) {
		const struct rule *r = rule_family_find(families[f].rules, id);
		if (r)
			return r;
	}
	return NULL;
}

const struct rule_family *const *diag_families(size_t *n)
{
	static const struct rule_family *list[N_FAMILIES];
	for (size_t f = 0; f < N_FAMILIES; f++)
		list[f] = families[f].rules;
	*n = N_FAMILIES;
	return list;
}

bool diag_finding_from(const struct finding *f, const struct rule_family *fam)
{
	for (size_t i = 0; i < N_FAMILIES; i++)
		if (families[i].rules == fam)
			return (f->families >> i) & 1u;
	return false;
}
