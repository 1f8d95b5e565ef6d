/* libFuzzer target for the ELF reader: headers, dynamic section, version records, section lookup,
 * the section iterator and the dynamic symbol scan. Seeds: small real and synthesized shared objects. */
#include <stddef.h>
#include <stdint.h>

#include "fmt/elf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static volatile size_t sink;

/* Touch every byte of what elf_sections() hands over (ASan checks the name lies in the input). */
static bool visit(void *ud, const struct elf_section_info *s)
{
	size_t *sum = ud;
	for (size_t i = 0; s->name && i < s->name_len; i++)
		*sum += (unsigned char)s->name[i];
	*sum += s->type + (size_t)s->flags + (size_t)s->offset + (size_t)s->size;
	return true;
}

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
	size_t sum = 0;
	(void)elf_sections(s, visit, &sum);
	sink = sum;
	arena_free(&a);
	return 0;
}
