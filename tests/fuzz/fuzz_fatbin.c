/* libFuzzer target for src/fmt/fatbin.c: any bytes as a host file (raw, ELF or PE, chosen by the
 * input's own magic), the scan plus the summary and a verdict over what it found. */
#include <stddef.h>
#include <stdint.h>

#include "arch/arch.h"
#include "fmt/fatbin.h"

static void release(void *ud, uint64_t upto)
{
	uint64_t *last = ud;
	if (upto < *last)
		__builtin_trap(); /* the contract: offsets only grow */
	*last = upto;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct arena a;
	arena_init(&a);
	uint64_t last = 0;
	struct fatbin_opts o = { release, &last };
	struct fatbin_file f;
	fatbin_scan(span_make(data, size), &a, &o, &f);
	for (size_t i = 0; i < f.n_entries; i++) {
		const struct fatbin_entry *e = &f.entries[i];
		if (e->container >= f.n_containers || e->offset + e->header_size > size)
			__builtin_trap();
		char t[48];
		fatbin_target_name(e, t, sizeof t);
	}
	struct arch_summary s;
	arch_summarize(&f, &a, &s);
	struct arch_judgement j;
	arch_judge(&f, 8, 6, "12.2", &j);
	arch_judge(&f, 12, 0, NULL, &j);
	arena_free(&a);
	return 0;
}
