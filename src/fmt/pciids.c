/* pci.ids: see pciids.h. Lines are read within the span; nothing is assumed about their length. */
#include <stdbool.h>
#include <string.h>

#include "fmt/pciids.h"
#include "util/hex.h"

#define NAME_MAX_LEN 200

/* Four hex digits at p[0..3] (the line has at least len bytes) -> id, or -1. */
static long hex4(const char *p, size_t len)
{
	if (len < 4)
		return -1;
	long v = 0;
	for (int i = 0; i < 4; i++) {
		int h = hex_digit(p[i]);
		if (h < 0)
			return -1;
		v = v * 16 + h;
	}
	return v;
}

/* The text after "XXXX" and its blanks, trimmed, capped at NAME_MAX_LEN. */
static const char *name_after_id(struct arena *a, const char *p, size_t len)
{
	size_t i = 4;
	while (i < len && (p[i] == ' ' || p[i] == '\t'))
		i++;
	size_t end = len;
	while (end > i && (p[end - 1] == ' ' || p[end - 1] == '\t' || p[end - 1] == '\r'))
		end--;
	if (end <= i)
		return NULL;
	if (end - i > NAME_MAX_LEN)
		end = i + NAME_MAX_LEN;
	return arena_strndup(a, p + i, end - i);
}

const char *pciids_device_name(struct span ids, struct arena *a, uint16_t vendor, uint16_t device)
{
	const char *s = (const char *)ids.p;
	bool in_vendor = false;
	for (size_t off = 0; off < ids.n;) {
		const char *line = s + off;
		const char *nl = memchr(line, '\n', ids.n - off);
		size_t len = nl ? (size_t)(nl - line) : ids.n - off;
		off += len + 1;
		if (len == 0 || line[0] == '#')
			continue;
		if (line[0] != '\t') {
			if (in_vendor)
				return NULL; /* the next vendor (or the class list "C 00  ..."): not listed */
			in_vendor = hex4(line, len) == vendor && len > 4 && (line[4] == ' ' || line[4] == '\t');
			continue;
		}
		if (!in_vendor || (len > 1 && line[1] == '\t'))
			continue; /* another vendor's device, or a subsystem line */
		if (hex4(line + 1, len - 1) == device && len > 5 && (line[5] == ' ' || line[5] == '\t'))
			return name_after_id(a, line + 1, len - 1);
	}
	return NULL;
}

void pciids_split_name(const char *name, struct arena *a, const char **chip, const char **board)
{
	*chip = *board = NULL;
	if (!name)
		return;
	size_t w = strcspn(name, " \t[");
	if (w)
		*chip = arena_strndup(a, name, w);
	const char *open = strrchr(name, '[');
	const char *close = open ? strchr(open, ']') : NULL;
	if (open && close && close > open + 1)
		*board = arena_strndup(a, open + 1, (size_t)(close - open - 1));
}
