#include "collect/runproc.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* The last RUNPROC_KEEP bytes of a stream: a ring, linearised at the end. */
struct ring {
	char *buf;
	size_t start, n, total;
};

static void ring_add(struct ring *r, const char *p, size_t len)
{
	r->total += len;
	if (len > RUNPROC_KEEP) {
		p += len - RUNPROC_KEEP;
		len = RUNPROC_KEEP;
	}
	/* copy in at most two pieces (up to the end of the buffer, then from its start) */
	size_t at = (r->start + r->n) % RUNPROC_KEEP;
	size_t first = len < RUNPROC_KEEP - at ? len : RUNPROC_KEEP - at;
	memcpy(r->buf + at, p, first);
	memcpy(r->buf, p + first, len - first);
	size_t over = r->n + len > RUNPROC_KEEP ? r->n + len - RUNPROC_KEEP : 0;
	r->n += len - over;
	r->start = (r->start + over) % RUNPROC_KEEP;
}

static void ring_out(struct arena *a, const struct ring *r, struct runproc_stream *s)
{
	s->tail = arena_alloc(a, r->n + 1);
	for (size_t i = 0; i < r->n; i++)
		s->tail[i] = r->buf[(r->start + i) % RUNPROC_KEEP];
	s->tail[r->n] = '\0';
	s->kept = r->n;
	s->total = r->total;
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The command's process group, for the handlers that pass cudx's own signals on to it. */
static volatile sig_atomic_t child_pgid;

static void forward_signal(int sig)
{
	if (child_pgid > 0)
		kill(-(pid_t)child_pgid, sig);
}

static const int forwarded[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
#define N_FORWARDED (sizeof forwarded / sizeof forwarded[0])

/* Give the terminal's foreground to pgid (or take it back), as a shell does for a job. SIGTTOU
 * is ignored meanwhile: a background process may not change the foreground otherwise. */
static void set_foreground(pid_t pgid)
{
	struct sigaction ign = { .sa_handler = SIG_IGN }, old;
	sigaction(SIGTTOU, &ign, &old);
	tcsetpgrp(STDIN_FILENO, pgid);
	sigaction(SIGTTOU, &old, NULL);
}

static void write_all(int *fd, const char *p, size_t n)
{
	while (*fd >= 0 && n) {
		ssize_t w = write(*fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			*fd = -1; /* the reader went away: keep capturing, stop passing through */
			return;
		}
		p += w;
		n -= (size_t)w;
	}
}

static _Noreturn void child_exec(const struct runproc_opts *o, int out_w, int err_w, int status_w, bool fg)
{
	setpgid(0, 0);
	if (fg)
		set_foreground(getpid());
	sigset_t none;
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	for (size_t i = 0; i < N_FORWARDED; i++)
		signal(forwarded[i], SIG_DFL);
	signal(SIGPIPE, SIG_DFL);
	if (dup2(out_w, STDOUT_FILENO) < 0 || dup2(err_w, STDERR_FILENO) < 0)
		goto fail;
	if (out_w > STDERR_FILENO)
		close(out_w);
	if (err_w > STDERR_FILENO)
		close(err_w);
	if (o->sandbox) {
		/* the probe's least privilege: no new privileges, no device nodes, no modules */
		struct probe_sandbox sb;
		probe_sandbox_enter(&sb);
		if (write(status_w, &sb, sizeof sb) != (ssize_t)sizeof sb)
			goto fail;
	}
	execvpe(o->argv[0], o->argv, o->envp);
fail:;
	int e = errno;
	ssize_t w = write(status_w, &e, sizeof e);
	(void)w;
	_exit(127);
}

int runproc_run(struct arena *a, const struct runproc_opts *o, struct runproc_result *r)
{
	memset(r, 0, sizeof *r);
	int out_p[2], err_p[2], status_p[2];
	if (pipe2(out_p, O_CLOEXEC) != 0)
		return -1;
	if (pipe2(err_p, O_CLOEXEC) != 0) {
		close(out_p[0]), close(out_p[1]);
		return -1;
	}
	if (pipe2(status_p, O_CLOEXEC) != 0) {
		close(out_p[0]), close(out_p[1]), close(err_p[0]), close(err_p[1]);
		return -1;
	}
	struct ring rings[2] = { { malloc(RUNPROC_KEEP), 0, 0, 0 }, { malloc(RUNPROC_KEEP), 0, 0, 0 } };
	if (!rings[0].buf || !rings[1].buf) {
		free(rings[0].buf), free(rings[1].buf);
		close(out_p[0]), close(out_p[1]), close(err_p[0]), close(err_p[1]);
		close(status_p[0]), close(status_p[1]);
		errno = ENOMEM;
		return -1;
	}
	bool fg = isatty(STDIN_FILENO) && tcgetpgrp(STDIN_FILENO) == getpgrp();
	struct sigaction fwd = { .sa_handler = forward_signal }, ign = { .sa_handler = SIG_IGN };
	struct sigaction old[N_FORWARDED], old_pipe;
	sigemptyset(&fwd.sa_mask);
	fwd.sa_flags = SA_RESTART;
	for (size_t i = 0; i < N_FORWARDED; i++)
		sigaction(forwarded[i], &fwd, &old[i]);
	sigaction(SIGPIPE, &ign, &old_pipe);
	/* an inherited SIG_IGN for SIGCHLD would reap the command behind waitpid's back */
	struct sigaction dfl = { .sa_handler = SIG_DFL }, old_chld;
	sigaction(SIGCHLD, &dfl, &old_chld);

	double start = now_s();
	pid_t pid = fork();
	if (pid == 0)
		child_exec(o, out_p[1], err_p[1], status_p[1], fg);
	int fork_errno = errno;
	close(out_p[1]), close(err_p[1]), close(status_p[1]);
	if (pid > 0) {
		setpgid(pid, pid); /* also here: whichever runs first, the group exists before a kill */
		child_pgid = pid;
		if (fg)
			set_foreground(pid);
		r->started = true;
		r->pid = pid;
	}

	int pass[2] = { o->out_fd, o->err_fd };
	struct pollfd fds[2] = { { out_p[0], POLLIN, 0 }, { err_p[0], POLLIN, 0 } };
	bool reaped = pid < 0;
	int status = 0;
	double drain_until = 0, kill_at = 0;
	static char buf[1 << 16];
	while (pid > 0 && (fds[0].fd >= 0 || fds[1].fd >= 0 || !reaped)) {
		double t = now_s();
		if (!reaped && o->timeout > 0 && !r->timed_out && t - start >= o->timeout) {
			r->timed_out = true;
			kill(-pid, SIGTERM);
			kill_at = t + RUNPROC_KILL_GRACE_MS / 1000.0;
		}
		if (r->timed_out && kill_at && t >= kill_at) {
			kill(-pid, SIGKILL);
			kill_at = 0;
		}
		if (reaped && t >= drain_until)
			break;
		int n = poll(fds, 2, 50);
		for (int i = 0; n > 0 && i < 2; i++) {
			if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			ssize_t got = read(fds[i].fd, buf, sizeof buf);
			if (got < 0 && errno == EINTR)
				continue;
			if (got <= 0) {
				close(fds[i].fd);
				fds[i].fd = -1;
				continue;
			}
			write_all(&pass[i], buf, (size_t)got);
			ring_add(&rings[i], buf, (size_t)got);
		}
		if (reaped)
			continue;
		pid_t w = waitpid(pid, &status, WNOHANG | WUNTRACED);
		if (w == pid && WIFSTOPPED(status)) {
			/* Ctrl-Z stopped it: stop too, as a shell job would, and continue it with us */
			if (fg)
				set_foreground(getpgrp());
			raise(SIGSTOP);
			if (fg)
				set_foreground(pid);
			kill(-pid, SIGCONT);
		} else if (w == pid) {
			reaped = true;
			drain_until = now_s() + RUNPROC_DRAIN_MS / 1000.0;
			if (r->timed_out)
				kill(-pid, SIGKILL); /* what is left of the group after a timeout */
		}
	}
	r->seconds = now_s() - start;
	for (int i = 0; i < 2; i++)
		if (fds[i].fd >= 0)
			close(fds[i].fd);
	if (fg && pid > 0)
		set_foreground(getpgrp());
	child_pgid = 0;
	for (size_t i = 0; i < N_FORWARDED; i++)
		sigaction(forwarded[i], &old[i], NULL);
	sigaction(SIGPIPE, &old_pipe, NULL);
	sigaction(SIGCHLD, &old_chld, NULL);

	int exec_err = 0;
	if (pid > 0 && o->sandbox && read(status_p[0], &r->sandbox, sizeof r->sandbox) != (ssize_t)sizeof r->sandbox)
		memset(&r->sandbox, 0, sizeof r->sandbox);
	if (pid > 0 && read(status_p[0], &exec_err, sizeof exec_err) == (ssize_t)sizeof exec_err) {
		r->started = false;
		r->exec_errno = exec_err;
	}
	close(status_p[0]);
	if (pid > 0 && reaped && !r->exec_errno) {
		if (WIFEXITED(status)) {
			r->exited = true;
			r->exit_code = WEXITSTATUS(status);
		} else if (WIFSIGNALED(status)) {
			r->signal = WTERMSIG(status);
			r->core_dumped = WCOREDUMP(status);
		}
	}
	ring_out(a, &rings[0], &r->out);
	ring_out(a, &rings[1], &r->err);
	free(rings[0].buf), free(rings[1].buf);
	if (pid < 0) {
		errno = fork_errno;
		return -1;
	}
	return 0;
}
