/* /etc/ld.so.cache reader: the old libc5/glibc format ("ld.so-1.7.0"), the new format
 * ("glibc-ld.so.cache1.1"), and the combined file (old followed by new). Layout and rules:
 * shared/research/formats.md §2.5. Pure reader over a span; entries are copied to the arena. */
#ifndef CUDX_LDCACHE_H
#define CUDX_LDCACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/arena.h"
#include "util/span.h"

#define LDCACHE_MAX_ENTRIES 200000

enum ldcache_format { LDCACHE_OLD = 1, LDCACHE_NEW = 2, LDCACHE_COMBINED = 3 };

struct ldcache_entry {
	const char *name; /* key: the SONAME, e.g. "libcuda.so.1" */
	const char *path; /* value: where ldconfig found it */
	int32_t flags;    /* FLAG_ELF_LIBC6 | FLAG_X8664_LIB64 ... */
	uint32_t hwcap_index_or_osversion;
	uint64_t hwcap;
	const char *hwcaps_subdir; /* glibc-hwcaps entry: its subdirectory ("x86-64-v3"), else NULL */
};

struct ldcache {
	enum ldcache_format format;
	struct ldcache_entry *entries; /* in file order (the order ld.so searches) */
	size_t n;
	const char *problem;   /* non-fatal oddity, or NULL */
	const char *generator; /* extension tag 0: "ldconfig (Debian GLIBC 2.36-9+deb12u14) ...", or NULL */
};

/* The entries' strings point into one copy of the file in the arena (memory bounded by the file's
 * size, whatever the entries point at). */
bool ldcache_parse(struct span file, struct arena *a, struct ldcache *out, const char **err);
/* The same, but the entries' strings point into file, which must outlive the result (a mapping
 * the sysroot keeps for the run): no copy of the whole cache. */
bool ldcache_parse_borrowed(struct span file, struct arena *a, struct ldcache *out, const char **err);
/* The flags value ld.so requires of a cache entry for an object of this class and machine
 * (_DL_CACHE_DEFAULT_ID: 0x303 on x86-64); 0 when unknown. */
int32_t ldcache_flags_for(int elf_class, uint16_t machine);
/* First plain (non-hwcaps) entry for name usable by an object of this ELF class and machine (as ld.so picks), or NULL. */
const struct ldcache_entry *ldcache_lookup(const struct ldcache *c, const char *name, int elf_class,
					   uint16_t machine);
/* Human description of the flags: "libc6,x86-64". */
const char *ldcache_flags_str(int32_t flags);
/* The glibc-hwcaps entry ld.so prefers for name: the first entry whose subdirectory is in
 * supported (best first, e.g. {"x86-64-v3", "x86-64-v2"}), by that priority; NULL when none. */
const struct ldcache_entry *ldcache_lookup_hwcaps(const struct ldcache *c, const char *name,
						  int elf_class, uint16_t machine,
						  const char *const *supported, size_t n_supported);

#endif
