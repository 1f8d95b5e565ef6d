#include <stdint.h>

#include "fmt/containerd_toml.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct arena a;
	arena_init(&a);
	struct containerd_config c;
	containerd_config_scan(span_make(data, size), &a, &c);
	arena_free(&a);
	return 0;
}
