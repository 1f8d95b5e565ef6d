/* cudx run [--timeout S] -- CMD ARGS...: run a failing program with cudx's LD_AUDIT library, pass
 * its output through (and keep the end of it), then judge what the real loader loaded, searched
 * for and never found, with the rules of check; read its output like explain; say where cudx's
 * loader simulator would have predicted otherwise. docs/run.md. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "audit/audit_proto.h"
#include "cli/command.h"
#include "cli/run.h"
#include "fmt/elf.h"

extern char **environ;

/* Where the audit library is: $CUDX_AUDIT_LIB (tests), else beside the binary (the build tree)
 * or in the installed layout's lib directory. */
static const char *find_audit_lib(struct cudx_ctx *ctx)
{
	const char *env = getenv(AUDIT_ENV_LIB);
	if (env && *env)
		return access(env, R_OK) == 0 ? env : NULL;
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	if (n <= 0)
		return NULL;
	exe[n] = '\0';
	const char *dir = path_dirname(ctx->arena, exe);
	const char *const rel[] = { AUDIT_LIB_NAME, "../lib/cudx/" AUDIT_LIB_NAME, "../libexec/cudx/" AUDIT_LIB_NAME };
	for (size_t i = 0; i < sizeof rel / sizeof rel[0]; i++) {
		const char *p = path_normalize(ctx->arena, path_join(ctx->arena, dir, rel[i]));
		if (access(p, R_OK) == 0)
			return p;
	}
	return NULL;
}

/* The file execvp would run for name (PATH from cudx's environment, which the command inherits). */
static const char *which(struct cudx_ctx *ctx, const char *name)
{
	if (strchr(name, '/'))
		return name;
	const char *path = getenv("PATH");
	const char **dirs;
	size_t n = env_split_path(ctx->arena, path ? path : "/usr/local/bin:/usr/bin:/bin", ':', &dirs);
	for (size_t i = 0; i < n; i++) {
		const char *p = path_join(ctx->arena, *dirs[i] ? dirs[i] : ".", name);
		if (access(p, X_OK) == 0)
			return p;
	}
	return NULL;
}

/* Why the loader will not load the audit library into this program, when it can be told before
 * running it: no dynamic loader at all, or secure-execution mode. NULL when nothing is known. */
static const char *audit_blocker(struct cudx_ctx *ctx, const char *file)
{
	struct stat st;
	if (!file || stat(file, &st) != 0 || !S_ISREG(st.st_mode))
		return NULL;
	if ((st.st_mode & S_ISUID) && st.st_uid != geteuid())
		return arena_printf(ctx->arena, "%s is set-user-ID (owner uid %u): the loader runs it in secure mode",
				    file, st.st_uid);
	if ((st.st_mode & S_ISGID) && st.st_gid != getegid())
		return arena_printf(ctx->arena, "%s is set-group-ID (group gid %u): the loader runs it in secure mode",
				    file, st.st_gid);
	if (getxattr(file, "security.capability", NULL, 0) > 0)
		return arena_printf(ctx->arena, "%s has file capabilities: the loader runs it in secure mode", file);
	struct mapped_file m;
	if (sysroot_map(&ctx->root, file, &m) != 0)
		return NULL;
	struct elf_info e;
	const char *err = NULL;
	const char *why = NULL;
	if (m.data.n >= 4 && memcmp(m.data.p, "\177ELF", 4) == 0 && elf_parse(m.data, ctx->arena, &e, &err)) {
		if (!e.interp)
			why = arena_printf(ctx->arena,
					   "%s is statically linked (no program interpreter, no dynamic loader)", file);
		else if (e.elf_class != (int)sizeof(void *) * 8)
			why = arena_printf(ctx->arena,
					   "%s is a %d-bit program: the loader cannot load the %d-bit audit library",
					   file, e.elf_class, (int)sizeof(void *) * 8);
	}
	sysroot_unmap(&m);
	return why;
}

/* cudx's environment with LD_AUDIT (after any the user set) and the record's path added. */
static char **child_env(struct cudx_ctx *ctx, const char *lib, const char *record)
{
	size_t n = 0;
	while (environ[n])
		n++;
	char **env = arena_calloc(ctx->arena, n + 3, sizeof *env);
	const char *old_audit = NULL;
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		if (strncmp(environ[i], "LD_AUDIT=", 9) == 0)
			old_audit = environ[i] + 9;
		else if (strncmp(environ[i], AUDIT_ENV_OUT "=", sizeof AUDIT_ENV_OUT) != 0)
			env[k++] = environ[i];
	}
	env[k++] = old_audit && *old_audit ? arena_printf(ctx->arena, "LD_AUDIT=%s:%s", old_audit, lib)
					   : arena_printf(ctx->arena, "LD_AUDIT=%s", lib);
	env[k++] = arena_printf(ctx->arena, "%s=%s", AUDIT_ENV_OUT, record);
	return env;
}

/* Read the record (bounded: the writer stops at AUDIT_RECORD_MAX) and rebuild the processes. */
static void read_record(struct cudx_ctx *ctx, const char *path, struct run_observation *ro)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) != 0) {
		ro->record_problem = arena_printf(ctx->arena, "cannot read %s: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return;
	}
	size_t len = (size_t)st.st_size;
	if (len > AUDIT_RECORD_MAX + AUDITREC_MAX_LINE) /* a line may end past the writer's limit */
		len = AUDIT_RECORD_MAX + AUDITREC_MAX_LINE;
	ro->record_bytes = len;
	void *p = len ? mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, 0) : NULL;
	close(fd);
	if (len && p == MAP_FAILED) {
		ro->record_problem = arena_printf(ctx->arena, "cannot map %s: %s", path, strerror(errno));
		return;
	}
	auditrec_parse(ctx->arena, span_make(p, len), &ro->rec);
	if (len)
		munmap(p, len);
	observed_build(ctx->arena, &ro->rec, &ro->procs);
}

static int run_run(struct cudx_ctx *ctx, int argc, char **argv)
{
	double timeout = 0;
	bool sandbox = false;
	int first = 0;
	for (; first < argc && argv[first][0] == '-'; first++) {
		const char *v = NULL;
		if (strcmp(argv[first], "--sandbox") == 0) {
			sandbox = true;
			continue;
		}
		if (strcmp(argv[first], "--timeout") == 0 && first + 1 < argc)
			v = argv[++first];
		else if (strncmp(argv[first], "--timeout=", 10) == 0)
			v = argv[first] + 10;
		else
			return command_usage(&cmd_run, arena_printf(ctx->arena,
								    "unknown option '%s' (put the command "
								    "after --)",
								    argv[first]));
		char *end;
		timeout = strtod(v, &end);
		if (*end || !(timeout > 0 && timeout <= 7 * 24 * 3600))
			return command_usage(&cmd_run, "--timeout wants seconds (0 < S <= 604800)");
	}
	if (first == argc)
		return command_usage(&cmd_run, "the command to run is missing");
	if (ctx->opt->root || ctx->opt->env_file || ctx->opt->pid)
		return command_usage(&cmd_run, "runs a program on this machine: --root, --env and --pid do not apply");
	if (ctx->opt->format == OUT_PROM)
		return command_usage(&cmd_run, "--prom is for check");

	struct run_report rep = { .argv = argv + first, .argc = argc - first, .timeout = timeout, .sandbox = sandbox };
	rep.audit_lib = find_audit_lib(ctx);
	if (!rep.audit_lib || strchr(rep.audit_lib, ':') || rep.audit_lib[0] != '/') {
		fprintf(stderr, "cudx run: the audit library %s was not found beside the cudx binary (or set %s)\n",
			AUDIT_LIB_NAME, AUDIT_ENV_LIB);
		return 2;
	}
	char dir[] = "/tmp/cudx-run.XXXXXX";
	const char *tmp = getenv("TMPDIR");
	char *tdir = tmp && *tmp ? arena_printf(ctx->arena, "%s/cudx-run.XXXXXX", tmp) : dir;
	if (!mkdtemp(tdir)) {
		fprintf(stderr, "cudx run: cannot create a directory for the audit record: %s\n", strerror(errno));
		return 2;
	}
	const char *record = path_join(ctx->arena, tdir, "audit");
	int fd = open(record, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd >= 0)
		close(fd);

	struct run_observation *ro = arena_calloc(ctx->arena, 1, sizeof *ro);
	rep.ro = ro;
	ro->command = which(ctx, rep.argv[0]);
	const char *blocker = audit_blocker(ctx, ro->command);
	struct runproc_opts po = {
		.argv = rep.argv,
		.envp = child_env(ctx, rep.audit_lib, record),
		.timeout = timeout,
		/* with --json, stdout carries cudx's JSON: the command's output goes to stderr */
		.out_fd = ctx->opt->format == OUT_JSON ? STDERR_FILENO : STDOUT_FILENO,
		.err_fd = STDERR_FILENO,
		.sandbox = sandbox,
	};
	fflush(NULL);
	int rc = runproc_run(ctx->arena, &po, &rep.proc);
	read_record(ctx, record, ro);
	unlink(record);
	rmdir(tdir);
	if (rc != 0) {
		fprintf(stderr, "cudx run: cannot start %s: %s\n", rep.argv[0], strerror(errno));
		return 2;
	}
	if (!rep.proc.started) {
		fprintf(stderr, "cudx run: cannot run %s: %s\n", rep.argv[0], strerror(rep.proc.exec_errno));
		return 2;
	}
	ro->pid = rep.proc.pid;
	ro->not_audited = blocker;

	/* the machine as check sees it, then what the program did; the program was the smoke test */
	ctx->opt->no_probe = true;
	rep.inv = arena_calloc(ctx->arena, 1, sizeof *rep.inv);
	inventory_collect(ctx, rep.inv);
	observed_collect(ctx, rep.inv, ro);
	if (!ro->top && !ro->not_audited)
		ro->not_audited =
			ro->record_problem
				? ro->record_problem
				: "the command left no audit record (it may clear LD_AUDIT, or run in secure mode)";
	observed_predict(ctx, ro);
	run_judge(ctx, &rep);
	if (ctx->opt->format == OUT_JSON)
		run_render_json(ctx->out, ctx, &rep);
	else
		run_render_text(ctx->out, ctx, &rep);
	return findings_exit_status(&rep.findings);
}

const struct command cmd_run = {
	.name = "run",
	.usage = "run [--timeout S] [--sandbox] -- CMD ARGS...",
	.summary = "run a failing program, watch what the loader really loads, and diagnose it",
	.run = run_run,
};
