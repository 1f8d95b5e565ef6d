/* JSON output of `cudx check`, schema "cudx/1" (docs/json.md). Keys keep insertion order so diffs
 * between runs are readable. The findings array and the dump are in findings_json.c. */
#include <jansson.h>
#include <string.h>

#include "kb/kb.h"
#include "report/json_parts.h"
#include "report/report.h"
#include "report/report_hooks.h"

static json_t *driver_json(const struct driver_info *d)
{
	json_t *o = json_object();
	json_object_set_new(o, "kernel_version", report_json_str(d->kernel_version));
	json_object_set_new(o, "kernel_flavour", report_json_str(d->kernel_flavour));
	json_object_set_new(o, "module_version", report_json_str(d->module_version));
	if (d->module_package) { /* no module loaded: the package that installs one */
		json_object_set_new(o, "module_package", report_json_str(d->module_package));
		json_object_set_new(o, "module_package_version", report_json_str(d->module_package_version));
		json_object_set_new(o, "module_package_flavour", report_json_str(d->module_package_flavour));
	}
	json_object_set_new(o, "libcuda", report_json_str(d->libcuda_path));
	json_object_set_new(o, "libcuda_version", report_json_str(d->libcuda_version));
	json_object_set_new(o, "libcuda_is_stub", json_boolean(d->libcuda_is_stub));
	if (d->libcuda_off_path) {
		json_object_set_new(o, "libcuda_off_path", report_json_str(d->libcuda_off_path));
		json_object_set_new(o, "libcuda_off_path_system", report_json_str(d->off_path_dir->system));
	}
	json_object_set_new(o, "nvml", report_json_str(d->nvml_path));
	json_object_set_new(o, "nvml_version", report_json_str(d->nvml_version));
	json_object_set_new(o, "simulated_version", report_json_str(d->simulated));
	json_object_set_new(o, "effective_version", report_json_str(d->effective_version));
	json_object_set_new(o, "max_cuda", report_json_str(d->max_cuda));
	json_object_set_new(o, "wsl", json_boolean(d->wsl));
	json_object_set_new(o, "wsl1", json_boolean(d->wsl1));
	if (driver_shows_l4t(d)) {
		json_t *t = json_object();
		json_object_set_new(t, "l4t_release", report_json_str(d->l4t_release));
		json_object_set_new(t, "jetpack", report_json_str(d->l4t ? d->l4t->jetpack : NULL));
		json_object_set_new(t, "cuda", report_json_str(d->l4t ? d->l4t->cuda : NULL));
		json_object_set_new(t, "nvgpu", json_boolean(d->tegra_gpu));
		json_object_set_new(t, "openrm", json_boolean(d->l4t_openrm));
		json_object_set_new(t, "display_module", report_json_str(d->display_module_version));
		json_object_set_new(o, "jetson", t);
	}
	json_t *nodes = json_array();
	for (size_t i = 0; i < d->n_nodes; i++) {
		const struct device_node *n = &d->nodes[i];
		json_t *no = json_object();
		json_object_set_new(no, "path", report_json_str(n->path));
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
	json_object_set_new(o, "compat_dirs", report_json_strings(d->compat_dirs, d->n_compat_dirs));
	json_object_set_new(o, "nvswitch", report_json_str(d->nvswitch));
	json_object_set_new(o, "fabricmanager", report_json_str(d->fabricmanager));
	json_object_set_new(o, "fabricmanager_enabled", json_boolean(d->fabricmanager_enabled));
	json_object_set_new(o, "nvidia_uvm_loaded", json_boolean(d->uvm_loaded));
	json_object_set_new(o, "nvidia_modprobe", report_json_str(d->nvidia_modprobe));
	json_object_set_new(o, "nvidia_modprobe_setuid", json_boolean(d->nvidia_modprobe_setuid));
	return o;
}

static json_t *lib_json(const struct lib_file *l)
{
	json_t *o = json_object();
	json_object_set_new(o, "path", report_json_str(l->path));
	json_object_set_new(o, "real_path", report_json_str(l->real_path));
	json_object_set_new(o, "component", report_json_str(l->component));
	json_object_set_new(o, "family", report_json_str(l->family));
	json_object_set_new(o, "major", json_integer(l->major));
	json_object_set_new(o, "cuda_major", l->cuda_major ? json_integer(l->cuda_major) : json_null());
	json_object_set_new(o, "soname", report_json_str(l->soname));
	json_object_set_new(o, "version", report_json_str(l->version));
	json_object_set_new(o, "version_source", report_json_str(l->version_source));
	json_object_set_new(o, "origin", report_json_str(l->origin));
	json_object_set_new(o, "owner", report_json_str(l->owner));
	json_object_set_new(o, "is_stub", json_boolean(l->is_stub));
	json_object_set_new(o, "broken_link", json_boolean(l->broken_link));
	json_object_set_new(o, "elf_class", l->elf_class ? json_integer(l->elf_class) : json_null());
	json_object_set_new(o, "symlink_chain", report_json_strings(l->chain, l->n_chain));
	json_object_set_new(o, "problem", report_json_str(l->problem));
	json_object_set_new(o, "size", l->size >= 0 ? json_integer(l->size) : json_null());
	json_object_set_new(o, "recorded_size", l->recorded_size >= 0 ? json_integer(l->recorded_size) : json_null());
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
		json_object_set_new(go, "name", report_json_str(g->name));
		if (g->cc_major)
			json_object_set_new(go, "compute_capability", json_sprintf("%d.%d", g->cc_major, g->cc_minor));
		else
			json_object_set_new(go, "compute_capability", json_null());
		json_object_set_new(go, "bus_id", report_json_str(g->bus_id));
		json_object_set_new(go, "uuid", report_json_str(g->uuid));
		json_object_set_new(go, "source", report_json_str(g->source));
		json_object_set_new(go, "pci_id", report_json_str(g->pci_id));
		json_object_set_new(go, "kernel_driver", report_json_str(g->kernel_driver));
		json_object_set_new(go, "pci_only", json_boolean(g->pci_only));
		json_array_append_new(gpus, go);
	}
	json_object_set_new(o, "gpus", gpus);
	json_t *tks = json_array();
	for (size_t i = 0; i < inv->n_toolkits; i++) {
		const struct toolkit *t = &inv->toolkits[i];
		json_t *to = json_object();
		json_object_set_new(to, "path", report_json_str(t->path));
		json_object_set_new(to, "real_path", report_json_str(t->real_path));
		json_object_set_new(to, "version", report_json_str(t->version));
		json_object_set_new(to, "version_source", report_json_str(t->version_source));
		json_object_set_new(to, "origin", report_json_str(t->origin));
		json_object_set_new(to, "nvcc", report_json_str(t->nvcc));
		json_object_set_new(to, "stub_libcuda", report_json_str(t->stub_libcuda));
		if (t->gcc_max_major)
			json_object_set_new(to, "gcc_max_major", json_integer(t->gcc_max_major));
		json_array_append_new(tks, to);
	}
	json_object_set_new(o, "toolkits", tks);
	if (inv->hostcc.path) {
		const struct host_compiler *h = &inv->hostcc;
		json_t *hc = json_object();
		json_object_set_new(hc, "path", report_json_str(h->path));
		json_object_set_new(hc, "real_path", report_json_str(h->real_path));
		json_object_set_new(hc, "gcc_major", h->gcc_major ? json_integer(h->gcc_major) : json_null());
		json_object_set_new(hc, "how", report_json_str(h->how));
		json_object_set_new(hc, "allowed_by", report_json_str(h->allowed));
		json_object_set_new(o, "host_compiler", hc);
	}
	if (inv->containerd.config) {
		json_t *cd = json_object();
		json_object_set_new(cd, "config", report_json_str(inv->containerd.config));
		json_object_set_new(cd, "nvidia_runtime", json_boolean(inv->containerd.nvidia_runtime));
		json_object_set_new(cd, "default_runtime", report_json_str(inv->containerd.default_runtime));
		json_object_set_new(o, "containerd", cd);
	}
	if (inv->container_host.toolkit || inv->container_host.engine || inv->container_host.unprivileged) {
		json_t *ch = json_object();
		json_object_set_new(ch, "toolkit", report_json_str(inv->container_host.toolkit));
		json_object_set_new(ch, "engine", report_json_str(inv->container_host.engine));
		json_object_set_new(ch, "unprivileged", report_json_str(inv->container_host.unprivileged));
		json_object_set_new(o, "container_host", ch);
	}
	json_t *libs = json_array();
	for (size_t i = 0; i < inv->n_libs; i++)
		json_array_append_new(libs, lib_json(&inv->libs[i]));
	json_object_set_new(o, "libraries", libs);
	json_t *env = json_object();
	for (size_t i = 0; i < inv->n_env; i++)
		json_object_set_new(env, inv->env[i].name, report_json_str(inv->env[i].value));
	json_object_set_new(o, "env", env);
	if (inv->n_loaded) {
		json_t *loaded = json_array();
		for (size_t i = 0; i < inv->n_loaded; i++)
			json_array_append_new(loaded, report_json_str(inv->loaded[i].path));
		json_object_set_new(o, "loaded_by_process", loaded);
	}
	report_hooks_json(inv, o);
	json_t *notes = json_array();
	for (size_t i = 0; i < inv->n_notes; i++) {
		json_t *no = json_object();
		json_object_set_new(no, "subject", report_json_str(inv->notes[i].subject));
		json_object_set_new(no, "message", json_string(inv->notes[i].message));
		json_array_append_new(notes, no);
	}
	json_object_set_new(o, "notes", notes);
	return o;
}

void report_check_json(FILE *out, const struct cudx_ctx *ctx, const struct inventory *inv,
		       const struct findings *fs)
{
	json_t *root = report_envelope_json(ctx, inv, "check", fs);
	json_object_set_new(root, "inventory", report_inventory_json(inv));
	report_json_dump(out, root);
	json_decref(root);
}
