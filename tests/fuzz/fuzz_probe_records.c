/* The records a probe child sends are untrusted input (vendor code shares the child's memory). */
#include <stdint.h>
#include <string.h>

#include "probe/probe_record.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct arena a;
	arena_init(&a);
	struct probe_report rep;
	memset(&rep, 0, sizeof rep);
	struct probe_rec_result res;
	probe_records_apply(span_make(data, size), &a, "fuzz", "target", &rep, &res);
	for (size_t i = 0; i < rep.n_steps; i++)
		(void)strlen(rep.steps[i].name);
	arena_free(&a);
	return 0;
}
