/* A reader for dpkg's database of installed packages, /var/lib/dpkg/status (deb-control(5)
 * stanzas: "Field: value" lines, continuation lines starting with a blank, stanzas separated by
 * empty lines). Only what the driver collector needs: each stanza's Package, Version and whether
 * its Status says it is installed. */
#ifndef CUDX_DPKG_H
#define CUDX_DPKG_H

#include <stdbool.h>
#include <stddef.h>

#include "util/span.h"

struct dpkg_package {
	struct span name;    /* "nvidia-open-kernel-dkms" (empty when the stanza has none) */
	struct span version; /* "535.247.01-1~deb12u1" (empty when none) */
	bool installed;      /* Status: "<want> <flag> installed" (not config-files, half-installed ...) */
};

/* The stanza at *pos (advanced past it); false once the text is used up. Reads each byte once. */
bool dpkg_next(struct span text, size_t *pos, struct dpkg_package *out);

#endif
