#include <stdint.h>

#include "sys/envsnap.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct arena a;
	arena_init(&a);
	struct envsnap e;
	envsnap_parse(&e, &a, span_make(data, size), "fuzz");
	const char **parts;
	env_split_path(&a, envsnap_get(&e, "LD_LIBRARY_PATH"), ':', &parts);
	/* as ctx_init does for a Windows tree: merging must keep every name it keeps findable */
	size_t n = e.n;
	envsnap_fold_case(&e, &a);
	if (e.n > n || (e.n > 0 && !envsnap_get(&e, e.vars[e.n - 1].name)))
		__builtin_trap();
	arena_free(&a);
	return 0;
}
