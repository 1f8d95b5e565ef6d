/* Case-insensitive text search (ASCII): mingw lacks strcasestr. */
#ifndef CUDX_CI_H
#define CUDX_CI_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

/* Whether needle occurs in hay[0..len), ignoring ASCII case. */
bool ci_has_n(const char *hay, size_t len, const char *needle);

static inline bool ci_has(const char *hay, const char *needle)
{
	return ci_has_n(hay, strlen(hay), needle);
}

#endif
