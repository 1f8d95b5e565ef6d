/* Per-target summary of a fat-binary scan and the verdict for one GPU. See arch.h. */
#include "arch/arch.h"

#include <stdlib.h>
#include <string.h>

#include "fmt/version.h"
#include "kb/kb.h"

static int kind_rank(uint16_t kind)
{
	switch (kind) {
	case FATBIN_KIND_ELF:
		return 0;
	case FATBIN_KIND_PTX:
		return 1;
	case FATBIN_KIND_LTOIR:
		return 2;
	default:
		return 3;
	}
}

static int target_cmp(const void *x, const void *y)
{
	const struct arch_target *a = x, *b = y;
	if (kind_rank(a->kind) != kind_rank(b->kind))
		return kind_rank(a->kind) - kind_rank(b->kind);
	if (a->kind != b->kind)
		return a->kind < b->kind ? -1 : 1;
	if (a->sm != b->sm)
		return a->sm < b->sm ? -1 : 1;
	return (unsigned char)a->variant - (unsigned char)b->variant;
}

static bool isa_less(uint16_t amaj, uint16_t amin, uint16_t bmaj, uint16_t bmin)
{
	return amaj < bmaj || (amaj == bmaj && amin < bmin);
}

void arch_summarize(const struct fatbin_file *f, struct arena *a, struct arch_summary *out)
{
	memset(out, 0, sizeof *out);
	out->n_containers = f->n_containers;
	out->n_entries = f->n_entries;
	if (f->n_entries == 0)
		return;
	/* distinct targets are few (a few dozen in the largest NVIDIA libraries): a bounded array */
	out->targets = arena_calloc(a, ARCH_MAX_TARGETS, sizeof *out->targets);
	for (size_t i = 0; i < f->n_entries; i++) {
		const struct fatbin_entry *e = &f->entries[i];
		switch (e->kind) {
		case FATBIN_KIND_ELF:
			out->n_sass++;
			break;
		case FATBIN_KIND_PTX:
			out->n_ptx++;
			break;
		case FATBIN_KIND_LTOIR:
			out->n_ltoir++;
			break;
		}
		out->by_comp[e->compression & 3]++;
		struct arch_target *t = NULL;
		for (size_t k = 0; k < out->n_targets; k++) {
			struct arch_target *c = &out->targets[k];
			if (c->kind == e->kind && c->sm == e->sm && c->variant == e->variant) {
				t = c;
				break;
			}
		}
		if (!t) {
			if (out->n_targets == ARCH_MAX_TARGETS) {
				out->other_entries++;
				continue;
			}
			t = &out->targets[out->n_targets++];
			t->kind = e->kind;
			t->sm = e->sm;
			t->variant = e->variant;
			t->isa_min_major = t->isa_max_major = e->major;
			t->isa_min_minor = t->isa_max_minor = e->minor;
		}
		t->count++;
		if (isa_less(e->major, e->minor, t->isa_min_major, t->isa_min_minor))
			t->isa_min_major = e->major, t->isa_min_minor = e->minor;
		if (isa_less(t->isa_max_major, t->isa_max_minor, e->major, e->minor))
			t->isa_max_major = e->major, t->isa_max_minor = e->minor;
		if (e->kind == FATBIN_KIND_ELF && e->major == 1 && e->minor == 7)
			t->abi7++;
		if (e->kind == FATBIN_KIND_ELF && e->major == 1 && e->minor == 8)
			t->abi8++;
		t->by_comp[e->compression & 3]++;
		t->stored_bytes += e->header_size + e->payload_size;
	}
	qsort(out->targets, out->n_targets, sizeof *out->targets, target_cmp);
}

char *arch_target_list(struct arena *a, const struct arch_summary *s, uint16_t kind, bool counts)
{
	char *out = arena_strdup(a, "");
	for (size_t i = 0; i < s->n_targets; i++) {
		const struct arch_target *t = &s->targets[i];
		if (t->kind != kind)
			continue;
		struct fatbin_entry e = { .kind = t->kind, .sm = t->sm, .variant = t->variant };
		char name[48];
		fatbin_target_name(&e, name, sizeof name);
		if (counts)
			out = arena_printf(a, "%s%s%s x%u", out, *out ? "  " : "", name, t->count);
		else
			out = arena_printf(a, "%s%s%s", out, *out ? " " : "", name);
	}
	return out;
}

/* sm numbers are major*10 + minor (sm_120 = 12.0); valid minors are single digits */
static int cc_of(uint32_t sm)
{
	return (int)sm;
}

bool arch_sass_runs(uint32_t sm, char variant, int cc_major, int cc_minor)
{
	if (sm == 0 || sm > 10000)
		return false;
	int smaj = cc_of(sm) / 10, smin = cc_of(sm) % 10;
	if (variant == 'a')
		return smaj == cc_major && smin == cc_minor;
	/* plain and family-specific: same major, equal or higher minor */
	return smaj == cc_major && cc_minor >= smin;
}

bool arch_ptx_jits(uint32_t sm, char variant, int cc_major, int cc_minor)
{
	if (sm == 0 || sm > 10000)
		return false;
	int smaj = cc_of(sm) / 10, smin = cc_of(sm) % 10;
	if (variant == 'a')
		return smaj == cc_major && smin == cc_minor;
	if (variant == 'f')
		return smaj == cc_major && cc_minor >= smin;
	return cc_major > smaj || (cc_major == smaj && cc_minor >= smin);
}

const char *arch_verdict_name(enum arch_verdict v)
{
	switch (v) {
	case ARCH_NATIVE:
		return "native";
	case ARCH_PTX_JIT:
		return "ptx-jit";
	case ARCH_NO_IMAGE:
		return "no-kernel-image";
	default:
		return "no-gpu-code";
	}
}

const char *arch_ptx_jit_needs_cuda(int isa_major, int isa_minor)
{
	const struct kb_ptx_isa *row = kb_ptx_isa(isa_major, isa_minor);
	return row ? row->driver_cuda : NULL;
}

/* 1 when the driver's CUDA level reaches what the PTX ISA needs, 0 when not, -1 unknown */
static int driver_reads_isa(const char *driver_max_cuda, int major, int minor)
{
	if (!driver_max_cuda)
		return -1;
	const char *needs = arch_ptx_jit_needs_cuda(major, minor);
	if (!needs)
		return -1; /* newer than our data: cannot say */
	return version_strcmp(driver_max_cuda, needs) >= 0;
}

/* Native coverage of the best-served GPU: for each distinct SASS target (as a GPU of that compute
 * capability), the fat binaries with SASS that runs there. Bounded: at most 64 targets tried. */
static size_t reference_native(const struct fatbin_file *f)
{
	uint32_t tried[64];
	size_t n_tried = 0, best = 0;
	for (size_t i = 0; i < f->n_entries && n_tried < 64; i++) {
		const struct fatbin_entry *e = &f->entries[i];
		if (e->kind != FATBIN_KIND_ELF || e->sm == 0 || e->sm > 10000)
			continue;
		bool dup = false;
		for (size_t k = 0; k < n_tried && !dup; k++)
			dup = tried[k] == e->sm;
		if (dup)
			continue;
		tried[n_tried++] = e->sm;
		const int ma = (int)e->sm / 10, mi = (int)e->sm % 10;
		size_t n = 0;
		for (size_t c = 0; c < f->n_containers; c++) {
			const struct fatbin_container *ct = &f->containers[c];
			for (uint32_t k = 0; k < ct->n_entries; k++) {
				const struct fatbin_entry *x = &f->entries[ct->first_entry + k];
				if (x->kind == FATBIN_KIND_ELF && arch_sass_runs(x->sm, x->variant, ma, mi)) {
					n++;
					break;
				}
			}
		}
		if (n > best)
			best = n;
	}
	return best;
}

/* d, dn: distance of two SASS targets from the GPU; prefer the highest one below it */
static bool nearer(int64_t d, int64_t dn)
{
	if ((d <= 0) != (dn <= 0))
		return d <= 0;
	return d <= 0 ? d > dn : d < dn;
}

void arch_judge(const struct fatbin_file *f, int cc_major, int cc_minor, const char *driver_max_cuda,
		struct arch_judgement *out)
{
	memset(out, 0, sizeof *out);
	out->driver_ok = -1;
	out->modules = f->n_containers;
	const int gpu = cc_major * 10 + cc_minor;
	bool any_isa = false;

	for (size_t c = 0; c < f->n_containers; c++) {
		const struct fatbin_container *ct = &f->containers[c];
		const struct fatbin_entry *sass = NULL, *ptx = NULL;
		bool loadable = false, ltoir = false;
		/* first_entry + n_entries <= n_entries by construction of the scan */
		for (uint32_t k = 0; k < ct->n_entries; k++) {
			const struct fatbin_entry *e = &f->entries[ct->first_entry + k];
			loadable |= e->kind == FATBIN_KIND_ELF || e->kind == FATBIN_KIND_PTX;
			ltoir |= e->kind == FATBIN_KIND_LTOIR;
			if (e->kind == FATBIN_KIND_ELF) {
				if (arch_sass_runs(e->sm, e->variant, cc_major, cc_minor)) {
					if (!sass || e->sm > sass->sm)
						sass = e;
				} else {
					/* closest other SASS: highest below the GPU, else lowest above */
					const struct fatbin_entry *n = out->nearest_sass;
					if (!n || nearer((int64_t)e->sm - gpu, (int64_t)n->sm - gpu))
						out->nearest_sass = e;
				}
			} else if (e->kind == FATBIN_KIND_PTX && arch_ptx_jits(e->sm, e->variant, cc_major, cc_minor)) {
				if (!ptx || e->sm > ptx->sm)
					ptx = e;
			}
		}
		if (!loadable && ltoir) {
			out->modules_ltoir_only++;
			continue;
		}
		if (sass) {
			out->modules_native++;
			if (!out->best_sass || sass->sm > out->best_sass->sm)
				out->best_sass = sass;
			continue;
		}
		if (!ptx) {
			out->modules_none++;
			continue;
		}
		if (!out->best_ptx || ptx->sm > out->best_ptx->sm)
			out->best_ptx = ptx;
		if (!any_isa || isa_less((uint16_t)out->ptx_isa_major, (uint16_t)out->ptx_isa_minor, ptx->major,
					 ptx->minor)) {
			out->ptx_isa_major = ptx->major;
			out->ptx_isa_minor = ptx->minor;
			any_isa = true;
		}
		if (driver_reads_isa(driver_max_cuda, ptx->major, ptx->minor) == 0)
			out->modules_jit_driver_too_old++;
		else
			out->modules_jit++;
	}
	if (any_isa) {
		out->ptx_needs_cuda = arch_ptx_jit_needs_cuda(out->ptx_isa_major, out->ptx_isa_minor);
		out->driver_ok = driver_reads_isa(driver_max_cuda, out->ptx_isa_major, out->ptx_isa_minor);
	}
	out->reference_native = reference_native(f);
	const size_t usable = out->modules_native + out->modules_jit;
	if (usable && usable * 100 < out->reference_native * ARCH_SPARSE_PERCENT)
		out->sparse = true;
	if (f->n_containers == 0)
		out->verdict = ARCH_NO_GPU_CODE;
	else if (out->sparse)
		out->verdict = ARCH_NO_IMAGE;
	else if (out->modules_native)
		out->verdict = ARCH_NATIVE;
	else if (out->modules_jit)
		out->verdict = ARCH_PTX_JIT;
	else
		out->verdict = ARCH_NO_IMAGE;
}

bool arch_parse_cc(const char *s, int *cc_major, int *cc_minor)
{
	if (!s)
		return false;
	if (strncmp(s, "sm_", 3) == 0)
		s += 3;
	else if (strncmp(s, "compute_", 8) == 0)
		s += 8;
	char *end;
	long a = strtol(s, &end, 10);
	if (end == s || a < 0 || a > 9999)
		return false;
	if (*end == '.') {
		const char *m = end + 1;
		long b = strtol(m, &end, 10);
		if (end == m || b < 0 || b > 9 || *end || a > 99)
			return false;
		*cc_major = (int)a, *cc_minor = (int)b;
		return true;
	}
	/* "86", "120", "90a", "100f" */
	if ((*end == 'a' || *end == 'f') && end[1] == 0)
		end++;
	if (*end || a < 10)
		return false;
	*cc_major = (int)(a / 10), *cc_minor = (int)(a % 10);
	return true;
}
