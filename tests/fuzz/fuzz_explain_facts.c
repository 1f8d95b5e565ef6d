/* Fuzz explain's fact readers alone, with the built-in catalogue: the input as a log (every line
 * read for codes, libraries, forms, symbols, versions; messages built and scored), then ranked
 * without a machine. fuzz_explain.c also parses the input as a catalogue, which is slower; this
 * target spends its time on the readers of untrusted text. */
#include <stddef.h>
#include <stdint.h>

#include "explain/explain_rank.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct arena builtin_arena;
	static const struct explain_catalog *builtin;
	if (!builtin) {
		arena_init(&builtin_arena);
		builtin = explain_catalog_builtin(&builtin_arena);
	}
	struct arena a;
	arena_init(&a);
	struct explain_scan sc;
	explain_scan_text(&a, builtin, span_make(data, size), &sc);
	for (size_t i = 0; i < sc.n_msgs; i++) {
		struct explain_result r;
		explain_rank(&a, NULL, &sc.msgs[i], &r);
	}
	arena_free(&a);
	return 0;
}
