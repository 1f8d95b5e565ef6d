/* A small pattern matcher for error messages, used instead of <regex.h> (mingw has none) and
 * because a message catalogue needs only a little: literal fragments, typed captures and gaps.
 *
 * Syntax (case-insensitive, ASCII):
 *   text        literal; one space in the pattern matches one or more blanks in the input
 *   {lib}       an ELF library name or path containing ".so" (libcudnn.so.8, /x/libcuda.so.1)
 *   {dll}       a DLL file name (cudnn_cnn_infer64_8.dll)
 *   {num}       an integer, optionally negative
 *   {ver}       a dotted version (8.5.0, 12.4) or a Python tuple "(8, 5, 0)", stored as "8.5.0"
 *   {sm}        an architecture: sm_86, compute_86, sm_121a, 8.6 or 86
 *   {word}      [A-Za-z0-9_]+
 *   {name}      [A-Za-z0-9_.+-]+ (symbol or file name)
 *   {text}      any text up to the next literal (or to the end of the line), captured
 *   {*}         any text up to the next literal, not captured
 *   {type:key}  the same, stored under "key" instead of the type name
 *   {a|b c|}    one of the literal alternatives (here "a", "b c" or nothing), tried longest first;
 *               at the start of the pattern or after a gap, an alternative that begins with a
 *               letter or digit starts at a word boundary ("{no|zero} gpu" does not match
 *               "unknown gpu"); glued to the item before it, it continues that item
 *               ("device{s|}"); its end is free ("{detect|find}" matches "detected"). The catalogue
 *               expands {@name} into such a group from data/explain_vocab.tsv before compiling.
 *   {end}       the end of a phrase: the end of the line or punctuation, blanks before it
 *               skipped ("built with cuda{end}" matches "built with CUDA." but not "built with
 *               CUDA kernels"); matches nothing itself
 *   {{          a literal '{'
 * Typed captures and alternatives are greedy and never backtrack; {text} and {*} are lazy. The pattern is
 * unanchored: it may start anywhere in the line.
 *
 * Cost: each block of anchored items (between gaps) is tried at every start position, and a typed
 * capture reads at most EXPLAIN_CAP_MAX bytes, so one match costs O(line * pattern) with a small
 * constant: linear in the input for a fixed catalogue. Nothing recurses. */
#ifndef CUDX_EXPLAIN_MATCH_H
#define CUDX_EXPLAIN_MATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/arena.h"
#include "util/span.h"

#define EXPLAIN_CAP_MAX 512 /* longest typed capture or stored gap text */
#define EXPLAIN_MAX_CAPS 8  /* captures per pattern */
#define EXPLAIN_MAX_ITEMS 32
#define EXPLAIN_MAX_ALTS 32 /* alternatives in one {a|b} group */

enum explain_item_kind {
	EI_LIT,
	EI_LIB,
	EI_DLL,
	EI_NUM,
	EI_VER,
	EI_SM,
	EI_WORD,
	EI_NAME,
	EI_ALT,  /* one of several literals */
	EI_END,  /* zero-width: end of line or punctuation */
	EI_TEXT, /* gap, captured */
	EI_ANY,  /* gap, not captured */
};

struct explain_item {
	enum explain_item_kind kind;
	const char *lit; /* EI_LIT: lower-cased literal (NUL-terminated) */
	size_t lit_len;
	const char *key; /* capture name */
	const char *const *alts; /* EI_ALT: lower-cased alternatives, longest first */
	const size_t *alt_lens;
	size_t n_alts;
	bool optional; /* EI_ALT: one alternative is empty */
};

struct explain_pattern {
	struct explain_item *items; /* n_items of them, at most EXPLAIN_MAX_ITEMS */
	size_t n_items;
	size_t n_caps;
	const char *anchor; /* longest literal, lower-cased: a cheap pre-filter */
	size_t anchor_len;
	uint64_t anchor_bits; /* explain_pair_bits() of the anchor */
};

struct explain_capture {
	const char *key;
	const char *value; /* copy in the caller's explain_capbuf, normalised ({ver} tuples dotted) */
};

/* Room for the values of one match: fixed, so matching a line allocates nothing. */
struct explain_capbuf {
	char data[EXPLAIN_MAX_CAPS * (EXPLAIN_CAP_MAX + 1)];
	size_t used;
};

/* The hash of a byte pair that the pair filters fold: into 64 bits (explain_pair_bits) and into
 * the 4,096 bits of a line's finer filter (explain_facts.c). One hash, so the two agree on what a
 * pair is. */
static inline unsigned explain_pair_hash(unsigned char a, unsigned char b)
{
	return (unsigned)a * 31u + b;
}

/* The byte pairs of a lower-cased text, hashed and folded into 64 bits. A text with a bit its line
 * lacks is not in the line: one test rejects most of a catalogue's texts before a finer filter. */
uint64_t explain_pair_bits(const char *lc, size_t n);

/* Compile src. Returns 0, or -1 with *err set to a static message. */
int explain_pattern_compile(struct arena *a, const char *src, struct explain_pattern *p,
			    const char **err);
/* Match p against line (lower-cased copy in lc, same length). On a match, fills caps (at most
 * EXPLAIN_MAX_CAPS, values stored in buf, which is reset first) and returns true. */
bool explain_pattern_match(const struct explain_pattern *p, struct span line, struct span lc,
			   struct explain_capbuf *buf, struct explain_capture *caps, size_t *n_caps);
/* Case-insensitive glob ('*' any run, '?' one char, '[0-9a-f]' one of a class) over a capture value;
 * used for row guards and library classes. */
bool explain_glob(const char *glob, const char *s);
/* Find needle (already lower-case) in the lower-cased hay; -1 when absent. */
long explain_find_lc(struct span lc, size_t from, const char *needle, size_t nlen);

#endif
