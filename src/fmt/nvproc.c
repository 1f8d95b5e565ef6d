#include <string.h>

#include "fmt/nvproc.h"
#include "fmt/version.h"

#define LINE_MAX_KEEP 512

bool nvproc_parse_version(struct span text, struct arena *a, struct nvproc_version *out, const char **err)
{
	memset(out, 0, sizeof *out);
	const uint8_t *nl = text.n ? memchr(text.p, '\n', text.n) : NULL;
	size_t len = nl ? (size_t)(nl - text.p) : text.n;
	if (len > LINE_MAX_KEEP)
		len = LINE_MAX_KEEP;
	/* the line may hold NULs in garbage input: the copy stops there, which is fine for parsing */
	char *line = arena_strndup(a, (const char *)text.p, len);
	out->line = line;
	static const char tag[] = "NVRM version:";
	const char *mod = strstr(line, "Kernel Module");
	if (strncmp(line, tag, sizeof tag - 1) != 0 || !mod) {
		*err = "not an NVRM version line";
		return false;
	}
	out->flavour = strstr(line, "Open Kernel Module") ? "open" : "proprietary";
	if (strstr(line, "aarch64"))
		out->arch = "aarch64";
	else if (strstr(line, "x86_64"))
		out->arch = "x86_64";
	else if (strstr(line, "ppc64le"))
		out->arch = "ppc64le";
	const char *after = mod + strlen("Kernel Module");
	size_t vlen;
	const char *v = version_find_driver(after, strlen(after), &vlen);
	if (!v) {
		*err = "no driver version number";
		return false;
	}
	out->version = arena_strndup(a, v, vlen);
	return true;
}

const char *nvproc_field(struct span text, struct arena *a, const char *key)
{
	size_t kl = strlen(key);
	size_t pos = 0;
	while (pos < text.n) {
		const uint8_t *start = text.p + pos;
		const uint8_t *nl = memchr(start, '\n', text.n - pos);
		size_t len = nl ? (size_t)(nl - start) : text.n - pos;
		pos += len + 1;
		if (len <= kl || memcmp(start, key, kl) != 0 || start[kl] != ':')
			continue;
		size_t i = kl + 1;
		while (i < len && (start[i] == ' ' || start[i] == '\t'))
			i++;
		size_t end = len;
		while (end > i && (start[end - 1] == ' ' || start[end - 1] == '\t' || start[end - 1] == '\r'))
			end--;
		if (end == i)
			return NULL;
		return arena_strndup(a, (const char *)start + i, end - i < 256 ? end - i : 256);
	}
	return NULL;
}
