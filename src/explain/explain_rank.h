/* Ranking the causes of one message against a machine: the findings of the rules (check's, and
 * those of the message rules of src/diag/rules_message.c) confirm a cause; the loader and a few
 * facts of the inventory confirm or contradict one. */
#ifndef CUDX_EXPLAIN_RANK_H
#define CUDX_EXPLAIN_RANK_H

#include "collect/inventory.h"
#include "diag/finding.h"
#include "explain/explain.h"

enum explain_conf {
	EXPLAIN_CONFIRMED, /* the machine shows the finding: "high" */
	EXPLAIN_LIKELY,    /* the text's most likely cause, nothing here contradicts it: "medium" */
	EXPLAIN_POSSIBLE,  /* "low" */
	EXPLAIN_RULED_OUT,
};

/* A fact of the message as key=value, for placeholders and display: library, libmajor, dll,
 * symbol, code, cuda, driver, built, found, sm. */
struct explain_kv {
	const char *key, *value;
};

struct explain_cause_result {
	const struct explain_cause_def *def;
	enum explain_conf conf;
	double score;        /* the text's score */
	const char *because; /* the fact of the message behind it */
	const char *summary; /* placeholders filled */
	const char **evidence;
	size_t n_evidence, cap_evidence;
	const char **fix;
	size_t n_fix, cap_fix;
	const char *ruled_out_because;
	const char *check;   /* what to run where the message happened */
	const struct finding *finding; /* the machine's finding that confirms it, or NULL */
};

struct explain_result {
	const struct explain_message *msg;
	struct explain_kv *kv;
	size_t n_kv, cap_kv;
	struct explain_cause_result causes[EXPLAIN_MAX_CAUSES];
	size_t n_causes;
	/* set when the machine contradicts the message: it probably came from elsewhere */
	const char *elsewhere;
};

/* How the loader of the machine resolves a library name (src/explain/explain_loader.c). */
struct explain_resolution {
	bool available;     /* false: no loader simulator in this build */
	const char *path;   /* where it resolves, NULL when not found */
	const char *how;    /* "ld.so.cache", "LD_LIBRARY_PATH", ... */
	const char **tried; /* "tried /usr/lib/libx.so.8: no such file" ... */
	size_t n_tried;
	bool system;        /* the target has a C library (its program interpreter): a system or image a
			     * program can run in, so "not found" there means something even when it
			     * shows nothing of the GPU stack */
	const char *loader; /* who searched, for the evidence: "ld.so", "Windows"; NULL: "ld.so" */
	/* a copy of the same library with another major that the search saw ("cudart64_91.dll in
	 * C:\...\v9.1\bin (PATH entry 1)" when cudart64_80.dll was wanted), or NULL */
	const char *other_major;
	/* a place the search went through where the wanted name is a symlink to a missing file (a
	 * package removed or upgraded under its link), or NULL */
	const char *dangling;
	/* an empty file (0 bytes) the search stopped at under the wanted name: in a container, the
	 * mount point the NVIDIA runtime would have bound the host's library onto; NULL when none */
	const char *placeholder;
	/* a DLL the message names by its path, found there: the first of its imports that no
	 * directory holds ("yolo.dll imports cudart64_92.dll, not found"), and that import's other
	 * major where one is installed; NULL when none */
	const char *dep_missing;
	const char *dep_missing_name;
	const char *dep_other_major;
	/* an extension module Python 3.8+ loaded: its missing import is on the standard search path
	 * (PATH), which that load does not use; NULL when not so */
	const char *dep_path_only;
	const char *dep_path_dir; /* the folder on PATH that holds it (Windows form) */
	bool python_ext;          /* the file is the extension module a Python import named */
	/* found through LD_LIBRARY_PATH, and a search without that variable (ld.so.cache, the default
	 * directories) finds no copy: only a process given the variable loads it */
	bool env_only;
	/* the message named a family, no file ("cublas library not found"), and the search was for
	 * that family's DLLs (Windows, where each CUDA release's has its own name): other_major is a
	 * copy under a name the program did not ask for */
	bool family_only;
};

/* What ranking may look at; inv/fs NULL = no machine (the text's order stands). */
struct explain_machine {
	const struct inventory *inv;
	const struct findings *fs;
	enum target_os os;
	const char *env_origin; /* "this process", "pid 1234", "file F" */
	/* resolve a Linux library name as ld.so would here; NULL = not available */
	void (*resolve)(void *cookie, struct arena *a, const char *name, struct explain_resolution *out);
	void *cookie;
	const struct explain_catalog *cat; /* the causes of findings no candidate names; NULL: made up */
	bool env_unknown; /* a --root tree without --env: its variables are not known */
};

const char *explain_conf_name(enum explain_conf c);
/* The message's facts as key=value (its own first, then its context's). */
void explain_kv_fill(struct arena *a, const struct explain_message *m, struct explain_result *r);
const char *explain_kv_get(const struct explain_result *r, const char *key);
/* Fill r for m, ranking its candidates against the machine (NULL: the text's order). */
void explain_rank(struct arena *a, const struct explain_machine *m, const struct explain_message *msg,
		  struct explain_result *r);
/* When the text holds no message cudx knows, the target's own errors, then its warnings, are the
 * causes to look at first (one per finding id; the first LIKELY): what `check` finds wrong there is
 * the best lead, and a finding about a file the text names (text: the input, NUL-terminated) goes
 * before the others. r->msg stays NULL. Nothing on a target that shows nothing (an empty --root). */
void explain_rank_unrecognised(struct arena *a, const struct explain_machine *m, const struct explain_catalog *cat,
			       const char *text, struct explain_result *r);
/* Put first the message the machine explains, where the text put a warning first: a program's
 * warning is often the consequence announced before the failure that caused it (bitsandbytes'
 * "compiled without GPU support" above its "libcuda.so not found"). Only a warning whose own
 * causes the machine does not confirm gives way, to the first later message whose first cause it
 * confirms; an error line keeps its place (docker's wrapper line above the hook's own words). */
void explain_rank_order(struct explain_result *v, size_t n);
/* Names of the machine checks a cause row may name in rule_out (for the catalogue test). */
bool explain_rule_out_known(const char *name);

#endif
