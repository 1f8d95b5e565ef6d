/* cudx compare REPORT.json... | DIR: read the `cudx check --json` reports of many nodes, group the
 * nodes by driver, CUDA runtimes, cuDNN, GPUs and finding set, and name those that differ from
 * the majority (src/fleet/). Exit 0 all alike, 1 outliers or unreadable reports, 2 usage error or
 * nothing readable. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/command.h"
#include "diag/rule.h"
#include "fleet/fleet_compare.h"
#include "fleet/fleet_render.h"
#include "sys/context.h"
#include "sys/sysroot.h"

/* One read buffer for every report, grown to the largest (at most FLEET_REPORT_MAX_BYTES + 1). */
struct readbuf {
	char *p;
	size_t cap;
};

/* Read a regular file whole. Returns its size, or -1 with *why set. O_NONBLOCK: a FIFO given by
 * mistake must not hang the comparison (it is refused as not a regular file). */
static long long read_report(const char *path, struct readbuf *b, const char **why)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0) {
		*why = strerror(errno);
		return -1;
	}
	struct stat st;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		*why = "not a regular file";
		close(fd);
		return -1;
	}
	if ((unsigned long long)st.st_size > FLEET_REPORT_MAX_BYTES) {
		*why = "larger than 64 MiB: not a cudx report";
		close(fd);
		return -1;
	}
	/* the size may change while reading: read up to one byte past the limit to notice */
	size_t want = (size_t)st.st_size + 1;
	if (want > b->cap) {
		char *p = realloc(b->p, want);
		if (!p) {
			*why = "out of memory";
			close(fd);
			return -1;
		}
		b->p = p;
		b->cap = want;
	}
	size_t n = 0;
	while (n < b->cap) {
		ssize_t r = read(fd, b->p + n, b->cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			*why = strerror(errno);
			close(fd);
			return -1;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	close(fd);
	return (long long)n;
}

static int cmp_names(const void *a, const void *b)
{
	return strverscmp(*(const char *const *)a, *(const char *const *)b);
}

/* The *.json files of a directory (not hidden ones, not recursively), node2 before node10. */
static size_t list_reports(struct arena *a, const char *dir, const char ***out, const char **why)
{
	DIR *d = opendir(dir);
	const char **v = NULL;
	size_t n = 0, cap = 0;
	*out = NULL;
	if (!d) {
		*why = strerror(errno);
		return 0;
	}
	struct dirent *e;
	while ((e = readdir(d))) {
		size_t len = strlen(e->d_name);
		if (e->d_name[0] == '.' || len <= 5 || strcmp(e->d_name + len - 5, ".json") != 0)
			continue;
		*ARENA_PUSH(a, v, n, cap) = path_join(a, dir, e->d_name);
	}
	closedir(d);
	if (n)
		qsort(v, n, sizeof *v, cmp_names);
	*out = v;
	*why = n ? NULL : "no *.json reports in this directory";
	return n;
}

static void compare_file(struct fleet *f, const char *path, struct readbuf *b, struct fleet_report *r)
{
	const char *why = NULL;
	long long n = read_report(path, b, &why);
	if (n < 0)
		fleet_add_unreadable(f, path, why);
	else if (!fleet_report_read(span_make(b->p, (size_t)n), r))
		fleet_add_unreadable(f, path, r->error);
	else
		fleet_add(f, path, r);
}

/* The findings of the comparison: the fleet family's rules (src/diag/rules_fleet.c) over an
 * inventory of this machine's system facts (for the envelope) that points at the comparison. Only
 * that family runs: the others would judge this machine's empty inventory, which compare never
 * collected. */
static void compare_judge(struct cudx_ctx *ctx, const struct fleet *f, struct inventory *inv, struct findings *fs)
{
	memset(inv, 0, sizeof *inv);
	collect_system(ctx, inv);
	inv->fleet = f;
	findings_init(fs, ctx->arena);
	struct diag_ctx d = { .ctx = ctx, .inv = inv, .out = fs };
	size_t n;
	const struct rule_family *const *fams = diag_families(&n);
	for (size_t i = 0; i < n; i++)
		if (fams[i] == &rules_fleet)
			diag_run_family(&d, fams[i], 1u << i); /* its registry bit, as diag_run gives it */
	diag_finish(&d);
}

static int compare_run(struct cudx_ctx *ctx, int argc, char **argv)
{
	bool opts_done = false;
	int n_args = 0;
	for (int i = 0; i < argc; i++) {
		if (!opts_done && strcmp(argv[i], "--") == 0)
			opts_done = true;
		else if (!opts_done && argv[i][0] == '-' && argv[i][1])
			return command_usage(&cmd_compare, arena_printf(ctx->arena, "unknown option '%s'", argv[i]));
		else
			n_args++;
	}
	if (!n_args)
		return command_usage(&cmd_compare, "no report or directory given");
	if (ctx->opt->format == OUT_PROM)
		return command_usage(&cmd_compare, "--prom is for check: give --json or nothing");

	struct fleet f;
	fleet_init(&f, ctx->arena);
	struct fleet_report *r = arena_alloc(ctx->arena, sizeof *r);
	struct readbuf b = { 0 };
	opts_done = false;
	for (int i = 0; i < argc; i++) {
		if (!opts_done && strcmp(argv[i], "--") == 0) {
			opts_done = true;
			continue;
		}
		struct stat st;
		if (stat(argv[i], &st) == 0 && S_ISDIR(st.st_mode)) {
			const char **files, *why;
			size_t n = list_reports(ctx->arena, argv[i], &files, &why);
			if (!n)
				fleet_add_unreadable(&f, argv[i], why);
			for (size_t k = 0; k < n; k++)
				compare_file(&f, files[k], &b, r);
		} else
			compare_file(&f, argv[i], &b, r);
	}
	free(b.p);
	fleet_finish(&f);

	if (!f.n_nodes) {
		for (size_t i = 0; i < f.n_bad; i++)
			fprintf(stderr, "cudx compare: %s: %s\n", f.bad[i].file, f.bad[i].error);
		fprintf(stderr, "cudx compare: no report could be read\n");
		return 2;
	}
	if (ctx->opt->format == OUT_JSON) {
		struct inventory inv;
		struct findings fs;
		compare_judge(ctx, &f, &inv, &fs);
		fleet_render_json(ctx, &inv, &f, &fs);
	} else
		fleet_render_text(ctx, &f);
	return f.n_outliers || f.n_bad ? 1 : 0;
}

const struct command cmd_compare = {
	.name = "compare",
	.usage = "compare REPORT.json... | DIR",
	.summary = "compare the `check --json` reports of many nodes: groups and the odd ones out",
	.run = compare_run,
};
