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
	arena_free(&a);
	return 0;
}
