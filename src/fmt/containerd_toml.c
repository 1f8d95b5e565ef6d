#include <string.h>

#include "fmt/containerd_toml.h"

#define SCAN_MAX (1u << 20)

static bool blank(uint8_t c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

/* A table header naming a runtime whose name starts with nvidia: "...runtimes.nvidia]",
 * "...runtimes.\"nvidia\"]", "...runtimes.nvidia-cdi]". */
static bool nvidia_runtime_header(const uint8_t *p, size_t n)
{
	static const char key[] = "runtimes.";
	for (size_t i = 0; i + sizeof key - 1 < n; i++) {
		if (memcmp(p + i, key, sizeof key - 1) != 0)
			continue;
		size_t j = i + sizeof key - 1;
		if (j < n && (p[j] == '"' || p[j] == '\''))
			j++;
		if (n - j >= 6 && memcmp(p + j, "nvidia", 6) == 0)
			return true;
	}
	return false;
}

/* The quoted value after "default_runtime_name =", or NULL. */
static const char *default_name(const uint8_t *p, size_t n, struct arena *a)
{
	static const char key[] = "default_runtime_name";
	if (n < sizeof key - 1 || memcmp(p, key, sizeof key - 1) != 0)
		return NULL;
	size_t i = sizeof key - 1;
	while (i < n && blank(p[i]))
		i++;
	if (i >= n || p[i] != '=')
		return NULL;
	i++;
	while (i < n && blank(p[i]))
		i++;
	if (i >= n || (p[i] != '"' && p[i] != '\''))
		return NULL;
	uint8_t q = p[i++];
	size_t start = i;
	while (i < n && p[i] != q && i - start < 64)
		i++;
	if (i >= n || p[i] != q)
		return NULL;
	return arena_strndup(a, (const char *)p + start, i - start);
}

void containerd_config_scan(struct span text, struct arena *a, struct containerd_config *out)
{
	memset(out, 0, sizeof *out);
	size_t end = text.n < SCAN_MAX ? text.n : SCAN_MAX;
	size_t pos = 0;
	while (pos < end) {
		const uint8_t *line = text.p + pos;
		const uint8_t *nl = memchr(line, '\n', end - pos);
		size_t len = nl ? (size_t)(nl - line) : end - pos;
		pos += len + 1;
		out->lines++;
		size_t i = 0;
		while (i < len && blank(line[i]))
			i++;
		if (i == len || line[i] == '#')
			continue;
		if (line[i] == '[') {
			out->nvidia_runtime |= nvidia_runtime_header(line + i, len - i);
			continue;
		}
		const char *v = default_name(line + i, len - i, a);
		if (v)
			out->default_runtime = v;
	}
}
