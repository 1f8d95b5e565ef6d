/* The catalogue compiled into the binary (gen/explain_data.c, made by cmake/explain.cmake from
 * data/explain_*.tsv), with the error codes of the knowledge base. Parsed once per call. */
#include "explain/explain.h"

#define EXPLAIN_TABLE(t) extern const unsigned char explain_##t##_tsv[]; extern const size_t explain_##t##_tsv_len;
EXPLAIN_TABLE(causes)
EXPLAIN_TABLE(patterns)
EXPLAIN_TABLE(libclass)
EXPLAIN_TABLE(libforms)
EXPLAIN_TABLE(symbols)
EXPLAIN_TABLE(texts)
EXPLAIN_TABLE(vocab)
EXPLAIN_TABLE(classes)
#undef EXPLAIN_TABLE

const struct explain_catalog *explain_catalog_builtin(struct arena *a)
{
	struct explain_catalog *cat = arena_alloc(a, sizeof *cat);
	const struct explain_files f = {
		span_make(explain_causes_tsv, explain_causes_tsv_len),
		span_make(explain_patterns_tsv, explain_patterns_tsv_len),
		span_make(explain_libclass_tsv, explain_libclass_tsv_len),
		span_make(explain_libforms_tsv, explain_libforms_tsv_len),
		span_make(explain_symbols_tsv, explain_symbols_tsv_len),
		span_make(explain_texts_tsv, explain_texts_tsv_len),
		span_make(explain_vocab_tsv, explain_vocab_tsv_len),
		span_make(explain_classes_tsv, explain_classes_tsv_len),
	};
	explain_catalog_parse(a, &f, cat);
	return cat;
}
