/* `cudx explain`: read error messages in text (an argument, a file, a whole log), extract every
 * fact in them, and rank the causes those facts can have against this machine's findings.
 *
 * Facts, not literal messages: an error code by number, name or text (every code of the CUDA
 * runtime and driver, cuDNN, cuBLAS, NCCL, NVML and Windows, from the knowledge base's
 * data/errors.tsv), every library or DLL name (classified by the knowledge base: component, major,
 * CUDA major), the failure form a loader or framework reports for it (not found, error 126/127/193,
 * undefined symbol, wrong ELF class ...), undefined symbols and the library family that exports
 * them, versions (driver 470.82, CUDA 12.4, compiled with / found), GPU architectures. Data tables
 * map facts to causes (data/explain_*.tsv, embedded at build time and parsed at start-up; the
 * error codes come from the knowledge base). A cause row ties a key to a finding id owned by a
 * rule of src/diag, with the fix and the check that rules it out. */
#ifndef CUDX_EXPLAIN_H
#define CUDX_EXPLAIN_H

#include <stdbool.h>
#include <stddef.h>

#include "explain/explain_match.h"
#include "kb/kb.h"
#include "util/arena.h"
#include "util/span.h"

#define EXPLAIN_MAX_INPUT (16u << 20) /* bytes read from a file or stdin */
#define EXPLAIN_MAX_LINE (64u << 10)  /* longer lines are cut here */
#define EXPLAIN_MAX_HITS 64           /* distinct recognised messages kept */
#define EXPLAIN_MAX_CAUSES 6          /* causes one table row may name; candidates kept per message */
#define EXPLAIN_MAX_TSV (1u << 20)    /* a catalogue file larger than this is refused */
#define EXPLAIN_LINE_FACTS 32         /* facts read from one line (more are dropped) */
#define EXPLAIN_CONTEXT_LINES 4       /* a message also reads the facts of this many lines around it */
#define EXPLAIN_MAX_FACTS 96          /* facts kept per message, its context included */
#define EXPLAIN_MAX_HINTS 16          /* distinct environment hints kept per log */

struct explain_cause_def {
	const char *key;      /* "cudnn-zlibwapi-missing", unique */
	const char *finding;  /* finding id (a rule of src/diag owns it) */
	const char *category; /* "WIN_ZLIBWAPI" (the research categories) */
	const char *summary;  /* one line; {key} placeholders take the message's facts */
	const char *fix;      /* steps separated by "\n" (two characters in the TSV) */
	const char *check;    /* what to run where the message happened */
	const char *rule_out; /* name of a machine check that contradicts it, or "" */
	const char *on_windows; /* key of the same cause for a DLL ("dll-not-on-path" for lib-not-found), or "" */
	const char *source;
	const char *about; /* the library a per-library finding must name when the message names none
			    * ("libcublas" for cublas-shadowed), or "" */
};

struct explain_pattern_def {
	const char *id;       /* "so-cannot-open" */
	int weight;           /* relevance in a log (higher first) and strength of its causes */
	const char *form;     /* failure form ("not-found", "undefined-symbol" ...), NULL for a phrase or hint */
	bool hint;            /* form column "hint": a fact about the environment, not a message */
	bool cue;             /* form column "cue": words that speak only when nothing in the input is
			       * a known message (src/explain/explain_scan.c: explain_scan_cues) */
	bool gate;            /* form column "gate": a line's cues count only when a gate row matches it
			       * too (words that say something went wrong); no causes of its own */
	bool generic;         /* a failure class (data/explain_classes.tsv): yields to a tool's phrase on the line */
	bool restates;        /* form column "restates": a phrase that retells an error code's text in a
			       * tool's words; the code on its line counts through the phrase only */
	bool linker;          /* form column "linker": a linker's sentence about the build's environment
			       * (link time), not about a run-time loader */
	const char *text;     /* the pattern as written */
	struct explain_pattern pat;
	const char *when_key; /* guard: capture key ... */
	const char *when_glob; /* ... must match this glob (or one of several: a|b*); NULL = no guard */
	bool when_not;         /* KEY!=GLOB: ... must match none of them */
	const struct explain_cause_def *causes[EXPLAIN_MAX_CAUSES];
	size_t n_causes;
	/* causes the row's words contradict (written !key in the causes column): nvidia-container-cli
	 * speaking at all says its hook ran, so the container did ask for a GPU */
	const struct explain_cause_def *against[EXPLAIN_MAX_CAUSES];
	size_t n_against;
	const char *source;
};

/* A row of data/explain_vocab.tsv: a named group of words ({@name} in a pattern) that one failure
 * class shares across tools ("no|zero|0", "found|available|detect..."). */
struct explain_vocab_def {
	const char *name, *words, *source;
};

/* A row of data/explain_libclass.tsv: a glob on a library's base name -> class. */
struct explain_libclass_def {
	const char *glob, *klass, *source;
};

/* A row of data/explain_libforms.tsv: (class, major, os, form) -> causes. */
struct explain_libform_def {
	const char *klass;   /* explain class, kb component or family, or "*" */
	int major;           /* -1: any */
	char os;             /* 'w', 'l', or 0 for any */
	const char *form;    /* or "*" */
	const struct explain_cause_def *causes[EXPLAIN_MAX_CAUSES];
	size_t n_causes;
	const char *source;
};

/* A row of data/explain_symbols.tsv: symbol prefix -> the component that exports it. */
struct explain_symbol_def {
	const char *prefix, *component, *source;
	size_t len;
};

/* A text that stands for an error code: the code's own text (data/errors.tsv, verbatim) or another
 * wording of it (data/explain_texts.tsv). */
struct explain_text_def {
	const struct kb_error *code;
	const char *lc; /* lower-case */
	size_t len;
	bool needs_api_word; /* short or common: counts only on a line that names a GPU API */
	long next_same;      /* the next row with the same text (another API's), -1 when none */
	bool first;          /* the first row of its text: the one the reader looks for */
	uint64_t pair_bits;  /* explain_pair_bits() of lc */
};

/* An error code's name (or alias), lower-case, for lookup by token. */
struct explain_name_def {
	const char *lc;
	const struct kb_error *code;
};

struct explain_catalog {
	struct explain_pattern_def *patterns;
	size_t n_patterns, cap_patterns;
	struct explain_cause_def *causes;
	size_t n_causes, cap_causes;
	struct explain_libclass_def *libclasses;
	size_t n_libclasses, cap_libclasses;
	struct explain_libform_def *libforms;
	size_t n_libforms, cap_libforms;
	struct explain_symbol_def *symbols;
	size_t n_symbols, cap_symbols;
	struct explain_text_def *texts;
	size_t n_texts, cap_texts;
	struct explain_vocab_def *vocab;
	size_t n_vocab, cap_vocab;
	struct explain_name_def *names; /* sorted by lc */
	size_t n_names, cap_names;
	const char **errors; /* "explain_patterns.tsv:12: unknown cause key 'x'" */
	size_t n_errors, cap_errors;
};

/* The catalogue's files. Any may be empty. */
struct explain_files {
	struct span causes, patterns, libclass, libforms, symbols, texts;
	struct span vocab, classes; /* word groups; failure classes (pattern rows in generic wording) */
};

/* Parse the TSV files (header row names the columns; '#' lines and blank lines skipped) and add
 * the error codes of the knowledge base. Bad rows are recorded in cat->errors and skipped. Inputs
 * larger than EXPLAIN_MAX_TSV are refused. */
void explain_catalog_parse(struct arena *a, const struct explain_files *files, struct explain_catalog *cat);
/* The part of a catalogue that comes from the knowledge base's error codes, not from the files:
 * the same for every parse. A caller that parses many catalogues (the fuzzer) builds it once and
 * passes it to explain_catalog_parse_with; the catalogue shares its names, so it must outlive the
 * catalogue. */
struct explain_text_key {
	const char *lc;
	size_t len, row;
};
struct explain_kb_part {
	struct explain_name_def *names; /* sorted by lc */
	size_t n_names, cap_names;
	struct explain_text_def *texts; /* linked among themselves (next_same, first) */
	size_t n_texts, cap_texts;
	struct explain_text_key *heads; /* the first row of each text, sorted by text */
	size_t n_heads;
};
void explain_kb_part_build(struct arena *a, struct explain_kb_part *kb);
void explain_catalog_parse_with(struct arena *a, const struct explain_files *files, const struct explain_kb_part *kb,
				struct explain_catalog *cat);
/* The catalogue compiled into the binary. */
const struct explain_catalog *explain_catalog_builtin(struct arena *a);
const struct explain_cause_def *explain_cause_lookup(const struct explain_catalog *cat, const char *key);
/* The causes a kb error row names (its `causes` column), resolved in the catalogue. */
size_t explain_code_causes(const struct explain_catalog *cat, const struct kb_error *e,
			   const struct explain_cause_def **out, size_t max);

/* ---- facts ---------------------------------------------------------------------------------- */

enum explain_fact_kind {
	EXF_CODE,    /* an error code */
	EXF_LIB,     /* a library or DLL name */
	EXF_FORM,    /* a failure form, about its subject library (or the symbol it lacks) */
	EXF_PHRASE,  /* a framework's or tool's sentence of the catalogue */
	EXF_VERSION, /* a version: driver 470.82, CUDA 12.4, compiled with / found */
	EXF_ARCH,    /* a GPU architecture: sm_86, compute capability 2.1 */
	/* the environment the log shows (CUDA_VISIBLE_DEVICES set, a WSL path, a container): never a
	 * message itself; it strengthens the causes of every message of the log that it names */
	EXF_HINT,
	/* words of a failure class (form "cue"): never a message itself; when the whole input holds
	 * no known message, they make one, weak and said to come from words alone */
	EXF_CUE,
};

/* A library as the message names it, classified. */
struct explain_lib {
	const char *name;        /* base name as written (repaired when an underscore was lost) */
	const char *klass;       /* explain class (data/explain_libclass.tsv), or NULL */
	const struct kb_lib *kb; /* the catalogue row, or NULL */
	int major;               /* from the name (libcudnn.so.8 -> 8, cudart64_110.dll -> 11), -1 unknown */
	bool unversioned;        /* libcublas.so: kb names the newest release's row, which it does not name */
	char os;                 /* 'w' for a .dll, 'l' for a .so */
};

struct explain_fact {
	enum explain_fact_kind kind;
	size_t line_no;
	bool context;      /* read from a line around the message, not its own */
	const char *text;  /* what stood in the message */
	/* EXF_CODE */
	const struct kb_error *code;
	const char *how;   /* "name", "number", "text" */
	/* EXF_LIB; the subject of EXF_FORM (for a symbol: the library or family that exports it) */
	struct explain_lib lib;
	bool has_lib;
	/* EXF_FORM: "not-found", "load-failed", "win-126", "undefined-symbol" ... */
	const char *form;
	/* EXF_FORM and EXF_PHRASE: the catalogue row */
	const struct explain_pattern_def *pattern;
	/* EXF_FORM about a symbol: the symbol (or version node), the component that exports it */
	const char *symbol, *component;
	/* EXF_VERSION: what ("driver", "cuda", "cudnn", "ptx", ...), value ("12.4"), role ("built",
	 * "found", or NULL) */
	const char *what, *value, *role;
	const struct explain_pattern_def *row; /* EXF_VERSION: the row whose capture it is, NULL in free text */
	/* EXF_ARCH */
	int sm;
	size_t at; /* where in the line it stood */
};

/* A cause the text points to, with how strongly and why. */
struct explain_candidate {
	const struct explain_cause_def *cause;
	double score;
	const char *because; /* the strongest fact behind it: "cudaErrorInsufficientDriver (cudart 35)" */
};

/* One distinct recognised message. */
struct explain_message {
	const char *line;     /* the first line it was seen on (normalised, at most 1 KiB shown) */
	size_t line_no;       /* 1-based */
	size_t count;         /* how many lines said the same */
	int weight;           /* relevance: the strongest of its own facts */
	struct explain_fact *facts; /* its own facts first (n_own), then those of the lines around it */
	size_t n_facts, n_own, cap_facts;
	const char *sig;      /* what makes two lines the same message */
	struct explain_candidate cands[EXPLAIN_MAX_CAUSES];
	size_t n_cands;
	size_t ctx_until;     /* scanning: takes context from lines up to this one */
	bool from_words;      /* made of cue words only (explain_scan_cues): no known message form */
};

struct explain_scan {
	struct explain_message *msgs; /* sorted: weight, then first appearance */
	size_t n_msgs, cap_msgs;
	size_t lines, bytes;
	size_t long_lines;     /* lines cut at EXPLAIN_MAX_LINE */
	size_t binary_lines;   /* lines that were mostly not text */
	size_t dropped_msgs;   /* distinct messages beyond EXPLAIN_MAX_HITS */
	struct explain_fact hints[EXPLAIN_MAX_HINTS]; /* one per hint row seen anywhere in the log */
	size_t n_hints;
	struct explain_fact hint_versions[EXPLAIN_MAX_HINTS]; /* the versions a hint row captured */
	size_t n_hint_versions;
	struct explain_fact cues[EXPLAIN_MAX_HINTS]; /* one per cue row seen anywhere, first line first */
	size_t n_cues;
	size_t cue_line_no;  /* the first line with a cue, and its text */
	const char *cue_line;
};

/* The facts of one line (bounded: EXPLAIN_LINE_FACTS facts, their strings in buf). */
struct explain_linefacts {
	struct explain_fact v[EXPLAIN_LINE_FACTS];
	size_t n;
	size_t line_no;
	char buf[8192];
	size_t used;
};

/* The reader of lines: its token table and filters are reused for every line, none longer than
 * max_line bytes (the tables are sized by it: a short message needs no room for a 64 KiB line). */
struct explain_reader;
struct explain_reader *explain_reader_new(struct arena *a, const struct explain_catalog *cat,
					  size_t max_line);
/* Read every fact of one normalised line (lc: its lower-cased copy, same length). */
void explain_line_facts(struct explain_reader *r, struct span line, struct span lc, size_t line_no,
			struct explain_linefacts *out);
/* The line just read, read again joined with the one before it (explain_scan.c: a message wrapped
 * over two lines): the same as explain_line_facts, but it stays one line of the reader's history. */
void explain_line_facts_joined(struct explain_reader *r, struct span line, struct span lc, size_t line_no,
			       struct explain_linefacts *out);
/* Whether the line just read held a code's text that counts only next to its API's name
 * ("invalid device symbol" without CUDA): the next line may name it ("kernel.cu:120"). */
bool explain_line_wants_api_word(const struct explain_reader *r);
/* The form a Windows loader code (126, 127, 193, 5 ...) gives a failed load of a DLL (win-126,
 * denied ...); NULL when the fact is no such code. */
const char *explain_code_refines_form(const struct explain_fact *c);
/* Whether the fact is a loader's plain failure (not-found, load-failed) a code can refine. */
bool explain_form_is_a_load(const struct explain_fact *f);
/* Classify a library name (a path is reduced to its base name). */
void explain_lib_classify(const struct explain_catalog *cat, const char *name, struct explain_lib *out);
/* The length of the family word in a name made from it ("cublas library not found" is read as
 * "libcublas.so": 6), 0 for a file name. On a Windows line such a name stands for the family's DLLs. */
size_t explain_family_word_len(const char *name);
/* Scan text line by line (at most EXPLAIN_MAX_INPUT bytes of it are looked at): messages with their
 * facts, each scored on its text alone (explain_score). */
void explain_scan_text(struct arena *a, const struct explain_catalog *cat, struct span text,
		       struct explain_scan *out);
/* When the input holds no known message but cue words of failure classes (form "cue"), make one
 * message of them (the first such line, every cue as its facts) and score it; false when there
 * was a message already or no cue. For text nothing else reads: weak, and said to be words. */
bool explain_scan_cues(struct arena *a, const struct explain_catalog *cat, struct explain_scan *sc);
/* Rank the causes the facts of m point to, on the text alone: fills m->cands, best first. */
void explain_score(struct arena *a, const struct explain_catalog *cat, struct explain_message *m);
/* The research category of the best cause of a message, or NULL when it has none. */
const char *explain_message_category(const struct explain_message *m);

#endif
