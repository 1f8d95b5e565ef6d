/* Frameworks: TensorFlow tested builds, PyTorch CUDA variants, JAX / ONNX Runtime / CuPy needs. */
#include <string.h>

#include "kb/kb_internal.h"

const struct kb_tf_build *kb_tf_build(const char *version, enum target_os os)
{
	struct version v;
	if (!version || !version_parse(version, &v) || v.n < 2)
		return NULL;
	if (os == OS_AUTO)
		os = OS_LINUX;
	for (size_t i = 0; i < kbt_tf_build_n; i++) {
		const struct kb_tf_build *b = &kbt_tf_build[i];
		if (b->os != os)
			continue;
		struct version first;
		if (!version_parse(b->version, &first))
			continue;
		if (!b->last) {
			/* rows are tested configurations of a major.minor: 2.15.1 uses the 2.15.0 row */
			if (version_cmp_parts(&v, &first, 2) == 0)
				return b;
		} else if (kb_version_cmp_prefix(&v, b->version) >= 0) {
			struct version last;
			if (version_parse(b->last, &last) && version_cmp_parts(&v, &last, 2) <= 0)
				return b;
		}
	}
	return NULL;
}

const char *kb_tf_last_windows_gpu(void)
{
	const char *best = NULL;
	for (size_t i = 0; i < kbt_tf_build_n; i++)
		if (kbt_tf_build[i].os == OS_WINDOWS && (!best || version_strcmp(kbt_tf_build[i].version, best) > 0))
			best = kbt_tf_build[i].version;
	return best;
}

size_t kb_tf_builds(const struct kb_tf_build **rows)
{
	*rows = kbt_tf_build;
	return kbt_tf_build_n;
}

size_t kb_torch_release(const char *version, const struct kb_torch_variant **rows)
{
	struct version v;
	*rows = NULL;
	if (!version || !version_parse(version, &v) || v.n < 2)
		return 0;
	for (size_t i = 0; i < kbt_torch_n; i++) {
		struct version t;
		if (!version_parse(kbt_torch[i].torch, &t) || version_cmp_parts(&v, &t, 2) != 0)
			continue;
		/* rows of one release are adjacent (kbgen checks #!contiguous torch) */
		size_t n = 1;
		while (i + n < kbt_torch_n && strcmp(kbt_torch[i + n].torch, kbt_torch[i].torch) == 0)
			n++;
		*rows = &kbt_torch[i];
		return n;
	}
	return 0;
}

const struct kb_torch_variant *kb_torch_variant(const char *version, const char *variant)
{
	const struct kb_torch_variant *rows;
	size_t n = kb_torch_release(version, &rows);
	if (!variant && version) {
		const char *plus = strchr(version, '+');
		variant = plus ? plus + 1 : NULL;
	}
	if (!variant)
		return NULL;
	for (size_t i = 0; i < n; i++)
		if (strcmp(rows[i].variant, variant) == 0)
			return &rows[i];
	return NULL;
}

size_t kb_torch_variants(const struct kb_torch_variant **rows)
{
	*rows = kbt_torch;
	return kbt_torch_n;
}

size_t kb_framework_find(const char *framework, const char *version, const struct kb_framework_req **out,
			 size_t max)
{
	size_t n = 0;
	if (!framework)
		return 0;
	for (size_t i = 0; i < kbt_framework_n; i++) {
		const struct kb_framework_req *r = &kbt_framework[i];
		if (!kb_streq_nocase(r->framework, framework))
			continue;
		if (version && !kb_version_in_range(version, r->version, r->last))
			continue;
		if (n < max)
			out[n] = r;
		n++;
	}
	return n;
}

size_t kb_framework_reqs(const struct kb_framework_req **rows)
{
	*rows = kbt_framework;
	return kbt_framework_n;
}

size_t kb_framework_loads(const char *framework, const struct kb_framework_load **out, size_t max)
{
	size_t n = 0;
	if (!framework)
		return 0;
	for (size_t i = 0; i < kbt_framework_load_n; i++)
		if (kb_streq_nocase(kbt_framework_load[i].framework, framework)) {
			if (n < max)
				out[n] = &kbt_framework_load[i];
			n++;
		}
	return n;
}
