/* dpkg's status file, stanza by stanza (see dpkg.h). */
#include "fmt/dpkg.h"

/* The line at *pos, without its newline; *pos moves past it. */
static struct span next_line(struct span text, size_t *pos)
{
	size_t s = *pos, e = s;
	while (e < text.n && text.p[e] != '\n')
		e++;
	*pos = e < text.n ? e + 1 : e;
	if (e > s && text.p[e - 1] == '\r')
		e--;
	return span_sub(text, s, e - s);
}

/* The value of line when it is "key: value" (blanks around the value trimmed), else an empty span
 * with p == NULL. Field names are case-insensitive in deb-control(5); dpkg writes them as here. */
static struct span field(struct span line, const char *key)
{
	size_t k = strlen(key);
	if (line.n <= k || memcmp(line.p, key, k) != 0 || line.p[k] != ':')
		return (struct span){ NULL, 0 };
	size_t s = k + 1, e = line.n;
	while (s < e && (line.p[s] == ' ' || line.p[s] == '\t'))
		s++;
	while (e > s && (line.p[e - 1] == ' ' || line.p[e - 1] == '\t'))
		e--;
	return span_sub(line, s, e - s);
}

/* "install ok installed", "hold ok installed": the last word is the state */
static bool status_installed(struct span v)
{
	static const char word[] = " installed";
	size_t n = sizeof word - 1;
	return v.n >= n && memcmp(v.p + v.n - n, word, n) == 0;
}

bool dpkg_next(struct span text, size_t *pos, struct dpkg_package *out)
{
	*out = (struct dpkg_package){ { NULL, 0 }, { NULL, 0 }, false };
	/* skip the empty lines before a stanza */
	while (*pos < text.n) {
		size_t at = *pos;
		struct span l = next_line(text, pos);
		if (l.n) {
			*pos = at;
			break;
		}
	}
	if (*pos >= text.n)
		return false;
	while (*pos < text.n) {
		struct span l = next_line(text, pos);
		if (!l.n)
			break; /* the end of the stanza */
		struct span v;
		if ((v = field(l, "Package")).p)
			out->name = v;
		else if ((v = field(l, "Version")).p)
			out->version = v;
		else if ((v = field(l, "Status")).p)
			out->installed = status_installed(v);
	}
	return true;
}
