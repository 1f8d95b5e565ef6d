#include "fmt/version.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

/* Each part is at most 9 digits so it fits an int; longer runs are not version numbers. */
static bool parse_parts(const char *s, size_t len, struct version *v, size_t *used)
{
	size_t i = 0;
	memset(v, 0, sizeof *v);
	while (i < len && v->n < VERSION_MAX_PARTS) {
		size_t start = i;
		long val = 0;
		while (i < len && isdigit((unsigned char)s[i]) && i - start < 9)
			val = val * 10 + (s[i++] - '0');
		if (i == start)
			break;
		if (i < len && isdigit((unsigned char)s[i]))
			return false; /* too many digits */
		v->part[v->n++] = (int)val;
		if (i + 1 < len && s[i] == '.' && isdigit((unsigned char)s[i + 1]))
			i++;
		else
			break;
	}
	*used = i;
	return v->n > 0;
}

bool version_parse(const char *s, struct version *v)
{
	size_t used;
	if (!s)
		return false;
	if (*s == 'v' || *s == 'V')
		s++;
	return parse_parts(s, strlen(s), v, &used);
}

bool version_parse_n(const char *s, size_t len, struct version *v)
{
	size_t used;
	return parse_parts(s, len, v, &used) && used == len;
}

int version_cmp_parts(const struct version *a, const struct version *b, int parts)
{
	if (parts <= 0 || parts > VERSION_MAX_PARTS)
		parts = VERSION_MAX_PARTS;
	for (int i = 0; i < parts; i++) {
		if (a->part[i] != b->part[i])
			return a->part[i] < b->part[i] ? -1 : 1;
	}
	return 0;
}

int version_cmp(const struct version *a, const struct version *b)
{
	return version_cmp_parts(a, b, 0);
}

bool version_other_release(const char *a, const char *b)
{
	struct version x, y;
	if (!version_parse(a, &x) || !version_parse(b, &y))
		return strcmp(a, b) != 0;
	for (int i = 0; i < x.n && i < y.n; i++)
		if (x.part[i] != y.part[i])
			return true;
	return false;
}

int version_strcmp(const char *a, const char *b)
{
	struct version va, vb;
	bool oka = version_parse(a, &va), okb = version_parse(b, &vb);
	if (!oka || !okb)
		return oka - okb;
	return version_cmp(&va, &vb);
}

char *version_format(const struct version *v, char *buf, size_t n)
{
	size_t off = 0;
	if (n == 0)
		return buf;
	buf[0] = '\0';
	for (int i = 0; i < v->n && off < n; i++) {
		int w = snprintf(buf + off, n - off, i ? ".%d" : "%d", v->part[i]);
		if (w < 0)
			break;
		off += (size_t)w;
	}
	return buf;
}

const char *version_find_driver(const char *text, size_t n, size_t *len)
{
	for (size_t i = 0; i + 6 <= n; i++) {
		if (i > 0 && (isalnum((unsigned char)text[i - 1]) || text[i - 1] == '.'))
			continue;
		size_t j = i, d = 0;
		while (j < n && isdigit((unsigned char)text[j]) && d < 4)
			j++, d++;
		if (d < 3 || j >= n || text[j] != '.')
			continue;
		size_t k = j + 1, d2 = 0;
		while (k < n && isdigit((unsigned char)text[k]) && d2 < 4)
			k++, d2++;
		if (d2 < 2 || d2 > 3)
			continue;
		if (k + 1 < n && text[k] == '.' && isdigit((unsigned char)text[k + 1])) {
			size_t m = k + 1;
			while (m < n && isdigit((unsigned char)text[m]) && m - k <= 3)
				m++;
			k = m;
		}
		if (k < n && (isalnum((unsigned char)text[k]) || text[k] == '.'))
			continue;
		*len = k - i;
		return text + i;
	}
	return NULL;
}

struct version version_from_cuda_int(int encoded)
{
	struct version v = { { 0 }, 0 };
	if (encoded <= 0)
		return v;
	v.part[0] = encoded / 1000;
	v.part[1] = (encoded % 1000) / 10;
	v.n = 2;
	return v;
}
