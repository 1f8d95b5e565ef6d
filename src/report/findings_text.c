/* Findings as text: the same layout for every command. */
#include "report/report.h"

static const char *sev_color(const struct cudx_ctx *ctx, enum severity s)
{
	return s == SEV_ERROR ? style_red(ctx) : s == SEV_WARNING ? style_yellow(ctx) : style_dim(ctx);
}

/* Indent continuation lines of a multi-line string. */
static void print_wrapped(FILE *out, const char *indent, const char *text)
{
	fputs(indent, out);
	for (const char *p = text; *p; p++) {
		fputc(*p, out);
		if (*p == '\n' && p[1])
			fputs(indent, out);
	}
	fputc('\n', out);
}

void report_findings_text(FILE *out, const struct cudx_ctx *ctx, const struct findings *fs)
{
	for (size_t i = 0; i < fs->n; i++) {
		const struct finding *f = &fs->v[i];
		fprintf(out, "%s%-7s%s %s%s%s: %s\n", sev_color(ctx, f->severity), severity_name(f->severity),
			style_reset(ctx), style_bold(ctx), f->id, style_reset(ctx), f->summary);
		if (f->cause)
			print_wrapped(out, "    ", f->cause);
		if (f->n_evidence) {
			fprintf(out, "    %sevidence:%s\n", style_dim(ctx), style_reset(ctx));
			for (size_t k = 0; k < f->n_evidence; k++)
				fprintf(out, "      - %s\n", f->evidence[k]);
		}
		if (f->n_fix) {
			fprintf(out, "    %sfix:%s\n", style_green(ctx), style_reset(ctx));
			for (size_t k = 0; k < f->n_fix; k++)
				fprintf(out, "      * %s\n", f->fix[k]);
		}
		for (size_t k = 0; k < f->n_refs; k++)
			fprintf(out, "    %ssee: %s%s\n", style_dim(ctx), f->refs[k], style_reset(ctx));
		fputc('\n', out);
	}
}
