/* libFuzzer target for the ld.so.cache reader (old, new and combined formats) and its lookups.
 * Seeds: small caches written by `ldconfig -c old|new|compat`. */
#include <stddef.h>
#include <stdint.h>

#include "fmt/ldcache.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct arena a;
	arena_init(&a);
	struct ldcache c;
	const char *err;
	if (ldcache_parse(span_make(data, size), &a, &c, &err)) {
		static const char *const hw[] = { "x86-64-v3", "x86-64-v2" };
		(void)ldcache_lookup(&c, "libc.so.6", 64, 62);
		(void)ldcache_lookup_hwcaps(&c, "libc.so.6", 64, 62, hw, 2);
		for (size_t i = 0; i < c.n && i < 4; i++)
			(void)ldcache_flags_str(c.entries[i].flags);
	}
	arena_free(&a);
	return 0;
}
