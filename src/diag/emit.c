/* Making findings: the only code that adds to a findings list. Each finding takes its id and
 * severity from the rule entry that owns the id, so no command can give an id another severity.
 * (The native Windows build compiles this file without registry.c: nothing here looks beyond the
 * entries it is handed.) */
#include <assert.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "diag/rule.h"

static struct finding *finding_new(struct diag_ctx *d, const struct rule *owner, const char *summary)
{
	struct findings *fs = d->out;
	struct finding *f = ARENA_PUSH(fs->arena, fs->v, fs->n, fs->cap);
	f->id = owner->id;
	f->severity = owner->severity;
	f->rule = owner;
	f->families = fs->family_bit;
	f->summary = summary;
	f->arena = fs->arena;
	return f;
}

struct finding *rule_emit(struct diag_ctx *d, const struct rule *self, const char *summary_fmt, ...)
{
	va_list ap;
	va_start(ap, summary_fmt);
	char *summary = arena_vprintf(d->out->arena, summary_fmt, ap);
	va_end(ap);
	return finding_new(d, self, summary);
}

struct finding *rule_join(struct diag_ctx *d, const struct rule *owner, const char *subject, bool *created,
			  const char *summary_fmt, ...)
{
	for (size_t i = 0; i < d->out->n; i++) {
		struct finding *f = &d->out->v[i];
		if (strcmp(f->id, owner->id) != 0 || (subject && (!f->subject || strcmp(f->subject, subject) != 0)))
			continue;
		f->families |= d->out->family_bit;
		if (created)
			*created = false;
		return f;
	}
	va_list ap;
	va_start(ap, summary_fmt);
	char *summary = arena_vprintf(d->out->arena, summary_fmt, ap);
	va_end(ap);
	if (created)
		*created = true;
	struct finding *f = finding_new(d, owner, summary);
	if (subject)
		finding_subject(f, subject);
	return f;
}

void finding_mild(struct finding *f)
{
	/* a milder severity the entry does not declare is a bug in the rule */
	assert(f->rule && f->rule->mild_when);
	if (f->rule && f->rule->mild_when)
		f->severity = f->rule->mild;
}

const struct rule *rule_family_find(const struct rule_family *fam, const char *id)
{
	for (size_t i = 0; i < fam->n_rules; i++)
		if (fam->rules[i].id && strcmp(fam->rules[i].id, id) == 0)
			return &fam->rules[i];
	return NULL;
}

void diag_run_family(struct diag_ctx *d, const struct rule_family *fam, unsigned family_bit)
{
	unsigned saved = d->out->family_bit;
	d->out->family_bit = family_bit;
	for (size_t r = 0; r < fam->n_rules; r++)
		if (fam->rules[r].check)
			fam->rules[r].check(d, &fam->rules[r]);
	d->out->family_bit = saved;
}

void diag_finish(struct diag_ctx *d)
{
	for (size_t i = 0; i < d->out->n; i++) {
		struct finding *f = &d->out->v[i];
		const struct rule *r = f->rule;
		if (!r)
			continue;
		assert(f->severity == r->severity || (r->mild_when && f->severity == r->mild));
		if (!f->cause && r->cause)
			f->cause = r->cause;
		if (f->n_fix == 0 && r->fix)
			for (const char *p = r->fix; *p;) {
				size_t n = strcspn(p, "\n");
				finding_fix(f, "%.*s", (int)n, p);
				p += n + (p[n] == '\n');
			}
		if (f->n_refs == 0 && r->ref)
			finding_ref(f, r->ref);
	}
	findings_sort(d->out);
}
