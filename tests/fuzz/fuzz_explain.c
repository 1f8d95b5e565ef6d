/* Fuzz the explain readers: the catalogue TSV parser (the input split at 0xff bytes into the six
 * files; a pattern that compiles is then matched), and the log scanner with the built-in catalogue
 * (the whole input as a log: every fact reader runs on every line). */
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

	/* split at 0xff bytes into the catalogue's six files (missing ones are empty) */
	struct span parts[6] = { { 0 } };
	size_t start = 0, k = 0;
	for (size_t i = 0; i <= size && k < 6; i++)
		if (i == size || data[i] == 0xff) {
			parts[k++] = span_make(data + start, i - start);
			start = i + 1;
		}
	struct explain_files f = { parts[0], parts[1], parts[2], parts[3], parts[4], parts[5] };
	struct explain_catalog cat;
	explain_catalog_parse(&a, &f, &cat);
	if (cat.n_patterns || cat.n_texts)
		explain_scan_text(&a, &cat, span_make(data, size), &sc);
	arena_free(&a);
	return 0;
}
