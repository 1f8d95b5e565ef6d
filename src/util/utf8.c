/* UTF-8 validation and repair (utf8.h). */
#include "util/utf8.h"

#include <stdlib.h>
#include <string.h>

size_t utf8_seq_len(const unsigned char *s, size_t n)
{
	unsigned c = s[0], cp, min;
	size_t len;
	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		len = 2, min = 0x80, cp = c & 0x1f;
	else if ((c & 0xf0) == 0xe0)
		len = 3, min = 0x800, cp = c & 0x0f;
	else if (c >= 0xf0 && c <= 0xf4)
		len = 4, min = 0x10000, cp = c & 0x07;
	else
		return 0;
	if (len > n)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	return cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff) ? 0 : len;
}

char *utf8_sanitized(const char *s, size_t n)
{
	char *copy = malloc(n + 1);
	if (!copy)
		return NULL;
	for (size_t i = 0; i < n;) {
		size_t len = utf8_seq_len((const unsigned char *)s + i, n - i);
		if (len)
			memcpy(copy + i, s + i, len);
		else
			copy[i] = '?', len = 1;
		i += len;
	}
	copy[n] = '\0';
	return copy;
}
