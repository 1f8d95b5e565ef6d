#include <stdarg.h>

#include "diag/rule.h"

static const struct rule_family *const families[] = {
	&rules_driver, &rules_env, &rules_libs, &rules_loader, &rules_arch,
	&rules_probe,  &rules_python, &rules_windows,
};

void diag_run(struct diag_ctx *d)
{
	for (size_t f = 0; f < sizeof families / sizeof families[0]; f++)
		for (size_t r = 0; r < families[f]->n_rules; r++)
			families[f]->rules[r].check(d, &families[f]->rules[r]);
}

struct finding *rule_emit(struct diag_ctx *d, const struct rule *self, const char *summary_fmt, ...)
{
	va_list ap;
	va_start(ap, summary_fmt);
	char *summary = arena_vprintf(d->out->arena, summary_fmt, ap);
	va_end(ap);
	return finding_add(d->out, self->id, self->severity, "%s", summary);
}
