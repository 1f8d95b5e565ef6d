/* cudx arch FILE... : the GPU code inside binaries (SASS and PTX targets with counts, a summary of
 * `cuobjdump --list-elf/--list-ptx`) and whether it runs on the GPUs here or given with --gpu.
 * The files are the focus of the inventory (collect/focus.h): collect_arch reads them, every rule
 * runs, and this command keeps the findings about the files. Then show (text or JSON). */
#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "cli/command.h"
#include "cli/focus_run.h"
#include "collect/arch.h"
#include "report/report.h"
#include "report/json_parts.h"

static const char *verdict_text(const struct arch_judgement *j)
{
	switch (j->verdict) {
	case ARCH_NATIVE:
		return "native";
	case ARCH_PTX_JIT:
		return "via PTX JIT";
	case ARCH_NO_IMAGE:
		return "NO KERNEL IMAGE";
	default:
		return "no GPU code in this file";
	}
}

/* --- text --------------------------------------------------------------------------------- */

static void text_file(struct cudx_ctx *ctx, const struct arch_inventory *ai, const struct arch_file *f)
{
	FILE *out = ctx->out;
	struct arena *a = ctx->arena;
	fprintf(out, "%s%s%s\n", style_bold(ctx), f->path, style_reset(ctx));
	if (f->error) {
		fprintf(out, "  %serror:%s %s\n", style_red(ctx), style_reset(ctx), f->error);
		return;
	}
	const struct arch_summary *s = &f->summary;
	if (s->n_containers == 0) {
		fprintf(out, "  no GPU code (no fat binary found)\n");
	} else {
		/* a lone cubin or PTX file is one image of its own, not a fat binary */
		const char *lone = f->fat.n_regions == 1 && (strcmp(f->fat.regions[0].name, "(cubin)") == 0 ||
							      strcmp(f->fat.regions[0].name, "(PTX text)") == 0)
					   ? f->fat.regions[0].name
					   : NULL;
		if (lone) {
			fprintf(out, "  one GPU image %s\n", lone);
		} else {
			fprintf(out, "  %zu fat binaries, %zu images:", s->n_containers, s->n_entries);
			for (size_t r = 0; r < f->fat.n_regions; r++)
				if (f->fat.regions[r].containers)
					fprintf(out, " %s %u", f->fat.regions[r].name, f->fat.regions[r].containers);
			fprintf(out, "\n  compression: none %u, lz4 %u, zstd %u\n", s->by_comp[FATBIN_COMP_NONE],
				s->by_comp[FATBIN_COMP_LZ4], s->by_comp[FATBIN_COMP_ZSTD]);
		}
		const struct {
			uint16_t kind;
			const char *label;
		} kinds[] = { { FATBIN_KIND_ELF, "SASS  " }, { FATBIN_KIND_PTX, "PTX   " }, { FATBIN_KIND_LTOIR, "LTO-IR" } };
		for (size_t k = 0; k < 3; k++) {
			const char *list = arch_target_list(a, s, kinds[k].kind, true);
			if (*list)
				fprintf(out, "  %s %s\n", kinds[k].label, list);
		}
		for (size_t t = 0; t < s->n_targets; t++) {
			const struct arch_target *tg = &s->targets[t];
			if (tg->kind != FATBIN_KIND_PTX)
				continue;
			struct fatbin_entry e = { .kind = tg->kind, .sm = tg->sm, .variant = tg->variant };
			char name[48];
			fprintf(out, "  %s%s: PTX ISA %u.%u", style_dim(ctx), fatbin_target_name(&e, name, sizeof name),
				tg->isa_max_major, tg->isa_max_minor);
			if (tg->isa_min_major != tg->isa_max_major || tg->isa_min_minor != tg->isa_max_minor)
				fprintf(out, " (lowest %u.%u)", tg->isa_min_major, tg->isa_min_minor);
			const char *needs = arch_ptx_jit_needs_cuda(tg->isa_max_major, tg->isa_max_minor);
			if (needs)
				fprintf(out, ", JIT needs a driver for CUDA >= %s", needs);
			fprintf(out, "%s\n", style_reset(ctx));
		}
	}
	for (size_t i = 0; i < f->fat.n_problems; i++)
		fprintf(out, "  %swarning:%s %s\n", style_yellow(ctx), style_reset(ctx), f->fat.problems[i]);
	if (f->fat.n_problems_total > f->fat.n_problems)
		fprintf(out, "  %swarning:%s %zu more problems\n", style_yellow(ctx), style_reset(ctx),
			f->fat.n_problems_total - f->fat.n_problems);
	if (s->n_containers == 0)
		return;
	for (size_t g = 0; g < ai->n_gpus; g++) {
		const struct arch_judgement *j = &f->verdicts[g];
		const char *colour = j->verdict == ARCH_NATIVE   ? style_green(ctx)
				     : j->verdict == ARCH_PTX_JIT ? style_yellow(ctx)
								  : style_red(ctx);
		char t[48];
		fprintf(out, "  on %s: %s%s%s", ai->gpus[g].label, colour, verdict_text(j), style_reset(ctx));
		if (j->verdict == ARCH_NATIVE)
			fprintf(out, " (SASS %s", fatbin_target_name(j->best_sass, t, sizeof t));
		else if (j->verdict == ARCH_PTX_JIT)
			fprintf(out, " (PTX %s, ISA %d.%d", fatbin_target_name(j->best_ptx, t, sizeof t), j->ptx_isa_major,
				j->ptx_isa_minor);
		else
			fprintf(out, " (");
		fprintf(out, "%s%zu of %zu fat binaries native, %zu JIT, %zu none)", j->verdict == ARCH_NO_IMAGE ? "" : "; ",
			j->modules_native, j->modules, j->modules_jit, j->modules_none + j->modules_jit_driver_too_old);
		if (j->modules_ltoir_only)
			fprintf(out, "; %zu hold only LTO-IR (linked at run time by nvJitLink)", j->modules_ltoir_only);
		if (j->sparse)
			fprintf(out, "; a GPU it was built for gets %zu", j->reference_native);
		if (j->verdict == ARCH_NO_IMAGE && j->modules_jit_driver_too_old && j->ptx_needs_cuda)
			fprintf(out, "; its PTX needs a driver for CUDA >= %s", j->ptx_needs_cuda);
		if (j->verdict == ARCH_PTX_JIT && j->ptx_needs_cuda)
			fprintf(out, "; needs a driver for CUDA >= %s%s", j->ptx_needs_cuda,
				j->driver_ok == 1 ? ", have it" : j->driver_ok == 0 ? ", driver too old" : "");
		fprintf(out, "\n");
	}
}

static void render_text(struct cudx_ctx *ctx, const struct arch_inventory *ai, const struct findings *fs)
{
	FILE *out = ctx->out;
	if (ai->n_gpus == 0)
		fprintf(out, "%sno GPU detected here: give --gpu sm_XY (or a model name) to judge the code%s\n\n",
			style_dim(ctx), style_reset(ctx));
	else {
		fprintf(out, "GPUs:");
		for (size_t g = 0; g < ai->n_gpus; g++)
			fprintf(out, "%s %s%s%s%s", g ? "," : "", ai->gpus[g].label, ai->gpus[g].name ? " (" : "",
				ai->gpus[g].name ? ai->gpus[g].name : "", ai->gpus[g].name ? ")" : "");
		if (ai->driver_version)
			fprintf(out, "; driver %s (CUDA %s)", ai->driver_version,
				ai->driver_max_cuda ? ai->driver_max_cuda : "unknown");
		fprintf(out, "\n\n");
	}
	for (size_t i = 0; i < ai->n_files; i++) {
		text_file(ctx, ai, &ai->files[i]);
		fprintf(out, "\n");
	}
	if (fs->n)
		report_findings_text(out, ctx, fs);
}

/* --- JSON --------------------------------------------------------------------------------- */

static json_t *json_targets(const struct arch_summary *s, uint16_t kind)
{
	json_t *arr = json_array();
	for (size_t t = 0; t < s->n_targets; t++) {
		const struct arch_target *tg = &s->targets[t];
		if (tg->kind != kind)
			continue;
		struct fatbin_entry e = { .kind = tg->kind, .sm = tg->sm, .variant = tg->variant };
		char name[48], isa[16];
		json_t *o = json_object();
		json_object_set_new(o, "target", json_string(fatbin_target_name(&e, name, sizeof name)));
		json_object_set_new(o, "sm", json_integer(tg->sm));
		json_object_set_new(o, "variant", tg->variant ? json_string((char[]){ tg->variant, 0 }) : json_null());
		json_object_set_new(o, "count", json_integer(tg->count));
		if (kind == FATBIN_KIND_PTX) {
			snprintf(isa, sizeof isa, "%u.%u", tg->isa_max_major, tg->isa_max_minor);
			json_object_set_new(o, "ptx_isa", json_string(isa));
			const char *needs = arch_ptx_jit_needs_cuda(tg->isa_max_major, tg->isa_max_minor);
			json_object_set_new(o, "jit_needs_cuda", report_json_str(needs));
		}
		if (kind == FATBIN_KIND_ELF) {
			json_object_set_new(o, "cubin_abi7", json_integer(tg->abi7));
			json_object_set_new(o, "cubin_abi8", json_integer(tg->abi8));
		}
		json_object_set_new(o, "stored_bytes", json_integer((json_int_t)tg->stored_bytes));
		json_array_append_new(arr, o);
	}
	return arr;
}

static json_t *json_file(const struct arch_inventory *ai, const struct arch_file *f)
{
	json_t *o = json_object();
	json_object_set_new(o, "path", report_json_str(f->path));
	json_object_set_new(o, "error", report_json_str(f->error));
	if (f->error)
		return o;
	const struct arch_summary *s = &f->summary;
	json_object_set_new(o, "fatbins", json_integer((json_int_t)s->n_containers));
	json_object_set_new(o, "images", json_integer((json_int_t)s->n_entries));
	json_t *regions = json_array();
	for (size_t r = 0; r < f->fat.n_regions; r++) {
		if (!f->fat.regions[r].containers)
			continue;
		json_t *ro = json_object();
		json_object_set_new(ro, "section", json_string(f->fat.regions[r].name));
		json_object_set_new(ro, "fatbins", json_integer(f->fat.regions[r].containers));
		json_object_set_new(ro, "images", json_integer(f->fat.regions[r].entries));
		json_array_append_new(regions, ro);
	}
	json_object_set_new(o, "sections", regions);
	json_object_set_new(o, "sass", json_targets(s, FATBIN_KIND_ELF));
	json_object_set_new(o, "ptx", json_targets(s, FATBIN_KIND_PTX));
	json_object_set_new(o, "ltoir", json_targets(s, FATBIN_KIND_LTOIR));
	json_t *comp = json_object();
	json_object_set_new(comp, "none", json_integer(s->by_comp[FATBIN_COMP_NONE]));
	json_object_set_new(comp, "lz4", json_integer(s->by_comp[FATBIN_COMP_LZ4]));
	json_object_set_new(comp, "zstd", json_integer(s->by_comp[FATBIN_COMP_ZSTD]));
	json_object_set_new(o, "compression", comp);
	json_t *probs = json_array();
	for (size_t i = 0; i < f->fat.n_problems; i++)
		json_array_append_new(probs, json_string(f->fat.problems[i]));
	json_object_set_new(o, "problems", probs);
	json_object_set_new(o, "problems_total", json_integer((json_int_t)f->fat.n_problems_total));
	json_t *verdicts = json_array();
	for (size_t g = 0; s->n_containers && g < ai->n_gpus; g++) {
		const struct arch_judgement *j = &f->verdicts[g];
		json_t *v = json_object();
		char t[48], isa[16];
		json_object_set_new(v, "gpu", json_string(ai->gpus[g].label));
		json_object_set_new(v, "verdict", json_string(arch_verdict_name(j->verdict)));
		json_object_set_new(v, "sass",
				    j->best_sass ? json_string(fatbin_target_name(j->best_sass, t, sizeof t)) : json_null());
		json_object_set_new(v, "ptx",
				    j->best_ptx ? json_string(fatbin_target_name(j->best_ptx, t, sizeof t)) : json_null());
		snprintf(isa, sizeof isa, "%d.%d", j->ptx_isa_major, j->ptx_isa_minor);
		json_object_set_new(v, "ptx_isa", j->best_ptx ? json_string(isa) : json_null());
		json_object_set_new(v, "jit_needs_cuda", report_json_str(j->ptx_needs_cuda));
		json_object_set_new(v, "driver_ok", j->driver_ok < 0 ? json_null() : json_boolean(j->driver_ok));
		json_object_set_new(v, "fatbins", json_integer((json_int_t)j->modules));
		json_object_set_new(v, "fatbins_native", json_integer((json_int_t)j->modules_native));
		json_object_set_new(v, "fatbins_jit", json_integer((json_int_t)j->modules_jit));
		json_object_set_new(v, "fatbins_ltoir_only", json_integer((json_int_t)j->modules_ltoir_only));
		json_object_set_new(v, "sparse", json_boolean(j->sparse));
		json_object_set_new(v, "reference_native", json_integer((json_int_t)j->reference_native));
		json_object_set_new(v, "fatbins_none",
				    json_integer((json_int_t)(j->modules_none + j->modules_jit_driver_too_old)));
		json_array_append_new(verdicts, v);
	}
	json_object_set_new(o, "verdicts", verdicts);
	return o;
}

static void render_json(struct cudx_ctx *ctx, const struct inventory *inv, const struct findings *fs)
{
	const struct arch_inventory *ai = inv->arch;
	json_t *root = report_envelope_json(ctx, inv, "arch", fs);
	json_t *gpus = json_array();
	for (size_t g = 0; g < ai->n_gpus; g++) {
		json_t *o = json_object();
		char cc[16];
		snprintf(cc, sizeof cc, "%d.%d", ai->gpus[g].cc_major, ai->gpus[g].cc_minor);
		json_object_set_new(o, "sm", json_string(ai->gpus[g].label));
		json_object_set_new(o, "compute_capability", json_string(cc));
		json_object_set_new(o, "name", report_json_str(ai->gpus[g].name));
		json_object_set_new(o, "source", report_json_str(ai->gpus[g].source));
		json_array_append_new(gpus, o);
	}
	json_object_set_new(root, "gpus", gpus);
	json_t *drv = json_object();
	json_object_set_new(drv, "version", report_json_str(ai->driver_version));
	json_object_set_new(drv, "max_cuda", report_json_str(ai->driver_max_cuda));
	json_object_set_new(root, "driver", drv);
	json_t *files = json_array();
	for (size_t i = 0; i < ai->n_files; i++)
		json_array_append_new(files, json_file(ai, &ai->files[i]));
	json_object_set_new(root, "files", files);
	report_json_dump(ctx->out, (struct json_t *)root);
	json_decref(root);
}

/* --- the command -------------------------------------------------------------------------- */

static int arch_run(struct cudx_ctx *ctx, int argc, char **argv)
{
	const char **files = arena_calloc(ctx->arena, (size_t)argc + 1, sizeof *files);
	size_t n_files = 0;
	bool opts_done = false;
	for (int i = 0; i < argc; i++) {
		if (!opts_done && strcmp(argv[i], "--") == 0) {
			opts_done = true;
			continue;
		}
		if (!opts_done && argv[i][0] == '-' && argv[i][1])
			return command_usage(&cmd_arch, arena_printf(ctx->arena, "unknown option '%s'", argv[i]));
		files[n_files++] = argv[i];
	}
	if (n_files == 0)
		return command_usage(&cmd_arch, "no FILE given");

	/* the GPUs and driver of this machine unless the user simulates them, and the files */
	struct focus fo = { 0 };
	for (size_t i = 0; i < n_files; i++)
		focus_add(ctx->arena, &fo, FOCUS_GPU_CODE, files[i]);
	struct inventory inv;
	focus_collect(ctx, &inv, &fo);
	if (!inv.arch) /* a Windows target has no GPU-code collector of its own: the files still count */
		collect_arch(ctx, &inv);
	const struct arch_inventory *ai = inv.arch;
	if (ai->n_bad_gpus)
		return command_usage(&cmd_arch, arena_printf(ctx->arena, "unknown GPU '%s' (give sm_XY, X.Y or a model name)",
							     ai->bad_gpus[0]));
	bool unreadable = false;
	for (size_t i = 0; i < ai->n_files; i++)
		unreadable |= ai->files[i].error != NULL;
	struct findings fs;
	focus_judge(ctx, &inv, &fs);

	if (ctx->opt->format == OUT_JSON)
		render_json(ctx, &inv, &fs);
	else
		render_text(ctx, ai, &fs);
	if (unreadable)
		return 2;
	return findings_exit_status(&fs);
}

const struct command cmd_arch = {
	.name = "arch",
	.usage = "arch FILE... [--gpu SM|NAME] [--driver VER]",
	.summary = "GPU code (SASS/PTX) inside binaries and whether it runs here",
	.run = arch_run,
};
