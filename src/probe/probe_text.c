/* The probe report as text: one block per child (stage and target), its steps with outcome,
 * return code (named by the knowledge base, else by the library), the file that was loaded, and
 * the time. The renderer of `cudx probe`, and the probe section of `cudx check` (report hooks). */
#include <stdio.h>
#include <string.h>

#include "kb/kb.h"
#include "probe/probe.h"
#include "report/report.h"
#include "sys/context.h"

static const char *outcome_color(const struct cudx_ctx *ctx, enum probe_outcome o)
{
	switch (o) {
	case PROBE_OK:
		return style_green(ctx);
	case PROBE_SKIPPED:
	case PROBE_MISSING:
		return style_dim(ctx);
	default:
		return style_red(ctx);
	}
}

static void print_step(FILE *out, const struct cudx_ctx *ctx, const struct probe_step *s, const char **lib)
{
	const char *detail = NULL;
	struct arena *a = ctx->arena;
	if (s->has_code && s->code != 0) {
		const struct kb_error *e = s->api ? kb_error_lookup(s->api, s->code) : NULL;
		const char *name = e && e->name ? e->name : s->lib_code_name;
		const char *text = e && e->text && *e->text ? e->text : s->lib_code_text;
		detail = arena_printf(a, "%ld %s%s%s%s", s->code, name ? name : "", text ? " (" : "", text ? text : "",
				      text ? ")" : "");
	} else if (s->value && !(s->library && strcmp(s->value, s->library) == 0)) {
		detail = s->value;
	}
	fprintf(out, "    %s%-11s%s %s", outcome_color(ctx, s->outcome), probe_outcome_name(s->outcome),
		style_reset(ctx), s->name);
	if (detail) /* values line up in a column; no trailing blanks when there is none */
		fprintf(out, "%*s %s", (int)(strlen(s->name) < 34 ? 34 - strlen(s->name) : 0), "", detail);
	if (ctx->opt->verbose)
		fprintf(out, " %s[%.1f ms]%s", style_dim(ctx), s->ms, style_reset(ctx));
	fputc('\n', out);
	if (s->library && (!*lib || strcmp(*lib, s->library) != 0)) {
		fprintf(out, "    %s%-11s %s%s\n", style_dim(ctx), "", s->library, style_reset(ctx));
		*lib = s->library;
	}
}

/* A child whose only step was a load that found nothing: a library version not installed. */
static bool not_installed(const struct probe_report *rep, const struct probe_run *run)
{
	size_t n = 0;
	bool missing = false;
	for (size_t i = 0; i < rep->n_steps; i++)
		if (rep->steps[i].stage == run->stage && rep->steps[i].target == run->target) {
			n++;
			missing = rep->steps[i].outcome == PROBE_MISSING && strncmp(rep->steps[i].name, "load ", 5) == 0 &&
				  probe_load_not_found(rep->steps[i].name, rep->steps[i].value);
		}
	return run->end == PROBE_RUN_DONE && n == 1 && missing;
}

/* One line for all children: a warning when vendor code ran with less confinement than planned,
 * else (with -v) what held it. */
static void sandbox_line(FILE *out, const struct cudx_ctx *ctx, const struct probe_sandbox *sb)
{
	if (!sb->reported)
		return;
	if (probe_sandbox_complete(sb)) {
		if (ctx->opt->verbose)
			fprintf(out, "  %ssandbox: no new privileges, no capability that changes the host%s%s\n",
				style_dim(ctx), sb->dev_needed ? ", /dev read-only" : "", style_reset(ctx));
		return;
	}
	const char *gaps[3];
	size_t n = 0;
	if (!sb->no_new_privs)
		gaps[n++] = "setuid helpers could gain privileges";
	if (!sb->caps_dropped)
		gaps[n++] = "capabilities that change the host kept";
	if (sb->dev_needed && !sb->dev_readonly)
		gaps[n++] = "/dev writable";
	fprintf(out, "  %swarning: partial sandbox for vendor code:", style_yellow(ctx));
	for (size_t i = 0; i < n; i++)
		fprintf(out, "%s %s", i ? "," : "", gaps[i]);
	for (size_t i = 0; i < sb->n_failed; i++)
		fprintf(out, "%s%s", i ? "; " : " (", sb->failed[i]);
	fprintf(out, "%s%s\n", sb->n_failed ? ")" : "", style_reset(ctx));
}

void probe_report_text(FILE *out, const struct cudx_ctx *ctx, const struct probe_report *rep)
{
	fprintf(out, "%sLive probe%s", style_bold(ctx), style_reset(ctx));
	if (!rep->ran) {
		fprintf(out, ": not run (%s)\n\n", rep->not_run ? rep->not_run : "not requested");
		return;
	}
	fprintf(out, " %s(%.0f ms; LD_LIBRARY_PATH=%s)%s\n", style_dim(ctx), rep->ms,
		rep->ld_library_path ? rep->ld_library_path : "", style_reset(ctx));
	sandbox_line(out, ctx, &rep->sandbox);
	size_t absent = 0;
	for (size_t r = 0; r < rep->n_runs; r++) {
		const struct probe_run *run = &rep->runs[r];
		bool locate = strcmp(run->stage, "locate") == 0;
		if (!ctx->opt->verbose && not_installed(rep, run)) {
			absent++;
			continue;
		}
		fprintf(out, "  %s%s%s %s", style_bold(ctx), run->stage, style_reset(ctx), run->target);
		if (run->end != PROBE_RUN_DONE)
			fprintf(out, "  %s%s%s", style_red(ctx), probe_run_end_name(run->end), style_reset(ctx));
		if (run->problem)
			fprintf(out, " (%s)", run->problem);
		if (ctx->opt->verbose)
			fprintf(out, " %s[%.0f ms]%s", style_dim(ctx), run->ms, style_reset(ctx));
		fputc('\n', out);
		const char *lib = NULL;
		for (size_t i = 0; i < rep->n_steps; i++) {
			const struct probe_step *s = &rep->steps[i];
			if (s->stage != run->stage || s->target != run->target)
				continue;
			/* the search for names that are not installed is noise unless asked for */
			if (locate && s->outcome == PROBE_MISSING && probe_load_not_found(s->name, s->value) && !ctx->opt->verbose)
				continue;
			print_step(out, ctx, s, &lib);
		}
	}
	if (absent)
		fprintf(out, "  %s(%zu more libraries the probe looked for are not installed: -v lists them)%s\n",
			style_dim(ctx), absent, style_reset(ctx));
	fputc('\n', out);
}
