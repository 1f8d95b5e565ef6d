/* Prometheus text exposition (node_exporter's textfile collector reads it): one gauge per
 * finding id and a few facts, so a fleet can alert on "driver-too-old" across hosts. */
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

void report_check_prom(FILE *out, const struct cudx_ctx *ctx, const struct inventory *inv,
		       const struct findings *fs)
{
	(void)ctx;
	fputs("# HELP cudx_finding A problem cudx found (1 per finding).\n# TYPE cudx_finding gauge\n", out);
	for (size_t i = 0; i < fs->n; i++) {
		fprintf(out, "cudx_finding{id=\"%s\",severity=\"%s\",subject=\"", fs->v[i].id,
			severity_name(fs->v[i].severity));
		label_value(out, fs->v[i].subject);
		fputs("\"} 1\n", out);
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
