/* GPUs and architectures: compute capability by model name or SM spelling, and which toolkits can
 * target an SM. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "kb/kb_internal.h"

#define NAME_MAX_NORM 128

static bool word_is(const char *w, size_t len, const char *lower)
{
	if (strlen(lower) != len)
		return false;
	for (size_t i = 0; i < len; i++)
		if (tolower((unsigned char)w[i]) != lower[i])
			return false;
	return true;
}

bool kb_parse_sm(const char *s, int *cc_major, int *cc_minor)
{
	if (!s)
		return false;
	while (isspace((unsigned char)*s))
		s++;
	if (strncmp(s, "sm_", 3) == 0 || strncmp(s, "SM_", 3) == 0)
		s += 3;
	else if (strncmp(s, "compute_", 8) == 0)
		s += 8;
	else if (strncmp(s, "sm", 2) == 0 || strncmp(s, "SM", 2) == 0)
		s += 2;
	if (!isdigit((unsigned char)s[0]))
		return false;
	char *end;
	long a = strtol(s, &end, 10);
	if (*end == '.') {
		/* "8.6" */
		const char *m = end + 1;
		if (!isdigit((unsigned char)*m))
			return false;
		long b = strtol(m, &end, 10);
		if (*end != '\0' || a <= 0 || a > 99 || b < 0 || b > 9)
			return false;
		*cc_major = (int)a;
		*cc_minor = (int)b;
		return true;
	}
	/* "86", "120", "90a", "100f": the last digit is the minor */
	if (end - s < 2 || end - s > 3)
		return false;
	if (*end && !((*end == 'a' || *end == 'f') && end[1] == '\0'))
		return false;
	*cc_major = (int)(a / 10);
	*cc_minor = (int)(a % 10);
	return *cc_major > 0;
}

/* Lower-case words, '-' and '_' as blanks, without the words NVIDIA, GeForce and Tesla (NVML names
 * come with and without them: "Tesla T4", "NVIDIA GeForce RTX 3090", "GeForce GTX 1080"), nor GRID:
 * a virtual GPU names its board and its profile ("GRID A100-40C", "GRID T4-16Q": the board's
 * framebuffer share and series), and a GRID board is named alike without it. */
static void normalize(const char *in, char *out, size_t cap)
{
	size_t n = 0;
	const char *p = in;
	while (*p && n + 1 < cap) {
		while (*p == ' ' || *p == '-' || *p == '_' || *p == '\t')
			p++;
		const char *w = p;
		while (*p && *p != ' ' && *p != '-' && *p != '_' && *p != '\t')
			p++;
		size_t len = (size_t)(p - w);
		if (len == 0)
			break;
		if (word_is(w, len, "nvidia") || word_is(w, len, "geforce") || word_is(w, len, "tesla") ||
		    word_is(w, len, "grid"))
			continue;
		if (n && n + 1 < cap)
			out[n++] = ' ';
		for (size_t i = 0; i < len && n + 1 < cap; i++)
			out[n++] = (char)tolower((unsigned char)w[i]);
	}
	out[n] = '\0';
}

static const struct kb_gpu *arch_row(int cc_major, int cc_minor)
{
	for (size_t i = 0; i < kbt_gpu_n; i++)
		if (strcmp(kbt_gpu[i].segment, "arch") == 0 && kbt_gpu[i].cc_major == cc_major &&
		    kbt_gpu[i].cc_minor == cc_minor)
			return &kbt_gpu[i];
	return NULL;
}

const struct kb_gpu *kb_gpu_lookup(const char *name_or_sm)
{
	int ma, mi;
	if (!name_or_sm)
		return NULL;
	if (kb_parse_sm(name_or_sm, &ma, &mi))
		return arch_row(ma, mi);
	char q[NAME_MAX_NORM], n[NAME_MAX_NORM];
	normalize(name_or_sm, q, sizeof q);
	if (!q[0])
		return NULL;
	size_t qlen = strlen(q);
	const struct kb_gpu *best = NULL, *partial = NULL;
	size_t best_len = 0, n_partial = 0;
	for (size_t i = 0; i < kbt_gpu_n; i++) {
		const struct kb_gpu *g = &kbt_gpu[i];
		if (strcmp(g->segment, "arch") == 0)
			continue;
		normalize(g->name, n, sizeof n);
		size_t len = strlen(n);
		if (len == qlen && memcmp(n, q, len) == 0)
			return g;
		/* the row is a word prefix of the query: "h100" of "h100 80gb hbm3" */
		if (len < qlen && memcmp(n, q, len) == 0 && q[len] == ' ' && len > best_len) {
			best = g;
			best_len = len;
		}
		/* the query is a word prefix of exactly one row: "rtx 6000 ada" of "rtx 6000 ada generation";
		 * "rtx" alone names no GPU */
		if (qlen < len && memcmp(n, q, qlen) == 0 && n[qlen] == ' ') {
			n_partial++;
			partial = g;
		}
	}
	return best ? best : n_partial == 1 ? partial : NULL;
}

size_t kb_gpus(const struct kb_gpu **rows)
{
	*rows = kbt_gpu;
	return kbt_gpu_n;
}

const struct kb_arch_support *kb_arch_support(int sm)
{
	for (size_t i = 0; i < kbt_arch_n; i++)
		if (kbt_arch[i].sm == sm && !kbt_arch[i].suffix)
			return &kbt_arch[i];
	return NULL;
}

size_t kb_arch_rows(const struct kb_arch_support **rows)
{
	*rows = kbt_arch;
	return kbt_arch_n;
}

bool kb_arch_supported_by(const struct kb_arch_support *a, const char *cuda_version)
{
	struct version v, t;
	if (!a || !cuda_version || !version_parse(cuda_version, &v) || !version_parse(a->added, &t))
		return false;
	if (version_cmp_parts(&v, &t, 2) < 0)
		return false;
	if (a->removed && version_parse(a->removed, &t) && version_cmp_parts(&v, &t, 2) >= 0)
		return false;
	return true;
}

bool kb_arch_deprecated_in(const struct kb_arch_support *a, const char *cuda_version)
{
	struct version v, t;
	if (!kb_arch_supported_by(a, cuda_version) || !a->deprecated)
		return false;
	return version_parse(cuda_version, &v) && version_parse(a->deprecated, &t) &&
	       version_cmp_parts(&v, &t, 2) >= 0;
}

const struct kb_ptx_isa *kb_ptx_isa(int major, int minor)
{
	for (size_t i = 0; i < kbt_ptx_isa_n; i++) {
		struct version v;
		if (version_parse(kbt_ptx_isa[i].ptx_isa, &v) && v.part[0] == major && v.part[1] == minor)
			return &kbt_ptx_isa[i];
	}
	return NULL;
}

size_t kb_ptx_isa_rows(const struct kb_ptx_isa **rows)
{
	*rows = kbt_ptx_isa;
	return kbt_ptx_isa_n;
}

const struct kb_gpu_chip *kb_gpu_chip(const char *word)
{
	const struct kb_gpu_chip *best = NULL;
	size_t best_len = 0;
	for (size_t i = 0; word && i < kbt_gpu_chip_n; i++) {
		size_t n = strlen(kbt_gpu_chip[i].chip);
		if (n > best_len && strncmp(word, kbt_gpu_chip[i].chip, n) == 0) {
			best = &kbt_gpu_chip[i];
			best_len = n;
		}
	}
	return best;
}

bool kb_nvswitch_device(unsigned device)
{
	for (size_t i = 0; i < kbt_nvswitch_hint_n; i++) {
		const struct kb_nvswitch_hint *h = &kbt_nvswitch_hint[i];
		if (strcmp(h->kind, "device-ids") == 0 && h->last && device >= strtoul(h->first, NULL, 16) &&
		    device <= strtoul(h->last, NULL, 16))
			return true;
	}
	return false;
}

bool kb_sxm_module(const char *name)
{
	char low[128];
	size_t n = 0;
	for (const char *p = name; p && *p && n < sizeof low - 1; p++)
		low[n++] = (char)tolower((unsigned char)*p);
	low[n] = '\0';
	if (!n || strstr(low, "pcie") || strstr(low, "nvl"))
		return false;
	for (size_t i = 0; i < kbt_nvswitch_hint_n; i++) {
		const struct kb_nvswitch_hint *h = &kbt_nvswitch_hint[i];
		const char *at = strstr(low, h->first);
		size_t k = strlen(h->first);
		if (!at)
			continue;
		if (strcmp(h->kind, "name-part") == 0)
			return true;
		/* a model is a whole word: "h20" is not the start of "h200" */
		if (strcmp(h->kind, "model") == 0 && (at == low || !isalnum((unsigned char)at[-1])) &&
		    !isalnum((unsigned char)at[k]))
			return true;
	}
	return false;
}
