#include <string.h>

#include "probe/probe.h"

const char *probe_fact_get(const struct probe_report *rep, const char *stage, const char *target,
			   const char *key)
{
	if (!rep)
		return NULL;
	for (size_t i = rep->n_facts; i-- > 0;) {
		const struct probe_fact *f = &rep->facts[i];
		if (strcmp(f->stage, stage) == 0 && strcmp(f->key, key) == 0 &&
		    (!target || (f->target && strcmp(f->target, target) == 0)))
			return f->value;
	}
	return NULL;
}

const char *probe_outcome_name(enum probe_outcome o)
{
	static const char *const names[] = { "ok", "failed", "wrong-result", "missing", "skipped",
					     "interrupted" };
	return (unsigned)o < sizeof names / sizeof names[0] ? names[o] : "?";
}

const char *probe_run_end_name(enum probe_run_end e)
{
	static const char *const names[] = { "done", "crashed", "exited", "timeout", "garbled",
					     "not-started" };
	return (unsigned)e < sizeof names / sizeof names[0] ? names[e] : "?";
}
