/* Fuzz the explain catalogue reader: the input split at 0xff bytes into the eight TSV files (a
 * pattern that compiles is then matched: the input is scanned with the catalogue it made).
 * fuzz_explain_facts.c fuzzes the fact readers with the built-in catalogue. The catalogue's part
 * from the knowledge base does not depend on the input: it is built once (building it per input
 * was 90 % of the time, ~190 executions a second). */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "explain/explain.h"

#define SCAN_PREFIX 4096

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct arena kb_arena;
	static struct explain_kb_part kb;
	static bool kb_built;
	if (!kb_built) {
		arena_init(&kb_arena);
		explain_kb_part_build(&kb_arena, &kb);
		kb_built = true;
	}
	struct arena a;
	arena_init(&a);
	/* split at 0xff bytes into the catalogue's eight files (missing ones are empty) */
	struct span parts[8] = { { 0 } };
	size_t start = 0, k = 0;
	for (size_t i = 0; i <= size && k < 8; i++)
		if (i == size || data[i] == 0xff) {
			parts[k++] = span_make(data + start, i - start);
			start = i + 1;
		}
	struct explain_files f = { parts[0], parts[1], parts[2], parts[3], parts[4], parts[5], parts[6], parts[7] };
	struct explain_catalog cat;
	explain_catalog_parse_with(&a, &f, &kb, &cat);
	/* Matching with the catalogue it made: the first 4 KB of the input are scanned. The fact
	 * readers over whole inputs are fuzz_explain_facts' job; scanning 64 KB here made 90 % of the
	 * time and ~120 executions a second. */
	if (cat.n_patterns || cat.n_libforms) {
		struct explain_scan sc;
		explain_scan_text(&a, &cat, span_make(data, size < SCAN_PREFIX ? size : SCAN_PREFIX), &sc);
	}
	arena_free(&a);
	return 0;
}
