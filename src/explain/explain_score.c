/* Scoring a message on its text: every fact names causes through a data table (an error code
 * through data/errors.tsv's causes column, a failure form through data/explain_libforms.tsv for the
 * class of library it is about, a phrase through its catalogue row), most likely first. A cause
 * collects, from each fact that names it, the fact's strength times a factor for its place in that
 * fact's list; facts of the lines around the message count half. Versions in the text then confirm
 * or contradict what the causes claim (the driver named supports the CUDA named; compiled with 8.9,
 * found 8.6). The machine re-ranks these candidates afterwards (explain_rank.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "explain/explain.h"
#include "fmt/version.h"

static const double place[EXPLAIN_MAX_CAUSES] = { 1.0, 0.75, 0.55, 0.4, 0.3, 0.25 };

struct tally {
	const struct explain_cause_def *cause;
	double score, best;
	const char *because;
};

struct tallies {
	struct tally v[64];
	size_t n;
	bool closed;
};

static void credit(struct tallies *t, const struct explain_cause_def *c, double s, const char *because)
{
	size_t i = 0;
	while (i < t->n && t->v[i].cause != c)
		i++;
	if (i == t->n) {
		if (t->closed) /* the lines around a message re-rank its causes, they add none */
			return;
		if (t->n == sizeof t->v / sizeof t->v[0])
			return;
		t->v[t->n++] = (struct tally){ c, 0, 0, NULL };
	}
	t->v[i].score += s;
	if (s > t->v[i].best) {
		t->v[i].best = s;
		t->v[i].because = because;
	}
}

static void credit_list(struct tallies *t, const struct explain_cause_def *const *causes, size_t n, double s,
			const char *because)
{
	for (size_t i = 0; i < n && i < EXPLAIN_MAX_CAUSES; i++)
		credit(t, causes[i], s * place[i], because);
}

/* The causes of a form about a DLL, or of a code in a message about one: a row written for any OS
 * names the Linux loader's causes (lib-not-found), which for a DLL are the Windows loader's
 * (dll-not-on-path): each cause's on_windows column. */
static void credit_list_os(const struct explain_catalog *cat, struct tallies *t, bool dll,
			   const struct explain_cause_def *const *causes, size_t n, double s, const char *because)
{
	const struct explain_cause_def *v[EXPLAIN_MAX_CAUSES];
	for (size_t i = 0; i < n && i < EXPLAIN_MAX_CAUSES; i++) {
		const struct explain_cause_def *w = dll && *causes[i]->on_windows
							    ? explain_cause_lookup(cat, causes[i]->on_windows)
							    : NULL;
		v[i] = w ? w : causes[i];
	}
	credit_list(t, v, n, s, because);
}

/* How much a fact says: a code's name or a library's own text is as clear as a catalogue sentence;
 * a short text or a number next to "error" a little less. */
static double strength(const struct explain_fact *f)
{
	if (f->kind == EXF_CODE) {
		if (strcmp(f->how, "name") == 0)
			return 8;
		if (strcmp(f->how, "text") == 0)
			return strlen(f->text) >= 24 ? 8 : 6;
		return 6;
	}
	if (f->kind == EXF_FORM || f->kind == EXF_PHRASE || f->kind == EXF_CUE)
		return f->pattern->weight / 100.0;
	return 0;
}

static bool class_match(const char *klass, const struct explain_lib *lib)
{
	if (strcmp(klass, "*") == 0)
		return true;
	if (!lib)
		return false;
	if (lib->klass && strcmp(klass, lib->klass) == 0)
		return true;
	return lib->kb && (strcmp(klass, lib->kb->component) == 0 || strcmp(klass, lib->kb->family) == 0);
}

/* The row of data/explain_libforms.tsv for a form about a library (first match wins). */
static const struct explain_libform_def *libform(const struct explain_catalog *cat, const struct explain_fact *f)
{
	const struct explain_lib *lib = f->has_lib ? &f->lib : NULL;
	char os = f->lib.os ? f->lib.os : strncmp(f->form, "win-", 4) == 0 ? 'w' : 0;
	for (size_t i = 0; i < cat->n_libforms; i++) {
		const struct explain_libform_def *d = &cat->libforms[i];
		if (strcmp(d->form, "*") != 0 && strcmp(d->form, f->form) != 0)
			continue;
		if (d->os && d->os != os)
			continue;
		if (d->major >= 0 && (!lib || lib->major != d->major))
			continue;
		if (class_match(d->klass, lib))
			return d;
	}
	return NULL;
}

static const char *code_because(struct arena *a, const struct explain_fact *f)
{
	return arena_printf(a, "%s (%s %ld) in the message", f->code->name, f->code->api, f->code->code);
}

static const char *form_because(struct arena *a, const struct explain_fact *f)
{
	const char *about = f->symbol ? f->symbol : f->has_lib && f->lib.name ? f->lib.name : NULL;
	const char *cls = f->has_lib ? (f->lib.klass ? f->lib.klass : f->lib.kb ? f->lib.kb->family : NULL) : NULL;
	return arena_printf(a, "%s%s%s%s%s%s", f->form, about ? " of " : "", about ? about : "", cls ? " (" : "",
			    cls ? cls : "", cls ? ")" : "");
}

/* ---- what versions in the text say ---------------------------------------------------------- */

static const struct explain_fact *version_of(const struct explain_message *m, const char *what, const char *role)
{
	for (size_t i = 0; i < m->n_facts; i++) {
		const struct explain_fact *f = &m->facts[i];
		if (f->kind == EXF_VERSION && strcmp(f->what, what) == 0 &&
		    (!role || (f->role && strcmp(f->role, role) == 0)))
			return f;
	}
	return NULL;
}

static int major_of(const char *v)
{
	return atoi(v);
}

/* Scale the score of every tallied cause whose key holds `part`, or credit `key` when absent. */
static void boost_part(struct tallies *t, const char *part, double add, const char *because)
{
	for (size_t i = 0; i < t->n; i++)
		if (strstr(t->v[i].cause->key, part)) {
			t->v[i].score += add;
			if (because)
				t->v[i].because = because;
		}
}

/* Classes of data/explain_libclass.tsv that are a framework's own binaries. */
static bool framework_class(const char *klass)
{
	static const char *const fw[] = { "torch", "tensorflow", "jax" };
	for (size_t i = 0; klass && i < sizeof fw / sizeof fw[0]; i++)
		if (strcmp(klass, fw[i]) == 0)
			return true;
	return false;
}

static bool framework_needs_newer_cudnn(const struct explain_message *m)
{
	bool cudnn_symbol = false, public_symbol = false, fw_caller = false, cudnn_lib = false;
	for (size_t i = 0; i < m->n_own; i++) {
		const struct explain_fact *f = &m->facts[i];
		bool symbol_form = f->kind == EXF_FORM && (f->symbol || strcmp(f->form, "link-time-ref") == 0 ||
							   strcmp(f->form, "version-not-found") == 0);
		const char *about = f->component ? f->component : f->has_lib && f->lib.kb ? f->lib.kb->family : NULL;
		if (symbol_form && about && strcmp(about, "cudnn") == 0) {
			cudnn_symbol = true;
			/* cudnnCreate, not a mangled _ZN5cudnn... name the sub-libraries share */
			if (f->symbol && strncmp(f->symbol, "cudnn", 5) == 0)
				public_symbol = true;
		}
		if (f->kind == EXF_LIB && framework_class(f->lib.klass))
			fw_caller = true;
		if (f->kind == EXF_LIB && f->lib.kb && strcmp(f->lib.kb->family, "cudnn") == 0)
			cudnn_lib = true;
	}
	/* The loader names the object that needs the symbol. Two cuDNN releases mixed show as a cuDNN
	 * sub-library needing a symbol of another; a public API name (cudnnSetX) in a message that names
	 * no cuDNN library is the program's own call, so its cuDNN is older than the one it was built
	 * for, as when a framework's binary is named. */
	return cudnn_symbol && (fw_caller || (public_symbol && !cudnn_lib));
}

static void versions(struct arena *a, const struct explain_catalog *cat, const struct explain_message *m,
		     struct tallies *t)
{
	/* compiled with X, found Y (cuDNN of a framework, PTX of ptxas) */
	const struct explain_fact *built = version_of(m, "library", "built"), *found = version_of(m, "library", "found");
	if (built && found) {
		struct version b, f;
		if (version_parse(built->value, &b) && version_parse(found->value, &f)) {
			if (b.part[0] != f.part[0])
				boost_part(t, "wrong-major", 4,
					   arena_printf(a, "built with %s, found %s: another major", built->value, found->value));
			else if (version_cmp_parts(&f, &b, 2) < 0)
				boost_part(t, "runtime-too-old", 3,
					   arena_printf(a, "built with %s, found the older %s", built->value, found->value));
		}
	}
	/* a driver and a CUDA the message names: does the driver support that CUDA? */
	const struct explain_fact *drv = version_of(m, "driver", NULL), *cuda = version_of(m, "cuda", NULL);
	if (drv && cuda) {
		const char *max = kb_driver_max_cuda(drv->value, OS_LINUX);
		struct version mx, c;
		const struct explain_cause_def *too_old = explain_cause_lookup(cat, "driver-too-old");
		if (max && too_old && version_parse(max, &mx) && version_parse(cuda->value, &c)) {
			/* nvidia-smi's banner names the driver's own CUDA: the table, not the driver, is short
			 * (Thor's "580.00" runs CUDA 13.0) */
			bool smi = cuda->role && strcmp(cuda->role, "driver") == 0;
			if (version_cmp_parts(&mx, &c, 2) < 0 && !smi)
				credit(t, too_old, 5,
				       arena_printf(a, "the message names driver %s (CUDA up to %s) and CUDA %s", drv->value,
						    max, cuda->value));
			else
				for (size_t i = 0; i < t->n; i++)
					if (t->v[i].cause == too_old)
						t->v[i].score *= 0.5; /* the driver named covers the CUDA named */
		}
	}
	/* the CUDA the driver supports against the runtime's, as a framework prints both (PaddlePaddle's
	 * "Driver API Version: 11.2, Runtime API Version: 11.6"): the driver is too old when the first is
	 * the lower, but for a lower minor of a major with minor-version compatibility (kb) */
	const struct explain_fact *dcuda = version_of(m, "driver-cuda", NULL), *rt = version_of(m, "cuda", "runtime");
	const struct explain_cause_def *too_old = explain_cause_lookup(cat, "driver-too-old");
	struct version vdc, vrt;
	if (dcuda && rt && too_old && version_parse(dcuda->value, &vdc) && version_parse(rt->value, &vrt)) {
		bool lower = version_cmp_parts(&vdc, &vrt, 2) < 0;
		bool minor_compat = kb_minor_compat_floor(vrt.part[0], OS_LINUX, NULL) != NULL;
		bool older = vdc.part[0] < vrt.part[0] || (!minor_compat && lower);
		for (size_t i = 0; i < t->n; i++) {
			if (t->v[i].cause != too_old)
				continue; /* a banner adds no cause: it weighs the message's own */
			if (older) {
				t->v[i].score += 5;
				t->v[i].because = arena_printf(a, "the driver supports CUDA %s, the runtime is CUDA %s",
							       dcuda->value, rt->value);
			} else if (!lower) {
				t->v[i].score *= 0.3; /* the driver supports the runtime it runs */
			}
		}
	}
	/* a CUDA library of one major missing while the message speaks of another CUDA */
	for (size_t i = 0; cuda && i < m->n_facts; i++) {
		const struct explain_fact *f = &m->facts[i];
		if (f->kind == EXF_FORM && f->has_lib && f->lib.kb && f->lib.kb->cuda_major && !f->lib.unversioned &&
		    strcmp(f->form, "not-found") == 0 && f->lib.kb->cuda_major != major_of(cuda->value)) {
			boost_part(t, "cuda-lib-wrong-major", 3,
				   arena_printf(a, "%s is of CUDA %d, the message speaks of CUDA %s", f->lib.name,
						f->lib.kb->cuda_major, cuda->value));
			boost_part(t, "cuda-dll-wrong-major", 3, NULL);
			break;
		}
	}
	/* a missing library of one major while the message names another version of its family
	 * (libcudnn.so.8 missing, "cudnn 9.1 installed") */
	for (size_t i = 0; i < m->n_facts; i++) {
		const struct explain_fact *f = &m->facts[i];
		if (f->kind != EXF_FORM || f->context || !f->has_lib || !f->lib.kb || f->lib.major < 0 ||
		    strcmp(f->form, "not-found") != 0)
			continue;
		const struct explain_fact *v = version_of(m, f->lib.kb->family, NULL);
		if (v && major_of(v->value) != f->lib.major) {
			const char *why = arena_printf(a, "%s is of major %d, the message names %s %s", f->lib.name,
						       f->lib.major, v->what, v->value);
			boost_part(t, "wrong-major", 3, why);
			break;
		}
	}
	/* A library of an old CUDA major ("libcudart.so.10.1") is not by itself a program built for an
	 * old CUDA: as often the user installed that CUDA and its directory is not on the loader's path
	 * (in the development sets seven reports read so, five the other way). The literal reading,
	 * not found, stays first; another major leads only where the text names one (above). */
	/* a cuDNN symbol missing for a framework's own binary (xla_extension.so, libtorch_cuda.so): the
	 * framework was built against a newer cuDNN than the one found; for a cuDNN sub-library
	 * (libcudnn_ops_train.so.8) it is two cuDNN releases mixed */
	if (framework_needs_newer_cudnn(m)) {
		boost_part(t, "cudnn-runtime-too-old", 4, "a framework's binary lacks a cuDNN symbol: it was built against a newer cuDNN");
		for (size_t i = 0; i < t->n; i++)
			if (strcmp(t->v[i].cause->key, "cudnn-mixed") == 0)
				t->v[i].score *= 0.5;
	}
	/* an architecture pair (built for / least supported vs the device's): a device older than the
	 * code's least architecture is a GPU that build no longer supports (every such report of the
	 * development sets, "minimum required Cuda capability is 6.0", "PyTorch no longer supports this
	 * GPU", was labelled the framework's build, not the toolkit); a newer one lacks code for its
	 * architecture */
	const struct explain_fact *ab = version_of(m, "arch", "built"), *ad = version_of(m, "arch", "device");
	struct version vb, vd;
	if (ab && ad && version_parse(ab->value, &vb) && version_parse(ad->value, &vd) &&
	    version_cmp_parts(&vd, &vb, 2) != 0) {
		bool older = version_cmp_parts(&vd, &vb, 2) < 0;
		boost_part(t, older ? "framework-gpu-arch" : "no-kernel-image", 4,
			   arena_printf(a, "the device is compute capability %s, the code is for %s", ad->value,
					ab->value));
	}
	/* a GPU the current toolkits no longer build for (the device's architecture: not the one a
	 * pair names as what the code is built for) */
	int built_sm = ab && version_parse(ab->value, &vb) ? vb.part[0] * 10 + vb.part[1] : -1;
	for (size_t i = 0; i < m->n_facts; i++) {
		const struct explain_fact *f = &m->facts[i];
		const struct kb_arch_support *s =
			f->kind == EXF_ARCH && f->sm != built_sm ? kb_arch_support(f->sm) : NULL;
		if (s && s->removed)
			boost_part(t, "gpu-too-old", 3,
				   arena_printf(a, "sm_%d is not supported since CUDA %s", f->sm, s->removed));
	}
}

/* What the message's own rows contradict (a !key in their causes column) goes, whatever else named
 * it: nvidia-container-cli speaking says its hook ran, so the container asked for GPUs. Only the
 * message's own line speaks so (a line around it may be another container's, another command's),
 * and a cause that is the last one left stays: the text then names nothing better. */
/* Whether hint fact i's row already showed on an earlier fact of the message (a hint counts once). */
static bool hint_seen_before(const struct explain_message *m, size_t i)
{
	for (size_t j = 0; j < i; j++)
		if (m->facts[j].kind == EXF_HINT && m->facts[j].pattern == m->facts[i].pattern)
			return true;
	return false;
}

static bool tally_has(const struct tallies *t, const struct explain_cause_def *c)
{
	for (size_t j = 0; j < t->n; j++)
		if (t->v[j].cause == c)
			return true;
	return false;
}

/* Whether a row on the message's own lines names cause c among the causes its words contradict. */
static bool message_contradicts(const struct explain_message *m, const struct explain_cause_def *c)
{
	for (size_t i = 0; i < m->n_facts; i++) {
		const struct explain_pattern_def *p = m->facts[i].pattern;
		for (size_t k = 0; p && !m->facts[i].context && k < p->n_against; k++)
			if (p->against[k] == c)
				return true;
	}
	return false;
}

/* Whether a hint of the log heavier than weight names cause c itself. */
static bool stronger_hint_names(const struct explain_message *m, const struct explain_cause_def *c, int weight)
{
	for (size_t i = 0; i < m->n_facts; i++) {
		const struct explain_pattern_def *p = m->facts[i].pattern;
		for (size_t k = 0; m->facts[i].kind == EXF_HINT && p->weight > weight && k < p->n_causes; k++)
			if (p->causes[k] == c)
				return true;
	}
	return false;
}

static void contradicted(const struct explain_message *m, struct tallies *t)
{
	for (size_t i = 0; i < m->n_facts; i++) {
		const struct explain_pattern_def *p = m->facts[i].pattern;
		for (size_t k = 0; p && !m->facts[i].context && k < p->n_against; k++)
			for (size_t j = 0; j < t->n; j++) {
				if (t->v[j].cause != p->against[k] || t->v[j].score <= 0.01)
					continue;
				size_t others = 0;
				for (size_t o = 0; o < t->n; o++)
					others += o != j && t->v[o].score > 0.01;
				if (others)
					t->v[j].score = 0;
			}
	}
}

static int tally_cmp(const void *x, const void *y)
{
	const struct tally *a = x, *b = y;
	if (a->score != b->score)
		return a->score > b->score ? -1 : 1;
	return 0;
}

void explain_score(struct arena *a, const struct explain_catalog *cat, struct explain_message *m)
{
	struct tallies *t = arena_calloc(a, 1, sizeof *t);
	double top = 0;
	/* a message that names a DLL (its own line or the lines around it) is about the Windows loader:
	 * the causes of its codes are the DLL ones (CUDNN_STATUS_SUBLIBRARY_LOADING_FAILED under "Could
	 * not locate cudnn_engines_tensor_ir64_9.dll") */
	bool names_dll = false;
	for (size_t i = 0; i < m->n_facts; i++)
		names_dll |= m->facts[i].has_lib && m->facts[i].lib.os == 'w';
	for (size_t i = 0; i < m->n_facts; i++) {
		const struct explain_fact *f = &m->facts[i];
		t->closed = f->context && t->n > 0;
		double s = strength(f) * (f->context ? 0.5 : 1.0);
		if (!f->context && s > top)
			top = s;
		if (f->kind == EXF_CODE && !(f->role && strcmp(f->role, "absorbed") == 0)) {
			const struct explain_cause_def *cs[EXPLAIN_MAX_CAUSES];
			size_t n = explain_code_causes(cat, f->code, cs, EXPLAIN_MAX_CAUSES);
			credit_list_os(cat, t, names_dll, cs, n, s, code_because(a, f));
		} else if (f->kind == EXF_FORM && !(f->role && strcmp(f->role, "absorbed") == 0)) {
			/* a driver API entry point that older drivers' libcuda does not export (read from real
			 * drivers, data/driver_symbols.tsv): the libcuda found is a driver too old, not a stub,
			 * which exports every entry point of its release; not the linker's "undefined
			 * reference", where the stub or -lcuda is at fault and no driver runs */
			bool link_time = strncmp(f->pattern->id, "undefined-reference", 19) == 0; /* ld: no driver involved */
			const struct kb_driver_symbol *ds = f->symbol && !link_time ? kb_driver_symbol(f->symbol) : NULL;
			const struct explain_cause_def *too_old = ds ? explain_cause_lookup(cat, "driver-too-old") : NULL;
			if (too_old)
				credit(t, too_old, s,
				       arena_printf(a, "%s is not exported by the libcuda of drivers for CUDA %s and older "
						       "(first seen in CUDA %s's; %s)",
						    f->symbol, ds->newer_than, ds->seen_in, ds->fact.source));
			const struct explain_libform_def *d = libform(cat, f);
			const char *because = form_because(a, f);
			bool dll = f->has_lib && f->lib.os == 'w';
			if (d)
				credit_list_os(cat, t, dll, d->causes, d->n_causes, s, because);
			/* what the framework's wording adds; except where a Windows code on the line says a
			 * procedure was missing (127, 182): the DLL was found, which the wording's "not found"
			 * readings ("DLL load failed": a dependency missing) contradict */
			bool found_dll = strcmp(f->form, "win-127") == 0 && f->pattern->form &&
					 strcmp(f->pattern->form, f->form) != 0;
			if (!found_dll)
				credit_list_os(cat, t, dll, f->pattern->causes, f->pattern->n_causes, d ? s * 0.5 : s,
					       because);
		} else if (f->kind == EXF_PHRASE) {
			credit_list(t, f->pattern->causes, f->pattern->n_causes, s,
				    arena_printf(a, "\"%s\" (%s)", f->text, f->pattern->source));
		} else if (f->kind == EXF_CUE) {
			credit_list(t, f->pattern->causes, f->pattern->n_causes, s,
				    arena_printf(a, "the words \"%s\" (%s); no known message form", f->text,
						 f->pattern->source));
		}
	}
	/* the environment the log shows strengthens the causes the messages already have, each hint
	 * once however many lines show it */
	for (size_t i = 0; i < m->n_facts; i++) {
		const struct explain_fact *f = &m->facts[i];
		if (f->kind != EXF_HINT || hint_seen_before(m, i))
			continue;
		for (size_t k = 0; k < f->pattern->n_causes; k++)
			for (size_t j = 0; j < t->n; j++)
				if (t->v[j].cause == f->pattern->causes[k]) {
					t->v[j].score += f->pattern->weight / 100.0;
					t->v[j].because = arena_printf(a, "the log shows %s", f->pattern->source);
				}
	}
	/* then a hint's cause that reads a candidate's finding more specifically (its key is not the
	 * finding's id: an image build's step, no GPU because it is a build) takes the generic
	 * candidate's place, with the build's fixes; not where the message's own words contradict the
	 * generic cause, nor where a stronger hint already spoke for it (a `docker run` without
	 * --gpus after the build's log) */
	for (size_t i = 0; i < m->n_facts; i++) {
		const struct explain_fact *f = &m->facts[i];
		if (f->kind != EXF_HINT || hint_seen_before(m, i))
			continue;
		for (size_t k = 0; k < f->pattern->n_causes; k++) {
			const struct explain_cause_def *c = f->pattern->causes[k];
			if (strcmp(c->key, c->finding) == 0 || tally_has(t, c))
				continue;
			for (size_t j = 0; j < t->n; j++) {
				const struct explain_cause_def *g = t->v[j].cause;
				if (strcmp(g->finding, c->finding) != 0 || strcmp(g->key, g->finding) != 0 ||
				    t->v[j].score <= 0.01 || message_contradicts(m, g) ||
				    stronger_hint_names(m, g, f->pattern->weight))
					continue;
				t->v[j].cause = c;
				t->v[j].score += f->pattern->weight / 100.0;
				t->v[j].because = arena_printf(a, "the log shows %s", f->pattern->source);
				break;
			}
		}
	}
	t->closed = false;
	versions(a, cat, m, t);
	contradicted(m, t);
	/* stable: qsort is not, so equal scores keep their order through the index */
	for (size_t i = 0; i < t->n; i++)
		t->v[i].score -= (double)i * 1e-9;
	qsort(t->v, t->n, sizeof t->v[0], tally_cmp);
	m->n_cands = 0;
	for (size_t i = 0; i < t->n && m->n_cands < EXPLAIN_MAX_CAUSES; i++)
		if (t->v[i].score > 0.01)
			m->cands[m->n_cands++] = (struct explain_candidate){ t->v[i].cause, t->v[i].score, t->v[i].because };
	m->weight = (int)(top * 100 + 0.5);
}
