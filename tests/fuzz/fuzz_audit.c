/* The audit record of cudx run (src/fmt/auditrec.c) and the processes rebuilt from it
 * (src/collect/observed.c): any bytes give events and processes whose indices stay in range. */
#include <stdint.h>

#include "collect/observed.h"
#include "fmt/auditrec.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct arena a;
	arena_init(&a);
	struct auditrec rec;
	auditrec_parse(&a, span_make(data, size), &rec);
	struct observed_run run;
	observed_build(&a, &rec, &run);
	for (size_t i = 0; i < run.n_procs; i++) {
		const struct observed_process *p = &run.procs[i];
		for (size_t k = 0; k < p->n_objs; k++)
			if (p->objs[k].requested_by > p->n_objs || !p->objs[k].path)
				__builtin_trap();
		for (size_t k = 0; k < p->n_searches; k++) {
			const struct observed_search *s = &p->searches[k];
			if (s->opened > p->n_objs || s->requested_by > p->n_objs || s->n_tried > OBSERVED_MAX_TRIED)
				__builtin_trap();
		}
	}
	arena_free(&a);
	return 0;
}
