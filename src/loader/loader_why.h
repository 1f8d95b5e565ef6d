/* `cudx why` computed: the resolution, the other copies on disk, and the findings. */
#ifndef CUDX_LOADER_WHY_H
#define CUDX_LOADER_WHY_H

#include "diag/finding.h"
#include "loader/loader.h"

struct loader_copy {
	const char *path, *real_path, *soname;
	const char *relation; /* "same name", "other major", "development link", ... */
	int elf_class, major;
	uint16_t machine;
	bool right_arch, in_cache;
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
/* lib-not-found, lib-wrong-major, lib-wrong-arch, lib-symbol-version-missing, ldcache-stale. */
void loader_why_findings(struct loader *L, struct loader_why *w, struct findings *fs);

/* The directories /etc/ld.so.conf names (with includes), for ldcache-stale. */
size_t loader_ldconf_dirs(struct loader *L, const char ***dirs);

#endif
