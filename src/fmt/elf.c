/* ELF reader: see elf.h. Layouts follow the System V gABI and the LSB symbol-versioning chapter
 * (shared/research/formats.md §3). Invariant kept throughout: every offset, size and count read
 * from the file is checked against the span before it is used, every loop is bounded by a
 * constant or by the file size, and nothing recurses. */
#include "fmt/elf.h"

#include <string.h>

#define PT_LOAD 1
#define PT_DYNAMIC 2
#define PT_INTERP 3
#define SHT_DYNAMIC 6
#define SHT_DYNSYM 11

#define DT_NULL 0
#define DT_NEEDED 1
#define DT_HASH 4
#define DT_STRTAB 5
#define DT_SYMTAB 6
#define DT_STRSZ 10
#define DT_SONAME 14
#define DT_RPATH 15
#define DT_RUNPATH 29
#define DT_GNU_HASH 0x6ffffef5
#define DT_FLAGS_1 0x6ffffffb
#define DT_VERDEF 0x6ffffffc
#define DT_VERDEFNUM 0x6ffffffd
#define DT_VERNEED 0x6ffffffe
#define DT_VERNEEDNUM 0x6fffffff

#define VER_FLG_BASE 1
#define VER_FLG_WEAK 2

#define ELF_MAX_STR 4096      /* longest string we copy (paths, names) */
#define ELF_MAX_DYN 1000000   /* dynamic entries looked at */
#define ELF_MAX_SYMS 50000000 /* dynamic symbols scanned by elf_has_symbol */

struct rd {
	struct span s;
	int cls; /* 32 or 64 */
	int be;
};

static bool rd_u16(const struct rd *r, uint64_t off, uint16_t *v)
{
	return r->be ? span_u16be(r->s, off, v) : span_u16le(r->s, off, v);
}

static bool rd_u32(const struct rd *r, uint64_t off, uint32_t *v)
{
	return r->be ? span_u32be(r->s, off, v) : span_u32le(r->s, off, v);
}

static bool rd_u64(const struct rd *r, uint64_t off, uint64_t *v)
{
	return r->be ? span_u64be(r->s, off, v) : span_u64le(r->s, off, v);
}

/* A class-sized word: Elf32_Addr/Off/Word or Elf64_Addr/Off/Xword. */
static bool rd_word(const struct rd *r, uint64_t off, uint64_t *v)
{
	if (r->cls == 64)
		return rd_u64(r, off, v);
	uint32_t w;
	if (!rd_u32(r, off, &w))
		return false;
	*v = w;
	return true;
}

struct ehdr {
	uint16_t type, machine;
	uint32_t flags;
	uint64_t phoff, shoff;
	uint16_t phentsize, shentsize;
	uint32_t phnum, shnum, shstrndx;
	bool sh_cut; /* the section header table claimed more headers than the file holds */
};

struct phdr {
	uint32_t type;
	uint64_t offset, vaddr, filesz;
};

struct shdr {
	uint32_t name, type, link;
	uint64_t flags, addr, offset, size, entsize;
};

static bool rd_shdr(const struct rd *r, const struct ehdr *h, uint32_t i, struct shdr *o)
{
	uint64_t b = h->shoff + (uint64_t)i * h->shentsize;
	if (h->shoff > r->s.n || (uint64_t)i * h->shentsize > r->s.n)
		return false;
	if (r->cls == 64)
		return rd_u32(r, b, &o->name) && rd_u32(r, b + 4, &o->type) && rd_u64(r, b + 8, &o->flags) &&
		       rd_u64(r, b + 16, &o->addr) && rd_u64(r, b + 24, &o->offset) &&
		       rd_u64(r, b + 32, &o->size) && rd_u32(r, b + 40, &o->link) &&
		       rd_u64(r, b + 56, &o->entsize);
	uint32_t flags, addr, off, size, ent;
	if (!(rd_u32(r, b, &o->name) && rd_u32(r, b + 4, &o->type) && rd_u32(r, b + 8, &flags) &&
	      rd_u32(r, b + 12, &addr) && rd_u32(r, b + 16, &off) && rd_u32(r, b + 20, &size) &&
	      rd_u32(r, b + 24, &o->link) && rd_u32(r, b + 36, &ent)))
		return false;
	o->flags = flags, o->addr = addr, o->offset = off, o->size = size, o->entsize = ent;
	return true;
}

static bool rd_phdr(const struct rd *r, const struct ehdr *h, uint32_t i, struct phdr *o)
{
	uint64_t b = h->phoff + (uint64_t)i * h->phentsize;
	if (h->phoff > r->s.n || (uint64_t)i * h->phentsize > r->s.n)
		return false;
	if (r->cls == 64)
		return rd_u32(r, b, &o->type) && rd_u64(r, b + 8, &o->offset) &&
		       rd_u64(r, b + 16, &o->vaddr) && rd_u64(r, b + 32, &o->filesz);
	uint32_t off, va, fs;
	if (!(rd_u32(r, b, &o->type) && rd_u32(r, b + 4, &off) && rd_u32(r, b + 8, &va) &&
	      rd_u32(r, b + 16, &fs)))
		return false;
	o->offset = off, o->vaddr = va, o->filesz = fs;
	return true;
}

/* The identification bytes and the file header. */
static bool rd_init(struct span file, struct rd *r, struct ehdr *h, const char **err)
{
	static const uint8_t magic[4] = { 0x7f, 'E', 'L', 'F' };
	if (file.n < 16 || memcmp(file.p, magic, 4) != 0) {
		*err = "not an ELF file (bad magic)";
		return false;
	}
	if (file.p[4] != 1 && file.p[4] != 2) {
		*err = "not an ELF file (unknown class)";
		return false;
	}
	if (file.p[5] != 1 && file.p[5] != 2) {
		*err = "not an ELF file (unknown byte order)";
		return false;
	}
	r->s = file;
	r->cls = file.p[4] == 2 ? 64 : 32;
	r->be = file.p[5] == 2;
	memset(h, 0, sizeof *h);
	uint16_t phnum = 0, shnum = 0, shstrndx = 0;
	bool ok;
	if (r->cls == 64)
		ok = rd_u16(r, 16, &h->type) && rd_u16(r, 18, &h->machine) && rd_u32(r, 48, &h->flags) &&
		     rd_u64(r, 32, &h->phoff) && rd_u64(r, 40, &h->shoff) &&
		     rd_u16(r, 54, &h->phentsize) && rd_u16(r, 56, &phnum) &&
		     rd_u16(r, 58, &h->shentsize) && rd_u16(r, 60, &shnum) && rd_u16(r, 62, &shstrndx);
	else {
		uint32_t phoff = 0, shoff = 0;
		ok = rd_u16(r, 16, &h->type) && rd_u16(r, 18, &h->machine) && rd_u32(r, 36, &h->flags) &&
		     rd_u32(r, 28, &phoff) && rd_u32(r, 32, &shoff) && rd_u16(r, 42, &h->phentsize) &&
		     rd_u16(r, 44, &phnum) && rd_u16(r, 46, &h->shentsize) && rd_u16(r, 48, &shnum) &&
		     rd_u16(r, 50, &shstrndx);
		h->phoff = phoff, h->shoff = shoff;
	}
	if (!ok) {
		*err = "truncated ELF header";
		return false;
	}
	h->phnum = phnum, h->shnum = shnum, h->shstrndx = shstrndx;
	unsigned min_sh = r->cls == 64 ? 64 : 40, min_ph = r->cls == 64 ? 56 : 32;
	if (h->shoff == 0 || h->shentsize < min_sh)
		h->shnum = 0, h->shoff = 0;
	else {
		/* Extended numbering (gABI): counts that do not fit live in section header 0. */
		struct shdr s0;
		if ((shnum == 0 || phnum == 0xffff || shstrndx == 0xffff) && rd_shdr(r, h, 0, &s0)) {
			if (shnum == 0)
				h->shnum = s0.size > 0xffffffu ? 0 : (uint32_t)s0.size;
			if (shstrndx == 0xffff)
				h->shstrndx = s0.link;
			if (phnum == 0xffff) {
				uint32_t info = 0;
				rd_u32(r, h->shoff + (r->cls == 64 ? 44 : 28), &info);
				h->phnum = info;
			}
		}
	}
	if (h->phoff == 0 || h->phentsize < min_ph)
		h->phnum = 0;
	/* Counts are bounded by what fits in the file: a lying count costs no more than the file. */
	if (h->shnum && (h->shoff > file.n || (uint64_t)h->shnum * h->shentsize > file.n - h->shoff)) {
		h->shnum = (uint32_t)((h->shoff > file.n ? 0 : (file.n - h->shoff)) / h->shentsize);
		h->sh_cut = true;
	}
	if (h->phnum && (h->phoff > file.n || (uint64_t)h->phnum * h->phentsize > file.n - h->phoff))
		h->phnum = (uint32_t)((h->phoff > file.n ? 0 : (file.n - h->phoff)) / h->phentsize);
	return true;
}

bool elf_ident(struct span file, int *elf_class, uint16_t *machine)
{
	struct rd r;
	struct ehdr h;
	const char *err;
	if (!rd_init(file, &r, &h, &err))
		return false;
	if (elf_class)
		*elf_class = r.cls;
	if (machine)
		*machine = h.machine;
	return true;
}

/* Virtual address -> file offset through PT_LOAD, else through the section headers. */
static bool vaddr_to_off(const struct rd *r, const struct ehdr *h, uint64_t va, uint64_t *off)
{
	struct phdr p;
	for (uint32_t i = 0; i < h->phnum; i++) {
		if (!rd_phdr(r, h, i, &p) || p.type != PT_LOAD)
			continue;
		if (va >= p.vaddr && va - p.vaddr < p.filesz) {
			*off = p.offset + (va - p.vaddr);
			return *off < r->s.n;
		}
	}
	struct shdr s;
	for (uint32_t i = 1; i < h->shnum; i++) {
		if (!rd_shdr(r, h, i, &s) || s.type == ELF_SHT_NOBITS || s.addr == 0)
			continue;
		if (va >= s.addr && va - s.addr < s.size) {
			*off = s.offset + (va - s.addr);
			return *off < r->s.n;
		}
	}
	return false;
}

/* The dynamic tags this reader uses, first occurrence of each (as ld.so's get-dynamic-info keeps
 * one slot per tag; for DT_NEEDED the caller walks the table again). */
struct dyn {
	bool found;
	uint64_t off, count; /* file offset of the table, number of entries */
	unsigned entsize;
	uint64_t strtab, strsz, symtab, hash, gnu_hash, flags_1, verdef, verdefnum, verneed,
		verneednum, soname, rpath, runpath;
	bool has_strtab, has_strsz, has_symtab, has_hash, has_gnu_hash, has_verdef, has_verneed,
		has_soname, has_rpath, has_runpath;
	uint32_t sh_strtab_link; /* section index of the string table when found via SHT_DYNAMIC */
	bool from_section;
};

static bool dyn_entry(const struct rd *r, const struct dyn *d, uint64_t i, uint64_t *tag,
		      uint64_t *val)
{
	uint64_t b = d->off + i * d->entsize;
	return rd_word(r, b, tag) && rd_word(r, b + d->entsize / 2, val);
}

static void dyn_find(const struct rd *r, const struct ehdr *h, struct dyn *d)
{
	memset(d, 0, sizeof *d);
	d->entsize = r->cls == 64 ? 16 : 8;
	struct phdr p;
	for (uint32_t i = 0; i < h->phnum; i++) {
		if (rd_phdr(r, h, i, &p) && p.type == PT_DYNAMIC && p.offset < r->s.n) {
			d->found = true;
			d->off = p.offset;
			d->count = (p.filesz > r->s.n - p.offset ? r->s.n - p.offset : p.filesz) / d->entsize;
			break;
		}
	}
	if (!d->found) {
		struct shdr s;
		for (uint32_t i = 1; i < h->shnum; i++) {
			if (rd_shdr(r, h, i, &s) && s.type == SHT_DYNAMIC && s.offset < r->s.n) {
				d->found = true;
				d->from_section = true;
				d->sh_strtab_link = s.link;
				d->off = s.offset;
				d->count = (s.size > r->s.n - s.offset ? r->s.n - s.offset : s.size) /
					   d->entsize;
				break;
			}
		}
	}
	if (d->count > ELF_MAX_DYN)
		d->count = ELF_MAX_DYN;
	for (uint64_t i = 0; i < d->count; i++) {
		uint64_t tag, val;
		if (!dyn_entry(r, d, i, &tag, &val) || tag == DT_NULL) {
			d->count = i;
			break;
		}
#define SLOT(T, field)                     \
	case T:                            \
		if (!d->has_##field)       \
			d->field = val;    \
		d->has_##field = true;     \
		break;
		switch (tag) {
			SLOT(DT_STRTAB, strtab)
			SLOT(DT_STRSZ, strsz)
			SLOT(DT_SYMTAB, symtab)
			SLOT(DT_HASH, hash)
			SLOT(DT_GNU_HASH, gnu_hash)
			SLOT(DT_VERDEF, verdef)
			SLOT(DT_VERNEED, verneed)
			SLOT(DT_SONAME, soname)
			SLOT(DT_RPATH, rpath)
			SLOT(DT_RUNPATH, runpath)
		case DT_FLAGS_1:
			d->flags_1 = val;
			break;
		case DT_VERDEFNUM:
			d->verdefnum = val;
			break;
		case DT_VERNEEDNUM:
			d->verneednum = val;
			break;
		default:
			break;
		}
#undef SLOT
	}
}

/* The dynamic string table as a span (clamped to the file; *clamped says so). */
static struct span dyn_strtab(const struct rd *r, const struct ehdr *h, const struct dyn *d,
			      bool *clamped)
{
	*clamped = false;
	uint64_t off;
	if (d->has_strtab && vaddr_to_off(r, h, d->strtab, &off)) {
		uint64_t size = d->has_strsz ? d->strsz : r->s.n - off;
		if (size > r->s.n - off) {
			size = r->s.n - off;
			*clamped = true;
		}
		return span_sub(r->s, off, size);
	}
	struct shdr s;
	if (d->from_section && d->sh_strtab_link && d->sh_strtab_link < h->shnum &&
	    rd_shdr(r, h, d->sh_strtab_link, &s) && s.offset < r->s.n)
		return span_sub(r->s, s.offset,
				s.size > r->s.n - s.offset ? r->s.n - s.offset : s.size);
	return (struct span){ NULL, 0 };
}

static const char *str_at(struct span strtab, uint64_t off, struct arena *a, const char **problem)
{
	const char *s;
	long len = span_cstr(strtab, off, ELF_MAX_STR, &s);
	if (len < 0) {
		*problem = "a dynamic string offset points outside the string table";
		return NULL;
	}
	return arena_strndup(a, s, (size_t)len);
}

static void read_verdefs(const struct rd *r, const struct ehdr *h, const struct dyn *d,
			 struct span strtab, struct arena *a, struct elf_info *out)
{
	uint64_t off;
	if (!d->has_verdef)
		return;
	if (!vaddr_to_off(r, h, d->verdef, &off)) {
		out->problem = "DT_VERDEF points outside the file";
		return;
	}
	size_t cap = 0;
	uint64_t limit = d->verdefnum ? d->verdefnum : ELF_MAX_VERSIONS;
	for (uint64_t i = 0; i < limit && i < ELF_MAX_VERSIONS; i++) {
		uint16_t version, flags;
		uint32_t aux, next, name;
		if (!rd_u16(r, off, &version) || !rd_u16(r, off + 2, &flags) ||
		    !rd_u32(r, off + 12, &aux) || !rd_u32(r, off + 16, &next)) {
			out->problem = "truncated version definitions";
			return;
		}
		if (!(flags & VER_FLG_BASE)) {
			if (!rd_u32(r, off + aux, &name)) {
				out->problem = "a version definition's name record is outside the file";
				return;
			}
			const char *s = str_at(strtab, name, a, &out->problem);
			if (s)
				*(const char **)ARENA_PUSH(a, out->verdefs, out->n_verdefs, cap) = s;
		}
		if (next == 0)
			break;
		off += next;
	}
}

static void read_verneeds(const struct rd *r, const struct ehdr *h, const struct dyn *d,
			  struct span strtab, struct arena *a, struct elf_info *out)
{
	uint64_t off;
	if (!d->has_verneed)
		return;
	if (!vaddr_to_off(r, h, d->verneed, &off)) {
		out->problem = "DT_VERNEED points outside the file";
		return;
	}
	size_t cap = 0, total = 0;
	uint64_t limit = d->verneednum ? d->verneednum : ELF_MAX_VERSIONS;
	for (uint64_t i = 0; i < limit && i < ELF_MAX_VERSIONS; i++) {
		uint16_t version, cnt;
		uint32_t file, aux, next;
		if (!rd_u16(r, off, &version) || !rd_u16(r, off + 2, &cnt) ||
		    !rd_u32(r, off + 4, &file) || !rd_u32(r, off + 8, &aux) ||
		    !rd_u32(r, off + 12, &next)) {
			out->problem = "truncated version requirements";
			return;
		}
		struct elf_verneed *vn = ARENA_PUSH(a, out->verneeds, out->n_verneeds, cap);
		vn->file = str_at(strtab, file, a, &out->problem);
		if (!vn->file)
			vn->file = "?";
		size_t ncap = 0, wcap = 0, nw = 0;
		uint64_t aoff = off + aux;
		for (uint16_t j = 0; j < cnt && total < ELF_MAX_VERSIONS; j++, total++) {
			uint16_t vflags;
			uint32_t name, anext;
			if (!rd_u16(r, aoff + 4, &vflags) || !rd_u32(r, aoff + 8, &name) ||
			    !rd_u32(r, aoff + 12, &anext)) {
				out->problem = "truncated version requirement entry";
				break;
			}
			const char *s = str_at(strtab, name, a, &out->problem);
			if (s) {
				*(const char **)ARENA_PUSH(a, vn->names, vn->n_names, ncap) = s;
				*(bool *)ARENA_PUSH(a, vn->weak, nw, wcap) = (vflags & VER_FLG_WEAK) != 0;
			}
			if (anext == 0)
				break;
			aoff += anext;
		}
		if (next == 0)
			break;
		off += next;
	}
}

bool elf_parse(struct span file, struct arena *a, struct elf_info *out, const char **err)
{
	struct rd r;
	struct ehdr h;
	memset(out, 0, sizeof *out);
	if (!rd_init(file, &r, &h, err))
		return false;
	out->elf_class = r.cls;
	out->big_endian = r.be;
	out->osabi = file.p[7];
	out->type = h.type;
	out->machine = h.machine;
	out->e_flags = h.flags;

	struct phdr p;
	for (uint32_t i = 0; i < h.phnum; i++) {
		if (rd_phdr(&r, &h, i, &p) && p.type == PT_INTERP) {
			const char *s;
			long len = span_cstr(file, p.offset, ELF_MAX_STR, &s);
			if (len >= 0)
				out->interp = arena_strndup(a, s, (size_t)len);
			else
				out->problem = "PT_INTERP points outside the file";
			break;
		}
	}

	struct dyn d;
	dyn_find(&r, &h, &d);
	if (!d.found)
		return true; /* a static executable or an object file: nothing more to read */
	out->has_dynamic = true;
	out->flags_1 = d.flags_1;
	bool clamped;
	struct span strtab = dyn_strtab(&r, &h, &d, &clamped);
	if (!strtab.p) {
		out->problem = "the dynamic string table (DT_STRTAB) is outside the file";
		return true;
	}
	if (clamped)
		out->problem = "DT_STRSZ runs past the end of the file";
	if (d.has_soname)
		out->soname = str_at(strtab, d.soname, a, &out->problem);
	if (d.has_rpath)
		out->rpath = str_at(strtab, d.rpath, a, &out->problem);
	if (d.has_runpath)
		out->runpath = str_at(strtab, d.runpath, a, &out->problem);
	size_t cap = 0;
	for (uint64_t i = 0; i < d.count; i++) {
		uint64_t tag, val;
		if (!dyn_entry(&r, &d, i, &tag, &val))
			break;
		if (tag != DT_NEEDED)
			continue;
		if (out->n_needed >= ELF_MAX_NEEDED) {
			out->problem = "more than " "4096" " DT_NEEDED entries; the rest were ignored";
			break;
		}
		const char *s = str_at(strtab, val, a, &out->problem);
		if (s)
			*(const char **)ARENA_PUSH(a, out->needed, out->n_needed, cap) = s;
	}
	read_verdefs(&r, &h, &d, strtab, a, out);
	read_verneeds(&r, &h, &d, strtab, a, out);
	return true;
}

bool elf_defines_version(const struct elf_info *provider, const char *name)
{
	for (size_t i = 0; i < provider->n_verdefs; i++)
		if (strcmp(provider->verdefs[i], name) == 0)
			return true;
	return false;
}

/* Headers 1 .. shnum-1 (all inside the file: rd_init bounded shnum), with names from the section
 * name string table when it is readable. */
static void walk_sections(const struct rd *r, const struct ehdr *h,
			  bool (*fn)(void *ud, const struct elf_section_info *s), void *ud)
{
	struct shdr str, s;
	struct span names = { NULL, 0 };
	if (h->shstrndx < h->shnum && rd_shdr(r, h, h->shstrndx, &str))
		names = span_sub(r->s, str.offset, str.size);
	for (uint32_t i = 1; i < h->shnum; i++) {
		if (!rd_shdr(r, h, i, &s))
			continue;
		struct elf_section_info info = {
			.type = s.type, .flags = s.flags, .offset = s.offset, .size = s.size
		};
		long len = span_cstr(names, s.name, ELF_MAX_STR, &info.name);
		if (len < 0)
			info.name = NULL;
		else
			info.name_len = (size_t)len;
		if (!fn(ud, &info))
			return;
	}
}

bool elf_sections(struct span file, bool (*fn)(void *ud, const struct elf_section_info *s), void *ud)
{
	struct rd r;
	struct ehdr h;
	const char *err;
	if (!rd_init(file, &r, &h, &err) || h.shnum == 0 || h.sh_cut)
		return false;
	walk_sections(&r, &h, fn, ud);
	return true;
}

struct section_query {
	const char *name;
	bool found;
	struct elf_section_info hit;
};

static bool match_section(void *ud, const struct elf_section_info *s)
{
	struct section_query *q = ud;
	if (!s->name || s->name_len != strlen(q->name) || memcmp(s->name, q->name, s->name_len) != 0)
		return true;
	q->hit = *s;
	q->found = true;
	return false;
}

bool elf_section(struct span file, const char *name, struct span *out)
{
	struct rd r;
	struct ehdr h;
	const char *err;
	if (!rd_init(file, &r, &h, &err))
		return false;
	/* a cut table is searched as far as it goes (unlike elf_sections) */
	struct section_query q = { .name = name };
	walk_sections(&r, &h, match_section, &q);
	if (!q.found)
		return false;
	if (q.hit.type == ELF_SHT_NOBITS) {
		*out = (struct span){ NULL, 0 };
		return true;
	}
	if (!span_has(file, q.hit.offset, q.hit.size))
		return false;
	*out = span_sub(file, q.hit.offset, q.hit.size);
	return true;
}

/* Number of dynamic symbols from DT_GNU_HASH: the highest bucket start, then its chain to the
 * entry with the low bit set (as glibc's dl-lookup walks it). 0 when unreadable. */
static uint64_t gnu_hash_count(const struct rd *r, uint64_t off)
{
	uint32_t nbuckets, symoffset, bloom_size;
	if (!rd_u32(r, off, &nbuckets) || !rd_u32(r, off + 4, &symoffset) ||
	    !rd_u32(r, off + 8, &bloom_size))
		return 0;
	uint64_t buckets = off + 16 + (uint64_t)bloom_size * (uint64_t)(r->cls / 8);
	if (!span_has(r->s, buckets, (uint64_t)nbuckets * 4))
		return 0;
	uint32_t max = 0, b;
	for (uint32_t i = 0; i < nbuckets; i++)
		if (rd_u32(r, buckets + 4ull * i, &b) && b > max)
			max = b;
	if (max < symoffset)
		return symoffset;
	uint64_t chain = buckets + 4ull * nbuckets;
	for (uint64_t i = max;; i++) {
		uint32_t hv;
		if (!rd_u32(r, chain + 4 * (i - symoffset), &hv))
			return i;
		if (hv & 1)
			return i + 1;
	}
}

bool elf_has_symbol(struct span file, const char *name)
{
	struct rd r;
	struct ehdr h;
	const char *err;
	if (!rd_init(file, &r, &h, &err))
		return false;
	uint64_t symoff = 0, count = 0, entsize = r.cls == 64 ? 24 : 16;
	struct span strtab = { NULL, 0 };
	struct shdr s, l;
	for (uint32_t i = 1; i < h.shnum; i++) {
		if (rd_shdr(&r, &h, i, &s) && s.type == SHT_DYNSYM && s.link < h.shnum &&
		    rd_shdr(&r, &h, s.link, &l)) {
			symoff = s.offset;
			count = s.size / entsize;
			strtab = span_sub(file, l.offset,
					  l.offset > file.n ? 0 : l.size > file.n - l.offset ? file.n - l.offset : l.size);
			break;
		}
	}
	if (!strtab.p) { /* stripped section headers: go through the dynamic section */
		struct dyn d;
		bool clamped;
		dyn_find(&r, &h, &d);
		if (!d.found || !d.has_symtab || !vaddr_to_off(&r, &h, d.symtab, &symoff))
			return false;
		strtab = dyn_strtab(&r, &h, &d, &clamped);
		uint64_t hoff;
		if (d.has_gnu_hash && vaddr_to_off(&r, &h, d.gnu_hash, &hoff))
			count = gnu_hash_count(&r, hoff);
		else if (d.has_hash && vaddr_to_off(&r, &h, d.hash, &hoff)) {
			uint32_t nchain;
			count = rd_u32(&r, hoff + 4, &nchain) ? nchain : 0;
		}
	}
	if (!strtab.p || symoff >= file.n)
		return false;
	if (count > (file.n - symoff) / entsize)
		count = (file.n - symoff) / entsize;
	if (count > ELF_MAX_SYMS)
		count = ELF_MAX_SYMS;
	size_t nlen = strlen(name);
	for (uint64_t i = 1; i < count; i++) {
		uint64_t b = symoff + i * entsize;
		uint32_t st_name;
		uint8_t info;
		uint16_t shndx;
		if (!rd_u32(&r, b, &st_name))
			break;
		bool ok = r.cls == 64 ? span_u8(file, b + 4, &info) && rd_u16(&r, b + 6, &shndx)
				      : span_u8(file, b + 12, &info) && rd_u16(&r, b + 14, &shndx);
		if (!ok || shndx == 0)
			continue;
		unsigned bind = info >> 4;
		if (bind != 1 && bind != 2 && bind != 10) /* GLOBAL, WEAK, GNU_UNIQUE */
			continue;
		const char *sn;
		long len = span_cstr(strtab, st_name, ELF_MAX_STR, &sn);
		if (len == (long)nlen && memcmp(sn, name, nlen) == 0)
			return true;
	}
	return false;
}

const char *elf_machine_name(uint16_t machine)
{
	static const struct {
		uint16_t m;
		const char *name;
	} names[] = {
		{ ELF_EM_386, "i386" },       { 8, "MIPS" },           { 20, "PowerPC" },
		{ ELF_EM_PPC64, "PowerPC64" }, { ELF_EM_S390, "s390" }, { ELF_EM_ARM, "ARM" },
		{ 50, "IA-64" },              { ELF_EM_X86_64, "x86-64" }, { ELF_EM_AARCH64, "AArch64" },
		{ 190, "NVIDIA CUDA" },       { ELF_EM_RISCV, "RISC-V" }, { 258, "LoongArch" },
	};
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (names[i].m == machine)
			return names[i].name;
	return "unknown machine";
}
