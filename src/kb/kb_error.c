/* Error codes of the CUDA runtime and driver API, cuDNN, cuBLAS and NVML. */
#include <string.h>

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

/* Names are matched case-insensitively: users paste "cudaerrorinsufficientdriver" too. cuDNN 8 and
 * 9 share names with different numbers: the first row (table order: cudart, cu, cudnn8, ...) wins;
 * kb_errors() lists all. */
const struct kb_error *kb_error_by_name(const char *name)
{
	if (!name)
		return NULL;
	for (size_t i = 0; i < kbt_error_n; i++)
		if (kb_streq_nocase(kbt_error[i].name, name))
			return &kbt_error[i];
	return NULL;
}

size_t kb_errors(const struct kb_error **rows)
{
	*rows = kbt_error;
	return kbt_error_n;
}
