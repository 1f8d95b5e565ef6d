/* The "Python environments" part of the check report: each environment, its frameworks with what
 * they were built for against what the loader would give them. Called from report_hooks.c. */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "collect/python.h"
#include "report/report.h"
#include "report/json_parts.h"

static const char *or_q(const char *s)
{
	return s ? s : "?";
}

static void text_lib(FILE *out, const struct cudx_ctx *ctx, const struct py_lib_use *u)
{
	if (!u->resolved) {
		fprintf(out, "        %-22s %snot found%s", u->name, u->optional ? "" : style_red(ctx),
			style_reset(ctx));
		for (size_t k = 0; k < u->n_others && k < 3; k++)
			fprintf(out, "%s %s", k ? "," : " (other majors:", u->others[k]);
		fprintf(out, "%s\n", u->n_others ? ")" : "");
		return;
	}
	fprintf(out, "        %-22s %s  [%s", u->name, u->resolved, or_q(u->how));
	if (u->version)
		fprintf(out, ", %s from %s", u->version, or_q(u->version_source));
	fprintf(out, "]\n");
	if (u->wheel_copy && strcmp(u->wheel_copy, u->resolved) != 0 &&
	    !(u->version && u->wheel_version && strcmp(u->version, u->wheel_version) == 0))
		fprintf(out, "        %-22s %s! the %s wheel's copy is %s (%s)%s\n", "", style_yellow(ctx),
			u->wheel, u->wheel_copy, or_q(u->wheel_version), style_reset(ctx));
}

static void text_fw(FILE *out, const struct cudx_ctx *ctx, const struct py_env *env,
		    const struct py_framework *fw)
{
	fprintf(out, "    %s%s %s%s (%s)", style_bold(ctx), py_fw_kind_name(fw->kind), or_q(fw->version),
		style_reset(ctx), fw->name);
	if (fw->cpu_only) {
		fprintf(out, "  CPU-only build\n");
	} else if (fw->rocm) {
		fprintf(out, "  ROCm %s build\n", fw->rocm);
	} else if (!fw->gpu_build) {
		fprintf(out, "  no CUDA build information\n");
	} else {
		fprintf(out, "\n      built for      CUDA %s (%s)", or_q(fw->cuda), or_q(fw->cuda_source));
		if (fw->cudnn)
			fprintf(out, ", cuDNN %s (%s)", fw->cudnn, or_q(fw->cudnn_source));
		fprintf(out, "\n");
		if (fw->n_archs) {
			fprintf(out, "      GPU code      ");
			for (size_t i = 0; i < fw->n_archs; i++)
				fprintf(out, " %s", fw->archs[i]);
			fprintf(out, "\n");
		}
		for (size_t i = 0; i < fw->n_reqs; i++) {
			const struct py_req *r = &fw->reqs[i];
			fprintf(out, "      requires       %s%s%s  %s\n", r->name, r->op ? r->op : "",
				r->version ? r->version : "",
				r->installed ? arena_printf(ctx->arena, "installed %s", or_q(r->installed->version))
					     : "NOT INSTALLED");
		}
		if (fw->n_libs)
			fprintf(out, "      loads (as the loader would resolve it):\n");
		for (size_t i = 0; i < fw->n_libs; i++)
			text_lib(out, ctx, &fw->libs[i]);
		if ((fw->kind == PY_FW_TORCH || fw->kind == PY_FW_JAX || fw->n_reqs) && !fw->conda_build)
			fprintf(out, "      %snote: pip wheels bring their own CUDA runtime; a local toolkit of "
				     "another CUDA version does not matter to run them%s\n",
				style_dim(ctx), style_reset(ctx));
	}
	if (fw->problem)
		fprintf(out, "      %sproblem: %s%s\n", style_yellow(ctx), fw->problem, style_reset(ctx));
	(void)env;
}

/* An environment with nothing GPU-related: listed on one line, not in full. */
static bool env_is_quiet(const struct py_env *e)
{
	if (e->n_fws || e->problem || e->active)
		return false;
	for (size_t j = 0; j < e->n_wheels; j++)
		if (strncmp(e->wheels[j].name, "nvidia-", 7) == 0)
			return false;
	return true;
}

void py_report_text(FILE *out, const struct cudx_ctx *ctx, const struct python_inventory *py)
{
	fprintf(out, "\n%sPython environments%s\n", style_bold(ctx), style_reset(ctx));
	if (!py || py->n_envs == 0) {
		fprintf(out, "  none found (PATH, VIRTUAL_ENV, CONDA_PREFIX, conda lists, /usr; add one with "
			     "--python PREFIX)\n");
		return;
	}
	size_t quiet = 0;
	for (size_t i = 0; i < py->n_envs; i++) {
		const struct py_env *e = &py->envs[i];
		if (env_is_quiet(e)) {
			quiet++;
			continue;
		}
		fprintf(out, "  %s  (%s, %s%s%s)%s\n", e->prefix, e->kind, e->origin,
			e->python ? ", python " : "", e->python ? e->python : "", e->active ? " [active]" : "");
		if (e->problem)
			fprintf(out, "    %sproblem: %s%s\n", style_yellow(ctx), e->problem, style_reset(ctx));
		size_t nv = 0;
		for (size_t j = 0; j < e->n_wheels; j++)
			nv += strncmp(e->wheels[j].name, "nvidia-", 7) == 0;
		if (e->n_fws == 0)
			fprintf(out, "    no GPU framework installed%s\n", nv ? " (nvidia-* wheels only)" : "");
		for (size_t j = 0; j < e->n_fws; j++)
			text_fw(out, ctx, e, &e->fws[j]);
		if (nv) {
			fprintf(out, "    nvidia wheels:");
			size_t col = 18;
			for (size_t j = 0; j < e->n_wheels; j++) {
				const struct py_wheel *w = &e->wheels[j];
				if (strncmp(w->name, "nvidia-", 7) != 0)
					continue;
				size_t l = strlen(w->name) + strlen(or_q(w->version)) + 2;
				if (col + l > 100) {
					fprintf(out, "\n                  ");
					col = 18;
				}
				fprintf(out, " %s %s", w->name, or_q(w->version));
				col += l;
			}
			fprintf(out, "\n");
		}
	}
	if (quiet) {
		fprintf(out, "  %zu more without GPU frameworks or nvidia wheels:", quiet);
		for (size_t i = 0; i < py->n_envs; i++)
			if (env_is_quiet(&py->envs[i]))
				fprintf(out, " %s", py->envs[i].prefix);
		fprintf(out, "\n");
	}
	for (size_t i = 0; i < py->n_notes; i++)
		fprintf(out, "  note: %s\n", py->notes[i]);
}

static json_t *lib_json(const struct py_lib_use *u)
{
	json_t *o = json_object();
	json_object_set_new(o, "name", report_json_str(u->name));
	json_object_set_new(o, "via", report_json_str(u->via));
	json_object_set_new(o, "from", report_json_str(u->from));
	json_object_set_new(o, "resolved", report_json_str(u->resolved));
	json_object_set_new(o, "how", report_json_str(u->how));
	json_object_set_new(o, "version", report_json_str(u->version));
	json_object_set_new(o, "version_source", report_json_str(u->version_source));
	json_object_set_new(o, "wheel", report_json_str(u->wheel));
	json_object_set_new(o, "wheel_copy", report_json_str(u->wheel_copy));
	json_object_set_new(o, "wheel_version", report_json_str(u->wheel_version));
	json_object_set_new(o, "optional", json_boolean(u->optional));
	json_t *others = json_array();
	for (size_t k = 0; k < u->n_others; k++)
		json_array_append_new(others, json_string(u->others[k]));
	json_object_set_new(o, "other_majors", others);
	return o;
}

static json_t *fw_json(const struct py_framework *fw)
{
	json_t *o = json_object();
	json_object_set_new(o, "framework", json_string(py_fw_kind_id(fw->kind)));
	json_object_set_new(o, "package", report_json_str(fw->name));
	json_object_set_new(o, "version", report_json_str(fw->version));
	json_object_set_new(o, "path", report_json_str(fw->pkg_dir));
	json_object_set_new(o, "gpu_build", json_boolean(fw->gpu_build && !fw->cpu_only));
	json_object_set_new(o, "cpu_only", json_boolean(fw->cpu_only));
	json_object_set_new(o, "rocm", report_json_str(fw->rocm));
	json_object_set_new(o, "cuda", report_json_str(fw->cuda));
	json_object_set_new(o, "cuda_source", report_json_str(fw->cuda_source));
	json_object_set_new(o, "cudnn", report_json_str(fw->cudnn));
	json_object_set_new(o, "cudnn_source", report_json_str(fw->cudnn_source));
	json_t *archs = json_array();
	for (size_t i = 0; i < fw->n_archs; i++)
		json_array_append_new(archs, json_string(fw->archs[i]));
	json_object_set_new(o, "archs", archs);
	json_object_set_new(o, "archs_source", report_json_str(fw->archs_source));
	json_t *reqs = json_array();
	for (size_t i = 0; i < fw->n_reqs; i++) {
		const struct py_req *r = &fw->reqs[i];
		json_t *q = json_object();
		json_object_set_new(q, "name", report_json_str(r->name));
		json_object_set_new(q, "requirement", report_json_str(r->raw));
		json_object_set_new(q, "extra", report_json_str(r->extra));
		json_object_set_new(q, "installed", report_json_str(r->installed ? r->installed->version : NULL));
		json_array_append_new(reqs, q);
	}
	json_object_set_new(o, "requires", reqs);
	json_t *libs = json_array();
	for (size_t i = 0; i < fw->n_libs; i++)
		json_array_append_new(libs, lib_json(&fw->libs[i]));
	json_object_set_new(o, "libraries", libs);
	json_object_set_new(o, "problem", report_json_str(fw->problem));
	return o;
}

json_t *py_report_json(const struct python_inventory *py)
{
	json_t *o = json_object();
	json_t *envs = json_array();
	for (size_t i = 0; py && i < py->n_envs; i++) {
		const struct py_env *e = &py->envs[i];
		json_t *je = json_object();
		json_object_set_new(je, "prefix", report_json_str(e->prefix));
		json_object_set_new(je, "kind", report_json_str(e->kind));
		json_object_set_new(je, "origin", report_json_str(e->origin));
		json_object_set_new(je, "python", report_json_str(e->python));
		json_object_set_new(je, "active", json_boolean(e->active));
		json_object_set_new(je, "problem", report_json_str(e->problem));
		json_t *sites = json_array();
		for (size_t j = 0; j < e->n_site_dirs; j++)
			json_array_append_new(sites, report_json_str(e->site_dirs[j]));
		json_object_set_new(je, "site_packages", sites);
		json_t *fws = json_array();
		for (size_t j = 0; j < e->n_fws; j++)
			json_array_append_new(fws, fw_json(&e->fws[j]));
		json_object_set_new(je, "frameworks", fws);
		json_t *wheels = json_array();
		for (size_t j = 0; j < e->n_wheels; j++) {
			const struct py_wheel *w = &e->wheels[j];
			if (strncmp(w->name, "nvidia-", 7) != 0)
				continue;
			json_t *jw = json_object();
			json_object_set_new(jw, "name", report_json_str(w->name));
			json_object_set_new(jw, "version", report_json_str(w->version));
			json_object_set_new(jw, "lib_dir", report_json_str(w->lib_dir));
			json_array_append_new(wheels, jw);
		}
		json_object_set_new(je, "nvidia_wheels", wheels);
		json_array_append_new(envs, je);
	}
	json_object_set_new(o, "environments", envs);
	json_t *notes = json_array();
	for (size_t i = 0; py && i < py->n_notes; i++)
		json_array_append_new(notes, json_string(py->notes[i]));
	json_object_set_new(o, "notes", notes);
	return o;
}
