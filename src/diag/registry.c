#include <stdarg.h>
#include <string.h>

#include "diag/rule.h"

#define ON_LINUX (1u << OS_LINUX)
#define ON_WINDOWS (1u << OS_WINDOWS)
#define ON_ANY (ON_LINUX | ON_WINDOWS)

/* The families and the target OSes they judge. Linux-only: the driver's kernel module, device
 * nodes and libcuda, the ld.so loader, ELF libraries and their GPU code, the dlopen probe (their
 * collectors do not run for Windows, see inventory.c). env and python serve both. */
static const struct family {
	const struct rule_family *rules;
	unsigned os;
} families[] = {
	{ &rules_driver, ON_LINUX }, { &rules_env, ON_ANY },	 { &rules_libs, ON_LINUX },
	{ &rules_loader, ON_LINUX }, { &rules_arch, ON_LINUX },	 { &rules_probe, ON_LINUX },
	{ &rules_python, ON_ANY },   { &rules_windows, ON_WINDOWS },
};

/* Rules of a family that serves both OSes whose subject exists on one only. */
static const struct {
	const char *id;
	unsigned os;
} rule_os[] = {
	{ "ld-library-path-stubs", ON_LINUX },
	{ "ld-library-path-missing-dir", ON_LINUX },
};

static bool rule_applies(const struct rule *r, enum target_os os)
{
	for (size_t i = 0; i < sizeof rule_os / sizeof rule_os[0]; i++)
		if (strcmp(rule_os[i].id, r->id) == 0)
			return rule_os[i].os & (1u << os);
	return true;
}

void diag_run(struct diag_ctx *d)
{
	enum target_os os = d->ctx->os;
	for (size_t f = 0; f < sizeof families / sizeof families[0]; f++) {
		if (!(families[f].os & (1u << os)))
			continue;
		const struct rule_family *fam = families[f].rules;
		for (size_t r = 0; r < fam->n_rules; r++)
			if (rule_applies(&fam->rules[r], os))
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
