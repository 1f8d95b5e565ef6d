/* GPU code in the libraries the system would load, judged against the GPUs of this machine or
 * --gpu. Files are mapped, never read whole; the fat-binary scan reports how far it got and the
 * pages behind it are dropped (madvise), so even the 540 MB libcublasLt costs a few MB of RSS. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "collect/arch.h"
#include "collect/focus.h"
#include "kb/kb.h"

#define ARCH_MAX_LIBS 512          /* libraries judged in one check */
#define ARCH_RELEASE_CHUNK (2u << 20) /* drop mapped pages in steps of this size */

static void add_gpu(struct cudx_ctx *ctx, struct arch_inventory *ai, int ma, int mi, const char *name,
		    const char *source)
{
	struct arch_gpu *g = ARENA_PUSH(ctx->arena, ai->gpus, ai->n_gpus, ai->cap_gpus);
	g->cc_major = ma;
	g->cc_minor = mi;
	g->label = arena_printf(ctx->arena, "sm_%d%d", ma, mi);
	g->name = name;
	g->source = source;
}

void arch_inventory_init(struct cudx_ctx *ctx, const struct inventory *inv, struct arch_inventory *ai)
{
	memset(ai, 0, sizeof *ai);
	const struct options *o = ctx->opt;
	for (size_t i = 0; i < o->n_gpus; i++) {
		int ma, mi;
		if (arch_parse_cc(o->gpus[i], &ma, &mi)) {
			add_gpu(ctx, ai, ma, mi, NULL, "--gpu");
			continue;
		}
		const struct kb_gpu *g = kb_gpu_lookup(o->gpus[i]);
		if (g && g->cc_major > 0) {
			add_gpu(ctx, ai, g->cc_major, g->cc_minor, g->name, "--gpu");
			continue;
		}
		*(const char **)ARENA_PUSH(ctx->arena, ai->bad_gpus, ai->n_bad_gpus, ai->cap_bad_gpus) = o->gpus[i];
	}
	if (o->n_gpus == 0 && inv) {
		for (size_t i = 0; i < inv->n_gpus; i++)
			if (inv->gpus[i].cc_major > 0)
				add_gpu(ctx, ai, inv->gpus[i].cc_major, inv->gpus[i].cc_minor, inv->gpus[i].name,
					inv->gpus[i].source);
	}
	if (o->driver) {
		ai->driver_version = o->driver;
		ai->driver_max_cuda = kb_driver_max_cuda(o->driver, ctx->os);
	} else if (inv && inv->driver.effective_version) {
		ai->driver_version = inv->driver.effective_version;
		ai->driver_max_cuda = inv->driver.max_cuda ? inv->driver.max_cuda
							   : kb_driver_max_cuda(ai->driver_version, ctx->os);
	}
}

struct release_state {
	uint8_t *base;
	uint64_t done; /* bytes from the start already dropped; page aligned */
	uint64_t len;
};

/* Drop the mapped pages the scan has passed. MADV_DONTNEED on a read-only file mapping only
 * unmaps them from this process (the page cache keeps them); a later touch would fault them
 * back in unchanged, so this is safe even if the reader looked back. */
static void release_pages(void *ud, uint64_t upto)
{
	struct release_state *r = ud;
	long pg = sysconf(_SC_PAGESIZE);
	uint64_t to = upto & ~(uint64_t)(pg > 0 ? pg - 1 : 4095);
	if (to > r->len)
		to = r->len & ~(uint64_t)(pg > 0 ? pg - 1 : 4095);
	if (to < r->done + ARCH_RELEASE_CHUNK)
		return;
	madvise(r->base + r->done, (size_t)(to - r->done), MADV_DONTNEED);
	r->done = to;
}

struct arch_file *arch_analyze_file(struct cudx_ctx *ctx, struct arch_inventory *ai, const char *path,
				    const char *component)
{
	struct arch_file *f = ARENA_PUSH(ctx->arena, ai->files, ai->n_files, ai->cap_files);
	f->path = path;
	f->component = component;

	/* a path inside an analysed root goes through the sysroot; on the live system (and for a
	 * relative path the user typed) it is the user's own file */
	int fd;
	if (ctx->root.live || path[0] != '/') {
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			fd = -errno;
	} else {
		fd = sysroot_open(&ctx->root, path, O_RDONLY | O_CLOEXEC);
	}
	if (fd < 0) {
		f->error = arena_printf(ctx->arena, "cannot open: %s", strerror(-fd));
		return f;
	}
	struct stat st;
	if (fstat(fd, &st) != 0) {
		f->error = arena_printf(ctx->arena, "cannot stat: %s", strerror(errno));
		close(fd);
		return f;
	}
	if (!S_ISREG(st.st_mode)) {
		f->error = "not a regular file";
		close(fd);
		return f;
	}
	void *base = NULL;
	size_t len = (size_t)st.st_size;
	if (len > 0) {
		base = mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, 0);
		if (base == MAP_FAILED) {
			f->error = arena_printf(ctx->arena, "cannot map: %s", strerror(errno));
			close(fd);
			return f;
		}
	}
	close(fd);
	struct release_state rs = { base, 0, len };
	struct fatbin_opts opts = { release_pages, &rs };
	fatbin_scan(span_make(base, len), ctx->arena, &opts, &f->fat);
	if (base)
		munmap(base, len);

	arch_summarize(&f->fat, ctx->arena, &f->summary);
	f->verdicts = arena_calloc(ctx->arena, ai->n_gpus ? ai->n_gpus : 1, sizeof *f->verdicts);
	for (size_t g = 0; g < ai->n_gpus; g++)
		arch_judge(&f->fat, ai->gpus[g].cc_major, ai->gpus[g].cc_minor, ai->driver_max_cuda, &f->verdicts[g]);
	return f;
}

bool arch_inventory_has(const struct arch_inventory *ai, const char *path)
{
	for (size_t i = 0; i < ai->n_files; i++)
		if (strcmp(ai->files[i].path, path) == 0)
			return true;
	return false;
}

void collect_arch(struct cudx_ctx *ctx, struct inventory *inv)
{
	struct arch_inventory *ai = arena_calloc(ctx->arena, 1, sizeof *ai);
	inv->arch = ai;
	arch_inventory_init(ctx, inv, ai);
	for (size_t i = 0; i < ai->n_bad_gpus; i++)
		inventory_note(ctx, inv, "--gpu", "unknown GPU '%s' (give sm_XY, X.Y or a model name)", ai->bad_gpus[i]);
	/* a command about something else (collect/focus.h) does not pay for the scan of every
	 * library: `arch FILE...` judges its files, even with no GPU to judge them against (their
	 * code is listed), and why/tree/probe none */
	if (inv->focus && !inv->focus->whole_system) {
		for (size_t i = 0; i < inv->focus->n_items; i++)
			if (inv->focus->items[i].kind == FOCUS_GPU_CODE)
				arch_analyze_file(ctx, ai, inv->focus->items[i].name, NULL);
		return;
	}
	/* without a GPU there is nothing to judge, and scanning hundreds of MB would be wasted */
	if (ai->n_gpus == 0) {
		ai->skipped = "no GPU detected and no --gpu given";
		return;
	}
	for (size_t i = 0; i < inv->n_libs && ai->n_files < ARCH_MAX_LIBS; i++) {
		const struct lib_file *l = &inv->libs[i];
		/* the driver's own libraries and link-time stubs are not what applications run */
		if (l->is_stub || l->broken_link || (l->family && strcmp(l->family, "driver") == 0))
			continue;
		const char *p = l->real_path ? l->real_path : l->path;
		if (!p || arch_inventory_has(ai, p))
			continue;
		struct arch_file *f = arch_analyze_file(ctx, ai, p, l->component);
		if (f->error) {
			inventory_note(ctx, inv, p, "GPU code not read: %s", f->error);
			ai->n_files--; /* keep only libraries whose code was judged */
		} else if (f->fat.n_containers == 0) {
			ai->n_files--; /* host-only library (cudart, nvrtc ...): nothing to judge */
		}
	}
}
