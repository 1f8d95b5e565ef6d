/* What runs inside a probe child: helpers that time a call into vendor code, name its return
 * code, and send the result to the parent. Everything here runs after fork(), in a process that
 * is thrown away; it uses no arena and no state of the parent. */
#ifndef CUDX_PROBE_CHILD_H
#define CUDX_PROBE_CHILD_H

#include <stdbool.h>

#include "probe/probe.h"
#include "probe/probe_record.h"

#define PROBE_MAX_DEVICES 16

struct probe_child {
	int fd;                      /* write end of the pipe */
	const char *target;          /* the library this stage tests (name or absolute path) */
	const char *helper;          /* a second library the stage needs (the cudart of cuBLAS's major) */
	const char *ld_library_path; /* from the env snapshot */
	bool search_myself;          /* search ld_library_path before dlopen's own search */
	const char *const *candidates; /* locate stage: names to look for */
	bool lazy;                   /* RTLD_LAZY: the locate stage only loads, calls nothing */
	/* naming return codes for the current library */
	const char *api;
	const char *library;         /* exact file of the current library */
	const char *(*name_code)(void *ctx, long code, const char **text);
	void *name_ctx;
};

double probe_now_ms(void);
/* Announce a step before vendor code runs, so the parent knows where the child was if it dies. */
double probe_begin(struct probe_child *c, const char *step);
/* Report a step that returned a code (0 = success). value may be NULL. Returns code == 0. */
bool probe_code(struct probe_child *c, const char *step, double t0, long code, const char *value);
/* Report a step with an explicit outcome and no code. */
void probe_outcome(struct probe_child *c, const char *step, double t0, enum probe_outcome o,
		   const char *value);
void probe_fact(struct probe_child *c, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void probe_fact_for(struct probe_child *c, const char *target, const char *key, const char *value);
#define PROBE_PATH_MAX 4096
/* dlopen a library as the system would (snapshot LD_LIBRARY_PATH, then dlopen's own search; an
 * absolute path as is), recording a "load NAME" step with the exact file, which is also left in
 * file[PROBE_PATH_MAX] and made the current library (c->library). NULL when it failed. */
void *probe_load(struct probe_child *c, const char *name, char *file);
/* The real file behind a handle (dlinfo link map, then realpath) into buf; NULL when unknown. */
const char *probe_loaded_file(void *handle, char *buf, size_t len);
/* dlsym that records a missing symbol as a MISSING step. */
void *probe_sym(struct probe_child *c, void *lib, const char *sym);

/* Stages. Each sends its steps and facts; the caller sends END and exits. */
void probe_stage_locate(struct probe_child *c);
void probe_stage_driver(struct probe_child *c);
void probe_stage_nvml(struct probe_child *c);
void probe_stage_runtime(struct probe_child *c);
void probe_stage_cublas(struct probe_child *c);
void probe_stage_cudnn(struct probe_child *c);
void probe_stage_ptx(struct probe_child *c);

#endif
