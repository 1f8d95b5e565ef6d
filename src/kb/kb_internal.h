/* Helpers shared by the kb lookup files (not for other modules). */
#ifndef CUDX_KB_INTERNAL_H
#define CUDX_KB_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

#include "fmt/version.h"
#include "kb/kb.h"
#include "kb_tables.h"

/* Case-insensitive ASCII string equality. */
bool kb_streq_nocase(const char *a, const char *b);
/* Does version string v fall in [first, last]? last NULL: only first (compared on the parts first
 * has); "open": no upper bound; "12.x" / "13.0.x": every release with that prefix. */
bool kb_version_in_range(const char *v, const char *first, const char *last);
/* Compare v with a table version on the parts the table version has ("8.9.7.29" vs "8.9.7" -> 0). */
int kb_version_cmp_prefix(const struct version *v, const char *table_version);

#endif
