/* What runs inside a probe child: helpers that time a call into vendor code, name its return
 * code, and send the result to the parent. Everything here runs after fork(), in a process that
 * is thrown away; it uses no arena and no state of the parent. */
#ifndef CUDX_PROBE_CHILD_H
#define CUDX_PROBE_CHILD_H

#include <stdbool.h>
#include <stddef.h>

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

/* The entry points of a library, as a table: the offset of a function pointer field in a struct
 * of them, and the symbol. An entry whose field an earlier entry filled is skipped, so a second
 * entry for the same field is a fallback (cuDeviceGetUuid_v2, then cuDeviceGetUuid). */
struct probe_sym_entry {
	size_t offset;
	const char *name;
};
#define PROBE_SYM(type, field, sym) { offsetof(type, field), sym }
#define PROBE_SYMS(table) table, sizeof table / sizeof table[0]
/* Zero fns (size bytes) and resolve the table's entry points of lib into it (missing ones stay
 * NULL). dlsym returns void *; converting it to a function pointer is what POSIX requires to work. */
void probe_bind(void *fns, size_t size, void *lib, const struct probe_sym_entry *t, size_t n);
/* Load the stage's target (c->target) as probe_load does and resolve its entry points into fns.
 * NULL when it did not load. */
void *probe_open(struct probe_child *c, char *file, void *fns, size_t size, const struct probe_sym_entry *t,
		 size_t n);
/* Name the codes of the calls that follow: `api` is the knowledge-base error table, name_code the
 * library's own names (may be NULL). */
void probe_name_codes(struct probe_child *c, const char *api, const char *(*name_code)(void *, long, const char **),
		      void *ctx);
/* The usual way a library names its codes: a name function ("CUBLAS_STATUS_NOT_INITIALIZED") and a
 * text function, either absent. probe_names_of is the name_code for ctx = struct probe_code_names. */
struct probe_code_names {
	const char *(*name)(int);
	const char *(*text)(int);
};
const char *probe_names_of(void *ctx, long code, const char **text);

/* Call fn(&n) as the step STEP and report it with n as its value; on success also record the fact
 * KEY = n (none when key is NULL) and leave n in *out (may be NULL). Returns whether it succeeded. */
bool probe_int_call(struct probe_child *c, const char *step, int (*fn)(int *), const char *key, int *out);

/* A call about one device: the step is "CALL INDEX" or "CALL INDEX WHAT"; probe_dev_end reports it
 * with value and, on success, records the fact device.INDEX.KEY = value (none when key is NULL). */
struct probe_dev_step {
	char name[128];
	unsigned index;
	double t0;
};
void probe_dev_begin(struct probe_child *c, struct probe_dev_step *s, const char *call, unsigned index,
		     const char *what);
bool probe_dev_end(struct probe_child *c, const struct probe_dev_step *s, int rc, const char *key, const char *value);

/* Stages. Each sends its steps and facts; the caller sends END and exits. */
void probe_stage_locate(struct probe_child *c);
void probe_stage_driver(struct probe_child *c);
void probe_stage_nvml(struct probe_child *c);
void probe_stage_runtime(struct probe_child *c);
void probe_stage_cublas(struct probe_child *c);
void probe_stage_cudnn(struct probe_child *c);
void probe_stage_ptx(struct probe_child *c);

#endif
