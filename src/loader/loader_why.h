/* `cudx why` computed: the resolution and the other copies on disk (judged by the loader rules,
 * src/diag/rules_loader.c). */
#ifndef CUDX_LOADER_WHY_H
#define CUDX_LOADER_WHY_H

#include "loader/loader.h"

struct loader_copy {
	const char *path, *real_path, *soname;
	const char *relation; /* "same name", "other major", "development link", ... */
	int elf_class, major;
	uint16_t machine;
	bool right_arch, in_cache;
	bool from_extra; /* found only in a directory of the extra paths (loader_why_copies) */
};

struct loader_why {
	struct loader_result *result;
	struct loader_copy *copies;
	size_t n_copies, cap_copies;
	const char **conf_dirs; /* from /etc/ld.so.conf */
	size_t n_conf_dirs;
};

/* Resolve name (from: an object whose NEEDED edge or dlopen it is, or NULL). *err when from
 * cannot be read. */
void loader_why(struct loader *L, const char *name, const char *from, struct loader_why *w,
		const char **err);
/* Look for every other copy of the library: the search dirs, ld.so.conf dirs, cache dirs and the
 * extra paths given (the inventory's library files). */
void loader_why_copies(struct loader *L, struct loader_why *w, const char *const *extra, size_t n_extra);
/* "libcudnn.so.8" -> "libcudnn.so": the part every copy of any version shares. */
const char *loader_name_stem(struct arena *a, const char *name);

/* The directories /etc/ld.so.conf names (with includes), for ldcache-stale. */
size_t loader_ldconf_dirs(struct loader *L, const char ***dirs);

#endif
