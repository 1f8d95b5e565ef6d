/* Fuzz the explain readers: the catalogue TSV parser (first half of the input as causes, second as
 * patterns; a pattern that compiles is then matched), and the log scanner with the built-in
 * catalogue (the whole input as a log). */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "explain/explain.h"

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

	/* split at the first 0xff byte (or the middle) into two TSV files */
	const uint8_t *sep = memchr(data, 0xff, size);
	size_t half = sep ? (size_t)(sep - data) : size / 2;
	struct explain_catalog cat;
	struct span causes = span_make(data, half);
	struct span pats = span_from(span_make(data, size), half + (sep ? 1 : 0));
	explain_catalog_parse(&a, causes, pats, &cat);
	if (cat.n_patterns)
		explain_scan_text(&a, &cat, span_make(data, size), &sc);
	arena_free(&a);
	return 0;
}
