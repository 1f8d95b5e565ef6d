/* cudx run's subject in the inventory: the processes the audit record describes (observed.h), what
 * they searched for and never found, and where cudx's loader simulator predicted otherwise. The
 * collector also puts every GPU library a process loaded into inv->libs (so the rules of check
 * judge the copies a program really used, e.g. a cudart it bundles next to itself), and the
 * libcuda a process loaded becomes the inventory's driver library. */
#ifndef CUDX_OBSERVED_INVENTORY_H
#define CUDX_OBSERVED_INVENTORY_H

#include "collect/inventory.h"
#include "collect/observed.h"

#define RUN_MAX_NOT_FOUND 200  /* distinct (process, name) pairs kept */
#define RUN_MAX_PREDICTED 4000 /* searches replayed in the simulator, all processes together */

/* A name a process searched for and never got. */
struct run_not_found {
	size_t proc;                          /* index in procs.procs */
	const struct observed_search *search; /* the first failed search for it */
	const char *name;
	const char *requested_by; /* path of the object that asked, NULL unknown */
	bool at_runtime;          /* dlopen (the program may go on without it); else start-up, fatal */
	bool gpu;                 /* a library the knowledge base knows (cuDNN, cudart, ...) */
	size_t times;             /* searches for it in that process */
	const char *existing;     /* a candidate that exists but was not taken, or NULL */
	const char *existing_why; /* what is wrong with it ("ELF class 32 (the program is 64-bit)") */
};

/* One name where the loader and the simulator did not agree. */
struct run_difference {
	size_t proc;
	const struct observed_search *search;
	const char *requested_by;
	const char *observed; /* the real file the loader opened, NULL when it found none */
	const char *observed_how;
	const char *predicted; /* the real file the simulator picks, NULL when it finds none */
	const char *predicted_how;
};

struct run_prediction {
	size_t agreed, skipped; /* skipped: past RUN_MAX_PREDICTED, or no program file to start from */
	struct run_difference *diffs;
	size_t n_diffs, cap_diffs;
};

struct run_observation {
	long long pid;              /* the process cudx started */
	const char *command;        /* the file it ran (argv[0] found on PATH), or NULL */
	const char *record_problem; /* the record could not be read, or NULL */
	size_t record_bytes;
	struct auditrec rec; /* parse counters (bad lines, full, ...) */
	struct observed_run procs;
	size_t top;              /* index + 1 of the process cudx started; 0 when it left no record */
	const char *not_audited; /* why the command left no record (static, secure mode, ...) or NULL */
	size_t *judged;          /* processes that loaded or looked for a GPU library (indices) */
	size_t n_judged;
	struct run_not_found *not_found;
	size_t n_not_found, cap_not_found, more_not_found;
	size_t found_loaded; /* failed-looking searches that hit a file already loaded */
	struct run_prediction prediction;
};

/* Fill ro from its record (ro->rec and ro->procs set by the caller) and join the inventory: the
 * GPU libraries loaded become copies in inv->libs, and the program, each file a judged process
 * loaded and each name never found become the inventory's focus (FOCUS_LOADED, collect/focus.h),
 * so `cudx run` keeps the findings about them as `why` and `tree` keep theirs. */
void observed_collect(struct cudx_ctx *ctx, struct inventory *inv, struct run_observation *ro);
/* The GPU libraries process `proc` loaded, in load order, as the process rules judge a load set
 * (the same form --pid gives inv->loaded); *n their number. */
struct loaded_lib *observed_loaded(struct cudx_ctx *ctx, const struct inventory *inv, const struct run_observation *ro,
				   size_t proc, size_t *n);
/* Replay every search of every process in cudx's loader simulator (the judged processes first,
 * RUN_MAX_PREDICTED searches in all) and note where it picks another file. */
void observed_predict(struct cudx_ctx *ctx, struct run_observation *ro);
/* The real file behind path (links followed), or NULL. */
const char *observed_real_path(struct cudx_ctx *ctx, const char *path);
/* The inventory's copy of the file an object path leads to (its version, SONAME, stub mark), or
 * NULL when it is no GPU library or was not read. */
const struct lib_file *observed_copy(struct cudx_ctx *ctx, const struct inventory *inv, const char *path);
/* The process's own description: "pid 123 (python3 train.py)". */
const char *observed_proc_label(struct arena *a, const struct observed_process *p);

#endif
