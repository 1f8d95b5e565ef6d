/* `cudx kb TOPIC ...`: query the knowledge base. The answer is computed as data (src/kb/kb_query.c)
 * and shown here as text, or dumped as JSON with --json. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/command.h"
#include "kb/kb_query.h"
#include "report/report.h"
#include "sys/context.h"
#include "util/arena.h"

static const char kb_usage[] =
	"kb driver CUDA|DRIVER | gpu NAME|SM | arch CUDA|SM | lib NAME|FILE [--cuda N] [--os OS] | cudnn VER | "
	"framework NAME [VER] | error CODE|NAME [--api API] | findings [ID] | tables";

static const char *s_(json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));
	return s ? s : NULL;
}

static const char *or_dash(const char *s)
{
	return s ? s : "-";
}

/* "to 0.5.x", "and later", "" */
static void range_tail(FILE *out, const char *last)
{
	if (!last)
		return;
	if (strcmp(last, "open") == 0)
		fputs(" and later", out);
	else
		fprintf(out, " to %s", last);
}

static void mark(FILE *out, const struct cudx_ctx *ctx, json_t *row)
{
	if (json_is_true(json_object_get(row, "unconfirmed")))
		fprintf(out, " %s[UNCONFIRMED]%s", style_yellow(ctx), style_reset(ctx));
	const char *src = s_(row, "source");
	if (src)
		fprintf(out, " %s[%s]%s", style_dim(ctx), src, style_reset(ctx));
}

static void list_line(FILE *out, const char *label, json_t *arr)
{
	fprintf(out, "  %-22s", label);
	size_t i;
	json_t *v;
	if (json_array_size(arr) == 0)
		fputs(" -", out);
	json_array_foreach(arr, i, v) fprintf(out, "%s%s", i ? ", " : " ", json_string_value(v));
	fputc('\n', out);
}

static void text_driver(FILE *out, const struct cudx_ctx *ctx, json_t *r)
{
	if (strcmp(or_dash(s_(r, "kind")), "driver") == 0) {
		fprintf(out, "%sdriver %s%s (%s)\n", style_bold(ctx), s_(r, "query"), style_reset(ctx), s_(r, "os"));
		fprintf(out, "  newest CUDA it supports natively: %s\n", or_dash(s_(r, "max_cuda")));
		size_t i;
		json_t *m;
		json_array_foreach(json_object_get(r, "minor_compat"), i, m)
		{
			fprintf(out, "  runs CUDA %lld.x applications (minor-version compatibility from %s)",
				json_integer_value(json_object_get(m, "cuda_major")), s_(m, "floor"));
			mark(out, ctx, m);
			fputc('\n', out);
		}
		return;
	}
	json_t *rel = json_object_get(r, "release");
	fprintf(out, "%sCUDA %s%s (%s)\n", style_bold(ctx), s_(rel, "cuda"), style_reset(ctx), s_(rel, "label"));
	fprintf(out, "  minimum driver Linux:   %s\n", s_(rel, "linux_driver") ? s_(rel, "linux_driver") : "not listed");
	fprintf(out, "  minimum driver Windows: %s\n",
		s_(rel, "windows_driver") ? s_(rel, "windows_driver") : "not listed (N/A from 13.x)");
	fprintf(out, "  driver branch:          R%lld", json_integer_value(json_object_get(rel, "branch")));
	mark(out, ctx, rel);
	fputc('\n', out);
	json_t *mc = json_object_get(r, "minor_compat");
	json_t *l = json_object_get(mc, "linux"), *w = json_object_get(mc, "windows");
	if (l || w) {
		fprintf(out, "  minor-version compatibility (any %lld.x app): Linux >= %s, Windows >= %s",
			json_integer_value(json_object_get(r, "cuda_major")), l ? s_(l, "floor") : "-",
			w ? s_(w, "floor") : "-");
		mark(out, ctx, l ? l : w);
		fputc('\n', out);
	} else {
		fprintf(out, "  minor-version compatibility: none (each minor needs its own driver)\n");
	}
	size_t i;
	json_t *u;
	json_array_foreach(json_object_get(r, "same_series"), i, u)
	{
		fprintf(out, "  %-23s Linux %s, Windows %s", s_(u, "label"), or_dash(s_(u, "linux_driver")),
			or_dash(s_(u, "windows_driver")));
		mark(out, ctx, u);
		fputc('\n', out);
	}
	fprintf(out, "  drivers report it as:  %lld (1000*major + 10*minor)\n",
		json_integer_value(json_object_get(r, "reported_as")));
}

static void text_arch_row(FILE *out, const struct cudx_ctx *ctx, json_t *a)
{
	fprintf(out, "  nvcc: %s from CUDA %s", s_(a, "sm"), s_(a, "added"));
	if (s_(a, "deprecated"))
		fprintf(out, ", deprecated in %s", s_(a, "deprecated"));
	if (s_(a, "removed"))
		fprintf(out, ", removed in %s", s_(a, "removed"));
	mark(out, ctx, a);
	fputc('\n', out);
	if (s_(a, "note"))
		fprintf(out, "        %s\n", s_(a, "note"));
}

static void text_gpu(FILE *out, const struct cudx_ctx *ctx, json_t *r)
{
	json_t *g = json_object_get(r, "gpu");
	fprintf(out, "%s%s%s: compute capability %s (%s), %s", style_bold(ctx), s_(g, "name"), style_reset(ctx),
		s_(g, "compute_capability"), s_(g, "sm"), s_(g, "family"));
	if (strcmp(s_(g, "segment"), "arch") != 0)
		fprintf(out, ", %s", s_(g, "segment"));
	mark(out, ctx, g);
	fputc('\n', out);
	json_t *a = json_object_get(r, "nvcc");
	if (json_is_object(a))
		text_arch_row(out, ctx, a);
	json_t *fc = json_object_get(r, "forward_compat");
	if (fc)
		fprintf(out, "  forward compatibility (cuda-compat): %s\n",
			json_is_true(fc) ? "supported" : "not supported (data-center GPUs and Jetson only)");
	list_line(out, "same compute capability:", json_object_get(r, "same_cc"));
}

static void text_arch(FILE *out, const struct cudx_ctx *ctx, json_t *r)
{
	if (strcmp(or_dash(s_(r, "kind")), "sm") == 0) {
		text_arch_row(out, ctx, json_object_get(r, "arch"));
		return;
	}
	fprintf(out, "%sCUDA %s: nvcc real targets%s\n", style_bold(ctx), s_(r, "cuda"), style_reset(ctx));
	list_line(out, "targets:", json_object_get(r, "targets"));
	list_line(out, "deprecated:", json_object_get(r, "deprecated"));
	list_line(out, "new in this release:", json_object_get(r, "added"));
	list_line(out, "removed in this release:", json_object_get(r, "removed"));
}

static void text_lib(FILE *out, const struct cudx_ctx *ctx, json_t *r)
{
	size_t i;
	json_t *l;
	json_array_foreach(json_object_get(r, "libraries"), i, l)
	{
		json_t *cm = json_object_get(l, "cuda_major");
		fprintf(out, "%s%s%s  %s, %s (%s %lld", style_bold(ctx), s_(l, "name"), style_reset(ctx), s_(l, "os"),
			s_(l, "component"), s_(l, "family"), json_integer_value(json_object_get(l, "major")));
		if (json_is_integer(cm))
			fprintf(out, ", CUDA %lld%s%s", json_integer_value(cm), s_(l, "cuda_versions") ? ": " : "",
				s_(l, "cuda_versions") ? s_(l, "cuda_versions") : "");
		fputc(')', out);
		mark(out, ctx, l);
		fputc('\n', out);
		if (s_(l, "pip_wheel") || s_(l, "pip_dir"))
			fprintf(out, "  pip: %s in site-packages/%s\n", or_dash(s_(l, "pip_wheel")), or_dash(s_(l, "pip_dir")));
		if (json_array_size(json_object_get(l, "dlopens")))
			list_line(out, "loads at run time:", json_object_get(l, "dlopens"));
		if (s_(l, "note"))
			fprintf(out, "  %s\n", s_(l, "note"));
	}
}

static void text_cudnn(FILE *out, const struct cudx_ctx *ctx, json_t *r)
{
	json_t *c = json_object_get(r, "release");
	if (s_(r, "decoded"))
		fprintf(out, "%s decodes as cuDNN %s\n", s_(r, "query"), s_(r, "decoded"));
	if (!json_is_true(json_object_get(r, "exact")))
		fprintf(out, "cuDNN %s is not in the tables; nearest documented release below it:\n",
			s_(r, "decoded") ? s_(r, "decoded") : s_(r, "query"));
	fprintf(out, "%scuDNN %s%s%s%s", style_bold(ctx), s_(c, "version"), s_(c, "last") ? " to " : "",
		s_(c, "last") ? s_(c, "last") : "", style_reset(ctx));
	mark(out, ctx, c);
	fputc('\n', out);
	fprintf(out, "  CUDA toolkits:          %s\n", s_(c, "cuda_versions"));
	if (s_(c, "linux_driver"))
		fprintf(out, "  driver Linux:           %s\n", s_(c, "linux_driver"));
	if (s_(c, "windows_driver"))
		fprintf(out, "  driver Windows:         %s\n", s_(c, "windows_driver"));
	if (s_(c, "cc"))
		fprintf(out, "  compute capabilities:   %s\n", s_(c, "cc"));
	if (s_(c, "windows_extra"))
		fprintf(out, "  Windows also needs:     %s\n", s_(c, "windows_extra"));
	if (s_(c, "note"))
		fprintf(out, "  note:                   %s\n", s_(c, "note"));
	fprintf(out, "  CUDNN_VERSION:          %lld\n", json_integer_value(json_object_get(r, "encoded")));
	json_t *libs = json_object_get(r, "libraries");
	list_line(out, "Linux libraries:", json_object_get(libs, "linux"));
	list_line(out, "Windows DLLs:", json_object_get(libs, "windows"));
}

static void text_framework(FILE *out, const struct cudx_ctx *ctx, json_t *r)
{
	const char *fw = s_(r, "framework");
	size_t i;
	json_t *x;
	json_array_foreach(json_object_get(r, "rows"), i, x)
	{
		if (strcmp(fw, "torch") == 0) {
			fprintf(out, "%storch %s %s%s  CUDA %s, cuDNN %s%s%s", style_bold(ctx), s_(x, "torch"), s_(x, "variant"),
				style_reset(ctx), s_(x, "cuda"), or_dash(s_(x, "cudnn")),
				json_is_true(json_object_get(x, "experimental")) ? ", experimental" : "",
				json_is_true(json_object_get(x, "pypi_default")) ? ", the PyPI default" : "");
			mark(out, ctx, x);
			fputc('\n', out);
			if (s_(x, "archs"))
				fprintf(out, "  compute capabilities: %s\n", s_(x, "archs"));
		} else if (strcmp(fw, "tensorflow") == 0) {
			fprintf(out, "%s%s %s%s%s%s (%s)  CUDA %s, cuDNN %s; Python %s, %s, %s", style_bold(ctx), s_(x, "package"),
				s_(x, "version"), s_(x, "last") ? " to " : "", s_(x, "last") ? s_(x, "last") : "",
				style_reset(ctx), s_(x, "os"), s_(x, "cuda"), s_(x, "cudnn"), s_(x, "python"),
				s_(x, "compiler"), s_(x, "build_tool"));
			mark(out, ctx, x);
			fputc('\n', out);
		} else {
			fprintf(out, "%s%s %s", style_bold(ctx), s_(x, "package"), s_(x, "version"));
			range_tail(out, s_(x, "last"));
			fprintf(out, "%s  CUDA %s", style_reset(ctx), s_(x, "cuda"));
			if (s_(x, "cudnn"))
				fprintf(out, ", cuDNN %s", s_(x, "cudnn"));
			if (s_(x, "built_with"))
				fprintf(out, ", built with CUDA %s", s_(x, "built_with"));
			if (s_(x, "driver_min"))
				fprintf(out, ", driver >= %s", s_(x, "driver_min"));
			if (s_(x, "sm_min"))
				fprintf(out, ", compute capability >= %s", s_(x, "sm_min"));
			mark(out, ctx, x);
			fputc('\n', out);
		}
		if (s_(x, "note"))
			fprintf(out, "  %s\n", s_(x, "note"));
	}
	if (strcmp(fw, "tensorflow") == 0)
		fprintf(out, "TensorFlow %s is the last release with native Windows GPU support.\n",
			or_dash(s_(r, "last_windows_gpu")));
}

static void text_error(FILE *out, const struct cudx_ctx *ctx, json_t *r)
{
	size_t i;
	json_t *e;
	json_array_foreach(json_object_get(r, "errors"), i, e)
	{
		fprintf(out, "%s%s %lld: %s%s", style_bold(ctx), s_(e, "api"), json_integer_value(json_object_get(e, "code")),
			s_(e, "name"), style_reset(ctx));
		mark(out, ctx, e);
		fputc('\n', out);
		fprintf(out, "  %s: %s%s%s\n", json_is_true(json_object_get(e, "verbatim")) ? "message" : "meaning",
			json_is_true(json_object_get(e, "verbatim")) ? "\"" : "", s_(e, "text"),
			json_is_true(json_object_get(e, "verbatim")) ? "\"" : "");
		if (s_(e, "finding"))
			fprintf(out, "  finding: %s\n", s_(e, "finding"));
		if (s_(e, "note"))
			fprintf(out, "  %s\n", s_(e, "note"));
	}
}

static void text_tables(FILE *out, json_t *r)
{
	size_t i;
	json_t *t;
	json_array_foreach(json_object_get(r, "tables"), i, t)
		fprintf(out, "%-26s %4lld rows\n", s_(t, "file"), json_integer_value(json_object_get(t, "rows")));
}

static void text_sources(FILE *out, const struct cudx_ctx *ctx, json_t *r)
{
	json_t *s = json_object_get(r, "sources");
	if (!json_object_size(s))
		return;
	fprintf(out, "%ssources:%s\n", style_dim(ctx), style_reset(ctx));
	const char *k;
	json_t *v;
	json_object_foreach(s, k, v)
	{
		fprintf(out, "  %-4s %s", k, s_(v, "title"));
		if (s_(v, "url"))
			fprintf(out, " <%s>", s_(v, "url"));
		fputc('\n', out);
	}
}

/* `cudx kb findings`: every finding id with its severity and what it means. */
static void text_findings(FILE *out, const struct cudx_ctx *ctx, json_t *r)
{
	size_t i;
	json_t *f;
	bool one = json_array_size(json_object_get(r, "findings")) == 1;
	json_array_foreach(json_object_get(r, "findings"), i, f)
	{
		fprintf(out, "%s%-28s%s %-7s %s(%s)%s", style_bold(ctx), s_(f, "id"), style_reset(ctx), s_(f, "severity"),
			style_dim(ctx), s_(f, "family"), style_reset(ctx));
		if (s_(f, "mild_when"))
			fprintf(out, "; %s when %s", s_(f, "mild_severity"), s_(f, "mild_when"));
		fputc('\n', out);
		if (!one)
			continue;
		if (s_(f, "cause"))
			fprintf(out, "  %s\n", s_(f, "cause"));
		size_t k;
		json_t *x;
		json_array_foreach(json_object_get(f, "fix"), k, x) fprintf(out, "  fix: %s\n", json_string_value(x));
		if (s_(f, "ref"))
			fprintf(out, "  see: %s\n", s_(f, "ref"));
	}
}

static void render_text(FILE *out, const struct cudx_ctx *ctx, const char *topic, json_t *r)
{
	if (!json_is_true(json_object_get(r, "found"))) {
		fprintf(out, "%s\n", or_dash(s_(r, "message")));
		return;
	}
	if (strcmp(topic, "driver") == 0 || strcmp(topic, "cuda") == 0)
		text_driver(out, ctx, r);
	else if (strcmp(topic, "gpu") == 0)
		text_gpu(out, ctx, r);
	else if (strcmp(topic, "arch") == 0)
		text_arch(out, ctx, r);
	else if (strcmp(topic, "lib") == 0)
		text_lib(out, ctx, r);
	else if (strcmp(topic, "cudnn") == 0)
		text_cudnn(out, ctx, r);
	else if (strcmp(topic, "framework") == 0)
		text_framework(out, ctx, r);
	else if (strcmp(topic, "error") == 0)
		text_error(out, ctx, r);
	else if (strcmp(topic, "findings") == 0) {
		text_findings(out, ctx, r);
		return;
	}
	else if (strcmp(topic, "tables") == 0 || strcmp(topic, "sources") == 0) {
		text_tables(out, r);
		text_sources(out, ctx, r);
		return;
	}
	text_sources(out, ctx, r);
}

/* "--name VALUE" or "--name=VALUE" */
static const char *opt_value(int argc, char **argv, int *i, const char *name)
{
	size_t n = strlen(name);
	if (strncmp(argv[*i], name, n) == 0 && argv[*i][n] == '=')
		return argv[*i] + n + 1;
	if (strcmp(argv[*i], name) == 0 && *i + 1 < argc)
		return argv[++*i];
	return NULL;
}

static int kb_run(struct cudx_ctx *ctx, int argc, char **argv)
{
	struct kb_query q = { .os = ctx->opt->os };
	const char *pos[3] = { 0 };
	int npos = 0;
	/* `cudx kb gpu RTX 3090` without quotes: the words after the topic make one name */
	bool join = argc >= 1 && strcmp(argv[0], "gpu") == 0;
	char *joined = NULL;
	for (int i = 0; i < argc; i++) {
		const char *v;
		if (strncmp(argv[i], "--cuda", 6) == 0) {
			if (!(v = opt_value(argc, argv, &i, "--cuda")))
				return command_usage(&cmd_kb, "--cuda needs a CUDA major (11, 12, 13)");
			char *end;
			long m = strtol(v, &end, 10);
			if (m <= 0 || m > 99 || (*end && *end != '.'))
				return command_usage(&cmd_kb, "--cuda needs a CUDA major (11, 12, 13)");
			q.cuda_major = (int)m;
		} else if (strncmp(argv[i], "--os", 4) == 0) {
			if (!(v = opt_value(argc, argv, &i, "--os")))
				return command_usage(&cmd_kb, "--os needs linux or windows");
			if (strcmp(v, "linux") == 0)
				q.os = OS_LINUX;
			else if (strcmp(v, "windows") == 0)
				q.os = OS_WINDOWS;
			else
				return command_usage(&cmd_kb, "--os needs linux or windows");
		} else if (strncmp(argv[i], "--api", 5) == 0) {
			if (!(v = opt_value(argc, argv, &i, "--api")))
				return command_usage(&cmd_kb, "--api needs cudart, cu, cudnn8, cudnn9, cublas or nvml");
			q.api = v;
		} else if (argv[i][0] == '-' && argv[i][1] == '-') {
			fprintf(stderr, "cudx kb: unknown option '%s'\n", argv[i]);
			return command_usage(&cmd_kb, NULL);
		} else if (join && npos == 2) {
			joined = arena_printf(ctx->arena, "%s %s", pos[1], argv[i]);
			pos[1] = joined;
		} else if (npos < 3) {
			pos[npos++] = argv[i];
		} else {
			return command_usage(&cmd_kb, "too many arguments");
		}
	}
	if (npos == 0)
		return command_usage(&cmd_kb, "which topic? (driver, gpu, arch, lib, cudnn, framework, error, findings, tables)");
	q.topic = pos[0];
	q.arg = pos[1];
	q.arg2 = pos[2];
	json_t *r = NULL;
	const char *problem = NULL;
	enum kb_query_status st;
	if (strcmp(q.topic, "findings") == 0) { /* the rule registry: knowledge of cudx's own */
		r = report_rules_json(q.arg);
		st = json_is_true(json_object_get(r, "found")) ? KBQ_FOUND : KBQ_NOT_FOUND;
	} else
		st = kb_query_run(&q, &r, &problem);
	if (st == KBQ_USAGE) {
		if (problem && strcmp(problem, "unknown topic") == 0)
			fprintf(stderr, "cudx kb: unknown topic '%s' (topics: %s, findings)\n", q.topic, kb_query_topics);
		else
			fprintf(stderr, "cudx kb %s: %s\n", q.topic, problem ? problem : "bad arguments");
		fprintf(stderr, "usage: cudx %s\n", kb_usage);
		json_decref(r);
		return 2;
	}
	if (ctx->opt->format == OUT_JSON) {
		json_t *root = report_envelope_json(ctx, NULL, "kb", NULL);
		json_object_set_new(root, "kb", json_incref(r));
		report_json_dump(ctx->out ? ctx->out : stdout, root);
		json_decref(root);
	} else {
		render_text(ctx->out ? ctx->out : stdout, ctx, q.topic, r);
	}
	json_decref(r);
	return st == KBQ_FOUND ? 0 : 1;
}

const struct command cmd_kb = {
	.name = "kb",
	.usage = "kb TOPIC [ARGS]",
	.summary = "query the knowledge base (driver, gpu, arch, lib, cudnn, framework, error, findings)",
	.run = kb_run,
};
