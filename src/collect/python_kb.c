/* The python module's questions to the knowledge base (src/kb/kb.h): what a framework release was
 * built for when its package does not say (data/tf.tsv, data/torch.tsv, data/frameworks.tsv), and
 * the file names of the components it loads (data/libs.tsv). The kb states requirements as the
 * projects' docs write them ("12.x", ">=9.8,<10", "8.2.4 (Linux), 8.5.0.96 (Windows)"); here they
 * become the one version the module keeps: "12", ">=9.8" (a floor), "8.2.4". */
#include <stdio.h>
#include <string.h>

#include "collect/python.h"
#include "fmt/version.h"
#include "kb/kb.h"

#define PY_KB_MAX_ROWS 16

/* One version out of a kb requirement: the part for this OS when the spec names OSes, the first
 * alternative (up to ',') otherwise, ".x" dropped; keep_floor keeps a leading ">=" (a minimum).
 * NULL when the spec holds no version. */
static const char *spec_version(struct arena *a, const char *spec, enum target_os os, bool keep_floor)
{
	if (!spec)
		return NULL;
	const char *tag = strstr(spec, os == OS_WINDOWS ? "(Windows)" : "(Linux)");
	const char *p = spec;
	if (tag) {
		/* "8.2.4 (Linux), 8.5.0.96 (Windows)": the alternative that ends at this OS's tag */
		for (const char *c = spec; c < tag; c++)
			if (*c == ',')
				p = c + 1;
	}
	while (*p == ' ')
		p++;
	bool floor = strncmp(p, ">=", 2) == 0;
	if (floor)
		p += 2;
	size_t n = strspn(p, "0123456789.");
	while (n && p[n - 1] == '.')
		n--; /* "12.x" -> "12" */
	if (!n)
		return NULL;
	return floor && keep_floor ? arena_printf(a, ">=%.*s", (int)n, p) : arena_strndup(a, p, n);
}

static const char *kb_source_text(struct arena *a, const struct kb_fact *f)
{
	return arena_printf(a, "knowledge base (%s%s)", f->source ? f->source : "?",
			    f->unconfirmed ? ", UNCONFIRMED" : "");
}

/* major.minor equal ("12.4" and "12.4.131"); a bare major ("12") matches every minor */
static bool cuda_same(const char *a, const char *b)
{
	struct version va, vb;
	if (!version_parse(a, &va) || !version_parse(b, &vb) || va.part[0] != vb.part[0])
		return false;
	return va.n < 2 || vb.n < 2 || va.part[1] == vb.part[1];
}

static bool torch_build(struct cudx_ctx *ctx, const char *version, const char *cuda, struct py_kb_build *out)
{
	/* torch.tsv's cuDNN pins are those of the Linux wheels */
	if (ctx->os == OS_WINDOWS || !cuda)
		return false;
	const struct kb_torch_variant *rows;
	size_t n = kb_torch_release(version, &rows);
	/* a wheel of the release itself is its version, or that and a +cuNNN/+cpu label; a nightly
	 * (2.8.0.dev20250315), a pre-release (2.9.0a0, rc1) or a build of its own (+git..., NGC's
	 * +....nv25.09) need not have the release's cuDNN pin */
	bool nightly = false;
	const char *q = version + strspn(version, "0123456789.");
	if (*q && *q != '+')
		nightly = true;
	else if (*q == '+' && strncmp(q + 1, "cu", 2) != 0 && strncmp(q + 1, "cpu", 3) != 0)
		nightly = true;
	else if (*q == '+' && strchr(q, '.'))
		nightly = true; /* +cu130 only, not +cu130.nv... */
	for (size_t i = 0; i < n; i++) {
		if (!cuda_same(rows[i].cuda, cuda))
			continue;
		out->cuda = rows[i].cuda;
		out->cudnn = nightly ? NULL : rows[i].cudnn;
		out->source = kb_source_text(ctx->arena, &rows[i].fact);
		return true;
	}
	return false;
}

static bool tf_build(struct cudx_ctx *ctx, const char *version, struct py_kb_build *out)
{
	const struct kb_tf_build *b = kb_tf_build(version, ctx->os);
	if (!b)
		return false;
	out->cuda = b->cuda;
	out->cudnn = b->cudnn;
	out->source = kb_source_text(ctx->arena, &b->fact);
	return true;
}

/* frameworks.tsv: the row of this package (one release has a row per CUDA flavour) */
static bool req_build(struct cudx_ctx *ctx, const char *framework, const char *package, const char *version,
		      struct py_kb_build *out)
{
	const struct kb_framework_req *rows[PY_KB_MAX_ROWS];
	size_t n = kb_framework_find(framework, version, rows, PY_KB_MAX_ROWS);
	for (size_t i = 0; i < n && i < PY_KB_MAX_ROWS; i++) {
		if (strcmp(rows[i]->package, package) != 0)
			continue;
		out->cuda = rows[i]->built_with ? rows[i]->built_with
						: spec_version(ctx->arena, rows[i]->cuda, ctx->os, false);
		out->cudnn = spec_version(ctx->arena, rows[i]->cudnn, ctx->os, true);
		out->source = kb_source_text(ctx->arena, &rows[i]->fact);
		return out->cuda != NULL;
	}
	return false;
}

bool py_kb_build(struct cudx_ctx *ctx, const struct py_framework *fw, struct py_kb_build *out)
{
	memset(out, 0, sizeof *out);
	if (!fw->version)
		return false;
	switch (fw->kind) {
	case PY_FW_TORCH: return torch_build(ctx, fw->version, fw->cuda, out);
	case PY_FW_TENSORFLOW: return tf_build(ctx, fw->version, out);
	case PY_FW_ONNXRUNTIME: return req_build(ctx, "onnxruntime", fw->name, fw->version, out);
	case PY_FW_JAX: return req_build(ctx, "jax", fw->name, fw->version, out);
	case PY_FW_CUPY: return false; /* the CUDA is in the wheel name */
	case PY_FW_PADDLE: return false; /* the CUDA is in the package's version module */
	case PY_FW_CTRANSLATE2: return req_build(ctx, "ctranslate2", fw->name, fw->version, out);
	case PY_FW_KINDS: break;
	}
	return false;
}

/* "11.0,11.1" holds "11.0" */
static bool list_has(const char *list, const char *item)
{
	size_t n = strlen(item);
	for (const char *p = list; p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
		if (strncmp(p, item, n) == 0 && (p[n] == ',' || p[n] == 0))
			return true;
	return false;
}

const char *py_kb_soname(const char *component, int major, const char *cuda)
{
	const struct kb_lib *rows[PY_KB_MAX_ROWS];
	bool cudnn = strcmp(component, "cudnn") == 0;
	/* cuDNN is not tied to a CUDA major: its own major picks the name */
	size_t n = kb_lib_find(component, cudnn ? 0 : major, OS_LINUX, rows, PY_KB_MAX_ROWS);
	char mm[32] = "";
	struct version v;
	if (cuda && version_parse(cuda, &v) && v.n >= 2)
		snprintf(mm, sizeof mm, "%d.%d", v.part[0], v.part[1]);
	const char *any = NULL;
	for (size_t i = 0; i < n && i < PY_KB_MAX_ROWS; i++) {
		const struct kb_lib *r = rows[i];
		if (strcmp(r->component, component) != 0 || (cudnn && r->major != major))
			continue;
		/* a row narrower than the major (libcusolver.so.10 of CUDA 11.0) wins for its minors */
		if (r->cuda_versions) {
			if (*mm && list_has(r->cuda_versions, mm))
				return r->name;
		} else if (!any) {
			any = r->name;
		}
	}
	return any;
}
