#include <string.h>

#include "fmt/hostconfig.h"

bool hostconfig_gcc_max(struct span text, int *max_major)
{
	static const char phrase[] = "gcc versions later than ";
	long long at = span_find(text, 0, phrase, sizeof phrase - 1);
	if (at < 0)
		return false;
	uint64_t off = (uint64_t)at + sizeof phrase - 1;
	int v = 0, digits = 0;
	uint8_t c;
	while (digits < 3 && span_u8(text, off, &c) && c >= '0' && c <= '9') {
		v = v * 10 + (c - '0');
		off++;
		digits++;
	}
	if (!digits || v == 0)
		return false;
	*max_major = v;
	return true;
}
