#include <stdarg.h>

#include "diag/rule.h"

/* The families and the target systems they judge. Linux-only: the driver's kernel module, device
 * nodes and libcuda, the ld.so loader, ELF libraries and their GPU code, the dlopen probe (their
 * collectors do not run for Windows, see inventory.c), and LD_LIBRARY_PATH (ldpath). env and
 * python serve both. */
static const struct family {
	const struct rule_family *rules;
	unsigned os;
} families[] = {
	{ &rules_driver, RULE_LINUX }, { &rules_env, RULE_ANY_OS },  { &rules_ldpath, RULE_LINUX },
	{ &rules_libs, RULE_LINUX },
	{ &rules_loader, RULE_LINUX }, { &rules_arch, RULE_LINUX },  { &rules_probe, RULE_LINUX },
	{ &rules_python, RULE_ANY_OS }, { &rules_windows, RULE_WINDOWS },
	{ &rules_message, RULE_ANY_OS },
};

void diag_run(struct diag_ctx *d)
{
	enum target_os os = d->ctx->os;
	for (size_t f = 0; f < sizeof families / sizeof families[0]; f++) {
		if (!(families[f].os & (1u << os)))
			continue;
		const struct rule_family *fam = families[f].rules;
		for (size_t r = 0; r < fam->n_rules; r++)
			fam->rules[r].check(d, &fam->rules[r]);
	}
}

struct finding *rule_emit(struct diag_ctx *d, const struct rule *self, const char *summary_fmt, ...)
{
	va_list ap;
	va_start(ap, summary_fmt);
	char *summary = arena_vprintf(d->out->arena, summary_fmt, ap);
	va_end(ap);
	return finding_add(d->out, self->id, self->severity, "%s", summary);
}
