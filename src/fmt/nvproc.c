#include <string.h>

#include "fmt/nvproc.h"
#include "fmt/version.h"

#define LINE_MAX_KEEP 512

/* The first line of text, at most LINE_MAX_KEEP bytes, as a C string (stops at a NUL). */
static char *first_line(struct span text, struct arena *a)
{
	const uint8_t *nl = text.n ? memchr(text.p, '\n', text.n) : NULL;
	size_t len = nl ? (size_t)(nl - text.p) : text.n;
	return arena_strndup(a, (const char *)text.p, len > LINE_MAX_KEEP ? LINE_MAX_KEEP : len);
}

bool nvproc_parse_version(struct span text, struct arena *a, struct nvproc_version *out, const char **err)
{
	memset(out, 0, sizeof *out);
	/* the line may hold NULs in garbage input: the copy stops there, which is fine for parsing */
	char *line = first_line(text, a);
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

/* The digits after "key" in line, at most 16 characters of digits and dots: "4.1" after "REVISION: ". */
static const char *number_after(const char *line, const char *key, struct arena *a)
{
	const char *p = strstr(line, key);
	if (!p)
		return NULL;
	p += strlen(key);
	size_t n = 0;
	while (n < 16 && ((p[n] >= '0' && p[n] <= '9') || (n && p[n] == '.')))
		n++;
	while (n && p[n - 1] == '.')
		n--;
	return n ? arena_strndup(a, p, n) : NULL;
}

bool nvproc_parse_tegra_release(struct span text, struct arena *a, struct tegra_release *out, const char **err)
{
	memset(out, 0, sizeof *out);
	char *line = first_line(text, a);
	out->line = line;
	const char *major = number_after(line, "# R", a);
	if (!major || strncmp(line, "# R", 3) != 0 || !strstr(line, "(release)")) {
		*err = "not an L4T release line";
		return false;
	}
	const char *rev = number_after(line, "REVISION: ", a);
	if (!rev) {
		*err = "no REVISION";
		return false;
	}
	out->release = arena_printf(a, "%s.%s", major, rev);
	const char *b = strstr(line, "BOARD: ");
	if (b) {
		b += strlen("BOARD: ");
		size_t n = strcspn(b, ", ");
		out->board = n ? arena_strndup(a, b, n < 32 ? n : 32) : NULL;
	}
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
