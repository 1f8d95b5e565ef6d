/* /etc/ld.so.cache reader: see ldcache.h and shared/research/formats.md §2.5 (VERIFIED against
 * `ldconfig -p`). The cache is native-endian; cudx reads caches of its own byte order (the new
 * header's flags say which; a foreign-endian cache is reported, not misread). */
#include "fmt/ldcache.h"

#include <stdio.h>
#include <string.h>

#define OLD_MAGIC "ld.so-1.7.0"
#define OLD_MAGIC_LEN 11
#define NEW_MAGIC "glibc-ld.so.cache1.1"
#define NEW_MAGIC_LEN 20
#define NEW_HEADER 48
#define NEW_ENTRY 24
#define OLD_ENTRY 12
#define EXT_MAGIC 0xEAA42174u
#define EXT_MAX_SECTIONS 64
#define HWCAP_EXTENSION (1ull << 62)
#define ISA_LEVEL_MASK 0x3ffull
#define LDCACHE_MAX_STR 4096

/* A string of the cache, pointing into the file itself (span_cstr has checked that it is
 * NUL-terminated within bounds). Never a copy per entry: entries may all point at one long string,
 * and 200,000 copies of 4 KB would be 800 MB out of a small file. */
static const char *cstr(struct span s, uint64_t off)
{
	const char *p;
	return span_cstr(s, off, LDCACHE_MAX_STR, &p) < 0 ? NULL : p;
}

static bool is_hwcaps_extension(uint64_t hwcap)
{
	return ((hwcap >> 32) & ~ISA_LEVEL_MASK) == (HWCAP_EXTENSION >> 32);
}

/* The extension directory: generator string (tag 0) and the glibc-hwcaps name array (tag 1).
 * The directory's section offsets are file offsets; the string offsets *inside* the hwcaps array
 * count from the new header, like every other string (VERIFIED on a compat cache written by
 * ldconfig 2.36: with the file start as base the names are garbage; `ldconfig -p` 2.36 itself makes
 * that mistake for compat caches and prints e.g. hwcap: "u/libXft.so"; formats.md §2.5 said file
 * start, which only holds for pure new-format caches where both bases coincide). */
static void read_extensions(struct span file, uint32_t ext_off, struct arena *a, struct ldcache *out,
			    struct span *hwcaps)
{
	uint32_t magic, count;
	*hwcaps = (struct span){ NULL, 0 };
	if (ext_off == 0)
		return;
	if (!span_u32le(file, ext_off, &magic) || magic != EXT_MAGIC ||
	    !span_u32le(file, (uint64_t)ext_off + 4, &count)) {
		out->problem = "the cache's extension directory is missing or damaged";
		return;
	}
	for (uint32_t i = 0; i < count && i < EXT_MAX_SECTIONS; i++) {
		uint64_t b = (uint64_t)ext_off + 8 + 16ull * i;
		uint32_t tag, off, size;
		if (!span_u32le(file, b, &tag) || !span_u32le(file, b + 8, &off) ||
		    !span_u32le(file, b + 12, &size) || !span_has(file, off, size)) {
			out->problem = "an extension section of the cache lies outside the file";
			return;
		}
		if (tag == 0) {
			out->generator = arena_strndup(a, (const char *)file.p + off, size);
			/* strip a trailing NUL or newline kept in the stored size */
			char *g = (char *)out->generator;
			size_t n = strlen(g);
			while (n && (g[n - 1] == '\n' || g[n - 1] == '\0'))
				g[--n] = 0;
		} else if (tag == 1)
			*hwcaps = span_sub(file, off, size);
	}
}

/* Parse the new-format part that starts at base (0, or after the old table in a combined file). */
static bool parse_new(struct span file, uint64_t base, struct arena *a, struct ldcache *out,
		      const char **err)
{
	struct span nf = span_from(file, base);
	uint32_t nlibs, len_strings, ext_off;
	uint8_t flags;
	if (!span_has(nf, 0, NEW_HEADER) || memcmp(nf.p, NEW_MAGIC, NEW_MAGIC_LEN) != 0) {
		*err = "not a glibc ld.so.cache (bad magic)";
		return false;
	}
	span_u32le(nf, 20, &nlibs);
	span_u32le(nf, 24, &len_strings);
	span_u8(nf, 28, &flags);
	span_u32le(nf, 32, &ext_off);
	if ((flags & 3) == 3) {
		*err = "the cache is big-endian (written for another machine); cudx reads native little-endian caches";
		return false;
	}
	if (nlibs > LDCACHE_MAX_ENTRIES || !span_has(nf, NEW_HEADER, (uint64_t)nlibs * NEW_ENTRY)) {
		*err = "the cache's entry count runs past the end of the file (truncated cache)";
		return false;
	}
	struct span hwcaps;
	read_extensions(file, ext_off, a, out, &hwcaps);
	out->entries = arena_calloc(a, nlibs ? nlibs : 1, sizeof *out->entries);
	size_t n = 0;
	for (uint32_t i = 0; i < nlibs; i++) {
		uint64_t b = NEW_HEADER + (uint64_t)i * NEW_ENTRY;
		uint32_t fl = 0, key = 0, value = 0, osv = 0;
		uint64_t hwcap = 0;
		span_u32le(nf, b, &fl);
		span_u32le(nf, b + 4, &key);
		span_u32le(nf, b + 8, &value);
		span_u32le(nf, b + 12, &osv);
		span_u64le(nf, b + 16, &hwcap);
		struct ldcache_entry *e = &out->entries[n];
		/* string offsets count from the new header (formats.md §2.5) */
		e->name = cstr(nf, key);
		e->path = cstr(nf, value);
		if (!e->name || !e->path) {
			out->problem = "some cache entries point outside the string table and were skipped";
			continue;
		}
		e->flags = (int32_t)fl;
		e->hwcap_index_or_osversion = osv;
		e->hwcap = hwcap;
		if (is_hwcaps_extension(hwcap)) {
			uint32_t idx = (uint32_t)hwcap, soff;
			if (span_u32le(hwcaps, 4ull * idx, &soff))
				e->hwcaps_subdir = cstr(nf, soff);
			if (!e->hwcaps_subdir) {
				out->problem = "a glibc-hwcaps cache entry names an unknown subdirectory";
				continue;
			}
		}
		n++;
	}
	out->n = n;
	(void)len_strings;
	return true;
}

static bool parse(struct span file, struct arena *a, struct ldcache *out, const char **err);

bool ldcache_parse(struct span file, struct arena *a, struct ldcache *out, const char **err)
{
	/* one copy of the file, bounded by its size, that the entries then point into */
	unsigned char *copy = arena_alloc(a, file.n ? file.n : 1);
	if (file.n)
		memcpy(copy, file.p, file.n);
	return parse(span_make(copy, file.n), a, out, err);
}

bool ldcache_parse_borrowed(struct span file, struct arena *a, struct ldcache *out, const char **err)
{
	return parse(file, a, out, err);
}

static bool parse(struct span file, struct arena *a, struct ldcache *out, const char **err)
{
	memset(out, 0, sizeof *out);
	if (file.n >= NEW_MAGIC_LEN && memcmp(file.p, NEW_MAGIC, NEW_MAGIC_LEN) == 0) {
		out->format = LDCACHE_NEW;
		return parse_new(file, 0, a, out, err);
	}
	if (file.n < 16 || memcmp(file.p, OLD_MAGIC, OLD_MAGIC_LEN) != 0) {
		*err = file.n == 0 ? "the cache file is empty" : "not a glibc ld.so.cache (bad magic)";
		return false;
	}
	uint32_t nlibs;
	span_u32le(file, 12, &nlibs);
	if (nlibs > LDCACHE_MAX_ENTRIES || !span_has(file, 16, (uint64_t)nlibs * OLD_ENTRY)) {
		*err = "the cache's entry count runs past the end of the file (truncated cache)";
		return false;
	}
	uint64_t end_old = 16 + (uint64_t)nlibs * OLD_ENTRY;
	/* Combined ("compat") file: the new header follows at the next 8-byte boundary, and ld.so
	 * uses the new part when it is there (dl-cache.c). */
	uint64_t new_at = (end_old + 7) & ~7ull;
	if (span_has(file, new_at, NEW_HEADER) &&
	    memcmp(file.p + new_at, NEW_MAGIC, NEW_MAGIC_LEN) == 0) {
		out->format = LDCACHE_COMBINED;
		return parse_new(file, new_at, a, out, err);
	}
	out->format = LDCACHE_OLD;
	struct span strings = span_from(file, end_old); /* old keys/values count from here */
	out->entries = arena_calloc(a, nlibs ? nlibs : 1, sizeof *out->entries);
	size_t n = 0;
	for (uint32_t i = 0; i < nlibs; i++) {
		uint64_t b = 16 + (uint64_t)i * OLD_ENTRY;
		uint32_t fl = 0, key = 0, value = 0;
		span_u32le(file, b, &fl);
		span_u32le(file, b + 4, &key);
		span_u32le(file, b + 8, &value);
		struct ldcache_entry *e = &out->entries[n];
		e->name = cstr(strings, key);
		e->path = cstr(strings, value);
		if (!e->name || !e->path) {
			out->problem = "some cache entries point outside the string table and were skipped";
			continue;
		}
		e->flags = (int32_t)fl;
		n++;
	}
	out->n = n;
	return true;
}

int32_t ldcache_flags_for(int elf_class, uint16_t machine)
{
	/* _DL_CACHE_DEFAULT_ID of each port (sysdeps/.../dl-cache.h): FLAG_ELF_LIBC6 | ABI bits */
	switch (machine) {
	case 62: return elf_class == 64 ? 0x0303 : 0x0803; /* x86-64 / x32 */
	case 3: return 0x0003;                              /* i386 */
	case 183: return 0x0a03;                            /* AArch64 */
	case 21: return 0x0503;                             /* PowerPC64 */
	case 22: return elf_class == 64 ? 0x0403 : 0x0003;  /* s390x / s390 */
	case 40: return 0x0903;                             /* ARM hard-float */
	case 243: return elf_class == 64 ? 0x1003 : 0x0003; /* RISC-V double-float */
	default: return 0;
	}
}

/* Does ld.so accept this entry for the class/machine (_dl_cache_check_flags)? */
static bool flags_ok(int32_t flags, int elf_class, uint16_t machine)
{
	int32_t want = ldcache_flags_for(elf_class, machine);
	if (want == 0)
		return flags == 1 || flags == 3;
	if (want == 3) /* 32-bit ports also accept plain FLAG_ELF */
		return flags == 1 || flags == 3;
	if (machine == 40)
		return flags == 0x0903 || flags == 0x0b03;
	return flags == want;
}

static bool is_plain(const struct ldcache_entry *e)
{
	/* An entry with only ISA-level bits is a plain entry (x86 ISA level marker); legacy hwcap
	 * masks are ignored by glibc >= 2.37 and never written by current ldconfig. */
	return !e->hwcaps_subdir && (e->hwcap & ~(ISA_LEVEL_MASK << 32)) == 0;
}

const struct ldcache_entry *ldcache_lookup(const struct ldcache *c, const char *name, int elf_class,
					   uint16_t machine)
{
	for (size_t i = 0; i < c->n; i++) {
		const struct ldcache_entry *e = &c->entries[i];
		if (strcmp(e->name, name) == 0 && is_plain(e) && flags_ok(e->flags, elf_class, machine))
			return e;
	}
	return NULL;
}

const struct ldcache_entry *ldcache_lookup_hwcaps(const struct ldcache *c, const char *name,
						  int elf_class, uint16_t machine,
						  const char *const *supported, size_t n_supported)
{
	const struct ldcache_entry *best = NULL;
	size_t best_prio = n_supported;
	for (size_t i = 0; i < c->n; i++) {
		const struct ldcache_entry *e = &c->entries[i];
		if (!e->hwcaps_subdir || strcmp(e->name, name) != 0 ||
		    !flags_ok(e->flags, elf_class, machine))
			continue;
		for (size_t k = 0; k < best_prio; k++)
			if (strcmp(supported[k], e->hwcaps_subdir) == 0) {
				best = e;
				best_prio = k;
				break;
			}
	}
	return best;
}

const char *ldcache_flags_str(int32_t flags)
{
	static const char *const types[] = { "libc4", "ELF", "libc5", "libc6" };
	static const char *const abis[] = {
		"",        ",64bit",      ",IA-64",        ",x86-64",        ",64bit",
		",64bit",  ",N32",        ",64bit",        ",x32",           ",hard-float",
		",AArch64", ",soft-float", ",nan2008",     ",N32,nan2008",   ",64bit,nan2008",
		",soft-float", ",double-float", ",soft-float", ",double-float",
	};
	static _Thread_local char buf[48];
	unsigned type = (unsigned)flags & 0xff, abi = ((unsigned)flags >> 8) & 0xff;
	const char *t = type < 4 ? types[type] : "unknown";
	if (abi < sizeof abis / sizeof abis[0])
		snprintf(buf, sizeof buf, "%s%s", t, abis[abi]);
	else
		snprintf(buf, sizeof buf, "%s,%u", t, abi << 8);
	return buf;
}
