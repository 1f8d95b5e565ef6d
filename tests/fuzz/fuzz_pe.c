/* libFuzzer target for the PE reader: any input must give a clean result or a clean error. */
#include <stddef.h>
#include <stdint.h>

#include "fmt/pe.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct arena a;
	arena_init(&a);
	struct pe_info pe;
	const char *err = NULL;
	if (pe_parse(span_make(data, size), &a, &pe, &err)) {
		(void)pe_file_version(&a, &pe);
		(void)pe_imports_dll(&pe, "zlibwapi.dll", NULL);
	}
	uint16_t m;
	bool dll;
	(void)pe_ident(span_make(data, size), &m, &dll, &err);
	(void)pe_validate(span_make(data, size), &err);
	arena_free(&a);
	return 0;
}
