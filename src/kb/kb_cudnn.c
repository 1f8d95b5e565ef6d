/* cuDNN releases -> supported CUDA, and the cudnnGetVersion() encoding. */
#include <string.h>

#include "kb/kb_internal.h"

const struct kb_cudnn_release *kb_cudnn_release(const char *version)
{
	struct version v;
	if (!version || !version_parse(version, &v) || v.n < 2)
		return NULL;
	for (size_t i = 0; i < kbt_cudnn_n; i++) {
		const struct kb_cudnn_release *r = &kbt_cudnn[i];
		if (kb_version_cmp_prefix(&v, r->version) < 0)
			continue;
		if (kb_version_cmp_prefix(&v, r->last ? r->last : r->version) <= 0)
			return r;
	}
	return NULL;
}

const struct kb_cudnn_release *kb_cudnn_release_nearest(const char *version)
{
	struct version v, r;
	const struct kb_cudnn_release *hit = kb_cudnn_release(version);
	if (hit || !version || !version_parse(version, &v))
		return hit;
	const struct kb_cudnn_release *best = NULL;
	for (size_t i = 0; i < kbt_cudnn_n; i++) {
		if (!version_parse(kbt_cudnn[i].version, &r) || r.part[0] != v.part[0] || version_cmp(&r, &v) > 0)
			continue;
		if (!best || version_strcmp(kbt_cudnn[i].version, best->version) > 0)
			best = &kbt_cudnn[i];
	}
	return best;
}

size_t kb_cudnn_releases(const struct kb_cudnn_release **rows)
{
	*rows = kbt_cudnn;
	return kbt_cudnn_n;
}

bool kb_cudnn_decode_version(long encoded, int *major, int *minor, int *patch)
{
	return kb_version_decode("cudnn", encoded, major, minor, patch);
}
