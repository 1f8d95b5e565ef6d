/* cudx run: the observed load set joins the inventory. */
#include "collect/observed_inventory.h"

#include <string.h>

#include "collect/arch.h"
#include "collect/focus.h"
#include "fmt/elf.h"
#include "kb/kb.h"

const char *observed_proc_label(struct arena *a, const struct observed_process *p)
{
	const char *what = p->args && *p->args ? p->args : p->exe ? p->exe : "start not recorded";
	/* one line: the arguments may hold newlines (python -c "...") */
	size_t n = strcspn(what, "\n");
	bool cut = n > 80 || what[n];
	return arena_printf(a, "pid %lld (%.*s%s)", p->pid, (int)(n > 80 ? 80 : n), what, cut ? " ..." : "");
}

static const struct kb_lib *gpu_lib(const char *name)
{
	return name ? kb_lib_classify(path_basename(name), OS_LINUX) : NULL;
}

const char *observed_real_path(struct cudx_ctx *ctx, const char *path)
{
	struct sysroot_resolved r;
	return path && *path && sysroot_resolve(&ctx->root, ctx->arena, path, &r) == 0 ? r.path : NULL;
}

/* Every GPU library a process opened becomes a copy in the inventory (origin "loaded by ..."), so
 * the rules of check judge it; returns the libcuda the first judged process loaded, if any. */
static struct lib_file *add_loaded_libs(struct cudx_ctx *ctx, struct inventory *inv, struct run_observation *ro)
{
	const char *libcuda = NULL;
	for (size_t j = 0; j < ro->n_judged; j++) {
		const struct observed_process *p = &ro->procs.procs[ro->judged[j]];
		const char *origin = arena_printf(ctx->arena, "loaded by pid %lld", p->pid);
		for (size_t i = 0; i < p->n_objs; i++) {
			const struct observed_object *o = &p->objs[i];
			const struct kb_lib *k = gpu_lib(o->path);
			if (!k || o->inherited)
				continue;
			struct lib_file *l = inventory_add_lib(ctx, inv, o->path, origin, NULL);
			if (l && !libcuda && strcmp(l->component, "libcuda") == 0)
				libcuda = l->path;
		}
	}
	for (size_t i = 0; libcuda && i < inv->n_libs; i++)
		if (inv->libs[i].path == libcuda)
			return &inv->libs[i];
	return NULL;
}

/* The driver library a program really used is the inventory's driver library: the one the loader
 * would pick for cudx may be another (the program's own LD_LIBRARY_PATH, a bundled copy). The
 * order of precedence stays collect_driver's: --driver, then this libcuda, then the kernel's. */
static void use_loaded_libcuda(struct cudx_ctx *ctx, struct inventory *inv, const struct lib_file *l)
{
	struct driver_info *d = &inv->driver;
	d->libcuda_path = l->path;
	d->libcuda_version = l->version;
	d->libcuda_is_stub = l->is_stub;
	if (d->simulated)
		return;
	if (l->version && !l->is_stub)
		d->effective_version = l->version;
	else
		d->effective_version = d->kernel_version ? d->kernel_version : d->module_version;
	d->max_cuda = driver_max_cuda(d, ctx->os);
}

static bool proc_uses_gpu(const struct observed_process *p)
{
	for (size_t i = 0; i < p->n_objs; i++)
		if (gpu_lib(p->objs[i].path))
			return true;
	for (size_t i = 0; i < p->n_searches; i++)
		if (gpu_lib(p->searches[i].name))
			return true;
	return false;
}

/* Whether name was satisfied anyway in p: another search for it opened something, or an object
 * carries that name (the loader finds an already-loaded object by name without a search). */
static bool got_anyway(const struct observed_process *p, const char *name)
{
	for (size_t i = 0; i < p->n_searches; i++)
		if (p->searches[i].opened && strcmp(p->searches[i].name, name) == 0)
			return true;
	for (size_t i = 0; i < p->n_objs; i++)
		if (strcmp(path_basename(p->objs[i].path), path_basename(name)) == 0)
			return true;
	return false;
}

/* A candidate of a failed search that exists: either the file is already in the process under
 * another name (not a failure), or the loader refused it. Returns true for the first case. */
static bool check_existing(struct cudx_ctx *ctx, const struct observed_process *p, const char **reals, const char *cand,
			   struct run_not_found *nf)
{
	const char *rp = observed_real_path(ctx, cand);
	if (!rp || sysroot_is_dir(&ctx->root, rp))
		return false;
	for (size_t i = 0; i < p->n_objs; i++)
		if (reals[i] && strcmp(reals[i], rp) == 0)
			return true;
	if (nf->existing)
		return false;
	nf->existing = cand;
	struct mapped_file m;
	if (sysroot_map(&ctx->root, rp, &m) != 0) {
		nf->existing_why = "cannot be read";
		return false;
	}
	int cls, prog_cls = 0;
	uint16_t mach, prog_mach = 0;
	struct mapped_file pm;
	if (p->n_objs && p->objs[0].is_main && sysroot_map(&ctx->root, p->objs[0].path, &pm) == 0) {
		elf_ident(pm.data, &prog_cls, &prog_mach);
		sysroot_unmap(&pm);
	}
	if (!elf_ident(m.data, &cls, &mach))
		nf->existing_why = "not an ELF file (invalid ELF header)";
	else if (prog_cls && cls != prog_cls)
		nf->existing_why = arena_printf(ctx->arena, "ELF class %d (the program is %d-bit)", cls, prog_cls);
	else if (prog_mach && mach != prog_mach)
		nf->existing_why = arena_printf(ctx->arena, "built for %s (the program is %s)", elf_machine_name(mach),
						elf_machine_name(prog_mach));
	else
		nf->existing_why = "the loader did not take it";
	sysroot_unmap(&m);
	return false;
}

static void find_not_found(struct cudx_ctx *ctx, struct run_observation *ro, size_t pi)
{
	const struct observed_process *p = &ro->procs.procs[pi];
	const char **reals = NULL;
	for (size_t s = 0; s < p->n_searches; s++) {
		const struct observed_search *se = &p->searches[s];
		if (se->opened || !*se->name || got_anyway(p, se->name))
			continue;
		struct run_not_found *dup = NULL;
		for (size_t k = ro->n_not_found; k-- > 0 && !dup;)
			if (ro->not_found[k].proc == pi && strcmp(ro->not_found[k].name, se->name) == 0)
				dup = &ro->not_found[k];
		if (dup) {
			dup->times++;
			continue;
		}
		if (!reals) { /* the real files of the process's objects, once */
			reals = arena_calloc(ctx->arena, p->n_objs + 1, sizeof *reals);
			for (size_t i = 0; i < p->n_objs; i++)
				reals[i] = observed_real_path(ctx, p->objs[i].path);
		}
		struct run_not_found nf = { .proc = pi,
					    .search = se,
					    .name = se->name,
					    .at_runtime = se->at_runtime,
					    .gpu = gpu_lib(se->name) != NULL,
					    .times = 1 };
		bool loaded = strchr(se->name, '/') && check_existing(ctx, p, reals, se->name, &nf);
		for (size_t c = 0; c < se->n_tried && !loaded; c++)
			loaded = check_existing(ctx, p, reals, se->tried[c], &nf);
		if (loaded) {
			ro->found_loaded++;
			continue;
		}
		if (se->requested_by)
			nf.requested_by = p->objs[se->requested_by - 1].path;
		if (ro->n_not_found == RUN_MAX_NOT_FOUND) {
			ro->more_not_found++;
			continue;
		}
		*ARENA_PUSH(ctx->arena, ro->not_found, ro->n_not_found, ro->cap_not_found) = nf;
	}
}

/* The GPU code of what the judged processes ran: the program and every object they loaded that
 * carries a fat binary (an application's own kernels, a framework's libraries), judged against the
 * GPUs as `cudx arch` judges a file, so that "no kernel image is available" meets its cause. check
 * judged the catalogued libraries already (collect_arch); only files with no code for a GPU stay. */
#define RUN_MAX_CODE_FILES 1024

static void judge_gpu_code(struct cudx_ctx *ctx, struct inventory *inv, const struct run_observation *ro)
{
	struct arch_inventory *ai = inv->arch;
	if (!ai || ai->n_gpus == 0)
		return;
	size_t tried = 0;
	for (size_t j = 0; j < ro->n_judged; j++) {
		const struct observed_process *p = &ro->procs.procs[ro->judged[j]];
		for (size_t i = 0; i < p->n_objs && tried < RUN_MAX_CODE_FILES; i++) {
			const struct observed_object *o = &p->objs[i];
			if (o->inherited || o->path[0] != '/')
				continue;
			const char *real = observed_real_path(ctx, o->path);
			if (!real || arch_inventory_has(ai, real))
				continue;
			tried++;
			struct arch_file *f = arch_analyze_file(ctx, ai, real, NULL);
			/* kept only where it cannot run: a library of NVIDIA's that reaches the GPU through
			 * PTX JIT (cuFile's on an H100) is no finding of this run, and check does not judge
			 * what it does not catalogue either */
			bool fails = false;
			for (size_t g = 0; !f->error && g < ai->n_gpus; g++)
				fails |= f->verdicts[g].verdict == ARCH_NO_IMAGE;
			if (!fails)
				ai->n_files--;
			else
				focus_add(ctx->arena, inv->focus, FOCUS_LOADED, real);
		}
	}
}

/* What the report is about: the program, the GPU libraries the judged processes loaded, and
 * every name a process never found (a missing dependency of any kind stops or changes it). */
static void add_focus(struct cudx_ctx *ctx, struct inventory *inv, const struct run_observation *ro)
{
	if (!inv->focus)
		inv->focus = arena_calloc(ctx->arena, 1, sizeof *inv->focus);
	if (ro->command)
		focus_add(ctx->arena, inv->focus, FOCUS_LOADED, ro->command);
	for (size_t j = 0; j < ro->n_judged; j++) {
		const struct observed_process *p = &ro->procs.procs[ro->judged[j]];
		for (size_t i = 0; i < p->n_objs; i++)
			if (!p->objs[i].inherited && !p->objs[i].is_main && *p->objs[i].path &&
			    gpu_lib(p->objs[i].path))
				focus_add(ctx->arena, inv->focus, FOCUS_LOADED, p->objs[i].path);
	}
	for (size_t i = 0; i < ro->n_not_found; i++)
		focus_add(ctx->arena, inv->focus, FOCUS_LOADED, ro->not_found[i].name);
}

void observed_collect(struct cudx_ctx *ctx, struct inventory *inv, struct run_observation *ro)
{
	inv->run = ro;
	const struct observed_run *r = &ro->procs;
	for (size_t i = 0; i < r->n_procs && !ro->top; i++)
		if (r->procs[i].pid == ro->pid && r->procs[i].exe)
			ro->top = i + 1;
	size_t cap = 0;
	for (size_t i = 0; i < r->n_procs; i++)
		if (proc_uses_gpu(&r->procs[i]))
			*ARENA_PUSH(ctx->arena, ro->judged, ro->n_judged, cap) = i;
	if (!ro->n_judged && ro->top)
		*ARENA_PUSH(ctx->arena, ro->judged, ro->n_judged, cap) = ro->top - 1;
	for (size_t i = 0; i < r->n_procs; i++)
		find_not_found(ctx, ro, i);
	struct lib_file *libcuda = add_loaded_libs(ctx, inv, ro);
	if (libcuda)
		use_loaded_libcuda(ctx, inv, libcuda);
	add_focus(ctx, inv, ro);
	judge_gpu_code(ctx, inv, ro);
}

const struct lib_file *observed_copy(struct cudx_ctx *ctx, const struct inventory *inv, const char *path)
{
	const char *rp = observed_real_path(ctx, path);
	for (size_t c = 0; rp && c < inv->n_libs; c++)
		if (inv->libs[c].real_path && strcmp(inv->libs[c].real_path, rp) == 0)
			return &inv->libs[c];
	return NULL;
}

struct loaded_lib *observed_loaded(struct cudx_ctx *ctx, const struct inventory *inv, const struct run_observation *ro,
				   size_t proc, size_t *n)
{
	struct loaded_lib *v = NULL;
	size_t cap = 0;
	*n = 0;
	const struct observed_process *p = &ro->procs.procs[proc];
	for (size_t i = 0; i < p->n_objs; i++) {
		const struct kb_lib *k = gpu_lib(p->objs[i].path);
		if (!k)
			continue;
		const struct lib_file *copy = observed_copy(ctx, inv, p->objs[i].path);
		*ARENA_PUSH(ctx->arena, v, *n, cap) = (struct loaded_lib){ .path = p->objs[i].path,
									   .component = k->component,
									   .family = k->family,
									   .major = k->major,
									   .version = copy ? copy->version : NULL };
	}
	return v;
}
