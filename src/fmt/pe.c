/* PE/COFF reader. Offsets below are from Microsoft's "PE Format" page (formats.md §4.1, A.4).
 * Invariant kept throughout: every read goes through span_* helpers with an offset computed in
 * 64 bits from values already checked, so no read leaves the file and no sum overflows. */
#include "fmt/pe.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#define DIR_EXPORT 0
#define DIR_IMPORT 1
#define DIR_RESOURCE 2
#define DIR_CLR 14
#define DIR_DELAY_IMPORT 13
#define RT_VERSION 16
#define VS_FIXED_SIGNATURE 0xfeef04bdu

_Static_assert(PE_MAX_SECTIONS <= PE_RVA_MAX_SECTIONS, "the RVA map holds every section");

struct pe_reader {
	struct span f;
	struct arena *a;
	struct pe_info *out;
	struct pe_section sec[PE_MAX_SECTIONS];
	uint16_t n_sec;
	struct pe_rva_map map; /* built once the sections' raw sizes are cut to the file */
	uint32_t size_of_headers;
	uint32_t dir_rva[16], dir_size[16];
	uint32_t n_dirs;
	size_t cap_imports;
	size_t n_funcs_total; /* import names read so far, all DLLs and delay loads together */
	size_t name_bytes;    /* bytes of names copied so far (rva_str) */
};

static void problem(struct pe_reader *r, const char *msg)
{
	if (!r->out->problem)
		r->out->problem = msg;
}

const char *pe_machine_name(uint16_t machine)
{
	switch (machine) {
	case PE_MACHINE_I386: return "x86";
	case PE_MACHINE_AMD64: return "x64";
	case PE_MACHINE_ARM64: return "ARM64";
	case PE_MACHINE_ARMNT: return "ARM (Thumb-2)";
	case PE_MACHINE_IA64: return "IA-64";
	case 0xa641: return "ARM64EC";
	case 0xa64e: return "ARM64X";
	default: return "unknown";
	}
}

/* RVA -> file offset. The headers map 1:1; otherwise the first section whose virtual range holds
 * rva. Returns false when rva lies in no section or its raw data (uninitialised .bss-like space). */
static bool rva_to_off(const struct pe_reader *r, uint32_t rva, uint64_t *off)
{
	if (rva < r->size_of_headers) {
		*off = rva;
		return rva < r->f.n;
	}
	int i = pe_rva_map_find(&r->map, rva);
	if (i < 0)
		return false;
	const struct pe_section *s = &r->sec[i];
	uint64_t delta = (uint64_t)rva - s->va;
	if (delta >= s->raw_size)
		return false; /* virtual-only tail: zeros in memory, nothing in the file */
	*off = (uint64_t)s->raw_off + delta;
	return *off < r->f.n;
}

/* A NUL-terminated ASCII string at an RVA, copied to the arena; NULL when out of bounds. */
static const char *rva_str(struct pe_reader *r, uint32_t rva)
{
	uint64_t off;
	const char *s;
	if (!rva_to_off(r, rva, &off))
		return NULL;
	long len = span_cstr(r->f, off, PE_MAX_NAME, &s);
	if (len < 0)
		return NULL;
	/* many entries may point at one long name: the copies are bounded together */
	if ((size_t)len + 1 > PE_MAX_NAME_BYTES - r->name_bytes) {
		problem(r, "names too long together (limit reached)");
		return NULL;
	}
	r->name_bytes += (size_t)len + 1;
	return arena_strndup(r->a, s, (size_t)len);
}

static bool rva_u32(const struct pe_reader *r, uint32_t rva, uint32_t *v)
{
	uint64_t off;
	return rva_to_off(r, rva, &off) && span_u32le(r->f, off, v);
}

static bool rva_u64(const struct pe_reader *r, uint32_t rva, uint64_t *v)
{
	uint64_t off;
	return rva_to_off(r, rva, &off) && span_u64le(r->f, off, v);
}

static bool rva_u16(const struct pe_reader *r, uint32_t rva, uint16_t *v)
{
	uint64_t off;
	return rva_to_off(r, rva, &off) && span_u16le(r->f, off, v);
}

/* Headers shared by pe_ident and pe_parse: DOS stub, signature, COFF header. */
static bool read_coff(struct span f, uint32_t *pe_off, uint16_t *machine, uint16_t *n_sec,
		      uint16_t *opt_size, uint16_t *chars, const char **err)
{
	uint16_t mz;
	if (!span_u16le(f, 0, &mz) || mz != 0x5a4d) {
		*err = "not a PE file (no MZ header)";
		return false;
	}
	if (!span_u32le(f, 0x3c, pe_off)) {
		*err = "truncated DOS header";
		return false;
	}
	uint32_t sig;
	if (!span_u32le(f, *pe_off, &sig)) {
		*err = "PE header offset (e_lfanew) points past the end of the file";
		return false;
	}
	if (sig != 0x00004550) {
		*err = "not a PE file (MZ header without PE signature: a DOS program or damaged file)";
		return false;
	}
	uint64_t c = (uint64_t)*pe_off + 4;
	if (!span_u16le(f, c, machine) || !span_u16le(f, c + 2, n_sec) ||
	    !span_u16le(f, c + 16, opt_size) || !span_u16le(f, c + 18, chars)) {
		*err = "truncated COFF header";
		return false;
	}
	return true;
}

bool pe_ident(struct span file, uint16_t *machine, bool *is_dll, const char **err)
{
	uint32_t pe_off;
	uint16_t n_sec, opt_size, chars;
	const char *e = NULL;
	if (!read_coff(file, &pe_off, machine, &n_sec, &opt_size, &chars, &e)) {
		if (err)
			*err = e;
		return false;
	}
	if (is_dll)
		*is_dll = (chars & 0x2000) != 0;
	return true;
}

static struct pe_import *push_import(struct pe_reader *r)
{
	return ARENA_PUSH(r->a, r->out->imports, r->out->n_imports, r->cap_imports);
}

/* "#123" for an import by ordinal. Written by hand: arena_printf's vfprintf was a third of the
 * time of a DLL importing 262,144 names by ordinal. */
static const char *ordinal_name(struct arena *a, unsigned ord)
{
	char buf[8]; /* '#', at most 5 digits (16 bits), NUL */
	size_t n = sizeof buf - 1;
	buf[n] = 0;
	do {
		buf[--n] = (char)('0' + ord % 10);
		ord /= 10;
	} while (ord && n > 1);
	buf[--n] = '#';
	return arena_strndup(a, buf + n, sizeof buf - 1 - n);
}

/* Names from an import lookup table (ILT/INT): u32 or u64 entries, zero-terminated. The count is
 * bounded both by PE_MAX_IMPORT_FUNCS and by what the file can hold. */
static void read_thunks(struct pe_reader *r, struct pe_import *imp, uint32_t ilt_rva)
{
	size_t cap = 0;
	unsigned width = r->out->pe32plus ? 8 : 4;
	for (size_t i = 0; i < PE_MAX_IMPORT_FUNCS; i++) {
		/* descriptors may share one table: without a total, 4096 of them over a table of 64 K
		 * entries make 268 M names out of a file of 600 KB */
		if (r->n_funcs_total == PE_MAX_IMPORT_FUNCS_TOTAL) {
			problem(r, "import lookup tables too long together (limit reached)");
			return;
		}
		uint64_t rva64 = (uint64_t)ilt_rva + i * width;
		if (rva64 > UINT32_MAX) {
			problem(r, "import lookup table runs past the address space");
			return;
		}
		uint64_t entry;
		uint32_t e32;
		bool ok = width == 8 ? rva_u64(r, (uint32_t)rva64, &entry)
				     : (rva_u32(r, (uint32_t)rva64, &e32) && ((entry = e32), true));
		if (!ok) {
			problem(r, "import lookup table points outside the file");
			return;
		}
		if (entry == 0)
			return;
		bool by_ordinal = width == 8 ? (entry >> 63) != 0 : (entry >> 31) != 0;
		const char *name;
		if (by_ordinal) {
			name = ordinal_name(r->a, (unsigned)(entry & 0xffff));
		} else {
			/* {u16 hint, name}: the RVA is in the low 31 bits */
			name = rva_str(r, (uint32_t)(entry & 0x7fffffff) + 2);
			if (!name) {
				problem(r, "import name RVA points outside the file");
				name = "?";
			}
		}
		*(const char **)ARENA_PUSH(r->a, imp->funcs, imp->n_funcs, cap) = name;
		r->n_funcs_total++;
	}
	problem(r, "import lookup table too long (limit reached)");
}

static void read_imports(struct pe_reader *r)
{
	uint32_t rva = r->dir_rva[DIR_IMPORT];
	if (r->n_dirs <= DIR_IMPORT || rva == 0)
		return;
	for (uint32_t i = 0; i < PE_MAX_IMPORT_DLLS; i++) {
		uint64_t d = (uint64_t)rva + (uint64_t)i * 20;
		uint32_t ilt, name_rva, iat;
		if (d > UINT32_MAX - 20 || !rva_u32(r, (uint32_t)d, &ilt) ||
		    !rva_u32(r, (uint32_t)d + 12, &name_rva) || !rva_u32(r, (uint32_t)d + 16, &iat)) {
			problem(r, "import directory runs outside the file");
			return;
		}
		if (ilt == 0 && name_rva == 0 && iat == 0)
			return; /* the all-zero terminator */
		const char *dll = rva_str(r, name_rva);
		if (!dll) {
			problem(r, "import descriptor with a bad DLL name RVA");
			continue;
		}
		struct pe_import *imp = push_import(r);
		imp->dll = dll;
		/* Some linkers leave the ILT empty and only fill the IAT (which holds the same
		 * lookup entries in the file, before binding). */
		read_thunks(r, imp, ilt ? ilt : iat);
	}
	problem(r, "too many import descriptors (limit reached)");
}

static void read_delay_imports(struct pe_reader *r)
{
	uint32_t rva = r->dir_rva[DIR_DELAY_IMPORT];
	if (r->n_dirs <= DIR_DELAY_IMPORT || rva == 0)
		return;
	for (uint32_t i = 0; i < PE_MAX_IMPORT_DLLS; i++) {
		uint64_t d = (uint64_t)rva + (uint64_t)i * 32;
		uint32_t attrs, name_rva, int_rva, iat_rva;
		if (d > UINT32_MAX - 32 || !rva_u32(r, (uint32_t)d, &attrs) ||
		    !rva_u32(r, (uint32_t)d + 4, &name_rva) || !rva_u32(r, (uint32_t)d + 12, &iat_rva) ||
		    !rva_u32(r, (uint32_t)d + 16, &int_rva)) {
			problem(r, "delay-import directory runs outside the file");
			return;
		}
		if (name_rva == 0 && iat_rva == 0 && int_rva == 0)
			return;
		/* Attributes bit 0 clear: the old VC6 layout stores VAs; subtract ImageBase. */
		if (!(attrs & 1)) {
			uint64_t base = r->out->image_base;
			name_rva = (uint32_t)((uint64_t)name_rva - base);
			int_rva = int_rva ? (uint32_t)((uint64_t)int_rva - base) : 0;
		}
		const char *dll = rva_str(r, name_rva);
		if (!dll) {
			problem(r, "delay-import descriptor with a bad DLL name RVA");
			continue;
		}
		struct pe_import *imp = push_import(r);
		imp->dll = dll;
		imp->delay = true;
		if (int_rva)
			read_thunks(r, imp, int_rva);
	}
	problem(r, "too many delay-import descriptors (limit reached)");
}

static void read_exports(struct pe_reader *r)
{
	uint32_t rva = r->dir_rva[DIR_EXPORT], size = r->dir_size[DIR_EXPORT];
	if (r->n_dirs <= DIR_EXPORT || rva == 0)
		return;
	uint32_t name_rva, base, n_funcs, n_names, funcs_rva, names_rva, ords_rva;
	if (rva > UINT32_MAX - 40 || !rva_u32(r, rva + 12, &name_rva) || !rva_u32(r, rva + 16, &base) ||
	    !rva_u32(r, rva + 20, &n_funcs) || !rva_u32(r, rva + 24, &n_names) ||
	    !rva_u32(r, rva + 28, &funcs_rva) || !rva_u32(r, rva + 32, &names_rva) ||
	    !rva_u32(r, rva + 36, &ords_rva)) {
		problem(r, "export directory runs outside the file");
		return;
	}
	r->out->export_name = rva_str(r, name_rva);
	/* Each function needs 4 bytes of file: a count the file cannot hold is a lie. */
	if (n_funcs > PE_MAX_EXPORTS || n_funcs > r->f.n / 4 || n_names > n_funcs) {
		problem(r, "export directory counts are implausible");
		return;
	}
	if (n_funcs == 0)
		return;
	struct pe_export *ex = arena_calloc(r->a, n_funcs, sizeof *ex);
	bool *seen = arena_calloc(r->a, n_funcs, sizeof *seen);
	size_t n = 0;
	/* Named exports first (their order is the sorted name table), then ordinal-only ones. */
	for (uint32_t i = 0; i < n_names; i++) {
		uint32_t nrva;
		uint16_t ord;
		if ((uint64_t)names_rva + 4ull * i > UINT32_MAX || (uint64_t)ords_rva + 2ull * i > UINT32_MAX ||
		    !rva_u32(r, names_rva + 4 * i, &nrva) || !rva_u16(r, ords_rva + 2 * i, &ord)) {
			problem(r, "export name table runs outside the file");
			break;
		}
		if (ord >= n_funcs || seen[ord]) {
			problem(r, "export ordinal out of range");
			continue;
		}
		seen[ord] = true;
		ex[n].name = rva_str(r, nrva);
		ex[n].ordinal = base + ord;
		uint32_t frva;
		if ((uint64_t)funcs_rva + 4ull * ord <= UINT32_MAX && rva_u32(r, funcs_rva + 4 * ord, &frva) &&
		    frva >= rva && (uint64_t)frva < (uint64_t)rva + size)
			ex[n].forwarder = rva_str(r, frva); /* inside the export dir: "DLL.Func" */
		n++;
	}
	for (uint32_t i = 0; i < n_funcs; i++) {
		uint32_t frva;
		if (seen[i])
			continue;
		if ((uint64_t)funcs_rva + 4ull * i > UINT32_MAX || !rva_u32(r, funcs_rva + 4 * i, &frva))
			break;
		if (frva == 0)
			continue; /* unused slot */
		ex[n].ordinal = base + i;
		n++;
	}
	r->out->exports = ex;
	r->out->n_exports = n;
}

/* --- version resource ------------------------------------------------------------------------ */

/* One entry of a resource directory: pick the entry with the given id, or the first one when
 * id < 0. Returns the entry's offset field (top bit = subdirectory). */
static bool res_pick(struct span rs, uint32_t dir_off, long id, uint32_t *out)
{
	uint16_t n_named, n_ids;
	if (!span_u16le(rs, (uint64_t)dir_off + 12, &n_named) ||
	    !span_u16le(rs, (uint64_t)dir_off + 14, &n_ids))
		return false;
	uint32_t total = (uint32_t)n_named + n_ids;
	for (uint32_t i = 0; i < total; i++) {
		uint64_t e = (uint64_t)dir_off + 16 + 8ull * i;
		uint32_t name, off;
		if (!span_u32le(rs, e, &name) || !span_u32le(rs, e + 4, &off))
			return false;
		if (id < 0 || (!(name & 0x80000000u) && name == (uint32_t)id)) {
			*out = off;
			return true;
		}
	}
	return false;
}

/* UTF-16LE (BMP; surrogates become '?') of up to n units to UTF-8, stopping at NUL. */
static const char *utf16_to_utf8(struct arena *a, struct span s, uint64_t off, size_t max_units)
{
	char *buf = arena_alloc(a, max_units * 3 + 1);
	size_t o = 0;
	for (size_t i = 0; i < max_units; i++) {
		uint16_t c;
		if (!span_u16le(s, off + 2 * i, &c) || c == 0)
			break;
		if (c < 0x80) {
			buf[o++] = (char)c;
		} else if (c < 0x800) {
			buf[o++] = (char)(0xc0 | c >> 6);
			buf[o++] = (char)(0x80 | (c & 0x3f));
		} else if (c >= 0xd800 && c < 0xe000) {
			buf[o++] = '?';
		} else {
			buf[o++] = (char)(0xe0 | c >> 12);
			buf[o++] = (char)(0x80 | ((c >> 6) & 0x3f));
			buf[o++] = (char)(0x80 | (c & 0x3f));
		}
	}
	buf[o] = 0;
	return buf;
}

/* Does the UTF-16 key at off equal the ASCII string key (with its NUL)? */
static bool key_is(struct span s, uint64_t off, const char *key)
{
	size_t i = 0;
	for (;; i++) {
		uint16_t c;
		if (!span_u16le(s, off + 2 * i, &c))
			return false;
		if (c != (unsigned char)key[i])
			return false;
		if (c == 0)
			return true;
	}
}

/* Length in UTF-16 units of the key at off including its NUL, or 0 when unterminated. */
static size_t key_len(struct span s, uint64_t off, size_t max)
{
	for (size_t i = 0; i < max; i++) {
		uint16_t c;
		if (!span_u16le(s, off + 2 * i, &c))
			return 0;
		if (c == 0)
			return i + 1;
	}
	return 0;
}

static uint64_t align4(uint64_t x)
{
	return (x + 3) & ~(uint64_t)3;
}

/* String records inside one StringTable [off, end). Each record: wLength, wValueLength (in
 * WORDs), wType, key, pad to 4, value. */
static void read_strings(struct pe_reader *r, struct span v, uint64_t off, uint64_t end)
{
	struct pe_version *ver = &r->out->version;
	/* every record is at least 6 bytes, so this loop ends within (end-off)/6 steps */
	while (off + 6 <= end) {
		uint16_t len, vlen;
		if (!span_u16le(v, off, &len) || !span_u16le(v, off + 2, &vlen) || len < 6)
			return;
		uint64_t rec_end = off + len;
		if (rec_end > end)
			return;
		size_t klen = key_len(v, off + 6, 64);
		if (klen) {
			uint64_t val = align4(off + 6 + 2 * klen);
			if (val < rec_end) {
				size_t units = (size_t)((rec_end - val) / 2);
				if (vlen && vlen < units)
					units = vlen;
				const char *sval = utf16_to_utf8(r->a, v, val, units > 1024 ? 1024 : units);
				struct {
					const char *key;
					const char **dst;
				} keys[] = {
					{ "FileVersion", &ver->file_version_str },
					{ "ProductVersion", &ver->product_version_str },
					{ "ProductName", &ver->product_name },
					{ "CompanyName", &ver->company },
					{ "OriginalFilename", &ver->original_filename },
					{ "FileDescription", &ver->description },
				};
				for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++)
					if (!*keys[k].dst && key_is(v, off + 6, keys[k].key))
						*keys[k].dst = sval;
			}
		}
		off = align4(rec_end);
	}
}

static void read_version_blob(struct pe_reader *r, struct span v)
{
	struct pe_version *ver = &r->out->version;
	uint16_t total, vlen;
	if (!span_u16le(v, 0, &total) || !span_u16le(v, 2, &vlen) || !key_is(v, 6, "VS_VERSION_INFO")) {
		problem(r, "version resource without VS_VERSION_INFO header");
		return;
	}
	if (total < v.n)
		v.n = total;
	uint64_t fixed = align4(6 + 2 * 16);
	uint32_t sig;
	if (vlen >= 52 && span_u32le(v, fixed, &sig) && sig == VS_FIXED_SIGNATURE) {
		uint32_t fms, fls, pms, pls, type;
		if (span_u32le(v, fixed + 8, &fms) && span_u32le(v, fixed + 12, &fls) &&
		    span_u32le(v, fixed + 16, &pms) && span_u32le(v, fixed + 20, &pls) &&
		    span_u32le(v, fixed + 36, &type)) {
			ver->present = true;
			ver->file[0] = (uint16_t)(fms >> 16), ver->file[1] = (uint16_t)fms;
			ver->file[2] = (uint16_t)(fls >> 16), ver->file[3] = (uint16_t)fls;
			ver->product[0] = (uint16_t)(pms >> 16), ver->product[1] = (uint16_t)pms;
			ver->product[2] = (uint16_t)(pls >> 16), ver->product[3] = (uint16_t)pls;
			ver->file_type = type;
		}
	}
	/* Children: StringFileInfo { StringTable { String... } } and VarFileInfo. Two fixed levels,
	 * walked with loops, not recursion. */
	uint64_t off = align4(fixed + vlen);
	while (off + 6 <= v.n) {
		uint16_t len;
		if (!span_u16le(v, off, &len) || len < 6)
			return;
		uint64_t end = off + len > v.n ? v.n : off + len;
		if (key_is(v, off + 6, "StringFileInfo")) {
			uint64_t t = align4(off + 6 + 2 * 15);
			while (t + 6 <= end) {
				uint16_t tlen;
				if (!span_u16le(v, t, &tlen) || tlen < 6)
					break;
				uint64_t tend = t + tlen > end ? end : t + tlen;
				size_t klen = key_len(v, t + 6, 16); /* "040904b0" */
				if (klen)
					read_strings(r, v, align4(t + 6 + 2 * klen), tend);
				t = align4(tend);
			}
		}
		off = align4(end);
	}
}

static void read_version(struct pe_reader *r)
{
	uint32_t rva = r->dir_rva[DIR_RESOURCE], size = r->dir_size[DIR_RESOURCE];
	uint64_t off;
	if (r->n_dirs <= DIR_RESOURCE || rva == 0 || !rva_to_off(r, rva, &off))
		return;
	struct span rs = span_from(r->f, off);
	if (size && size < rs.n)
		rs.n = size;
	/* Type -> Name -> Language: three fixed levels. Offsets count from the resource dir start. */
	uint32_t e;
	if (!res_pick(rs, 0, RT_VERSION, &e))
		return;
	if (!(e & 0x80000000u) || !res_pick(rs, e & 0x7fffffffu, -1, &e) || !(e & 0x80000000u) ||
	    !res_pick(rs, e & 0x7fffffffu, -1, &e) || (e & 0x80000000u)) {
		problem(r, "malformed version resource directory");
		return;
	}
	uint32_t data_rva, data_size;
	if (!span_u32le(rs, e, &data_rva) || !span_u32le(rs, (uint64_t)e + 4, &data_size)) {
		problem(r, "version resource data entry outside the resource section");
		return;
	}
	/* The leaf holds an RVA, not a resource-relative offset (formats.md §4.1, VERIFIED). */
	uint64_t doff;
	if (!rva_to_off(r, data_rva, &doff)) {
		problem(r, "version resource data RVA outside the file");
		return;
	}
	struct span v = span_sub(r->f, doff, data_size);
	if (!v.p) {
		v = span_from(r->f, doff); /* a size that lies: read what is there */
		problem(r, "version resource size runs past the end of the file");
	}
	read_version_blob(r, v);
}

/* DOS/COFF/optional headers, data directories and the section table into r. */
static bool read_headers(struct pe_reader *r, const char **err)
{
	struct span f = r->f;
	struct pe_info *out = r->out;
	const char *e = "bad PE file";
	uint32_t pe_off;
	uint16_t n_sec, opt_size;
	if (!read_coff(f, &pe_off, &out->machine, &n_sec, &opt_size, &out->characteristics, &e))
		goto fail;
	out->is_dll = (out->characteristics & 0x2000) != 0;
	uint64_t opt = (uint64_t)pe_off + 24;
	uint16_t magic;
	if (opt_size < 2 || !span_u16le(f, opt, &magic)) {
		e = "no optional header (an object file, not an image)";
		goto fail;
	}
	if (magic != 0x10b && magic != 0x20b) {
		e = "unknown optional header magic (neither PE32 nor PE32+)";
		goto fail;
	}
	out->pe32plus = magic == 0x20b;
	uint64_t dirs = opt + (out->pe32plus ? 112 : 96);
	uint32_t n_rva;
	if (dirs > opt + opt_size || !span_has(f, opt, opt_size) || !span_u16le(f, opt + 68, &out->subsystem) ||
	    !span_u16le(f, opt + 70, &out->dll_characteristics) ||
	    !span_u32le(f, opt + 60, &r->size_of_headers) || !span_u32le(f, dirs - 4, &n_rva)) {
		e = "truncated optional header";
		goto fail;
	}
	if (out->pe32plus) {
		if (!span_u64le(f, opt + 24, &out->image_base)) {
			e = "truncated optional header";
			goto fail;
		}
	} else {
		uint32_t b;
		if (!span_u32le(f, opt + 28, &b)) {
			e = "truncated optional header";
			goto fail;
		}
		out->image_base = b;
	}
	/* Only directories that fit both the count and the declared optional header size count. */
	r->n_dirs = n_rva > 16 ? 16 : n_rva;
	uint64_t room = (opt + opt_size - dirs) / 8;
	if (r->n_dirs > room)
		r->n_dirs = (uint32_t)room;
	for (uint32_t i = 0; i < r->n_dirs; i++)
		if (!span_u32le(f, dirs + 8ull * i, &r->dir_rva[i]) ||
		    !span_u32le(f, dirs + 8ull * i + 4, &r->dir_size[i])) {
			e = "truncated data directories";
			goto fail;
		}
	if (n_sec > PE_MAX_SECTIONS) {
		e = "too many sections (more than the Windows loader accepts)";
		goto fail;
	}
	uint64_t st = opt + opt_size;
	for (uint16_t i = 0; i < n_sec; i++) {
		struct pe_section *s = &r->sec[i];
		uint64_t so = st + 40ull * i;
		if (!span_u32le(f, so + 8, &s->vsize) || !span_u32le(f, so + 12, &s->va) ||
		    !span_u32le(f, so + 16, &s->raw_size) || !span_u32le(f, so + 20, &s->raw_off)) {
			e = "truncated section table";
			goto fail;
		}
	}
	r->n_sec = n_sec;
	return true;
fail:
	if (err)
		*err = e;
	return false;
}

bool pe_validate(struct span f, const char **err)
{
	struct pe_info info;
	struct pe_reader r = { .f = f, .out = &info };
	memset(&info, 0, sizeof info);
	if (!read_headers(&r, err))
		return false;
	/* The loader maps every section's raw data: a file cut short is not a loadable image. */
	for (uint16_t i = 0; i < r.n_sec; i++)
		if (r.sec[i].raw_size && !span_has(f, r.sec[i].raw_off, r.sec[i].raw_size)) {
			if (err)
				*err = "truncated file: section data runs past the end";
			return false;
		}
	return true;
}

bool pe_parse(struct span f, struct arena *a, struct pe_info *out, const char **err)
{
	struct pe_reader r = { .f = f, .a = a, .out = out };
	memset(out, 0, sizeof *out);
	if (!read_headers(&r, err))
		return false;
	for (uint16_t i = 0; i < r.n_sec; i++) {
		struct pe_section *s = &r.sec[i];
		/* raw data cut to what the file holds: a truncated file still yields what is there */
		if (s->raw_off >= f.n) {
			if (s->raw_size)
				problem(&r, "section data runs past the end of the file (truncated file?)");
			s->raw_size = 0;
		} else if (s->raw_size > f.n - s->raw_off) {
			s->raw_size = (uint32_t)(f.n - s->raw_off);
			problem(&r, "section data runs past the end of the file (truncated file?)");
		}
	}
	pe_rva_map_build(&r.map, r.sec, r.n_sec); /* on the cut sizes: they bound the virtual ranges */
	out->is_dotnet = r.n_dirs > DIR_CLR && r.dir_rva[DIR_CLR] != 0;
	read_imports(&r);
	read_delay_imports(&r);
	read_exports(&r);
	read_version(&r);
	return true;
}

static const char *fmt4(struct arena *a, const uint16_t v[4])
{
	return arena_printf(a, "%u.%u.%u.%u", v[0], v[1], v[2], v[3]);
}

const char *pe_file_version(struct arena *a, const struct pe_info *pe)
{
	return pe->version.present ? fmt4(a, pe->version.file) : NULL;
}

const char *pe_product_version(struct arena *a, const struct pe_info *pe)
{
	return pe->version.present ? fmt4(a, pe->version.product) : NULL;
}

bool pe_imports_dll(const struct pe_info *pe, const char *name, bool *delay)
{
	for (size_t i = 0; i < pe->n_imports; i++)
		if (strcasecmp(pe->imports[i].dll, name) == 0) {
			if (delay)
				*delay = pe->imports[i].delay;
			return true;
		}
	return false;
}
