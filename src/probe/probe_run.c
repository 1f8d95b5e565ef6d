/* The parent side of the probe: one forked child per stage and target, each with what is left of
 * the time limit; records come back over a pipe and are read bounded; a child that dies, exits
 * early or runs out of time is recorded with the step it had begun. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kb/kb.h"
#include "probe/probe.h"
#include "probe/probe_child.h"
#include "probe/probe_record.h"
#include "probe/probe_sandbox.h"

struct probe_parent {
	struct arena *a;
	const struct probe_options *o;
	struct probe_report *rep;
	double deadline;
	uint8_t *buf; /* PROBE_OUTPUT_MAX bytes, reused by every child */
};

typedef void (*probe_stage_fn)(struct probe_child *);

void probe_options_defaults(struct probe_options *o)
{
	memset(o, 0, sizeof *o);
	o->timeout_s = 20.0;
	o->ld_library_path = getenv("LD_LIBRARY_PATH");
	o->own_environment = true;
}

static bool same_str(const char *x, const char *y)
{
	return (!x && !y) || (x && y && strcmp(x, y) == 0);
}

/* In the child: never returns. */
static void child_main(struct probe_parent *p, int fd, const char *target, const char *helper,
		       const char *const *cands, probe_stage_fn fn)
{
	int null = open("/dev/null", O_RDWR);
	if (null >= 0) { /* vendor chatter must not reach cudx's report */
		dup2(null, STDIN_FILENO);
		dup2(null, STDOUT_FILENO);
		dup2(null, STDERR_FILENO);
	}
	setpgid(0, 0);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	/* a crash in vendor code must end the child by its signal, for the parent to see it, even
	 * when cudx itself was built with sanitizers that catch these */
	static const int fatal[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGPIPE };
	for (size_t i = 0; i < sizeof fatal / sizeof fatal[0]; i++)
		signal(fatal[i], SIG_DFL);
	if (!p->o->own_environment) {
		if (p->o->cuda_visible_devices)
			setenv("CUDA_VISIBLE_DEVICES", p->o->cuda_visible_devices, 1);
		else
			unsetenv("CUDA_VISIBLE_DEVICES");
	}
	struct probe_child c = {
		.fd = fd,
		.target = target,
		.helper = helper,
		.ld_library_path = p->o->ld_library_path,
		.search_myself = !same_str(p->o->ld_library_path, getenv("LD_LIBRARY_PATH")),
		.candidates = cands,
	};
	/* before any vendor code: nothing it does may change the host (device nodes, modules) */
	struct probe_sandbox sb;
	probe_sandbox_enter(&sb);
	char sbtext[512];
	probe_sandbox_encode(&sb, sbtext, sizeof sbtext);
	probe_fact(&c, "sandbox", "%s", sbtext);
	fn(&c);
	struct probe_rec_buf r;
	probe_rec_start(&r, PROBE_REC_END);
	probe_rec_send(&r, fd);
	_exit(0); /* no atexit handlers, no stdio flush of the parent's buffers */
}

static double now_ms(void)
{
	return probe_now_ms();
}

/* Read what the child sends until it is gone or the deadline passes. Returns bytes kept. */
static size_t collect_output(struct probe_parent *p, int fd, pid_t pid, int *status, bool *timed_out)
{
	size_t n = 0;
	bool eof = false, reaped = false;
	uint8_t scratch[4096];
	*timed_out = false;
	for (;;) {
		double left = p->deadline - now_ms();
		if (left <= 0) {
			*timed_out = true;
			break;
		}
		if (!reaped && waitpid(pid, status, WNOHANG) == pid)
			reaped = true;
		if (eof && reaped)
			break;
		if (eof) { /* pipe closed but the child lingers (exiting): wait a little */
			struct timespec ts = { 0, 2 * 1000 * 1000 };
			nanosleep(&ts, NULL);
			continue;
		}
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		int wait = reaped ? 0 : (left > 50 ? 50 : (int)left + 1);
		int pr = poll(&pfd, 1, wait);
		if (pr < 0 && errno != EINTR)
			break;
		if (pr <= 0) {
			if (reaped) /* gone, and nothing more to read: a grandchild may hold the pipe */
				break;
			continue;
		}
		ssize_t r = n < PROBE_OUTPUT_MAX ? read(fd, p->buf + n, PROBE_OUTPUT_MAX - n)
						 : read(fd, scratch, sizeof scratch); /* drained, dropped */
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			eof = true;
			continue;
		}
		if (n < PROBE_OUTPUT_MAX)
			n += (size_t)r;
	}
	if (*timed_out || !reaped) {
		kill(-pid, SIGKILL); /* the child's process group: threads and helpers it started */
		kill(pid, SIGKILL);
		while (waitpid(pid, status, 0) < 0 && errno == EINTR)
			;
	}
	return n;
}

static struct probe_run *run_stage(struct probe_parent *p, const char *stage, const char *target,
				   const char *helper, const char *const *cands, probe_stage_fn fn)
{
	struct probe_report *rep = p->rep;
	struct probe_run *run = ARENA_PUSH(p->a, rep->runs, rep->n_runs, rep->cap_runs);
	run->stage = stage;
	run->target = target;
	double t0 = now_ms();
	if (p->deadline - t0 <= 0) {
		/* one entry per stage says so; the targets it would have tried are not listed */
		run->end = PROBE_RUN_NOT_STARTED;
		run->problem = "the probe's time limit was used up by earlier stages";
		for (size_t i = 0; i + 1 < rep->n_runs; i++)
			if (rep->runs[i].end == PROBE_RUN_NOT_STARTED && strcmp(rep->runs[i].stage, stage) == 0) {
				rep->n_runs--;
				return &rep->runs[i];
			}
		return run;
	}
	int fds[2];
	if (pipe2(fds, O_CLOEXEC) != 0) {
		run->end = PROBE_RUN_NOT_STARTED;
		run->problem = arena_printf(p->a, "pipe: %s", strerror(errno));
		return run;
	}
	fflush(NULL); /* or the child could carry a copy of unwritten output */
	pid_t pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		run->end = PROBE_RUN_NOT_STARTED;
		run->problem = arena_printf(p->a, "fork: %s", strerror(errno));
		return run;
	}
	if (pid == 0) {
		close(fds[0]);
		child_main(p, fds[1], target, helper, cands, fn);
	}
	close(fds[1]);
	int status = 0;
	bool timed_out;
	size_t n = collect_output(p, fds[0], pid, &status, &timed_out);
	close(fds[0]);
	run->ms = now_ms() - t0;

	struct probe_rec_result res;
	probe_records_apply(span_make(p->buf, n), p->a, stage, target, rep, &res);
	run->last_step = res.last_begun;
	run->problem = res.problem;
	if (timed_out)
		run->end = PROBE_RUN_TIMEOUT;
	else if (WIFSIGNALED(status)) {
		run->end = PROBE_RUN_CRASHED;
		run->signal = WTERMSIG(status);
	} else if (WIFEXITED(status) && (WEXITSTATUS(status) != 0 || !res.ended)) {
		run->end = PROBE_RUN_EXITED; /* vendor code called exit() */
		run->exit_status = WEXITSTATUS(status);
	} else if (res.problem)
		run->end = PROBE_RUN_GARBLED;
	else
		run->end = PROBE_RUN_DONE;
	if (run->end != PROBE_RUN_DONE && run->last_step) {
		struct probe_step *s = ARENA_PUSH(p->a, rep->steps, rep->n_steps, rep->cap_steps);
		s->stage = stage;
		s->target = target;
		s->name = run->last_step;
		s->outcome = PROBE_INTERRUPTED;
		s->value = run->end == PROBE_RUN_TIMEOUT ? "did not return within the time limit"
			 : run->end == PROBE_RUN_CRASHED ? arena_printf(p->a, "killed by signal %d (%s)", run->signal, strsignal(run->signal))
							 : arena_printf(p->a, "the process exited with status %d", run->exit_status);
	}
	return run;
}

/* Knowledge-base library rows of one component, for Linux. */
static size_t kb_names(struct arena *a, const char *component, const struct kb_lib ***out)
{
	const struct kb_lib *rows = NULL;
	size_t n = kb_lib_rows(&rows), k = 0;
	const struct kb_lib **v = arena_calloc(a, n + 1, sizeof *v);
	for (size_t i = 0; i < n; i++)
		if (rows[i].component && strcmp(rows[i].component, component) == 0 &&
		    rows[i].os == OS_LINUX && rows[i].name)
			v[k++] = &rows[i];
	*out = v;
	return k;
}

static const char *cudart_for_major(struct arena *a, int major)
{
	const struct kb_lib **rt;
	size_t n = kb_names(a, "cudart", &rt);
	for (size_t i = 0; i < n; i++)
		if (rt[i]->cuda_major == major || (rt[i]->cuda_major == 0 && rt[i]->major == major))
			return rt[i]->name;
	return NULL;
}

static const char *found_path(const struct probe_report *rep, const char *name)
{
	return probe_fact_get(rep, "locate", name, "file");
}

static bool listed(const char **v, size_t n, const char *s)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(v[i], s) == 0)
			return true;
	return false;
}

void probe_run(struct arena *a, const struct probe_options *o, struct probe_report *rep)
{
	memset(rep, 0, sizeof *rep);
	struct probe_parent p = { .a = a, .o = o, .rep = rep };
	double start = now_ms();
	p.deadline = start + (o->timeout_s > 0 ? o->timeout_s : 20.0) * 1e3;
	p.buf = arena_alloc(a, PROBE_OUTPUT_MAX);
	rep->ran = true;
	rep->ld_library_path = o->ld_library_path;
	unsigned st = o->stages ? o->stages : ~0u;

	if (st & PROBE_STAGE_DRIVER)
		run_stage(&p, "driver", "libcuda.so.1", NULL, NULL, probe_stage_driver);
	if (st & PROBE_STAGE_NVML)
		run_stage(&p, "nvml", "libnvidia-ml.so.1", NULL, NULL, probe_stage_nvml);

	/* Which runtimes the system's search finds: loaded (not called) in one child, so that the
	 * same file reached by two names, or also found by the collectors, is tested once. cuBLAS
	 * and cuDNN are not located first: loading cuBLAS alone takes a good part of a second, and
	 * a child whose library is not installed costs a few milliseconds. */
	const struct kb_lib **rt, **blas, **dnn;
	size_t n_rt = kb_names(a, "cudart", &rt), n_blas = kb_names(a, "cublas", &blas),
	       n_dnn = kb_names(a, "cudnn", &dnn);
	const char **cands = arena_calloc(a, n_rt + 1, sizeof *cands);
	size_t nc = 0;
	for (size_t i = 0; i < n_rt && !o->n_cudarts; i++)
		cands[nc++] = rt[i]->name;
	bool located = false;
	if (nc && (st & PROBE_STAGE_RUNTIME)) {
		struct probe_run *r = run_stage(&p, "locate", "search path", NULL, cands, probe_stage_locate);
		located = r->end == PROBE_RUN_DONE;
	}

	if (st & PROBE_STAGE_RUNTIME) {
		const char *done[2 * PROBE_MAX_TARGETS + 64];
		size_t n_done = 0;
		if (o->n_cudarts) {
			for (size_t i = 0; i < o->n_cudarts; i++)
				run_stage(&p, "runtime", o->cudarts[i], NULL, NULL, probe_stage_runtime);
		} else {
			for (size_t i = 0; i < n_rt && n_done < 64; i++) {
				const char *f = found_path(rep, rt[i]->name);
				if (located && !f)
					continue;
				if (f && listed(done, n_done, f))
					continue;
				if (f)
					done[n_done++] = f;
				run_stage(&p, "runtime", rt[i]->name, NULL, NULL, probe_stage_runtime);
			}
			for (size_t i = 0; i < o->n_found_cudarts && i < PROBE_MAX_TARGETS; i++) {
				if (listed(done, n_done, o->found_cudarts[i]))
					continue;
				done[n_done++] = o->found_cudarts[i];
				run_stage(&p, "runtime", o->found_cudarts[i], NULL, NULL, probe_stage_runtime);
			}
		}
	}

	if (st & PROBE_STAGE_PTX) {
		const char *count = probe_fact_get(rep, "driver", "libcuda.so.1", "device_count");
		const struct kb_lib **jit;
		const char *jit_name = kb_names(a, "ptxjitcompiler", &jit) ? jit[0]->name : NULL;
		if (count && atoi(count) > 0)
			run_stage(&p, "ptx", "libcuda.so.1", jit_name, NULL, probe_stage_ptx);
	}

	if (st & PROBE_STAGE_CUBLAS)
		for (size_t i = 0; i < n_blas; i++) {
			int major = blas[i]->cuda_major ? blas[i]->cuda_major : blas[i]->major;
			run_stage(&p, "cublas", blas[i]->name, cudart_for_major(a, major), NULL,
				  probe_stage_cublas);
		}

	if (st & PROBE_STAGE_CUDNN) {
		const char **helpers = arena_calloc(a, n_rt + 1, sizeof *helpers);
		for (size_t i = 0; i < n_rt; i++)
			helpers[i] = arena_printf(a, "%d=%s", rt[i]->cuda_major ? rt[i]->cuda_major : rt[i]->major,
						  rt[i]->name);
		for (size_t i = 0; i < n_dnn; i++) {
			run_stage(&p, "cudnn", dnn[i]->name, NULL, helpers, probe_stage_cudnn);
		}
	}
	rep->ms = now_ms() - start;
}
