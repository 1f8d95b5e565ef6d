/* JSON output, schema "cudx/1" (docs/json.md). Keys keep insertion order so diffs between runs
 * are readable. */
#include <jansson.h>
#include <string.h>

#include "report/report.h"
#include "report/report_hooks.h"

static json_t *str_or_null(const char *s)
{
	return s ? json_string(s) : json_null();
}

static json_t *strings(const char *const *v, size_t n)
{
	json_t *a = json_array();
	for (size_t i = 0; i < n; i++)
		json_array_append_new(a, json_string(v[i]));
	return a;
}

json_t *report_findings_json(const struct findings *fs)
{
	json_t *arr = json_array();
	for (size_t i = 0; i < fs->n; i++) {
		const struct finding *f = &fs->v[i];
		json_t *o = json_object();
		json_object_set_new(o, "id", json_string(f->id));
		json_object_set_new(o, "severity", json_string(severity_name(f->severity)));
		json_object_set_new(o, "summary", json_string(f->summary));
		json_object_set_new(o, "cause", str_or_null(f->cause));
		json_object_set_new(o, "evidence", strings(f->evidence, f->n_evidence));
		json_object_set_new(o, "fix", strings(f->fix, f->n_fix));
		json_object_set_new(o, "refs", strings(f->refs, f->n_refs));
		if (f->subject)
			json_object_set_new(o, "subject", json_string(f->subject));
		json_array_append_new(arr, o);
	}
	return arr;
}

void report_json_dump(FILE *out, json_t *v)
{
	json_dumpf(v, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_ENSURE_ASCII);
	fputc('\n', out);
}

static json_t *system_json(const struct inventory *inv)
{
	const struct system_info *s = &inv->system;
	json_t *o = json_object();
	json_object_set_new(o, "root", str_or_null(s->root));
	json_object_set_new(o, "live", json_boolean(s->live));
	json_object_set_new(o, "os", str_or_null(s->os));
	json_object_set_new(o, "os_name", str_or_null(s->os_name));
	json_object_set_new(o, "kernel", str_or_null(s->kernel));
	json_object_set_new(o, "machine", str_or_null(s->machine));
	json_object_set_new(o, "hostname", str_or_null(s->hostname));
	json_object_set_new(o, "container", json_boolean(s->container));
	json_object_set_new(o, "env_origin", str_or_null(s->env_origin));
	return o;
}

static json_t *driver_json(const struct driver_info *d)
{
	json_t *o = json_object();
	json_object_set_new(o, "kernel_version", str_or_null(d->kernel_version));
	json_object_set_new(o, "kernel_flavour", str_or_null(d->kernel_flavour));
	json_object_set_new(o, "module_version", str_or_null(d->module_version));
	json_object_set_new(o, "libcuda", str_or_null(d->libcuda_path));
	json_object_set_new(o, "libcuda_version", str_or_null(d->libcuda_version));
	json_object_set_new(o, "libcuda_is_stub", json_boolean(d->libcuda_is_stub));
	json_object_set_new(o, "nvml", str_or_null(d->nvml_path));
	json_object_set_new(o, "nvml_version", str_or_null(d->nvml_version));
	json_object_set_new(o, "simulated_version", str_or_null(d->simulated));
	json_object_set_new(o, "effective_version", str_or_null(d->effective_version));
	json_object_set_new(o, "max_cuda", str_or_null(d->max_cuda));
	json_object_set_new(o, "wsl", json_boolean(d->wsl));
	json_t *nodes = json_array();
	for (size_t i = 0; i < d->n_nodes; i++) {
		const struct device_node *n = &d->nodes[i];
		json_t *no = json_object();
		json_object_set_new(no, "path", json_string(n->path));
		json_object_set_new(no, "exists", json_boolean(n->exists));
		if (n->exists) {
			json_object_set_new(no, "char_device", json_boolean(n->is_char_device));
			json_object_set_new(no, "mode", json_integer(n->mode));
			json_object_set_new(no, "uid", json_integer(n->uid));
			json_object_set_new(no, "gid", json_integer(n->gid));
			json_object_set_new(no, "readable", json_boolean(n->readable));
			json_object_set_new(no, "writable", json_boolean(n->writable));
		}
		json_array_append_new(nodes, no);
	}
	json_object_set_new(o, "device_nodes", nodes);
	json_object_set_new(o, "compat_dirs", strings(d->compat_dirs, d->n_compat_dirs));
	return o;
}

static json_t *lib_json(const struct lib_file *l)
{
	json_t *o = json_object();
	json_object_set_new(o, "path", json_string(l->path));
	json_object_set_new(o, "real_path", str_or_null(l->real_path));
	json_object_set_new(o, "component", str_or_null(l->component));
	json_object_set_new(o, "family", str_or_null(l->family));
	json_object_set_new(o, "major", json_integer(l->major));
	json_object_set_new(o, "cuda_major", l->cuda_major ? json_integer(l->cuda_major) : json_null());
	json_object_set_new(o, "soname", str_or_null(l->soname));
	json_object_set_new(o, "version", str_or_null(l->version));
	json_object_set_new(o, "version_source", str_or_null(l->version_source));
	json_object_set_new(o, "origin", str_or_null(l->origin));
	json_object_set_new(o, "owner", str_or_null(l->owner));
	json_object_set_new(o, "is_stub", json_boolean(l->is_stub));
	json_object_set_new(o, "broken_link", json_boolean(l->broken_link));
	json_object_set_new(o, "elf_class", l->elf_class ? json_integer(l->elf_class) : json_null());
	json_object_set_new(o, "symlink_chain", strings(l->chain, l->n_chain));
	json_object_set_new(o, "problem", str_or_null(l->problem));
	return o;
}

json_t *report_inventory_json(const struct inventory *inv)
{
	json_t *o = json_object();
	json_object_set_new(o, "driver", driver_json(&inv->driver));
	json_t *gpus = json_array();
	for (size_t i = 0; i < inv->n_gpus; i++) {
		const struct gpu_info *g = &inv->gpus[i];
		json_t *go = json_object();
		json_object_set_new(go, "name", str_or_null(g->name));
		if (g->cc_major)
			json_object_set_new(go, "compute_capability", json_sprintf("%d.%d", g->cc_major, g->cc_minor));
		else
			json_object_set_new(go, "compute_capability", json_null());
		json_object_set_new(go, "bus_id", str_or_null(g->bus_id));
		json_object_set_new(go, "uuid", str_or_null(g->uuid));
		json_object_set_new(go, "source", str_or_null(g->source));
		json_array_append_new(gpus, go);
	}
	json_object_set_new(o, "gpus", gpus);
	json_t *tks = json_array();
	for (size_t i = 0; i < inv->n_toolkits; i++) {
		const struct toolkit *t = &inv->toolkits[i];
		json_t *to = json_object();
		json_object_set_new(to, "path", json_string(t->path));
		json_object_set_new(to, "real_path", str_or_null(t->real_path));
		json_object_set_new(to, "version", str_or_null(t->version));
		json_object_set_new(to, "version_source", str_or_null(t->version_source));
		json_object_set_new(to, "origin", str_or_null(t->origin));
		json_object_set_new(to, "nvcc", str_or_null(t->nvcc));
		json_object_set_new(to, "stub_libcuda", str_or_null(t->stub_libcuda));
		json_array_append_new(tks, to);
	}
	json_object_set_new(o, "toolkits", tks);
	json_t *libs = json_array();
	for (size_t i = 0; i < inv->n_libs; i++)
		json_array_append_new(libs, lib_json(&inv->libs[i]));
	json_object_set_new(o, "libraries", libs);
	json_t *env = json_object();
	for (size_t i = 0; i < inv->n_env; i++)
		json_object_set_new(env, inv->env[i].name, json_string(inv->env[i].value));
	json_object_set_new(o, "env", env);
	if (inv->n_loaded) {
		json_t *loaded = json_array();
		for (size_t i = 0; i < inv->n_loaded; i++)
			json_array_append_new(loaded, json_string(inv->loaded[i].path));
		json_object_set_new(o, "loaded_by_process", loaded);
	}
	report_hooks_json(inv, o);
	json_t *notes = json_array();
	for (size_t i = 0; i < inv->n_notes; i++) {
		json_t *no = json_object();
		json_object_set_new(no, "subject", str_or_null(inv->notes[i].subject));
		json_object_set_new(no, "message", json_string(inv->notes[i].message));
		json_array_append_new(notes, no);
	}
	json_object_set_new(o, "notes", notes);
	return o;
}

void report_check_json(FILE *out, const struct cudx_ctx *ctx, const struct inventory *inv,
		       const struct findings *fs)
{
	(void)ctx;
	json_t *root = json_object();
	json_object_set_new(root, "schema", json_string("cudx/1"));
	json_t *tool = json_object();
	json_object_set_new(tool, "name", json_string("cudx"));
	json_object_set_new(tool, "version", json_string(CUDX_VERSION));
	json_object_set_new(root, "tool", tool);
	json_object_set_new(root, "system", system_json(inv));
	json_object_set_new(root, "inventory", report_inventory_json(inv));
	json_object_set_new(root, "findings", report_findings_json(fs));
	report_json_dump(out, root);
	json_decref(root);
}
