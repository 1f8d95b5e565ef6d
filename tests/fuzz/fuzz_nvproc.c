#include <stdint.h>

#include "fmt/nvproc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct arena a;
	arena_init(&a);
	struct nvproc_version v;
	const char *err;
	nvproc_parse_version(span_make(data, size), &a, &v, &err);
	nvproc_field(span_make(data, size), &a, "Model");
	struct tegra_release t;
	nvproc_parse_tegra_release(span_make(data, size), &a, &t, &err);
	arena_free(&a);
	return 0;
}
