#include <stdint.h>

#include "fmt/dpkg.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct span t = span_make(data, size);
	size_t pos = 0, n = 0, last = 0;
	struct dpkg_package p;
	while (dpkg_next(t, &pos, &p)) {
		/* every stanza moves the position on, and what it returns lies inside the input */
		if (pos <= last && n)
			__builtin_trap();
		if ((p.name.n && (p.name.p < data || p.name.p + p.name.n > data + size)) ||
		    (p.version.n && (p.version.p < data || p.version.p + p.version.n > data + size)))
			__builtin_trap();
		last = pos;
		n++;
	}
	return 0;
}
