/* The live probe: load the driver, NVML, each CUDA runtime, cuBLAS and cuDNN the system would
 * use, make them do a little real work, and record every step. Vendor code only ever runs in a
 * forked child with a time limit; the parent reads bounded records from a pipe, so a crash, a
 * hang or an exit() inside a vendor library becomes data here, never a dead cudx. */
#ifndef CUDX_PROBE_H
#define CUDX_PROBE_H

#include <stdbool.h>
#include <stddef.h>

#include "probe/probe_sandbox.h"
#include "util/arena.h"

/* How one step ended. */
enum probe_outcome {
	PROBE_OK = 0,      /* returned success (and the result checked out where there is one) */
	PROBE_FAILED,      /* returned an error code */
	PROBE_WRONG,       /* returned success but computed a wrong result */
	PROBE_MISSING,     /* library not found or a symbol absent */
	PROBE_SKIPPED,     /* not attempted (an earlier step failed) */
	PROBE_INTERRUPTED, /* the child died or ran out of time inside this step */
};

/* One call into a vendor library. */
struct probe_step {
	const char *stage;   /* "driver", "nvml", "runtime", "cublas", "cudnn", "ptx" */
	const char *target;  /* the library the stage tests, as asked for ("libcudart.so.13" or a path) */
	const char *name;    /* the call: "cuInit", "cudaMemcpy round trip" */
	enum probe_outcome outcome;
	bool has_code;
	long code;           /* the return code, when has_code */
	const char *api;     /* knowledge-base error table: "cu", "cudart", "nvml", "cublas", "cudnn9" */
	const char *lib_code_name; /* the name the library itself gave the code (cuGetErrorName ...), or NULL */
	const char *lib_code_text;
	const char *library; /* the exact file the call went into (link map), or NULL */
	const char *value;   /* what it returned ("12020", "NVIDIA H100 80GB HBM3"), or an error text */
	double ms;           /* wall time of the call */
};

/* One forked child: one stage for one target. */
enum probe_run_end {
	PROBE_RUN_DONE = 0, /* the child reported every step and exited 0 */
	PROBE_RUN_CRASHED,  /* killed by a signal (SIGSEGV, SIGABRT, ...) */
	PROBE_RUN_EXITED,   /* exit() with a status before the stage finished (vendor code called exit) */
	PROBE_RUN_TIMEOUT,  /* did not finish within the time limit; killed */
	PROBE_RUN_GARBLED,  /* its records did not parse (the child wrote junk into the pipe) */
	PROBE_RUN_NOT_STARTED, /* fork or pipe failed, or no time left */
};

struct probe_run {
	const char *stage, *target;
	enum probe_run_end end;
	int signal;           /* PROBE_RUN_CRASHED */
	int exit_status;      /* PROBE_RUN_EXITED */
	const char *last_step; /* the step it had begun when it stopped, or NULL */
	const char *problem;   /* a record parse problem, fork error ... */
	double ms;
};

/* A value the probe observed: ("driver", "libcuda.so.1", "device.0.name", "NVIDIA A100"). */
struct probe_fact {
	const char *stage, *target, *key, *value;
};

/* struct probe_report is reserved in collect/inventory.h. */
struct probe_report {
	bool ran;
	const char *not_run;  /* why the probe did not run (--root, --no-probe), or NULL */
	const char *ld_library_path; /* the LD_LIBRARY_PATH the children searched */
	struct probe_run *runs;
	size_t n_runs, cap_runs;
	struct probe_step *steps;
	size_t n_steps, cap_steps;
	struct probe_fact *facts;
	size_t n_facts, cap_facts;
	/* how the children were confined (the least confined one, should they differ): one state for
	 * the report, not a fact per child */
	struct probe_sandbox sandbox;
	double ms; /* wall time of the whole probe */
};

#define PROBE_MAX_TARGETS 16

struct probe_options {
	double timeout_s;       /* whole-probe time limit (default 20 s) */
	const char *ld_library_path; /* from the env snapshot; searched before dlopen's own search */
	/* The env snapshot is this process's own environment (no --env/--pid): the children inherit
	 * it as is. Otherwise CUDA_VISIBLE_DEVICES is set from the snapshot and ld_library_path is
	 * searched by hand before dlopen's own search (ld.so reads LD_LIBRARY_PATH only at start). */
	bool own_environment;
	const char *cuda_visible_devices; /* from the snapshot; NULL = unset */
	/* explicit cudart files or names; when given, only these are tried in the runtime stage */
	const char *cudarts[PROBE_MAX_TARGETS];
	size_t n_cudarts;
	/* further cudart files the collector found on the live root (pip wheels, frameworks) */
	const char *found_cudarts[PROBE_MAX_TARGETS];
	size_t n_found_cudarts;
	/* stages to run; all when 0 */
	unsigned stages;
};

enum probe_stage_bit {
	PROBE_STAGE_DRIVER = 1u << 0,
	PROBE_STAGE_NVML = 1u << 1,
	PROBE_STAGE_RUNTIME = 1u << 2,
	PROBE_STAGE_CUBLAS = 1u << 3,
	PROBE_STAGE_CUDNN = 1u << 4,
	PROBE_STAGE_PTX = 1u << 5,
};

void probe_options_defaults(struct probe_options *o);
/* Run the probe on the live system. Never fails: what went wrong is in the report. Must only be
 * called for the live root (callers check ctx->root.live). */
void probe_run(struct arena *a, const struct probe_options *o, struct probe_report *rep);

/* Lookups for rules and renderers. */
const char *probe_fact_get(const struct probe_report *rep, const char *stage, const char *target,
			   const char *key);
const char *probe_outcome_name(enum probe_outcome o);
/* A failed "load NAME" step's dlerror() says NAME is simply not installed (vs. found but broken,
 * or a dependency of it missing). */
bool probe_load_not_found(const char *step_name, const char *dlerror_text);
const char *probe_run_end_name(enum probe_run_end e);

/* The report as text (`cudx probe`, and the probe section of `cudx check`). */
#include <stdio.h>
struct cudx_ctx;
void probe_report_text(FILE *out, const struct cudx_ctx *ctx, const struct probe_report *rep);

/* The report as JSON (for `cudx probe --json` and the check report). Caller owns the reference. */
struct json_t;
struct json_t *probe_report_json(const struct probe_report *rep);

#endif
