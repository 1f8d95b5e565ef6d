#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fmt/version.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);
	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	struct version v, w;
	char buf[64];
	if (version_parse(s, &v))
		version_format(&v, buf, sizeof buf);
	version_parse_n(s, strlen(s), &w);
	size_t len;
	version_find_driver(s, size, &len);
	version_strcmp(s, "535.104.05");
	free(s);
	return 0;
}
