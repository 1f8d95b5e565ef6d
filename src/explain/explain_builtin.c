/* The catalogue compiled into the binary (gen/explain_data.c, made by cmake/explain.cmake from
 * data/explain_*.tsv). Parsed once per run on first use. */
#include "explain/explain.h"

extern const unsigned char explain_causes_tsv[], explain_patterns_tsv[];
extern const size_t explain_causes_tsv_len, explain_patterns_tsv_len;

const struct explain_catalog *explain_catalog_builtin(struct arena *a)
{
	struct explain_catalog *cat = arena_alloc(a, sizeof *cat);
	explain_catalog_parse(a, span_make(explain_causes_tsv, explain_causes_tsv_len),
			      span_make(explain_patterns_tsv, explain_patterns_tsv_len), cat);
	return cat;
}
