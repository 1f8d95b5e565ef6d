/* Run the user's command for `cudx run`: in its own process group (so --timeout can end all of
 * it), in the terminal's foreground when cudx was, with the environment cudx has plus what the
 * caller adds (LD_AUDIT). Its stdout and stderr pass through as they arrive and the last
 * RUNPROC_KEEP bytes of each are kept. */
#ifndef CUDX_RUNPROC_H
#define CUDX_RUNPROC_H

#include <stdbool.h>
#include <stddef.h>

#include "probe/probe_sandbox.h"
#include "util/arena.h"

#define RUNPROC_KEEP (1u << 20)      /* bytes of each stream kept for the report */
#define RUNPROC_KILL_GRACE_MS 2000   /* SIGTERM, then SIGKILL this much later */
#define RUNPROC_DRAIN_MS 500         /* after the command ends, how long its pipes are still read
				      * (a background child may hold them open) */

struct runproc_stream {
	char *tail;      /* the last `kept` bytes, NUL-terminated (arena) */
	size_t kept;
	size_t total;    /* bytes the command wrote */
};

struct runproc_opts {
	char *const *argv;     /* the command */
	char *const *envp;     /* its environment */
	double timeout;        /* seconds; 0 = none */
	int out_fd, err_fd;    /* where its stdout and stderr pass to (cudx's 1 and 2, or 2 and 2) */
	bool sandbox;          /* enter the probe's sandbox before exec (--sandbox) */
};

struct runproc_result {
	bool started;
	int exec_errno;        /* why the command could not be run (ENOENT, EACCES...), 0 when it ran */
	bool exited;           /* exited normally: exit_code is valid */
	int exit_code;
	int signal;            /* the signal that ended it, 0 when none */
	bool core_dumped;
	bool timed_out;        /* cudx ended it at --timeout */
	double seconds;        /* wall time */
	long long pid;
	struct probe_sandbox sandbox; /* what --sandbox could apply, as the child reported it */
	struct runproc_stream out, err;
};

/* Run to the end. Returns 0, or -1 with errno when cudx itself could not set it up (pipe, fork). */
int runproc_run(struct arena *a, const struct runproc_opts *o, struct runproc_result *r);

#endif
