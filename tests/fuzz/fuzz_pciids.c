#include <stdint.h>

#include "fmt/pciids.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct arena a;
	arena_init(&a);
	/* NVIDIA's vendor and a device the seeds list, then one they do not */
	const char *name = pciids_device_name(span_make(data, size), &a, 0x10de, 0x1380);
	const char *chip, *board;
	pciids_split_name(name, &a, &chip, &board);
	pciids_device_name(span_make(data, size), &a, 0x10de, 0xffff);
	arena_free(&a);
	return 0;
}
