/* Which file the system's own search finds for each candidate name: loaded (constructors run,
 * nothing called) so that the runtime stage tests each distinct cudart once. */
#include <dlfcn.h>
#include <string.h>

#include "probe/probe_child.h"

void probe_stage_locate(struct probe_child *c)
{
	char file[PROBE_PATH_MAX];
	c->lazy = true; /* cuBLAS's eager relocation alone costs half a second */
	for (const char *const *p = c->candidates; p && *p; p++) {
		void *h = probe_load(c, *p, file);
		if (h)
			probe_fact_for(c, *p, "file", file);
	}
}
