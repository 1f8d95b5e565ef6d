/* `cudx kb` answers as data. Every answer object has "topic", "query", "found", the topic's fields,
 * and "sources" (the source keys used, with title and URL). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fmt/version.h"
#include "kb/kb.h"
#include "kb/kb_query.h"
#include "kb/kb_internal.h"

const char kb_query_topics[] = "driver, gpu, arch, lib, cudnn, framework, error, tables";

#define MAX_ROWS 256

static json_t *str_or_null(const char *s)
{
	return s ? json_string(s) : json_null();
}

static const char *os_name(enum target_os os)
{
	return os == OS_WINDOWS ? "windows" : os == OS_LINUX ? "linux" : "any";
}

/* Remember the source keys of a fact in the answer's "sources" object. */
static void add_sources(json_t *root, const struct kb_fact *f)
{
	json_t *sources = json_object_get(root, "sources");
	char buf[256];
	snprintf(buf, sizeof buf, "%s", f->source ? f->source : "");
	for (char *save = NULL, *k = strtok_r(buf, ",", &save); k; k = strtok_r(NULL, ",", &save)) {
		const struct kb_source *s = kb_source(k);
		if (!s || json_object_get(sources, k))
			continue;
		json_t *o = json_object();
		json_object_set_new(o, "title", json_string(s->title));
		json_object_set_new(o, "url", str_or_null(s->url));
		json_object_set_new(sources, k, o);
	}
}

/* Mark a row with its source and UNCONFIRMED flag. */
static void add_fact(json_t *root, json_t *row, const struct kb_fact *f)
{
	json_object_set_new(row, "source", str_or_null(f->source));
	json_object_set_new(row, "unconfirmed", json_boolean(f->unconfirmed));
	add_sources(root, f);
}

static json_t *answer(const struct kb_query *q)
{
	json_t *r = json_object();
	json_object_set_new(r, "topic", json_string(q->topic));
	json_object_set_new(r, "query", str_or_null(q->arg));
	json_object_set_new(r, "found", json_false());
	json_object_set_new(r, "sources", json_object());
	return r;
}

static enum kb_query_status found(json_t *r)
{
	json_object_set_new(r, "found", json_true());
	/* keep "sources" last: it reads as footnotes */
	json_t *s = json_incref(json_object_get(r, "sources"));
	json_object_del(r, "sources");
	json_object_set_new(r, "sources", s);
	return KBQ_FOUND;
}

static enum kb_query_status not_found(json_t *r, const char *fmt, const char *what)
{
	char msg[256];
	snprintf(msg, sizeof msg, fmt, what);
	json_object_set_new(r, "message", json_string(msg));
	return KBQ_NOT_FOUND;
}

/* --- driver ---------------------------------------------------------------------------------- */

static json_t *release_json(json_t *root, const struct kb_cuda_release *c)
{
	json_t *o = json_object();
	json_object_set_new(o, "cuda", json_string(c->cuda));
	json_object_set_new(o, "label", json_string(c->label));
	json_object_set_new(o, "linux_driver", str_or_null(c->linux_driver));
	json_object_set_new(o, "windows_driver", str_or_null(c->windows_driver));
	json_object_set_new(o, "branch", json_integer(c->branch));
	add_fact(root, o, &c->fact);
	return o;
}

static json_t *minor_compat_json(json_t *root, int major)
{
	json_t *o = json_object();
	for (enum target_os os = OS_LINUX; os <= OS_WINDOWS; os++) {
		const struct kb_minor_compat *m = kb_minor_compat(major, os);
		if (!m)
			continue;
		json_t *e = json_object();
		json_object_set_new(e, "floor", json_string(m->floor));
		json_object_set_new(e, "branch_min", json_integer(m->branch_min));
		json_object_set_new(e, "branch_max", m->branch_max ? json_integer(m->branch_max) : json_null());
		json_object_set_new(e, "note", str_or_null(m->note));
		add_fact(root, e, &m->fact);
		json_object_set_new(o, os_name(os), e);
	}
	return o;
}

static enum kb_query_status q_driver(const struct kb_query *q, json_t *r)
{
	struct version v;
	if (!q->arg || !version_parse(q->arg, &v))
		return KBQ_USAGE;
	if (v.part[0] >= 100) {
		/* a driver version: what it runs. Linux and Windows drivers are numbered apart. */
		enum target_os os = q->os == OS_WINDOWS ? OS_WINDOWS : OS_LINUX;
		const char *max = kb_driver_max_cuda(q->arg, os);
		json_object_set_new(r, "kind", json_string("driver"));
		json_object_set_new(r, "os", json_string(os_name(os)));
		json_object_set_new(r, "max_cuda", str_or_null(max));
		json_t *mc = json_array();
		for (size_t i = 0; i < kbt_minor_compat_n; i++) {
			const struct kb_minor_compat *m = &kbt_minor_compat[i];
			if (m->os != os || version_strcmp(q->arg, m->floor) < 0)
				continue;
			json_t *e = json_object();
			json_object_set_new(e, "cuda_major", json_integer(m->cuda_major));
			json_object_set_new(e, "floor", json_string(m->floor));
			add_fact(r, e, &m->fact);
			json_array_append_new(mc, e);
		}
		json_object_set_new(r, "minor_compat", mc);
		if (!max)
			return not_found(r, "driver %s is older than every CUDA release in the tables", q->arg);
		return found(r);
	}
	json_object_set_new(r, "kind", json_string("cuda"));
	const struct kb_cuda_release *c = kb_cuda_release(q->arg);
	if (!c)
		return not_found(r, "no CUDA release %s in the tables (data/cuda_driver.tsv)", q->arg);
	json_object_set_new(r, "release", release_json(r, c));
	json_t *ups = json_array();
	for (size_t i = 0; i < kbt_cuda_release_n; i++)
		if (strcmp(kbt_cuda_release[i].series, c->series) == 0 && &kbt_cuda_release[i] != c)
			json_array_append_new(ups, release_json(r, &kbt_cuda_release[i]));
	json_object_set_new(r, "same_series", ups);
	json_object_set_new(r, "minor_compat", minor_compat_json(r, v.part[0]));
	struct version s;
	version_parse(c->series, &s);
	json_object_set_new(r, "cuda_major", json_integer(s.part[0]));
	json_object_set_new(r, "reported_as", json_integer(1000 * s.part[0] + 10 * s.part[1]));
	return found(r);
}

/* --- gpu / arch ------------------------------------------------------------------------------- */

static json_t *arch_json(json_t *root, const struct kb_arch_support *a)
{
	json_t *o = json_object();
	char sm[24];
	snprintf(sm, sizeof sm, "sm_%d%s", a->sm, a->suffix ? a->suffix : "");
	json_object_set_new(o, "sm", json_string(sm));
	json_object_set_new(o, "added", json_string(a->added));
	json_object_set_new(o, "deprecated", str_or_null(a->deprecated));
	json_object_set_new(o, "removed", str_or_null(a->removed));
	json_object_set_new(o, "note", str_or_null(a->note));
	add_fact(root, o, &a->fact);
	return o;
}

static enum kb_query_status q_gpu(const struct kb_query *q, json_t *r)
{
	if (!q->arg)
		return KBQ_USAGE;
	const struct kb_gpu *g = kb_gpu_lookup(q->arg);
	if (!g)
		return not_found(r, "no GPU model or compute capability matches '%s' (data/gpus.tsv)", q->arg);
	json_t *o = json_object();
	char cc[16], sm[16];
	snprintf(cc, sizeof cc, "%d.%d", g->cc_major, g->cc_minor);
	snprintf(sm, sizeof sm, "sm_%d%d", g->cc_major, g->cc_minor);
	bool arch = strcmp(g->segment, "arch") == 0;
	json_object_set_new(o, "name", json_string(g->name));
	json_object_set_new(o, "compute_capability", json_string(cc));
	json_object_set_new(o, "sm", json_string(sm));
	json_object_set_new(o, "family", json_string(g->family));
	json_object_set_new(o, "segment", json_string(g->segment));
	add_fact(r, o, &g->fact);
	json_object_set_new(r, "gpu", o);
	if (!arch)
		/* cuda-compat works only on data-center GPUs and Jetson (S4) */
		json_object_set_new(r, "forward_compat",
				    json_boolean(strcmp(g->segment, "datacenter") == 0 || strcmp(g->segment, "jetson") == 0));
	const struct kb_arch_support *a = kb_arch_support(g->cc_major * 10 + g->cc_minor);
	json_object_set_new(r, "nvcc", a ? arch_json(r, a) : json_null());
	json_t *models = json_array();
	for (size_t i = 0; i < kbt_gpu_n; i++)
		if (kbt_gpu[i].cc_major == g->cc_major && kbt_gpu[i].cc_minor == g->cc_minor &&
		    strcmp(kbt_gpu[i].segment, "arch") != 0)
			json_array_append_new(models, json_string(kbt_gpu[i].name));
	json_object_set_new(r, "same_cc", models);
	return found(r);
}

static bool looks_like_sm(const char *s)
{
	if (strncmp(s, "sm", 2) == 0 || strncmp(s, "compute_", 8) == 0)
		return true;
	for (const char *p = s; *p; p++)
		if (!isdigit((unsigned char)*p) && !(p > s && (*p == 'a' || *p == 'f') && !p[1]))
			return false;
	return true;
}

static enum kb_query_status q_arch(const struct kb_query *q, json_t *r)
{
	if (!q->arg)
		return KBQ_USAGE;
	if (looks_like_sm(q->arg)) {
		int ma, mi;
		if (!kb_parse_sm(q->arg, &ma, &mi))
			return KBQ_USAGE;
		json_object_set_new(r, "kind", json_string("sm"));
		const struct kb_arch_support *a = kb_arch_support(ma * 10 + mi);
		if (!a)
			return not_found(r, "no nvcc target %s in the tables (data/cuda_arch.tsv)", q->arg);
		json_object_set_new(r, "arch", arch_json(r, a));
		return found(r);
	}
	struct version v;
	if (!version_parse(q->arg, &v) || v.n < 2)
		return KBQ_USAGE;
	json_object_set_new(r, "kind", json_string("cuda"));
	json_object_set_new(r, "cuda", json_string(q->arg));
	json_t *targets = json_array(), *dep = json_array(), *added = json_array(), *removed = json_array();
	for (size_t i = 0; i < kbt_arch_n; i++) {
		const struct kb_arch_support *a = &kbt_arch[i];
		char sm[24];
		snprintf(sm, sizeof sm, "sm_%d%s", a->sm, a->suffix ? a->suffix : "");
		struct version t;
		if (kb_arch_supported_by(a, q->arg)) {
			json_array_append_new(targets, json_string(sm));
			if (kb_arch_deprecated_in(a, q->arg))
				json_array_append_new(dep, json_string(sm));
			if (version_parse(a->added, &t) && version_cmp_parts(&v, &t, 2) == 0)
				json_array_append_new(added, json_string(sm));
			add_sources(r, &a->fact);
		}
		if (a->removed && version_parse(a->removed, &t) && version_cmp_parts(&v, &t, 2) == 0)
			json_array_append_new(removed, json_string(sm));
	}
	json_object_set_new(r, "targets", targets);
	json_object_set_new(r, "deprecated", dep);
	json_object_set_new(r, "added", added);
	json_object_set_new(r, "removed", removed);
	if (json_array_size(targets) == 0)
		return not_found(r, "no nvcc targets known for CUDA %s", q->arg);
	return found(r);
}

/* --- lib --------------------------------------------------------------------------------------- */

static json_t *lib_json(json_t *root, const struct kb_lib *l, int cuda_major)
{
	json_t *o = json_object();
	json_object_set_new(o, "name", json_string(l->name));
	json_object_set_new(o, "component", json_string(l->component));
	json_object_set_new(o, "family", json_string(l->family));
	json_object_set_new(o, "os", json_string(os_name(l->os)));
	json_object_set_new(o, "major", json_integer(l->major));
	json_object_set_new(o, "cuda_major", l->cuda_major ? json_integer(l->cuda_major) : json_null());
	json_object_set_new(o, "cuda_versions", str_or_null(l->cuda_versions));
	const char *wheel = l->pip_wheel;
	const char *dir = l->pip_dir;
	if (!wheel && cuda_major && dir) {
		/* cuDNN / NCCL: the wheel depends on the CUDA major asked about */
		const struct kb_pip_wheel *w = kb_pip_wheel(l->family, cuda_major);
		if (w) {
			wheel = w->wheel;
			dir = l->os == OS_WINDOWS ? w->windows_dir : w->linux_dir;
			add_sources(root, &w->fact);
		}
	}
	json_object_set_new(o, "pip_wheel", str_or_null(wheel));
	json_object_set_new(o, "pip_dir", str_or_null(dir));
	json_object_set_new(o, "driver_versioned", json_boolean(l->driver_versioned));
	/* run-time edges; with a CUDA major asked for, only the edges of builds for it */
	const struct kb_lib_edge *e;
	size_t n = kb_lib_edges(&e);
	json_t *dl = json_array();
	for (size_t i = 0; i < n; i++)
		if (e[i].os == l->os && strcmp(e[i].from, l->name) == 0 &&
		    (!cuda_major || !e[i].cuda_major || e[i].cuda_major == cuda_major)) {
			json_array_append_new(dl, json_string(e[i].to));
			add_sources(root, &e[i].fact);
		}
	json_object_set_new(o, "dlopens", dl);
	json_object_set_new(o, "note", str_or_null(l->note));
	add_fact(root, o, &l->fact);
	return o;
}

static bool looks_like_file(const char *s)
{
	size_t n = strlen(s);
	return strstr(s, ".so") || (n > 4 && (strcmp(s + n - 4, ".dll") == 0 || strcmp(s + n - 4, ".DLL") == 0));
}

static enum kb_query_status q_lib(const struct kb_query *q, json_t *r)
{
	if (!q->arg)
		return KBQ_USAGE;
	const struct kb_lib *rows[MAX_ROWS];
	size_t n;
	json_object_set_new(r, "cuda_major", q->cuda_major ? json_integer(q->cuda_major) : json_null());
	json_object_set_new(r, "os", json_string(os_name(q->os)));
	if (looks_like_file(q->arg)) {
		json_object_set_new(r, "kind", json_string("file"));
		n = kb_lib_classify_all(q->arg, q->os, rows, MAX_ROWS);
	} else {
		json_object_set_new(r, "kind", json_string("component"));
		n = kb_lib_find(q->arg, q->cuda_major, q->os, rows, MAX_ROWS);
	}
	json_t *libs = json_array();
	for (size_t i = 0; i < n && i < MAX_ROWS; i++)
		json_array_append_new(libs, lib_json(r, rows[i], q->cuda_major));
	json_object_set_new(r, "libraries", libs);
	if (!n)
		return not_found(r, "no library '%s' in the catalogue (data/libs.tsv)", q->arg);
	return found(r);
}

/* --- cudnn ------------------------------------------------------------------------------------ */

static enum kb_query_status q_cudnn(const struct kb_query *q, json_t *r)
{
	if (!q->arg)
		return KBQ_USAGE;
	char buf[32];
	const char *version = q->arg;
	char *end;
	long enc = strtol(q->arg, &end, 10);
	int ma, mi, pa;
	if (*end == '\0' && enc >= 1000 && kb_cudnn_decode_version(enc, &ma, &mi, &pa)) {
		/* an encoded CUDNN_VERSION / cudnnGetVersion() value: 8907, 90600 */
		snprintf(buf, sizeof buf, "%d.%d.%d", ma, mi, pa);
		version = buf;
		json_object_set_new(r, "decoded", json_string(buf));
	}
	struct version v;
	if (!version_parse(version, &v) || v.n < 2)
		return KBQ_USAGE;
	const struct kb_cudnn_release *c = kb_cudnn_release(version);
	const struct kb_cudnn_release *near = c ? c : kb_cudnn_release_nearest(version);
	json_object_set_new(r, "exact", json_boolean(c != NULL));
	if (near) {
		json_t *o = json_object();
		json_object_set_new(o, "version", json_string(near->version));
		json_object_set_new(o, "last", str_or_null(near->last));
		json_object_set_new(o, "cuda_versions", json_string(near->cuda_versions));
		json_object_set_new(o, "linux_driver", str_or_null(near->linux_driver));
		json_object_set_new(o, "windows_driver", str_or_null(near->windows_driver));
		json_object_set_new(o, "cc", str_or_null(near->cc));
		json_object_set_new(o, "windows_extra", str_or_null(near->windows_extra));
		json_object_set_new(o, "note", str_or_null(near->note));
		add_fact(r, o, &near->fact);
		json_object_set_new(r, "release", o);
	}
	long mul = v.part[0] >= 9 ? 10000 : 1000;
	json_object_set_new(r, "encoded", json_integer(v.part[0] * mul + v.part[1] * 100 + v.part[2]));
	json_t *libs = json_object();
	for (enum target_os os = OS_LINUX; os <= OS_WINDOWS; os++) {
		json_t *a = json_array();
		for (size_t i = 0; i < kbt_lib_n; i++)
			if (strcmp(kbt_lib[i].family, "cudnn") == 0 && kbt_lib[i].major == v.part[0] && kbt_lib[i].os == os) {
				json_array_append_new(a, json_string(kbt_lib[i].name));
				add_sources(r, &kbt_lib[i].fact);
			}
		json_object_set_new(libs, os_name(os), a);
	}
	json_object_set_new(r, "libraries", libs);
	if (!near)
		return not_found(r, "no cuDNN %s in the tables (data/cudnn.tsv)", version);
	return found(r);
}

/* --- framework -------------------------------------------------------------------------------- */

static json_t *tf_json(json_t *root, const struct kb_tf_build *b)
{
	json_t *o = json_object();
	json_object_set_new(o, "version", json_string(b->version));
	json_object_set_new(o, "last", str_or_null(b->last));
	json_object_set_new(o, "os", json_string(os_name(b->os)));
	json_object_set_new(o, "package", json_string(b->package));
	json_object_set_new(o, "python", json_string(b->python));
	json_object_set_new(o, "compiler", json_string(b->compiler));
	json_object_set_new(o, "build_tool", json_string(b->build_tool));
	json_object_set_new(o, "cudnn", json_string(b->cudnn));
	json_object_set_new(o, "cuda", json_string(b->cuda));
	add_fact(root, o, &b->fact);
	return o;
}

static json_t *torch_json(json_t *root, const struct kb_torch_variant *t)
{
	json_t *o = json_object();
	json_object_set_new(o, "torch", json_string(t->torch));
	json_object_set_new(o, "variant", json_string(t->variant));
	json_object_set_new(o, "cuda", json_string(t->cuda));
	json_object_set_new(o, "cudnn", str_or_null(t->cudnn));
	json_object_set_new(o, "experimental", json_boolean(t->experimental));
	json_object_set_new(o, "pypi_default", json_boolean(t->pypi_default));
	json_object_set_new(o, "archs", str_or_null(t->archs));
	json_object_set_new(o, "note", str_or_null(t->note));
	add_fact(root, o, &t->fact);
	return o;
}

static json_t *req_json(json_t *root, const struct kb_framework_req *f)
{
	json_t *o = json_object();
	json_object_set_new(o, "version", json_string(f->version));
	json_object_set_new(o, "last", str_or_null(f->last));
	json_object_set_new(o, "package", json_string(f->package));
	json_object_set_new(o, "cuda", json_string(f->cuda));
	json_object_set_new(o, "cudnn", str_or_null(f->cudnn));
	json_object_set_new(o, "built_with", str_or_null(f->built_with));
	json_object_set_new(o, "driver_min", str_or_null(f->driver_min));
	json_object_set_new(o, "sm_min", str_or_null(f->sm_min));
	json_object_set_new(o, "note", str_or_null(f->note));
	add_fact(root, o, &f->fact);
	return o;
}

static const char *framework_name(const char *s)
{
	static const char *const alias[][2] = {
		{ "torch", "torch" },       { "pytorch", "torch" },         { "tensorflow", "tensorflow" },
		{ "tf", "tensorflow" },     { "tensorflow-gpu", "tensorflow" }, { "jax", "jax" },
		{ "jaxlib", "jax" },        { "onnxruntime", "onnxruntime" }, { "onnxruntime-gpu", "onnxruntime" },
		{ "ort", "onnxruntime" },   { "cupy", "cupy" },            { "ctranslate2", "ctranslate2" },
	};
	for (size_t i = 0; i < sizeof alias / sizeof alias[0]; i++)
		if (kb_streq_nocase(s, alias[i][0]))
			return alias[i][1];
	return NULL;
}

static enum kb_query_status q_framework(const struct kb_query *q, json_t *r, const char **problem)
{
	if (!q->arg)
		return KBQ_USAGE;
	const char *fw = framework_name(q->arg);
	if (!fw) {
		*problem = "frameworks: torch, tensorflow, jax, onnxruntime, cupy, ctranslate2";
		return KBQ_USAGE;
	}
	json_object_set_new(r, "framework", json_string(fw));
	json_object_set_new(r, "version", str_or_null(q->arg2));
	json_t *rows = json_array();
	if (strcmp(fw, "torch") == 0) {
		const struct kb_torch_variant *t;
		size_t n = q->arg2 ? kb_torch_release(q->arg2, &t) : kb_torch_variants(&t);
		for (size_t i = 0; i < n; i++)
			json_array_append_new(rows, torch_json(r, &t[i]));
	} else if (strcmp(fw, "tensorflow") == 0) {
		if (q->arg2) {
			for (enum target_os os = OS_LINUX; os <= OS_WINDOWS; os++) {
				const struct kb_tf_build *b = kb_tf_build(q->arg2, os);
				if (b)
					json_array_append_new(rows, tf_json(r, b));
			}
		} else {
			const struct kb_tf_build *b;
			size_t n = kb_tf_builds(&b);
			for (size_t i = 0; i < n; i++)
				json_array_append_new(rows, tf_json(r, &b[i]));
		}
		json_object_set_new(r, "last_windows_gpu", str_or_null(kb_tf_last_windows_gpu()));
	} else {
		const struct kb_framework_req *f[MAX_ROWS];
		size_t n = kb_framework_find(fw, q->arg2, f, MAX_ROWS);
		for (size_t i = 0; i < n && i < MAX_ROWS; i++)
			json_array_append_new(rows, req_json(r, f[i]));
	}
	json_object_set_new(r, "rows", rows);
	if (json_array_size(rows) == 0)
		return not_found(r, "no %s release matches in the tables", q->arg2 ? q->arg2 : fw);
	return found(r);
}

/* --- error ------------------------------------------------------------------------------------ */

static json_t *error_json(json_t *root, const struct kb_error *e)
{
	json_t *o = json_object();
	json_object_set_new(o, "api", json_string(e->api));
	json_object_set_new(o, "code", json_integer(e->code));
	json_object_set_new(o, "name", json_string(e->name));
	json_object_set_new(o, "text", json_string(e->text));
	json_object_set_new(o, "verbatim", json_boolean(e->verbatim));
	json_object_set_new(o, "finding", str_or_null(e->finding));
	json_object_set_new(o, "note", str_or_null(e->note));
	json_object_set_new(o, "explain_causes", str_or_null(e->causes));
	json_object_set_new(o, "aliases", str_or_null(e->aliases));
	add_fact(root, o, &e->fact);
	return o;
}

static enum kb_query_status q_error(const struct kb_query *q, json_t *r)
{
	if (!q->arg)
		return KBQ_USAGE;
	json_object_set_new(r, "api", str_or_null(q->api));
	const struct kb_error *rows;
	size_t n = kb_errors(&rows);
	json_t *out = json_array();
	char *end;
	long code = strtol(q->arg, &end, 10);
	bool numeric = end != q->arg && *end == '\0';
	for (size_t i = 0; i < n; i++) {
		const struct kb_error *e = &rows[i];
		if (q->api && strcmp(e->api, q->api) != 0)
			continue;
		if (numeric ? e->code != code : !kb_streq_nocase(e->name, q->arg))
			continue;
		json_array_append_new(out, error_json(r, e));
	}
	json_object_set_new(r, "errors", out);
	if (json_array_size(out) == 0)
		return not_found(r, "no error code '%s' in the tables (data/errors.tsv)", q->arg);
	return found(r);
}

/* --- tables ----------------------------------------------------------------------------------- */

static enum kb_query_status q_tables(json_t *r)
{
	json_t *t = json_array();
	for (size_t i = 0; i < kbt_meta_n; i++) {
		json_t *o = json_object();
		json_object_set_new(o, "file", json_string(kbt_meta[i].file));
		json_object_set_new(o, "rows", json_integer(kbt_meta[i].rows));
		json_array_append_new(t, o);
	}
	json_object_set_new(r, "tables", t);
	json_t *s = json_object_get(r, "sources");
	for (size_t i = 0; i < kbt_source_n; i++) {
		json_t *o = json_object();
		json_object_set_new(o, "title", json_string(kbt_source[i].title));
		json_object_set_new(o, "url", str_or_null(kbt_source[i].url));
		json_object_set_new(s, kbt_source[i].key, o);
	}
	return found(r);
}

enum kb_query_status kb_query_run(const struct kb_query *q, json_t **result, const char **problem)
{
	*problem = NULL;
	json_t *r = answer(q);
	*result = r;
	enum kb_query_status st;
	if (strcmp(q->topic, "driver") == 0 || strcmp(q->topic, "cuda") == 0)
		st = q_driver(q, r);
	else if (strcmp(q->topic, "gpu") == 0)
		st = q_gpu(q, r);
	else if (strcmp(q->topic, "arch") == 0)
		st = q_arch(q, r);
	else if (strcmp(q->topic, "lib") == 0)
		st = q_lib(q, r);
	else if (strcmp(q->topic, "cudnn") == 0)
		st = q_cudnn(q, r);
	else if (strcmp(q->topic, "framework") == 0)
		st = q_framework(q, r, problem);
	else if (strcmp(q->topic, "error") == 0)
		st = q_error(q, r);
	else if (strcmp(q->topic, "tables") == 0 || strcmp(q->topic, "sources") == 0)
		st = q_tables(r);
	else {
		*problem = "unknown topic";
		return KBQ_USAGE;
	}
	if (st == KBQ_USAGE && !*problem)
		*problem = q->arg ? "cannot read the argument" : "missing argument";
	return st;
}
