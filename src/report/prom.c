/* Prometheus text exposition (node_exporter's textfile collector reads it): one series per
 * finding id and subject and a few facts, so a fleet can alert on "driver-too-old" across hosts. */
#include <stdlib.h>
#include <string.h>

#include "report/report.h"

/* Label values escape backslash, double quote and newline. */
static void label_value(FILE *out, const char *s)
{
	for (; s && *s; s++) {
		if (*s == '\\' || *s == '"')
			fputc('\\', out), fputc(*s, out);
		else if (*s == '\n')
			fputs("\\n", out);
		else
			fputc(*s, out);
	}
}

/* A series is one (id, severity, subject); a NULL subject prints as "" so it equals "". */
static int series_order(const struct finding *a, const struct finding *b)
{
	int c = strcmp(a->id, b->id);
	if (!c)
		c = (int)a->severity - (int)b->severity;
	if (!c)
		c = strcmp(a->subject ? a->subject : "", b->subject ? b->subject : "");
	return c;
}

static int series_cmp(const void *pa, const void *pb)
{
	const struct finding *a = *(const struct finding *const *)pa, *b = *(const struct finding *const *)pb;
	int c = series_order(a, b);
	/* ties by position, so the first finding of a series leads its group */
	return c ? c : (a > b) - (a < b);
}

void report_check_prom(FILE *out, const struct cudx_ctx *ctx, const struct inventory *inv,
		       const struct findings *fs)
{
	/* A textfile collector rejects a file that repeats a series, and two findings can share one
	 * (the same id about the same subject): each series is printed once, in the order of its first
	 * finding, with the number of findings as its value. */
	const struct finding **by = arena_calloc(ctx->arena, fs->n + 1, sizeof *by);
	size_t *count = arena_calloc(ctx->arena, fs->n + 1, sizeof *count);
	for (size_t i = 0; i < fs->n; i++)
		by[i] = &fs->v[i];
	qsort(by, fs->n, sizeof *by, series_cmp);
	for (size_t i = 0, lead = 0; i < fs->n; i++) {
		if (series_order(by[lead], by[i]) != 0)
			lead = i;
		count[by[lead] - fs->v]++;
	}
	fputs("# HELP cudx_finding Problems cudx found, one series per finding id, severity and subject; the "
	      "value is how many findings it stands for.\n# TYPE cudx_finding gauge\n",
	      out);
	for (size_t i = 0; i < fs->n; i++) {
		if (!count[i])
			continue;
		fprintf(out, "cudx_finding{id=\"%s\",severity=\"%s\",subject=\"", fs->v[i].id,
			severity_name(fs->v[i].severity));
		label_value(out, fs->v[i].subject);
		fprintf(out, "\"} %zu\n", count[i]);
	}
	size_t counts[3] = { 0 };
	for (size_t i = 0; i < fs->n; i++)
		counts[fs->v[i].severity]++;
	fputs("# HELP cudx_findings Findings by severity.\n# TYPE cudx_findings gauge\n", out);
	for (int s = SEV_ERROR; s >= SEV_INFO; s--)
		fprintf(out, "cudx_findings{severity=\"%s\"} %zu\n", severity_name((enum severity)s), counts[s]);
	fputs("# HELP cudx_driver_info The NVIDIA driver cudx sees (1 when present).\n# TYPE cudx_driver_info gauge\n", out);
	fprintf(out, "cudx_driver_info{kernel=\"");
	label_value(out, inv->driver.kernel_version);
	fputs("\",libcuda=\"", out);
	label_value(out, inv->driver.libcuda_version);
	fputs("\",max_cuda=\"", out);
	label_value(out, inv->driver.max_cuda);
	fprintf(out, "\"} %d\n", inv->driver.kernel_version || inv->driver.libcuda_version ? 1 : 0);
	fputs("# HELP cudx_gpus GPUs the driver lists.\n# TYPE cudx_gpus gauge\n", out);
	size_t n = 0;
	for (size_t i = 0; i < inv->n_gpus; i++)
		n += strcmp(inv->gpus[i].source, "--gpu") != 0;
	fprintf(out, "cudx_gpus %zu\n", n);
	fprintf(out, "# HELP cudx_library_copies GPU library copies found.\n# TYPE cudx_library_copies gauge\n"
		     "cudx_library_copies %zu\n",
		inv->n_libs);
}
