/* Fat binary scanner: see fatbin.h. Pure reader over a span; no I/O.
 *
 * Invariants the code relies on:
 * - every offset read from the input is checked with span_has() (or against a container end that
 *   was itself checked against the file) before use;
 * - the scan cursor only moves forward, and every step moves it by at least one byte, so a scan
 *   is linear in the file size;
 * - walking entries of a container that turns out malformed costs work that is later thrown
 *   away; a global budget (work_left) bounds that work to a small multiple of the file size, so
 *   a file crafted with many overlapping bogus headers cannot make the scan quadratic. */
#include "fmt/fatbin.h"
#include "fmt/ptx_text.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fmt/elf.h"

/* magic 0xBA55ED50, version 1, header_size 16, as one little-endian u64 (formats.md §7.1) */
#define FATBIN_MAGIC64 0x00100001BA55ED50ull
#define FATBIN_HEADER_SIZE 16u
#define ENTRY_MIN_HEADER 64u
#define ENTRY_VERSION 0x0101u
/* Report progress to the release callback at least this often while scanning. */
#define RELEASE_STEP (4u << 20)

struct scan_state {
	struct span file;
	struct arena *a;
	const struct fatbin_opts *opts;
	struct fatbin_file *out;
	uint64_t work_left; /* entry headers we are still willing to read */
	bool stopped;
};

static void problem(struct scan_state *st, const char *fmt, ...) CUDX_PRINTF(2, 3);

static void problem(struct scan_state *st, const char *fmt, ...)
{
	struct fatbin_file *out = st->out;
	out->n_problems_total++;
	if (out->n_problems >= FATBIN_MAX_PROBLEMS)
		return;
	va_list ap;
	va_start(ap, fmt);
	out->problems[out->n_problems++] = arena_vprintf(st->a, fmt, ap);
	va_end(ap);
}

static void release(struct scan_state *st, uint64_t upto)
{
	if (st->opts && st->opts->release)
		st->opts->release(st->opts->ud, upto);
}

static char entry_variant(uint64_t flags)
{
	if (flags & FATBIN_FLAG_ARCH_SPECIFIC)
		return 'a';
	if (flags & FATBIN_FLAG_FAMILY_SPECIFIC)
		return 'f';
	return 0;
}

static uint8_t entry_compression(uint64_t flags)
{
	if (flags & FATBIN_FLAG_ZSTD)
		return FATBIN_COMP_ZSTD;
	if (flags & FATBIN_FLAG_LZ4)
		return FATBIN_COMP_LZ4;
	if (flags & FATBIN_FLAG_COMPRESS_OTHER)
		return FATBIN_COMP_OTHER;
	return FATBIN_COMP_NONE;
}

/* Walk with an optional work budget (NULL: unlimited, for direct callers). */
static bool walk_container(struct span file, uint64_t off, struct arena *a, uint32_t region,
			   struct fatbin_file *out, const char **why, uint64_t *work_left)
{
	uint32_t magic;
	uint16_t version, hsize;
	uint64_t fat_size;
	if (!span_u32le(file, off, &magic) || !span_u16le(file, off + 4, &version) ||
	    !span_u16le(file, off + 6, &hsize) || !span_u64le(file, off + 8, &fat_size)) {
		*why = "header truncated";
		return false;
	}
	if (magic != FATBIN_MAGIC || version != 1 || hsize != FATBIN_HEADER_SIZE) {
		*why = "bad header (magic, version or header size)";
		return false;
	}
	/* off + 16 is in the file (the u64 above was read); fat_size must fit in what follows */
	if (!span_has(file, off + FATBIN_HEADER_SIZE, fat_size)) {
		*why = "size runs past the end of the file";
		return false;
	}
	const uint64_t end = off + FATBIN_HEADER_SIZE + fat_size; /* no overflow: checked above */
	const size_t first = out->n_entries;
	const bool was_truncated = out->truncated;
	uint64_t p = off + FATBIN_HEADER_SIZE;

	while (p < end) {
		if (work_left) {
			if (*work_left == 0) {
				*why = "scan budget exhausted";
				goto reject;
			}
			(*work_left)--;
		}
		if (end - p < ENTRY_MIN_HEADER) {
			*why = "entry header truncated";
			goto reject;
		}
		struct span s = span_sub(file, p, end - p); /* non-empty, inside the file */
		uint16_t kind, ever, minor, major;
		uint32_t hsz, csz, sm;
		uint64_t paysz, flags, usz;
		/* all reads are below 64 <= s.n, so they cannot fail */
		span_u16le(s, 0x00, &kind);
		span_u16le(s, 0x02, &ever);
		span_u32le(s, 0x04, &hsz);
		span_u64le(s, 0x08, &paysz);
		span_u32le(s, 0x10, &csz);
		span_u16le(s, 0x18, &minor);
		span_u16le(s, 0x1A, &major);
		span_u32le(s, 0x1C, &sm);
		span_u64le(s, 0x28, &flags);
		span_u64le(s, 0x38, &usz);
		if (ever != ENTRY_VERSION) {
			*why = "entry version is not 1.1";
			goto reject;
		}
		if (hsz < ENTRY_MIN_HEADER) {
			*why = "entry header size below 64";
			goto reject;
		}
		if (!span_has(s, hsz, paysz)) {
			*why = "entry size runs past the end of its fat binary";
			goto reject;
		}
		if (out->n_entries >= FATBIN_MAX_ENTRIES) {
			out->truncated = true;
		} else {
			struct fatbin_entry *e = ARENA_PUSH(a, out->entries, out->n_entries, out->cap_entries);
			*e = (struct fatbin_entry){
				.offset = p,
				.payload_size = paysz,
				.uncompressed_size = usz,
				.flags = flags,
				.compressed_size = csz,
				.header_size = hsz,
				.sm = sm,
				.container = (uint32_t)out->n_containers,
				.kind = kind,
				.major = major,
				.minor = minor,
				.variant = entry_variant(flags),
				.compression = entry_compression(flags),
			};
		}
		p += (uint64_t)hsz + paysz; /* >= 64 bytes forward; <= end (checked) */
	}
	struct fatbin_container *c = ARENA_PUSH(a, out->containers, out->n_containers, out->cap_containers);
	*c = (struct fatbin_container){
		.offset = off,
		.size = FATBIN_HEADER_SIZE + fat_size,
		.first_entry = (uint32_t)first,
		.n_entries = (uint32_t)(out->n_entries - first),
		.region = region,
	};
	return true;

reject:
	/* forget what this container added: a failed walk may have read garbage */
	out->n_entries = first;
	out->truncated = was_truncated;
	return false;
}

bool fatbin_walk_container(struct span file, uint64_t off, struct arena *a, uint32_t region,
			   struct fatbin_file *out, const char **why)
{
	return walk_container(file, off, a, region, out, why, NULL);
}

/* Try a hit at off. Returns the offset to continue scanning from. */
static uint64_t try_hit(struct scan_state *st, uint64_t off, uint32_t region, uint64_t step)
{
	struct fatbin_file *out = st->out;
	const char *why = NULL;
	size_t before = out->n_entries;
	if (walk_container(st->file, off, st->a, region, out, &why, &st->work_left)) {
		const struct fatbin_container *c = &out->containers[out->n_containers - 1];
		out->regions[region].containers++;
		out->regions[region].entries += (uint32_t)(out->n_entries - before);
		return off + c->size;
	}
	if (st->work_left == 0) {
		problem(st, "too many malformed fat binary headers; scan stopped at 0x%llx",
			(unsigned long long)off);
		st->stopped = true;
		return st->file.n;
	}
	problem(st, "fat binary at 0x%llx: %s; skipped", (unsigned long long)off, why);
	return off + step;
}

static uint64_t align_up(uint64_t v, uint64_t a)
{
	uint64_t r = v % a;
	return r ? v + (a - r) : v;
}

/* Scan [start, end) for headers at offsets that are multiples of step (8 inside ELF/PE sections:
 * the header is 8-byte aligned and sections keep file offset == address mod page size; 1 for
 * unknown files such as ar archives, whose members are only 2-aligned). Returns the offset
 * reached (may be past end when a container extends beyond the region). */
static uint64_t scan_range(struct scan_state *st, uint64_t start, uint64_t end, uint32_t region,
			   uint64_t step)
{
	const struct span f = st->file;
	if (end > f.n)
		end = f.n;
	uint64_t off = align_up(start, step);
	uint64_t next_release = off + RELEASE_STEP;
	while (!st->stopped && off < end && end - off >= FATBIN_HEADER_SIZE) {
		if (off >= next_release) {
			release(st, off);
			next_release = off + RELEASE_STEP;
		}
		/* the header is 16 bytes and must start before end - 15 */
		uint64_t limit = end - FATBIN_HEADER_SIZE + 1;
		if (limit > next_release)
			limit = next_release;
		uint64_t hit = UINT64_MAX;
		if (step == 8) {
			for (uint64_t q = off; q < limit; q += 8) {
				uint64_t w;
				memcpy(&w, f.p + q, 8); /* q + 8 <= end <= f.n */
				if (w == FATBIN_MAGIC64) {
					hit = q;
					break;
				}
			}
		} else {
			static const uint8_t magic[8] = { 0x50, 0xED, 0x55, 0xBA, 0x01, 0x00, 0x10, 0x00 };
			const uint8_t *base = f.p + off;
			/* search [off, limit + 7) so a match may start anywhere before limit */
			const uint8_t *m = memmem(base, (size_t)(limit - off) + 7, magic, sizeof magic);
			if (m)
				hit = (uint64_t)(m - f.p);
			/* keep alignment when step > 1 (e.g. 2) */
			while (hit != UINT64_MAX && hit % step) {
				m = memmem(f.p + hit + 1, (size_t)(limit + 7 - hit - 1), magic, sizeof magic);
				hit = m ? (uint64_t)(m - f.p) : UINT64_MAX;
			}
		}
		if (hit == UINT64_MAX) {
			st->out->bytes_scanned += limit - off;
			off = align_up(limit, step);
			continue;
		}
		st->out->bytes_scanned += hit - off;
		off = try_hit(st, hit, region, step);
		off = align_up(off, step);
	}
	return off;
}

/* --- where to look: sections of ELF and PE files ------------------------------------------ */

struct region_list {
	struct fatbin_region *v;
	size_t n, cap;
	bool capped;
};

static void add_region(struct arena *a, struct region_list *rl, const char *name, size_t name_len,
		       uint64_t off, uint64_t size, struct span file)
{
	if (size == 0 || !span_has(file, off, 0))
		return;
	if (size > file.n - off)
		size = file.n - off; /* a section claiming more than the file: scan what exists */
	if (rl->n >= FATBIN_MAX_REGIONS) {
		rl->capped = true;
		return;
	}
	struct fatbin_region *r = ARENA_PUSH(a, rl->v, rl->n, rl->cap);
	r->name = arena_strndup(a, name, name_len);
	r->offset = off;
	r->size = size;
}

static bool name_is(const char *s, size_t n, const char *lit)
{
	return n == strlen(lit) && memcmp(s, lit, n) == 0;
}

struct elf_scan {
	struct span file;
	struct arena *a;
	struct region_list *rl;
};

/* elf_sections() callback: the fat binary sections, and loadable data (a fat binary a library
 * loads at run time must be mapped). */
static bool elf_region(void *ud, const struct elf_section_info *s)
{
	struct elf_scan *es = ud;
	const char *name = s->name ? s->name : "?";
	const size_t nlen = s->name ? s->name_len : 1;
	const bool fatbin_section = name_is(name, nlen, ".nv_fatbin") || name_is(name, nlen, "__nv_relfatbin");
	const bool loadable =
		s->type == ELF_SHT_PROGBITS && (s->flags & ELF_SHF_ALLOC) && !(s->flags & ELF_SHF_EXECINSTR);
	if (fatbin_section || loadable)
		add_region(es->a, es->rl, name, nlen, s->offset, s->size, es->file);
	return !es->rl->capped;
}

#define IMAGE_SCN_CNT_CODE 0x20u
#define IMAGE_SCN_MEM_EXECUTE 0x20000000u

static bool pe_regions(struct span f, struct arena *a, struct region_list *rl)
{
	uint32_t pe, sig;
	uint16_t nsec, optsize;
	if (!span_u32le(f, 0x3C, &pe) || !span_u32le(f, pe, &sig) || sig != 0x00004550u ||
	    !span_u16le(f, (uint64_t)pe + 6, &nsec) || !span_u16le(f, (uint64_t)pe + 20, &optsize))
		return false;
	uint64_t tab = (uint64_t)pe + 24 + optsize;
	if (!span_has(f, tab, (uint64_t)nsec * 40))
		return false;
	for (uint64_t i = 0; i < nsec; i++) {
		uint64_t h = tab + i * 40;
		uint32_t rawsize, rawptr, ch;
		span_u32le(f, h + 16, &rawsize);
		span_u32le(f, h + 20, &rawptr);
		span_u32le(f, h + 36, &ch);
		const char *name = (const char *)f.p + h;
		size_t nlen = strnlen(name, 8);
		/* the PE name of .nv_fatbin is truncated to 8 characters */
		const bool fatbin_section = name_is(name, nlen, ".nv_fatb");
		if (fatbin_section || !(ch & (IMAGE_SCN_CNT_CODE | IMAGE_SCN_MEM_EXECUTE)))
			add_region(a, rl, name, nlen, rawptr, rawsize, f);
	}
	return true;
}

#define EM_CUDA 190

/* A cubin on its own (nvcc -cubin, cuobjdump -xelf): one SASS image, the SM in e_flags. Its
 * place moved with the cubin ABI (formats.md §1.6): EI_ABIVERSION 7 keeps it in bits 0-7,
 * ABI 8 (CUDA 12.8+) in bits 8-15. The a/f variant is not in CUDA 13 e_flags, so none is set. */
static bool cubin_entry(struct span f, struct arena *a, struct fatbin_file *out)
{
	uint8_t cls, abiver;
	uint16_t machine;
	uint32_t eflags;
	if (!span_u8(f, 4, &cls) || cls != 2 || !span_u8(f, 8, &abiver) || !span_u16le(f, 18, &machine) ||
	    machine != EM_CUDA || !span_u32le(f, 0x30, &eflags))
		return false;
	uint32_t sm = abiver >= 8 ? (eflags >> 8) & 0xFF : eflags & 0xFF;
	struct fatbin_region *r = arena_calloc(a, 1, sizeof *r);
	*r = (struct fatbin_region){ .name = "(cubin)", .offset = 0, .size = f.n, .containers = 1, .entries = 1 };
	out->regions = r;
	out->n_regions = 1;
	struct fatbin_entry *e = ARENA_PUSH(a, out->entries, out->n_entries, out->cap_entries);
	*e = (struct fatbin_entry){ .payload_size = f.n, .sm = sm, .kind = FATBIN_KIND_ELF, .major = 1, .minor = abiver };
	struct fatbin_container *c = ARENA_PUSH(a, out->containers, out->n_containers, out->cap_containers);
	*c = (struct fatbin_container){ .size = f.n, .n_entries = 1 };
	return true;
}

/* A PTX text file (nvcc -ptx; what cuModuleLoad reads): one PTX image, the ISA version and
 * target from its header (fmt/ptx_text.h). */
static bool ptx_text_entry(struct span f, struct arena *a, struct fatbin_file *out)
{
	struct ptx_text_header h;
	if (!ptx_text_header(f, &h))
		return false;
	struct fatbin_region *r = arena_calloc(a, 1, sizeof *r);
	*r = (struct fatbin_region){ .name = "(PTX text)", .offset = 0, .size = f.n, .containers = 1, .entries = 1 };
	out->regions = r;
	out->n_regions = 1;
	uint64_t flags = h.variant == 'a' ? FATBIN_FLAG_ARCH_SPECIFIC : h.variant == 'f' ? FATBIN_FLAG_FAMILY_SPECIFIC : 0;
	struct fatbin_entry *e = ARENA_PUSH(a, out->entries, out->n_entries, out->cap_entries);
	*e = (struct fatbin_entry){ .payload_size = f.n, .flags = flags, .sm = h.sm, .kind = FATBIN_KIND_PTX,
				    .major = h.isa_major, .minor = h.isa_minor, .variant = h.variant };
	struct fatbin_container *c = ARENA_PUSH(a, out->containers, out->n_containers, out->cap_containers);
	*c = (struct fatbin_container){ .size = f.n, .n_entries = 1 };
	return true;
}

static int region_cmp(const void *x, const void *y)
{
	const struct fatbin_region *a = x, *b = y;
	return a->offset < b->offset ? -1 : a->offset > b->offset;
}

void fatbin_scan(struct span file, struct arena *a, const struct fatbin_opts *opts,
		 struct fatbin_file *out)
{
	memset(out, 0, sizeof *out);
	struct scan_state st = {
		.file = file,
		.a = a,
		.opts = opts,
		.out = out,
		/* honest files read each entry header once, and there are at most n/64 of them */
		.work_left = file.n / 32 + (1u << 16),
	};
	struct region_list rl = { 0 };
	uint64_t step = 8;

	if (file.n >= 4 && memcmp(file.p, "\x7f" "ELF", 4) == 0) {
		out->host = FATBIN_HOST_ELF;
		if (cubin_entry(file, a, out))
			return;
		struct elf_scan es = { file, a, &rl };
		uint8_t endian = 0;
		/* fat binaries are little-endian, as is every host CUDA runs on: a big-endian ELF is
		 * scanned whole */
		if (!span_u8(file, 5, &endian) || endian != 1 || !elf_sections(file, elf_region, &es))
			rl.n = 0; /* stripped of section headers: scan it all */
		else if (rl.n == 0)
			return; /* sections say there is no loadable data: nothing to find */
	} else if (file.n >= 2 && file.p[0] == 'M' && file.p[1] == 'Z') {
		out->host = FATBIN_HOST_PE;
		if (!pe_regions(file, a, &rl))
			rl.n = 0;
	} else {
		out->host = FATBIN_HOST_RAW;
		if (ptx_text_entry(file, a, out))
			return;
		step = 1;
	}
	if (rl.capped)
		problem(&st, "more than %u sections; only the first were scanned", FATBIN_MAX_REGIONS);
	if (rl.n == 0)
		add_region(a, &rl, "(whole file)", 12, 0, file.n, file);
	if (rl.n == 0)
		return; /* empty file */
	qsort(rl.v, rl.n, sizeof *rl.v, region_cmp);
	out->regions = rl.v;
	out->n_regions = rl.n;

	uint64_t cursor = 0;
	for (size_t i = 0; i < rl.n && !st.stopped; i++) {
		const struct fatbin_region *r = &rl.v[i];
		uint64_t start = r->offset > cursor ? r->offset : cursor;
		uint64_t end = r->offset + r->size; /* add_region clipped size to the file */
		if (start >= end)
			continue;
		uint64_t reached = scan_range(&st, start, end, (uint32_t)i, step);
		if (reached > cursor)
			cursor = reached;
		release(&st, cursor < file.n ? cursor : file.n);
	}
	if (out->truncated)
		problem(&st, "more than %u GPU code entries; the rest are not listed", FATBIN_MAX_ENTRIES);
}

const char *fatbin_kind_name(uint16_t kind)
{
	switch (kind) {
	case FATBIN_KIND_PTX:
		return "PTX";
	case FATBIN_KIND_ELF:
		return "SASS";
	case FATBIN_KIND_OLDCUBIN:
		return "old cubin";
	case FATBIN_KIND_LTOIR:
		return "LTO-IR";
	default:
		return "unknown";
	}
}

const char *fatbin_compression_name(uint8_t comp)
{
	static const char *const names[] = { "none", "lz4", "zstd", "other" };
	return comp < sizeof names / sizeof names[0] ? names[comp] : "other";
}

char *fatbin_target_name(const struct fatbin_entry *e, char *buf, size_t n)
{
	const char *prefix;
	switch (e->kind) {
	case FATBIN_KIND_PTX:
		prefix = "compute_";
		break;
	case FATBIN_KIND_LTOIR:
		prefix = "lto_";
		break;
	case FATBIN_KIND_ELF:
	case FATBIN_KIND_OLDCUBIN:
		prefix = "sm_";
		break;
	default:
		snprintf(buf, n, "kind%u_%u", e->kind, e->sm);
		return buf;
	}
	if (e->variant)
		snprintf(buf, n, "%s%u%c", prefix, e->sm, e->variant);
	else
		snprintf(buf, n, "%s%u", prefix, e->sm);
	return buf;
}
