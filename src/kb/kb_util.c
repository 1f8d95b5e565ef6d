#include <ctype.h>
#include <string.h>

#include "kb/kb_internal.h"

bool kb_streq_nocase(const char *a, const char *b)
{
	for (; *a && *b; a++, b++)
		if (tolower((unsigned char)*a) != tolower((unsigned char)*b))
			return false;
	return *a == *b;
}

int kb_version_cmp_prefix(const struct version *v, const char *table_version)
{
	struct version t;
	if (!version_parse(table_version, &t))
		return 1;
	return version_cmp_parts(v, &t, t.n);
}

bool kb_version_in_range(const char *vs, const char *first, const char *last)
{
	struct version v;
	if (!vs || !first || !version_parse(vs, &v))
		return false;
	if (kb_version_cmp_prefix(&v, first) < 0)
		return false;
	if (!last)
		return kb_version_cmp_prefix(&v, first) == 0;
	if (strcmp(last, "open") == 0)
		return true;
	size_t n = strlen(last);
	if (n >= 2 && strcmp(last + n - 2, ".x") == 0) {
		/* "12.x": the prefix "12" must match exactly */
		char prefix[32];
		if (n - 2 >= sizeof prefix)
			return false;
		memcpy(prefix, last, n - 2);
		prefix[n - 2] = '\0';
		return kb_version_cmp_prefix(&v, prefix) <= 0;
	}
	return kb_version_cmp_prefix(&v, last) <= 0;
}

const struct kb_source *kb_source(const char *key)
{
	if (!key)
		return NULL;
	for (size_t i = 0; i < kbt_source_n; i++)
		if (strcmp(kbt_source[i].key, key) == 0)
			return &kbt_source[i];
	return NULL;
}
