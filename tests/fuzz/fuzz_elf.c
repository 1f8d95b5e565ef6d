/* libFuzzer target for the ELF reader: headers, dynamic section, version records, section lookup
 * and the dynamic symbol scan. Seeds: small real and synthesized shared objects. */
#include <stddef.h>
#include <stdint.h>

#include "fmt/elf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct arena a;
	arena_init(&a);
	struct span s = span_make(data, size);
	struct elf_info info;
	const char *err;
	if (elf_parse(s, &a, &info, &err) && info.soname)
		(void)elf_defines_version(&info, info.soname);
	int cls;
	uint16_t machine;
	(void)elf_ident(s, &cls, &machine);
	struct span sec;
	(void)elf_section(s, ".dynstr", &sec);
	(void)elf_has_symbol(s, "synth_fn");
	arena_free(&a);
	return 0;
}
