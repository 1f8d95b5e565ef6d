#include "util/ci.h"

#include <ctype.h>

bool ci_has_n(const char *hay, size_t len, const char *needle)
{
	size_t n = strlen(needle);
	for (size_t i = 0; i + n <= len; i++) {
		size_t k = 0;
		while (k < n && tolower((unsigned char)hay[i + k]) == tolower((unsigned char)needle[k]))
			k++;
		if (k == n)
			return true;
	}
	return false;
}
