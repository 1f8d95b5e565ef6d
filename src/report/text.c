/* The check report for people: findings first (what is wrong and what to do), then the
 * inventory they were drawn from. */
#include <stdlib.h>
#include <string.h>

#include "report/report.h"
#include "kb/kb.h"
#include "report/report_hooks.h"

static void section(FILE *out, const struct cudx_ctx *ctx, const char *title)
{
	fprintf(out, "%s%s%s\n", style_bold(ctx), title, style_reset(ctx));
}

static void row(FILE *out, const char *key, const char *value)
{
	fprintf(out, "  %-18s %s\n", key, value);
}

static void print_driver(FILE *out, const struct cudx_ctx *ctx, const struct inventory *inv)
{
	const struct driver_info *d = &inv->driver;
	section(out, ctx, "Driver");
	char buf[512];
	if (d->kernel_version)
		snprintf(buf, sizeof buf, "%s (%s kernel module)", d->kernel_version, d->kernel_flavour);
	else if (d->module_version)
		snprintf(buf, sizeof buf, "%s (/sys/module/nvidia/version)", d->module_version);
	else if (d->tegra && d->l4t_openrm)
		snprintf(buf, sizeof buf, "not loaded (Jetson Thor: L4T's nvidia.ko)");
	else if (d->tegra && d->display_module_version)
		snprintf(buf, sizeof buf, "%s (the display's nvidia.ko: %s)",
			 d->tegra_gpu ? "nvgpu (Jetson)" : "Jetson: no nvgpu module or device node", d->display_module_version);
	else if (d->tegra)
		snprintf(buf, sizeof buf, "%s", d->tegra_gpu ? "nvgpu (Jetson)" : "Jetson: no nvgpu module or device node");
	else if (d->module_package)
		snprintf(buf, sizeof buf, "not loaded (installed: %s%s%s, %s flavour)", d->module_package,
			 d->module_package_version ? " " : "", d->module_package_version ? d->module_package_version : "",
			 d->module_package_flavour);
	else
		snprintf(buf, sizeof buf, "not loaded");
	row(out, "kernel module", buf);
	if (driver_shows_l4t(d)) {
		if (d->l4t)
			snprintf(buf, sizeof buf, "R%s = JetPack %s (CUDA %s)%s", d->l4t_release, d->l4t->jetpack,
				 d->l4t->cuda, inv->system.container ? "; the image's /etc/nv_tegra_release" : "");
		else
			snprintf(buf, sizeof buf, "%s%s", d->l4t_release ? d->l4t_release : "unknown (no /etc/nv_tegra_release)",
				 d->l4t_release ? " (a release the knowledge base lacks)" : "");
		row(out, "L4T release", buf);
	}
	if (d->libcuda_path) {
		snprintf(buf, sizeof buf, "%s%s%s%s", d->libcuda_path, d->libcuda_is_stub ? " (STUB)" : "",
			 d->libcuda_version ? "  version " : "", d->libcuda_version ? d->libcuda_version : "");
		row(out, "libcuda.so.1", buf);
	} else if (d->libcuda_off_path) {
		snprintf(buf, sizeof buf, "not on the loader's search path; the driver's copy is %s (%s)",
			 d->libcuda_off_path, d->off_path_dir->system);
		row(out, "libcuda.so.1", buf);
	} else
		row(out, "libcuda.so.1", "not found on the loader's search path");
	if (d->nvml_path) {
		snprintf(buf, sizeof buf, "%s%s%s", d->nvml_path, d->nvml_version ? "  version " : "",
			 d->nvml_version ? d->nvml_version : "");
		row(out, "libnvidia-ml.so.1", buf);
	}
	if (d->simulated)
		row(out, "simulated driver", d->simulated);
	if (d->effective_version || (d->tegra && d->max_cuda)) {
		if (d->max_cuda)
			snprintf(buf, sizeof buf, "up to %s", d->max_cuda);
		else
			snprintf(buf, sizeof buf, "%s",
				 driver_on_desktop_scale(d) ? "up to (older than every known CUDA release)"
							    : "unknown (Jetson Thor's driver: its L4T release decides, not seen here)");
		row(out, "supports CUDA", buf);
	}
	size_t off = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < d->n_nodes && off < sizeof buf; i++)
		if (d->nodes[i].exists)
			off += (size_t)snprintf(buf + off, sizeof buf - off, "%s%s", off ? " " : "", d->nodes[i].path);
	row(out, "device nodes", off ? buf : "none");
	if (d->wsl1)
		row(out, "WSL", "WSL 1 (kernel release ...-Microsoft): no GPU support");
	else if (d->wsl)
		row(out, "WSL", "WSL 2 (/usr/lib/wsl/lib, /dev/dxg or its kernel)");
	if (inv->containerd.config) {
		const struct containerd_info *c = &inv->containerd;
		snprintf(buf, sizeof buf, "%s: %s, default runtime %s", c->config,
			 c->nvidia_runtime ? "nvidia runtime defined" : "no nvidia runtime",
			 c->default_runtime ? c->default_runtime : "runc (not set)");
		row(out, "containerd", buf);
	}
	if (inv->container_host.toolkit || inv->container_host.engine || inv->container_host.unprivileged) {
		const struct container_host_info *h = &inv->container_host;
		bool other = h->unprivileged && (!h->engine || strcmp(h->unprivileged, h->engine) != 0);
		snprintf(buf, sizeof buf, "NVIDIA Container Toolkit %s; engine %s%s%s", h->toolkit ? h->toolkit : "not installed",
			 h->engine ? h->engine : "none found", other ? ", unprivileged " : "", other ? h->unprivileged : "");
		row(out, "containers", buf);
	}
	for (size_t i = 0; i < d->n_compat_dirs; i++)
		row(out, "forward compat", d->compat_dirs[i]);
	fputc('\n', out);
}

static void print_gpus(FILE *out, const struct cudx_ctx *ctx, const struct inventory *inv)
{
	section(out, ctx, "GPUs");
	if (!inv->n_gpus)
		fprintf(out, "  none detected%s\n", inv->system.live ? "" : " (pass --gpu to judge against one)");
	for (size_t i = 0; i < inv->n_gpus; i++) {
		const struct gpu_info *g = &inv->gpus[i];
		if (g->cc_major)
			fprintf(out, "  %-32s sm_%d%d (compute capability %d.%d)  [%s]\n", g->name ? g->name : "?",
				g->cc_major, g->cc_minor, g->cc_major, g->cc_minor, g->source);
		else
			fprintf(out, "  %-32s compute capability unknown  [%s]\n", g->name ? g->name : "?", g->source);
		if (g->pci_id)
			fprintf(out, "  %-32s PCI %s, kernel driver: %s\n", "", g->pci_id,
				g->kernel_driver ? g->kernel_driver : "none");
	}
	fputc('\n', out);
}

static void print_toolkits(FILE *out, const struct cudx_ctx *ctx, const struct inventory *inv)
{
	section(out, ctx, "CUDA toolkits");
	if (!inv->n_toolkits)
		fprintf(out, "  none\n");
	for (size_t i = 0; i < inv->n_toolkits; i++) {
		const struct toolkit *t = &inv->toolkits[i];
		bool link = t->real_path && strcmp(t->real_path, t->path) != 0;
		fprintf(out, "  %s%s%s  %s", t->path, link ? " -> " : "", link ? t->real_path : "",
			t->version ? t->version : "version unknown");
		if (t->version_source)
			fprintf(out, " %s(%s)%s", style_dim(ctx), t->version_source, style_reset(ctx));
		fprintf(out, "\n      %s%s%s  %s[found via %s]%s\n", t->nvcc ? "nvcc" : "no nvcc",
			t->stub_libcuda ? ", stub libcuda " : "", t->stub_libcuda ? t->stub_libcuda : "", style_dim(ctx),
			t->origin, style_reset(ctx));
	}
	fputc('\n', out);
}

/* Listed by family and component so the copies of one library sit together; the inventory keeps
 * discovery (search) order. */
static int lib_order(const void *pa, const void *pb)
{
	const struct lib_file *a = *(const struct lib_file *const *)pa, *b = *(const struct lib_file *const *)pb;
	int c = strcmp(a->family ? a->family : "", b->family ? b->family : "");
	if (!c)
		c = strcmp(a->component ? a->component : "", b->component ? b->component : "");
	return c ? c : strcmp(a->path, b->path);
}

static void print_libs(FILE *out, const struct cudx_ctx *ctx, const struct inventory *inv)
{
	fprintf(out, "%sLibraries%s (%zu copies)\n", style_bold(ctx), style_reset(ctx), inv->n_libs);
	const struct lib_file **sorted = arena_calloc(ctx->arena, inv->n_libs + 1, sizeof *sorted);
	for (size_t i = 0; i < inv->n_libs; i++)
		sorted[i] = &inv->libs[i];
	qsort(sorted, inv->n_libs, sizeof *sorted, lib_order);
	for (size_t i = 0; i < inv->n_libs; i++) {
		const struct lib_file *l = sorted[i];
		char ver[32];
		if (l->is_stub)
			snprintf(ver, sizeof ver, "stub");
		else if (l->broken_link)
			snprintf(ver, sizeof ver, "broken");
		else if (l->version)
			snprintf(ver, sizeof ver, "%s", l->version);
		else if (l->major)
			snprintf(ver, sizeof ver, "%d.x", l->major);
		else
			snprintf(ver, sizeof ver, "?");
		const char *vc = l->is_stub ? style_yellow(ctx) : l->broken_link ? style_red(ctx) : "";
		fprintf(out, "  %-24s %s%-12s%s %s", l->component, vc, ver, *vc ? style_reset(ctx) : "", l->path);
		if (ctx->opt->verbose && l->real_path && strcmp(l->real_path, l->path) != 0)
			fprintf(out, " -> %s", l->real_path);
		fprintf(out, "  %s[%s%s%s]%s\n", style_dim(ctx), l->origin, l->owner ? ", " : "", l->owner ? l->owner : "",
			style_reset(ctx));
		if (l->problem && !l->broken_link)
			fprintf(out, "      %s\n", l->problem);
	}
	fputc('\n', out);
}

/* --pid: the GPU libraries the process has mapped, which is what it really uses (the JSON's
 * loaded_by_process). */
static void print_loaded(FILE *out, const struct cudx_ctx *ctx, const struct inventory *inv)
{
	if (!inv->loaded_pid)
		return;
	fprintf(out, "%sMapped by pid %lld%s %s(/proc/%lld/maps)%s\n", style_bold(ctx), inv->loaded_pid,
		style_reset(ctx), style_dim(ctx), inv->loaded_pid, style_reset(ctx));
	if (!inv->n_loaded)
		fprintf(out, "  no GPU library\n");
	for (size_t i = 0; i < inv->n_loaded; i++) {
		const struct loaded_lib *l = &inv->loaded[i];
		char ver[32];
		if (l->version)
			snprintf(ver, sizeof ver, "%s", l->version);
		else if (l->major)
			snprintf(ver, sizeof ver, "%d.x", l->major);
		else
			snprintf(ver, sizeof ver, "?");
		fprintf(out, "  %-24s %-12s %s\n", l->component ? l->component : "?", ver, l->path);
	}
	fputc('\n', out);
}

static void print_env(FILE *out, const struct cudx_ctx *ctx, const struct inventory *inv)
{
	fprintf(out, "%sEnvironment%s %s(%s)%s\n", style_bold(ctx), style_reset(ctx), style_dim(ctx),
		inv->system.env_origin, style_reset(ctx));
	size_t shown = 0;
	for (size_t i = 0; i < inv->n_env; i++) {
		if (strcmp(inv->env[i].name, "PATH") == 0 && !ctx->opt->verbose)
			continue;
		fprintf(out, "  %s=%s\n", inv->env[i].name, inv->env[i].value);
		shown++;
	}
	if (!shown)
		fprintf(out, "  no GPU-related variables set\n");
	fputc('\n', out);
}

void report_check_text(FILE *out, const struct cudx_ctx *ctx, const struct inventory *inv,
		       const struct findings *fs)
{
	const struct system_info *s = &inv->system;
	fprintf(out, "%scudx %s%s: NVIDIA GPU stack of %s", style_bold(ctx), CUDX_VERSION, style_reset(ctx),
		s->live ? "this machine" : s->root);
	if (s->os_name || s->kernel)
		fprintf(out, " (%s%s%s%s%s)", s->os_name ? s->os_name : "", s->os_name && s->kernel ? ", kernel " : "",
			s->kernel ? s->kernel : "", s->machine ? " " : "", s->machine ? s->machine : "");
	fputs("\n\n", out);

	size_t counts[3] = { 0 };
	for (size_t i = 0; i < fs->n; i++)
		counts[fs->v[i].severity]++;
	if (fs->n) {
		section(out, ctx, "Findings");
		report_findings_text(out, ctx, fs);
	}
	print_driver(out, ctx, inv);
	print_gpus(out, ctx, inv);
	print_toolkits(out, ctx, inv);
	print_libs(out, ctx, inv);
	report_hooks_text(out, ctx, inv);
	print_loaded(out, ctx, inv);
	print_env(out, ctx, inv);
	if (inv->n_notes) {
		section(out, ctx, "Notes (input cudx could not read fully)");
		for (size_t i = 0; i < inv->n_notes; i++)
			fprintf(out, "  %s%s%s\n", inv->notes[i].subject ? inv->notes[i].subject : "",
				inv->notes[i].subject ? ": " : "", inv->notes[i].message);
		fputc('\n', out);
	}
	const char *color = counts[SEV_ERROR] ? style_red(ctx) : counts[SEV_WARNING] ? style_yellow(ctx) : style_green(ctx);
	fprintf(out, "%s%zu error%s, %zu warning%s, %zu note%s%s\n", color, counts[SEV_ERROR],
		counts[SEV_ERROR] == 1 ? "" : "s", counts[SEV_WARNING], counts[SEV_WARNING] == 1 ? "" : "s",
		counts[SEV_INFO], counts[SEV_INFO] == 1 ? "" : "s", style_reset(ctx));
}
