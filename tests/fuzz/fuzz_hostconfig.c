#include <stdint.h>

#include "fmt/hostconfig.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int max;
	if (hostconfig_gcc_max(span_make(data, size), &max) && (max < 1 || max > 999))
		__builtin_trap();
	return 0;
}
