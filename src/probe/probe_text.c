/* The probe report as text: one block per child (stage and target), its steps with outcome,
 * return code (named by the knowledge base, else by the library), the file that was loaded, and
 * the time. The renderer of `cudx probe`, and the probe section of `cudx check` (report hooks). */
#include <stdio.h>
#include <string.h>

#include "kb/kb.h"
#include "probe/probe.h"
#include "report/report.h"

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
	fprintf(out, "    %s%-11s%s %-34s", outcome_color(ctx, s->outcome), probe_outcome_name(s->outcome),
		style_reset(ctx), s->name);
	if (s->has_code && s->code != 0) {
		const struct kb_error *e = s->api ? kb_error_lookup(s->api, s->code) : NULL;
		const char *name = e && e->name ? e->name : s->lib_code_name;
		const char *text = e && e->text && *e->text ? e->text : s->lib_code_text;
		fprintf(out, " %ld %s%s%s%s", s->code, name ? name : "", text ? " (" : "", text ? text : "",
			text ? ")" : "");
	} else if (s->value && !(s->library && strcmp(s->value, s->library) == 0)) {
		fprintf(out, " %s", s->value);
	}
	if (ctx->opt->verbose)
		fprintf(out, " %s[%.1f ms]%s", style_dim(ctx), s->ms, style_reset(ctx));
	fputc('\n', out);
	if (s->library && (!*lib || strcmp(*lib, s->library) != 0)) {
		fprintf(out, "    %s%-11s %s%s\n", style_dim(ctx), "", s->library, style_reset(ctx));
		*lib = s->library;
	}
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
	for (size_t r = 0; r < rep->n_runs; r++) {
		const struct probe_run *run = &rep->runs[r];
		bool locate = strcmp(run->stage, "locate") == 0;
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
			if (locate && s->outcome == PROBE_MISSING && !ctx->opt->verbose)
				continue;
			print_step(out, ctx, s, &lib);
		}
	}
	fputc('\n', out);
}
