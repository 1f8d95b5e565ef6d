/* Error codes of the CUDA runtime and driver API, cuDNN, cuBLAS and NVML. */
#include <string.h>
#include <strings.h>

#include "kb/kb_internal.h"

const struct kb_error *kb_error_lookup(const char *api, long code)
{
	if (!api)
		return NULL;
	for (size_t i = 0; i < kbt_error_n; i++)
		if (kbt_error[i].code == code && strcmp(kbt_error[i].api, api) == 0)
			return &kbt_error[i];
	return NULL;
}

/* Whether name is one of the comma-separated aliases (case-insensitive). */
static bool alias_of(const char *aliases, const char *name)
{
	size_t n = strlen(name);
	for (const char *s = aliases; s && *s;) {
		const char *e = strchr(s, ',');
		size_t len = e ? (size_t)(e - s) : strlen(s);
		if (len == n && strncasecmp(s, name, n) == 0)
			return true;
		s = e ? e + 1 : NULL;
	}
	return false;
}

/* Names are matched case-insensitively: users paste "cudaerrorinsufficientdriver" too. cuDNN 8 and
 * 9 share names with different numbers: the first row (table order: cudart, cu, cudnn8, ...) wins;
 * kb_errors() lists all. A deprecated alias (CUDNN_STATUS_ALLOC_FAILED) finds its code's row. */
const struct kb_error *kb_error_by_name(const char *name)
{
	if (!name)
		return NULL;
	for (size_t i = 0; i < kbt_error_n; i++)
		if (kb_streq_nocase(kbt_error[i].name, name))
			return &kbt_error[i];
	for (size_t i = 0; i < kbt_error_n; i++)
		if (alias_of(kbt_error[i].aliases, name))
			return &kbt_error[i];
	return NULL;
}

size_t kb_errors(const struct kb_error **rows)
{
	*rows = kbt_error;
	return kbt_error_n;
}
