/* CUDA release -> driver: toolkit minimums, minor-version compatibility, the newest CUDA a driver
 * supports natively, and integer version encodings. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kb/kb_internal.h"

const struct kb_cuda_release *kb_cuda_release(const char *cuda_version)
{
	struct version v, r;
	if (!cuda_version || !version_parse(cuda_version, &v))
		return NULL;
	for (size_t i = 0; i < kbt_cuda_release_n; i++)
		if (version_parse(kbt_cuda_release[i].cuda, &r) && r.n == v.n && version_cmp(&r, &v) == 0)
			return &kbt_cuda_release[i];
	/* the GA row of major.minor: the first row of the series that is not an RC (rows are oldest
	 * first, and an RC precedes its GA) */
	const struct kb_cuda_release *ga = NULL;
	for (size_t i = 0; i < kbt_cuda_release_n; i++) {
		const struct kb_cuda_release *c = &kbt_cuda_release[i];
		if (kb_version_cmp_prefix(&v, c->series) != 0 || !version_parse(c->series, &r) || v.n < 2)
			continue;
		if (strstr(c->label, "RC"))
			continue;
		ga = c;
		break;
	}
	return ga;
}

size_t kb_cuda_releases(const struct kb_cuda_release **rows)
{
	*rows = kbt_cuda_release;
	return kbt_cuda_release_n;
}

const char *kb_cuda_release_driver(const struct kb_cuda_release *r, enum target_os os)
{
	if (!r)
		return NULL;
	return os == OS_WINDOWS ? r->windows_driver : r->linux_driver;
}

const struct kb_minor_compat *kb_minor_compat(int cuda_major, enum target_os os)
{
	if (os == OS_AUTO)
		os = OS_LINUX;
	for (size_t i = 0; i < kbt_minor_compat_n; i++)
		if (kbt_minor_compat[i].cuda_major == cuda_major && kbt_minor_compat[i].os == os)
			return &kbt_minor_compat[i];
	return NULL;
}

const char *kb_minor_compat_floor(int cuda_major, enum target_os os, struct kb_fact *fact)
{
	const struct kb_minor_compat *m = kb_minor_compat(cuda_major, os);
	if (m && fact)
		*fact = m->fact;
	return m ? m->floor : NULL;
}

const char *kb_driver_max_cuda(const char *driver_version, enum target_os os)
{
	struct version d, need;
	if (!driver_version || !version_parse(driver_version, &d))
		return NULL;
	if (os == OS_AUTO)
		os = OS_LINUX;
	const char *best = NULL;
	struct version best_v = { { 0 }, 0 };
	for (size_t i = 0; i < kbt_cuda_release_n; i++) {
		const struct kb_cuda_release *c = &kbt_cuda_release[i];
		const char *min = kb_cuda_release_driver(c, os);
		bool ok;
		if (min && version_parse(min, &need))
			ok = version_cmp(&d, &need) >= 0;
		else /* only the branch is known (13.3 on Linux, 13.x on Windows): R610 = 610.* */
			ok = d.part[0] >= c->branch;
		struct version s;
		if (ok && version_parse(c->series, &s) && (!best || version_cmp(&s, &best_v) > 0)) {
			best = c->series;
			best_v = s;
		}
	}
	return best;
}

bool kb_version_decode(const char *component, long encoded, int *major, int *minor, int *patch)
{
	if (!component || encoded <= 0)
		return false;
	for (size_t i = 0; i < kbt_version_encoding_n; i++) {
		const struct kb_version_encoding *e = &kbt_version_encoding[i];
		if (strcmp(e->component, component) != 0 || e->major_mul <= 0)
			continue;
		long ma = encoded / e->major_mul, rest = encoded % e->major_mul;
		if (ma < e->major_from || (e->major_to && ma > e->major_to))
			continue;
		long mi = e->minor_mul > 0 ? rest / e->minor_mul : 0;
		long pa = e->patch_mul > 0 && e->minor_mul > 0 ? (rest % e->minor_mul) / e->patch_mul : 0;
		if (major)
			*major = (int)ma;
		if (minor)
			*minor = (int)mi;
		if (patch)
			*patch = (int)pa;
		return true;
	}
	return false;
}

size_t kb_version_encodings(const struct kb_version_encoding **rows)
{
	*rows = kbt_version_encoding;
	return kbt_version_encoding_n;
}

const struct kb_l4t *kb_l4t_lookup(const char *release)
{
	struct version r, row;
	if (!release || !version_parse(release, &r))
		return NULL;
	const struct kb_l4t *same_major = NULL;
	for (size_t i = 0; i < kbt_l4t_n; i++) {
		if (!version_parse(kbt_l4t[i].l4t, &row) || row.part[0] != r.part[0])
			continue;
		if (r.n >= 2 && row.part[1] == r.part[1])
			return &kbt_l4t[i];
		same_major = &kbt_l4t[i]; /* rows are oldest first: the last one is the newest */
	}
	return same_major;
}

const struct kb_driver_symbol *kb_driver_symbol(const char *symbol)
{
	for (size_t i = 0; symbol && i < kbt_driver_symbol_n; i++)
		if (strcmp(symbol, kbt_driver_symbol[i].symbol) == 0)
			return &kbt_driver_symbol[i];
	return NULL;
}

const struct kb_driver_gpu *kb_driver_gpu(int cc_major, int cc_minor)
{
	char cc[24];
	snprintf(cc, sizeof cc, "%d.%d", cc_major, cc_minor);
	for (size_t i = 0; i < kbt_driver_gpu_n; i++)
		if (strcmp(cc, kbt_driver_gpu[i].cc) == 0)
			return &kbt_driver_gpu[i];
	return NULL;
}
