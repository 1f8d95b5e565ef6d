/* Reading the facts of one line: error codes (by name, by the text a library prints, by number
 * next to a word like "error"), library and DLL names, the catalogue's message forms and phrases
 * (with the library each is about), undefined symbols and who exports them, versions and GPU
 * architectures. Everything here is linear in the line: word tokens are walked once, each catalogue
 * text is looked for once behind a byte-pair filter, patterns run the bounded matcher of
 * explain_match.c. Nothing allocates: facts and their strings go to the caller's fixed buffer,
 * and what does not fit is dropped. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "explain/explain.h"
#include "fmt/version.h"

/* ---- the line's word tokens and API hints ------------------------------------------------- */

#define MAX_TOKENS 4096 /* word tokens looked at per line: a 64 KiB line of "a a a" has more */

struct tok {
	size_t off, len;
};

#define NEAR_LINES 4

struct explain_reader {
	const struct explain_catalog *cat;
	struct span line, lc;
	size_t line_no;
	struct explain_linefacts *out;
	struct tok *toks; /* max_toks of them: a line of n bytes has at most n / 2 + 1 words */
	size_t n_toks, max_toks;
	unsigned hints;
	bool wants_api_word; /* a text was refused for want of its API's name on the line */
	/* the hints of the lines before: a block "CUDA Error:" / "File: ..." / "Error text: ..." */
	unsigned near_hints[NEAR_LINES];
	uint64_t pairs[4096 / 64];
	uint64_t pair_bits; /* explain_pair_bits() of the line */
	struct explain_capbuf buf;
};

enum {
	H_CUDA = 1u << 0,   /* cuda, cudart, cudnn, ... */
	H_CUDNN = 1u << 1,
	H_CUBLAS = 1u << 2,
	H_NCCL = 1u << 3,
	H_NVML = 1u << 4,
	H_CU = 1u << 5,     /* the driver API: cuInit, CUDA_ERROR_*, cuda_driver.cc */
	H_WIN = 1u << 6,    /* a DLL, WinError, LoadLibrary */
	H_GPU = 1u << 7,    /* gpu, nvidia */
	H_OPTIX = 1u << 8,  /* optix, optixInit */
	H_MATH = 1u << 9,   /* cufft, curand, cusolver, cusparse */
};
#define H_API (H_CUDA | H_CUDNN | H_CUBLAS | H_NCCL | H_NVML | H_CU | H_GPU | H_OPTIX | H_MATH)

static bool word_char(unsigned char c)
{
	return isalnum(c) || c == '_';
}

static bool may_contain(const struct explain_reader *L, const char *lit, size_t n);

static bool has_lc(const struct explain_reader *L, const char *s)
{
	size_t n = strlen(s);
	return may_contain(L, s, n) && explain_find_lc(L->lc, 0, s, n) >= 0;
}

static void tokenize(struct explain_reader *L)
{
	L->n_toks = 0;
	for (size_t i = 0; i < L->line.n && L->n_toks < L->max_toks;) {
		if (!word_char(L->line.p[i])) {
			i++;
			continue;
		}
		size_t s = i;
		while (i < L->line.n && word_char(L->line.p[i]))
			i++;
		L->toks[L->n_toks++] = (struct tok){ s, i - s };
	}
}

static unsigned hints_near(const struct explain_reader *L)
{
	unsigned h = 0;
	for (size_t i = 0; i < NEAR_LINES; i++)
		h |= L->near_hints[i];
	return h;
}

/* A CUDA source file where a run-time error was raised ("kernel.cu:120 invalid device symbol", a
 * check macro's "kernel.cu:120: error: invalid device symbol", "ops.cuh(88)"), not a compiler's
 * diagnostic about its source, which gives a column ("attn.cu:120:3: error: ...") or nvcc's
 * "x.cu(12): error: ...": what follows is then the compiler's words. */
static bool names_cuda_source(const struct explain_reader *L)
{
	static const char *const ext[] = { ".cu:", ".cu(", ".cuh:", ".cuh(" };
	for (size_t i = 0; i < sizeof ext / sizeof ext[0]; i++) {
		size_t n = strlen(ext[i]);
		for (long at = explain_find_lc(L->lc, 0, ext[i], n); at >= 0;
		     at = explain_find_lc(L->lc, (size_t)at + n, ext[i], n)) {
			const char *p = (const char *)L->lc.p + at + n, *end = (const char *)L->lc.p + L->lc.n;
			bool paren = ext[i][n - 1] == '(';
			size_t numbers = 0;
			while (p < end && isdigit((unsigned char)*p)) {
				while (p < end && isdigit((unsigned char)*p))
					p++;
				numbers++;
				if (p < end && (*p == ':' || *p == ')' || *p == ','))
					p++;
				while (p < end && *p == ' ')
					p++;
			}
			while (p < end && (*p == ':' || *p == ' '))
				p++;
			size_t left = (size_t)(end - p);
			bool words = (left >= 5 && memcmp(p, "error", 5) == 0) || (left >= 7 && memcmp(p, "warning", 7) == 0) ||
				     (left >= 4 && memcmp(p, "note", 4) == 0) || (left >= 11 && memcmp(p, "fatal error", 11) == 0);
			if (!(words && (paren || numbers >= 2)))
				return true;
		}
	}
	return false;
}

static void find_hints(struct explain_reader *L)
{
	static const struct {
		const char *s;
		unsigned h;
	} words[] = {
		{ "cuda", H_CUDA },      { "cudnn", H_CUDNN | H_CUDA }, { "cublas", H_CUBLAS | H_CUDA },
		{ "nccl", H_NCCL },      { "nvml", H_NVML },            { "nvidia-smi", H_NVML | H_GPU },
		{ "cuinit", H_CU },      { "cuda_error", H_CU },        { "cuda_driver", H_CU },
		{ "curesult", H_CU },    { ".dll", H_WIN },             { "winerror", H_WIN },
		{ "loadlibrary", H_WIN }, { "win32", H_WIN },           { "gpu", H_GPU },
		{ "nvidia", H_GPU },     { "thcudacheck", H_CUDA },     { "optix", H_OPTIX },
		{ "cufft", H_MATH | H_CUDA }, { "curand", H_MATH | H_CUDA }, { "cusolver", H_MATH | H_CUDA },
		{ "cusparse", H_MATH | H_CUDA },
		/* the error-check macro of the CUDA answers everyone copies: "GPUassert: %s %s %d" */
		{ "gpuassert", H_CUDA },
	};
	L->hints = 0;
	for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
		if (has_lc(L, words[i].s))
			L->hints |= words[i].h;
	if (names_cuda_source(L))
		L->hints |= H_CUDA;
	/* a Windows path: a drive letter, a colon and a backslash (C:\Users\...) */
	for (size_t i = 0; i + 2 < L->lc.n && !(L->hints & H_WIN); i++)
		if (L->lc.p[i + 1] == ':' && L->lc.p[i + 2] == '\\' && islower(L->lc.p[i]) &&
		    (i == 0 || !isalnum(L->lc.p[i - 1])))
			L->hints |= H_WIN;
	/* a driver API call: cu followed by an upper-case letter (cuInit, cuMemAlloc) */
	for (size_t t = 0; t < L->n_toks && !(L->hints & H_CU); t++) {
		const uint8_t *p = L->line.p + L->toks[t].off;
		if (L->toks[t].len > 3 && p[0] == 'c' && p[1] == 'u' && isupper(p[2]))
			L->hints |= H_CU;
	}
}

/* Which byte pairs occur in the line (hashed into 4096 bits, and into the 64 of
 * explain_pair_bits): a text with a pair the line lacks is not in it, and most texts are rejected
 * so without a search. */
static void pairs_of(struct explain_reader *L)
{
	memset(L->pairs, 0, sizeof L->pairs);
	uint64_t bits = 0;
	for (size_t i = 0; i + 1 < L->lc.n; i++) {
		unsigned h = explain_pair_hash(L->lc.p[i], L->lc.p[i + 1]);
		bits |= (uint64_t)1 << (h & 63u);
		h &= 4095u;
		L->pairs[h / 64] |= (uint64_t)1 << (h % 64);
	}
	L->pair_bits = bits;
}

/* may_contain() behind the 64-bit test (bits: explain_pair_bits() of lit) */
static bool may_contain_bits(const struct explain_reader *L, uint64_t bits, const char *lit, size_t n)
{
	return !(bits & ~L->pair_bits) && may_contain(L, lit, n);
}

static bool may_contain(const struct explain_reader *L, const char *lit, size_t n)
{
	for (size_t i = 0; i + 1 < n; i++) {
		unsigned h = explain_pair_hash((unsigned char)lit[i], (unsigned char)lit[i + 1]) & 4095u;
		if (!(L->pairs[h / 64] & ((uint64_t)1 << (h % 64))))
			return false;
	}
	return true;
}

/* ---- the fact buffer ---------------------------------------------------------------------- */

static const char *keep(struct explain_linefacts *out, const char *s, size_t n)
{
	if (n > 512)
		n = 512;
	if (sizeof out->buf - out->used < n + 1)
		return NULL;
	char *d = out->buf + out->used;
	memcpy(d, s, n);
	d[n] = 0;
	out->used += n + 1;
	return d;
}

static struct explain_fact *fact_new(struct explain_reader *L, enum explain_fact_kind kind, const char *text, size_t n)
{
	struct explain_linefacts *out = L->out;
	if (out->n == EXPLAIN_LINE_FACTS)
		return NULL;
	const char *t = keep(out, text, n);
	if (!t)
		return NULL;
	struct explain_fact *f = &out->v[out->n++];
	memset(f, 0, sizeof *f);
	f->kind = kind;
	f->line_no = L->line_no;
	f->text = t;
	f->lib.major = -1;
	return f;
}

/* ---- libraries ----------------------------------------------------------------------------- */

static bool lib_char(unsigned char c)
{
	return isalnum(c) || c == '_' || c == '.' || c == '+' || c == '-';
}

static const char *base_name(const char *p)
{
	const char *b = p;
	for (const char *s = p; *s; s++)
		if (*s == '/' || *s == '\\')
			b = s + 1;
	return b;
}

/* The number after the last '_' before ".dll" (cublas64_12.dll -> 12, cudart64_110.dll -> 11: three
 * digits are CUDA major and minor), or after ".so." (libcudnn.so.8.9 -> 8); -1 when none. */
static int name_major(const char *name)
{
	const char *so = strstr(name, ".so.");
	if (so && isdigit((unsigned char)so[4]))
		return atoi(so + 4);
	const char *us = strrchr(name, '_');
	size_t n = 0;
	while (us && isdigit((unsigned char)us[1 + n]))
		n++;
	if (!us || n == 0 || n > 4 || strncasecmp(us + 1 + n, ".dll", 4) != 0)
		return -1;
	int v = atoi(us + 1);
	return n == 3 ? v / 10 : v;
}

size_t explain_family_word_len(const char *name)
{
	size_t n = strlen(name);
	return n > 6 && strncmp(name, "lib", 3) == 0 && strcmp(name + n - 3, ".so") == 0 ? n - 6 : 0;
}

void explain_lib_classify(const struct explain_catalog *cat, const char *name, struct explain_lib *out)
{
	memset(out, 0, sizeof *out);
	const char *b = base_name(name);
	out->name = b;
	size_t n = strlen(b);
	out->os = n > 4 && strncasecmp(b + n - 4, ".dll", 4) == 0 ? 'w' : strstr(b, ".so") ? 'l' : 0;
	for (size_t i = 0; i < cat->n_libclasses && !out->klass; i++)
		if (explain_glob(cat->libclasses[i].glob, b))
			out->klass = cat->libclasses[i].klass;
	out->kb = kb_lib_classify(b, out->os == 'w' ? OS_WINDOWS : out->os == 'l' ? OS_LINUX : OS_AUTO);
	/* an unversioned name (libcublas.so) classifies as the newest major, which it does not name */
	out->unversioned = out->kb && kb_lib_name_unversioned(b);
	out->major = out->kb && out->kb->major && !out->unversioned ? out->kb->major : name_major(b);
}

/* A token ending in ".dll", or holding ".so" followed by its end, a dot or a digit. Returns the
 * token's length after trimming a sentence's trailing dot, 0 when it is no library name. */
static size_t lib_token(const uint8_t *p, const uint8_t *lc, size_t n, char *os)
{
	while (n && (p[n - 1] == '.' || p[n - 1] == '-'))
		n--;
	if (n < 5 || !(isalpha(p[0]) || p[0] == '_'))
		return 0;
	if (memcmp(lc + n - 4, ".dll", 4) == 0) {
		*os = 'w';
		return n;
	}
	for (size_t i = 1; i + 3 <= n; i++)
		if (memcmp(lc + i, ".so", 3) == 0 && (i + 3 == n || lc[i + 3] == '.' || isdigit(lc[i + 3]))) {
			*os = 'l';
			return n;
		}
	return 0;
}

static bool lib_known(const struct explain_lib *l)
{
	return l->kb || l->klass;
}

/* Every library name of the line as an EXF_LIB fact (once each, in order). */
static void read_libs(struct explain_reader *L)
{
	const uint8_t *p = L->line.p, *lc = L->lc.p;
	size_t prev_word_start = 0, prev_word_end = 0; /* the last all-letter word, for repairs */
	for (size_t i = 0; i < L->line.n;) {
		if (!lib_char(p[i])) {
			i++;
			continue;
		}
		size_t s = i;
		while (i < L->line.n && lib_char(p[i]))
			i++;
		char os = 0;
		size_t n = lib_token(p + s, lc + s, i - s, &os);
		if (n == 0 || n > 200) {
			bool letters = true;
			for (size_t k = s; k < i; k++)
				letters &= isalpha(p[k]) != 0;
			if (letters)
				prev_word_start = s, prev_word_end = i;
			continue;
		}
		char name[256];
		memcpy(name, p + s, n);
		name[n] = 0;
		struct explain_lib lib;
		explain_lib_classify(L->cat, name, &lib);
		/* "cudnn ops64_9.dll": markdown or a copy lost the underscore */
		size_t pl = prev_word_end - prev_word_start;
		if (!lib_known(&lib) && prev_word_end && prev_word_end + 1 == s && pl + n + 2 < sizeof name) {
			char joined[256];
			memcpy(joined, p + prev_word_start, pl);
			joined[pl] = '_';
			memcpy(joined + pl + 1, name, n + 1);
			struct explain_lib j;
			explain_lib_classify(L->cat, joined, &j);
			if (lib_known(&j)) {
				memcpy(name, joined, strlen(joined) + 1);
				lib = j;
			}
		}
		bool dup = false;
		for (size_t k = 0; k < L->out->n; k++)
			dup |= L->out->v[k].kind == EXF_LIB && strcasecmp(L->out->v[k].lib.name, name) == 0;
		if (dup)
			continue;
		struct explain_fact *f = fact_new(L, EXF_LIB, name, strlen(name));
		if (!f)
			return;
		f->has_lib = true;
		f->lib = lib;
		f->lib.name = f->text;
		f->at = s;
		prev_word_end = 0;
	}
}

/* The library a form without a captured name is about: the last one named before at, else the
 * first one after. */
static const struct explain_fact *nearest_lib(const struct explain_reader *L, size_t at)
{
	const struct explain_fact *before = NULL, *after = NULL;
	for (size_t k = 0; k < L->out->n; k++) {
		const struct explain_fact *f = &L->out->v[k];
		if (f->kind != EXF_LIB)
			continue;
		if (f->at <= at)
			before = f;
		else if (!after)
			after = f;
	}
	return before ? before : after;
}

/* A library file of the line that belongs to a component a word names ("NVML": libnvidia-ml.so). */
static const struct explain_fact *line_lib_of(const struct explain_reader *L, const char *word)
{
	for (size_t k = 0; k < L->out->n; k++) {
		const struct explain_fact *f = &L->out->v[k];
		if (f->kind == EXF_LIB && f->lib.kb && strcasecmp(f->lib.kb->component, word) == 0)
			return f;
	}
	return NULL;
}

/* ---- symbols --------------------------------------------------------------------------------- */

/* The first name of a mangled C++ symbol (_ZN5cudnn3cnn... -> "cudnn", _Z22cudnnGenericOp... ->
 * "cudnnGenericOp..."), else the symbol itself. */
static const char *demangled_head(const char *sym, char *buf, size_t cap)
{
	if (strncmp(sym, "_Z", 2) != 0)
		return sym;
	const char *s = sym + 2;
	/* a vtable, typeinfo or its name (_ZTV, _ZTI, _ZTS) names the class it is of */
	if (s[0] == 'T' && s[1] && strchr("VIS", s[1]))
		s += 2;
	while (*s == 'N' || *s == 'K' || *s == 'V' || *s == 'L')
		s++;
	/* the Itanium ABI's abbreviations of ::std (St, and Sa Sb Ss Si So Sd for its allocator,
	 * basic_string, string and streams) */
	if (s[0] == 'S' && s[1] && strchr("tabsiod", s[1]))
		return "std";
	if (!isdigit((unsigned char)*s))
		return sym;
	long n = strtol(s, (char **)&s, 10);
	if (n <= 0 || (size_t)n >= cap || strlen(s) < (size_t)n)
		return sym;
	memcpy(buf, s, (size_t)n);
	buf[n] = 0;
	return buf;
}

/* The component that exports a symbol (data/explain_symbols.tsv: the longest prefix followed by a
 * character that is not a lower-case letter), or NULL. */
static const char *symbol_component(const struct explain_catalog *cat, const char *sym)
{
	char buf[128];
	const char *h = demangled_head(sym, buf, sizeof buf);
	const struct explain_symbol_def *best = NULL;
	for (size_t i = 0; i < cat->n_symbols; i++) {
		const struct explain_symbol_def *d = &cat->symbols[i];
		/* a row ending in '$' names one whole symbol (cudaLaunch, not cudaLaunchKernel) */
		bool whole = d->len > 1 && d->prefix[d->len - 1] == '$';
		size_t n = whole ? d->len - 1 : d->len;
		if (strncmp(h, d->prefix, n) == 0 && (whole ? h[n] == 0 : !islower((unsigned char)h[n])) &&
		    (!best || d->len > best->len))
			best = d;
	}
	return best ? best->component : NULL;
}

/* ---- catalogue patterns: forms and phrases -------------------------------------------------- */

static const char *cap_get(const struct explain_capture *caps, size_t n, const char *key)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(caps[i].key, key) == 0)
			return caps[i].value;
	return NULL;
}

static void add_version(struct explain_reader *L, const char *what, const char *value, const char *role)
{
	struct version v;
	if (!value || !version_parse(value, &v))
		return;
	for (size_t k = 0; k < L->out->n; k++) {
		const struct explain_fact *o = &L->out->v[k];
		if (o->kind == EXF_VERSION && strcmp(o->what, what) == 0 && strcmp(o->value, value) == 0)
			return;
	}
	struct explain_fact *f = fact_new(L, EXF_VERSION, value, strlen(value));
	if (!f)
		return;
	f->what = what;
	f->value = f->text;
	f->role = role;
}

static void add_arch(struct explain_reader *L, const char *text)
{
	int maj, min;
	if (!text || !kb_parse_sm(text, &maj, &min))
		return;
	for (size_t k = 0; k < L->out->n; k++)
		if (L->out->v[k].kind == EXF_ARCH && L->out->v[k].sm == maj * 10 + min)
			return;
	struct explain_fact *f = fact_new(L, EXF_ARCH, text, strlen(text));
	if (f)
		f->sm = maj * 10 + min;
}

/* Version captures of phrases: their key says what they are. */
static void phrase_versions(struct explain_reader *L, const struct explain_pattern_def *d,
			    const struct explain_capture *caps, size_t n)
{
	size_t first = L->out->n;
	static const struct {
		const char *key, *what, *role;
	} keys[] = {
		{ "built", "library", "built" }, { "found", "library", "found" }, { "cuda", "cuda", NULL },
		{ "cudnn", "cudnn", NULL },      { "ptx", "ptx", "built" },       { "ptxas", "ptx", "found" },
		{ "kernel", "driver", "kernel" }, { "dso", "driver", "found" },   { "client", "driver", "found" },
		/* the newest CUDA the driver supports and the runtime's, as frameworks print them */
		{ "driver_api", "driver-cuda", NULL }, { "runtime_api", "cuda", "runtime" },
	};
	for (size_t i = 0; i < n; i++) {
		for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++)
			if (strcmp(caps[i].key, keys[k].key) == 0)
				add_version(L, keys[k].what, caps[i].value, keys[k].role);
		if (strcmp(caps[i].key, "sm") == 0)
			add_arch(L, caps[i].value);
		/* an architecture pair of a failure class: what the code was built for (or the least
		 * it supports) and what the device is, as versions "8.6" of what "arch" */
		bool arch_built = strcmp(caps[i].key, "arch_built") == 0,
		     arch_dev = strcmp(caps[i].key, "arch_device") == 0;
		int maj, min;
		if (!arch_built && !arch_dev)
			continue;
		char v[32];
		if (kb_parse_sm(caps[i].value, &maj, &min)) {
			snprintf(v, sizeof v, "%d.%d", maj, min);
			add_arch(L, caps[i].value);
		} else { /* "compiled for compute capability 0.0": no architecture, still the lower one */
			snprintf(v, sizeof v, "%.16s", caps[i].value);
		}
		add_version(L, "arch", v, arch_built ? "built" : "device");
	}
	for (size_t k = first; k < L->out->n; k++)
		if (L->out->v[k].kind == EXF_VERSION)
			L->out->v[k].row = d;
}

/* The subject of a form: the library it captured, the library or family an undefined symbol
 * belongs to, or the nearest library on the line. */
static void form_subject(struct explain_reader *L, struct explain_fact *f, const struct explain_capture *caps, size_t n,
			 size_t at)
{
	const char *named = cap_get(caps, n, "lib");
	if (!named)
		named = cap_get(caps, n, "dll");
	if (!named)
		named = cap_get(caps, n, "path");
	/* the linker's -lNAME is libNAME.so */
	char lbuf[EXPLAIN_CAP_MAX + 8];
	const char *lname = named ? NULL : cap_get(caps, n, "lname");
	if (lname) {
		snprintf(lbuf, sizeof lbuf, "lib%s.so", lname);
		named = lbuf;
	}
	/* .NET and Mono name a native library without its extension ("DllNotFoundException: k4abt") */
	const char *dname = named ? NULL : cap_get(caps, n, "dllname");
	if (dname) {
		/* a name with its extension (cudnn64_8.dll, Mono's libcuda.so.1) stands as it is */
		bool has_ext = strchr(dname, '.') != NULL;
		snprintf(lbuf, sizeof lbuf, has_ext ? "%s" : "%s.dll", dname);
		named = lbuf;
	}
	/* a component named by a word ("cannot load cuDNN shared library") is libWORD.so, lower-case;
	 * unless the line names that component's file ("Can't load NVML library, ... libnvidia-ml.so:
	 * cannot open"): one library failed, not two */
	const char *comp = named ? NULL : cap_get(caps, n, "component");
	const struct explain_fact *file = comp ? line_lib_of(L, comp) : NULL;
	if (file) {
		f->lib = file->lib;
		f->has_lib = true;
		return;
	}
	if (comp) {
		snprintf(lbuf, sizeof lbuf, "lib%s.so", comp);
		for (char *c = lbuf; *c; c++)
			*c = (char)tolower((unsigned char)*c);
		named = lbuf;
	}
	/* a component named by a word on a Windows line, or right after one (a traceback's path): a DLL */
	bool on_windows = comp && ((L->hints | hints_near(L)) & H_WIN);
	const char *sym = cap_get(caps, n, "symbol"), *node = cap_get(caps, n, "version");
	if (sym || node) {
		const char *s = sym ? sym : node;
		f->symbol = keep(L->out, s, strlen(s));
		if (node && strstr(node, ".so")) /* version `libcudnn_ops_infer.so.8' not found */
			named = node;
		if (named) { /* undefined symbol: X, version libY.so.N: libY exports it */
			explain_lib_classify(L->cat, named, &f->lib);
			f->component = f->lib.kb ? f->lib.kb->component : f->lib.klass;
		} else {
			f->component = f->symbol ? symbol_component(L->cat, f->symbol) : NULL;
			f->lib.klass = f->component;
			f->lib.name = NULL;
		}
		f->has_lib = f->component != NULL || named != NULL;
		if (f->lib.name)
			f->lib.name = keep(L->out, f->lib.name, strlen(f->lib.name));
		return;
	}
	if (named) {
		explain_lib_classify(L->cat, named, &f->lib);
		if (on_windows)
			f->lib.os = 'w';
		/* the line's library of that name, repaired ("cudnn ops64_9.dll" -> cudnn_ops64_9.dll) */
		size_t nl = strlen(f->lib.name);
		for (size_t k = 0; k < L->out->n && !lib_known(&f->lib); k++) {
			const struct explain_fact *o = &L->out->v[k];
			size_t ol = o->kind == EXF_LIB ? strlen(o->lib.name) : 0;
			if (ol > nl && o->lib.name[ol - nl - 1] == '_' && strcasecmp(o->lib.name + ol - nl, f->lib.name) == 0)
				f->lib = o->lib;
		}
		f->lib.name = keep(L->out, f->lib.name, strlen(f->lib.name));
		f->has_lib = f->lib.name != NULL;
		return;
	}
	const struct explain_fact *near = nearest_lib(L, at);
	if (near) {
		f->lib = near->lib;
		f->has_lib = true;
	} else {
		f->lib.os = L->hints & H_WIN ? 'w' : 0; /* "DLL load failed while importing _C" names no DLL */
	}
}

/* What a form is about, for telling duplicates: the symbol, else the library, else its class. */
static const char *subject_key(const struct explain_fact *f)
{
	if (f->symbol)
		return f->symbol;
	if (f->has_lib && f->lib.name)
		return f->lib.name;
	if (f->has_lib && f->lib.klass)
		return f->lib.klass;
	return "";
}

/* Every group of alternatives a pattern requires has one alternative whose byte pairs are all in
 * the line (the pattern's longest literal is tested the same way): most class rows are rejected so
 * without running the matcher. */
static bool alts_may_occur(const struct explain_reader *L, const struct explain_pattern *p)
{
	for (size_t i = 0; i < p->n_items; i++) {
		const struct explain_item *it = &p->items[i];
		if (it->kind != EI_ALT || it->optional)
			continue;
		bool any = false;
		for (size_t k = 0; k < it->n_alts && !any; k++)
			any = may_contain(L, it->alts[k], it->alt_lens[k]);
		if (!any)
			return false;
	}
	return true;
}

/* A row's guard: the capture matches its glob, or one of its globs separated by '|' (with
 * KEY!=GLOB: none of them). */
static bool guard_holds(const struct explain_pattern_def *d, const char *v)
{
	if (!v)
		return false;
	if (d->when_not) {
		struct explain_pattern_def pos = *d;
		pos.when_not = false;
		return !guard_holds(&pos, v);
	}
	char g[256];
	for (const char *p = d->when_glob;;) {
		const char *bar = strchr(p, '|');
		size_t n = bar ? (size_t)(bar - p) : strlen(p);
		if (n < sizeof g) {
			memcpy(g, p, n);
			g[n] = 0;
			if (explain_glob(g, v))
				return true;
		}
		if (!bar)
			return false;
		p = bar + 1;
	}
}

/* A line that lists where a program searches ("globs=[/usr/lib/wsl/lib/libcuda.so* ...]", a
 * wildcard in a path) names places, not the system it ran on: its paths are no hints. */
static bool lists_search_globs(const struct explain_reader *L)
{
	return has_lc(L, "globs=") || has_lc(L, ".so*") || has_lc(L, "/*/");
}

static void read_patterns(struct explain_reader *L, struct explain_capbuf *buf)
{
	struct explain_capture caps[EXPLAIN_MAX_CAPS];
	size_t n;
	bool tool_phrase = false; /* a tool's own sentence knows more than a generic class */
	bool globs = lists_search_globs(L);
	for (size_t i = 0; i < L->cat->n_patterns; i++) {
		const struct explain_pattern_def *d = &L->cat->patterns[i];
		if (d->generic && !d->form && tool_phrase)
			continue;
		if (d->hint && globs)
			continue;
		if (d->pat.anchor && !may_contain_bits(L, d->pat.anchor_bits, d->pat.anchor, d->pat.anchor_len))
			continue;
		if (!alts_may_occur(L, &d->pat))
			continue;
		if (!explain_pattern_match(&d->pat, L->line, L->lc, buf, caps, &n))
			continue;
		if (d->when_key && !guard_holds(d, cap_get(caps, n, d->when_key)))
			continue;
		/* a loader's symbol failure says as exactly what broke ("nvidia-device-plugin: symbol lookup
		 * error: ... undefined symbol: nvmlX_v3" is NVML's, not the plugin pod's generic failure) */
		bool symbol_form = d->form && (strcmp(d->form, "undefined-symbol") == 0 ||
					       strcmp(d->form, "version-not-found") == 0 ||
					       strcmp(d->form, "link-time-ref") == 0);
		if (!d->generic && ((!d->form && !d->hint && !d->cue) || symbol_form))
			tool_phrase = true;
		long at = d->pat.anchor ? explain_find_lc(L->lc, 0, d->pat.anchor, d->pat.anchor_len) : 0;
		struct explain_fact *f = fact_new(L, d->hint ? EXF_HINT : d->cue ? EXF_CUE : d->form ? EXF_FORM : EXF_PHRASE, d->id,
						  strlen(d->id));
		if (!f)
			return;
		f->pattern = d;
		f->form = d->form;
		if (d->form) {
			form_subject(L, f, caps, n, at < 0 ? 0 : (size_t)at);
		} else if (!d->hint && !d->cue) {
			const char *named = cap_get(caps, n, "lib") ? cap_get(caps, n, "lib") : cap_get(caps, n, "dll");
			if (named) { /* a phrase about a library interprets its failure itself */
				explain_lib_classify(L->cat, named, &f->lib);
				f->lib.name = keep(L->out, f->lib.name, strlen(f->lib.name));
				f->has_lib = f->lib.name != NULL;
			}
		}
		phrase_versions(L, d, caps, n);
		f->at = at < 0 ? 0 : (size_t)at;
		/* two rows saying the same about the same library (one naming it, one finding it nearby):
		 * one fact, the stronger row's */
		for (size_t k = 0; d->form && k + 1 < L->out->n; k++) {
			struct explain_fact *o = &L->out->v[k];
			if (o->kind != EXF_FORM || strcmp(o->form, f->form) != 0 ||
			    strcasecmp(subject_key(o), subject_key(f)) != 0)
				continue;
			if (o->pattern->weight < d->weight)
				*o = *f;
			L->out->n--;
			break;
		}
	}
}

/* ---- error codes ----------------------------------------------------------------------------- */

static const char *api_family(const char *api)
{
	if (strncmp(api, "cudart", 6) == 0 || strcmp(api, "cu") == 0)
		return "cuda";
	if (strncmp(api, "cudnn", 5) == 0)
		return "cudnn";
	return api;
}

static bool code_seen(const struct explain_reader *L, const struct kb_error *e)
{
	for (size_t k = 0; k < L->out->n; k++) {
		const struct explain_fact *o = &L->out->v[k];
		if (o->kind == EXF_CODE && (o->code == e || (o->code->code == e->code &&
							      strcmp(api_family(o->code->api), api_family(e->api)) == 0)))
			return true;
	}
	return false;
}

static struct explain_fact *add_code(struct explain_reader *L, const struct kb_error *e, const char *how,
				     const char *text, size_t n)
{
	if (code_seen(L, e))
		return NULL;
	struct explain_fact *f = fact_new(L, EXF_CODE, text, n);
	if (f) {
		f->code = e;
		f->how = how;
	}
	return f;
}

static int name_key_cmp(const void *k, const void *x)
{
	return strcmp(k, ((const struct explain_name_def *)x)->lc);
}

/* NoBinaryForGpu: an upper-case first letter, at least two words, no '_' (a driver API code in
 * the CamelCase of a language binding). */
static bool camel_case(const uint8_t *p, size_t n)
{
	size_t upper = 0, lower = 0;
	for (size_t i = 0; i < n; i++) {
		if (p[i] == '_' || isdigit(p[i]))
			return false;
		upper += isupper(p[i]) != 0;
		lower += islower(p[i]) != 0;
	}
	return isupper(p[0]) && upper >= 2 && lower > upper;
}

/* A status name of a library binding in lowerCamelCase (cudnnStatusArchMismatch, cublasStatusNotInitialized:
 * Python and Julia wrappers) as the C enum's name, lower-cased (cudnn_status_arch_mismatch) into out[cap].
 * Only for the libraries whose C names are PREFIX_STATUS_...; false for any other token. */
static bool binding_status_name(const uint8_t *line, size_t n, char *out, size_t cap)
{
	static const char *const prefixes[] = { "cudnnStatus", "cublasStatus", "cusparseStatus", "cusolverStatus",
						 "curandStatus" };
	bool known = false;
	for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0] && !known; i++)
		known = n > strlen(prefixes[i]) && memcmp(line, prefixes[i], strlen(prefixes[i])) == 0;
	if (!known)
		return false;
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		if (k + 3 > cap || !isalnum(line[i]))
			return false;
		if (i > 0 && isupper(line[i]) && !isupper(line[i - 1]))
			out[k++] = '_';
		out[k++] = (char)tolower(line[i]);
	}
	out[k] = 0;
	return true;
}

/* Names of codes, as word tokens: cudaErrorNoDevice, CUDA_ERROR_NO_DEVICE, CUDNN_STATUS_..., ncclSystemError. */
static void read_names(struct explain_reader *L)
{
	char w[100];
	for (size_t t = 0; t < L->n_toks; t++) {
		const struct tok *k = &L->toks[t];
		if (k->len < 6 || k->len >= sizeof w)
			continue;
		memcpy(w, L->lc.p + k->off, k->len);
		w[k->len] = 0;
		const struct explain_name_def *d =
			bsearch(w, L->cat->names, L->cat->n_names, sizeof L->cat->names[0], name_key_cmp);
		/* cuDNN 8 and 9 share names: prefer the first row of equal names */
		while (d && d > L->cat->names && strcmp(d[-1].lc, w) == 0)
			d--;
		/* a short name both the driver API and NVML answer to (ERROR_UNKNOWN): NVML's on a line
		 * that names NVML */
		for (const struct explain_name_def *e = d; e && (L->hints & H_NVML) &&
							  e < L->cat->names + L->cat->n_names && strcmp(e->lc, w) == 0;
		     e++)
			if (strcmp(e->code->api, "nvml") == 0) {
				d = e;
				break;
			}
		if (!d && k->len + 2 <= sizeof w && (L->hints & (H_CUDA | H_CU)) && camel_case(L->line.p + k->off, k->len)) {
			memmove(w + 1, w, k->len + 1);
			w[0] = '~';
			d = bsearch(w, L->cat->names, L->cat->n_names, sizeof L->cat->names[0], name_key_cmp);
			/* the runtime's and the driver API's (NoDevice): the table's first row, as above */
			while (d && d > L->cat->names && strcmp(d[-1].lc, w) == 0)
				d--;
		}
		char snake[128];
		if (!d && (L->hints & H_CUDA) && binding_status_name(L->line.p + k->off, k->len, snake, sizeof snake)) {
			d = bsearch(snake, L->cat->names, L->cat->n_names, sizeof L->cat->names[0], name_key_cmp);
			while (d && d > L->cat->names && strcmp(d[-1].lc, snake) == 0)
				d--;
		}
		if (d)
			add_code(L, d->code, "name", (const char *)L->line.p + k->off, k->len);
	}
}

/* The words a line must hold for a short text of an API to count ("initialization error" is
 * cudaErrorInitializationError only next to CUDA). */
static unsigned api_hint(const char *api)
{
	static const struct {
		const char *api;
		unsigned h;
	} t[] = {
		/* the math libraries before "cu", which is a prefix of their names */
		{ "cufft", H_MATH },         { "curand", H_MATH },    { "cusolver", H_MATH }, { "cusparse", H_MATH },
		{ "cudart", H_CUDA | H_CU }, { "cu", H_CUDA | H_CU }, { "cudnn", H_CUDNN }, { "cublas", H_CUBLAS },
		{ "nccl", H_NCCL },          { "nvml", H_NVML },      { "win32", H_WIN },    { "ntstatus", H_WIN },
		{ "optix", H_OPTIX },
	};
	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
		if (strncmp(api, t[i].api, strlen(t[i].api)) == 0)
			return t[i].h;
	return H_API;
}

/* How well an API fits the line's hints (texts shared by several APIs: "unknown error"). */
static int api_fit(const struct explain_reader *L, const char *api)
{
	if (strcmp(api, "nvml") == 0)
		return L->hints & H_NVML ? 3 : 0;
	if (strcmp(api, "cu") == 0)
		return L->hints & H_CU ? 2 : 0;
	if (strcmp(api, "cudart") == 0)
		return 1;
	if (strncmp(api, "win32", 5) == 0)
		return L->hints & H_WIN ? 2 : 0;
	return 0;
}

static bool boundary_ok(const struct explain_reader *L, size_t s, size_t n)
{
	bool before = s == 0 || !isalnum(L->lc.p[s - 1]);
	bool after = s + n >= L->lc.n || !isalnum(L->lc.p[s + n]);
	return before && after;
}

/* Whether the line names one of the math libraries (cuFFT, cuRAND, cuSOLVER, cuSPARSE), but not
 * api: they share texts ("internal error"), and "cuSolver internal error" is not cuSPARSE's. */
static bool other_math_library(const struct explain_reader *L, const char *api)
{
	static const char *const math[] = { "cufft", "curand", "cusolver", "cusparse" };
	bool is_math = false, own = false, other = false;
	for (size_t i = 0; i < sizeof math / sizeof math[0]; i++) {
		bool mine = strcmp(api, math[i]) == 0;
		bool named = has_lc(L, math[i]);
		is_math |= mine;
		own |= mine && named;
		other |= !mine && named;
	}
	return is_math && other && !own;
}

static bool text_allowed(const struct explain_reader *L, const struct explain_text_def *d)
{
	if (other_math_library(L, d->code->api))
		return false;
	return !d->needs_api_word || ((L->hints | hints_near(L)) & api_hint(d->code->api));
}

/* The texts libraries print for their codes, and other wordings of them. A text several APIs
 * share ("unknown error") is read once, as the API the line's words point to. */
static void read_texts(struct explain_reader *L)
{
	const struct explain_catalog *cat = L->cat;
	for (size_t i = 0; i < cat->n_texts; i++) {
		const struct explain_text_def *d = &cat->texts[i];
		if (!d->first || !may_contain_bits(L, d->pair_bits, d->lc, d->len))
			continue;
		long at = explain_find_lc(L->lc, 0, d->lc, d->len);
		if (at < 0 || !boundary_ok(L, (size_t)at, d->len))
			continue;
		const struct explain_text_def *best = NULL;
		for (long j = (long)i; j >= 0; j = cat->texts[j].next_same) {
			const struct explain_text_def *e = &cat->texts[j];
			if (text_allowed(L, e) && (!best || api_fit(L, e->code->api) > api_fit(L, best->code->api)))
				best = e;
		}
		struct explain_fact *f = best ? add_code(L, best->code, "text", (const char *)L->line.p + at, d->len) : NULL;
		if (f)
			f->at = (size_t)at; /* where the code's own text stands (classes before it yield) */
		else
			L->wants_api_word = true;
	}
}

bool explain_line_wants_api_word(const struct explain_reader *L)
{
	return L->wants_api_word;
}

/* Words that announce an API code. Not "errno": a POSIX errno ("[Errno 2] No such file or directory:
 * '/usr/local/cuda/bin/nvcc'") is no GPU API's code, whatever the line names. */
static bool is_keyword(const char *w)
{
	static const char *const kw[] = { "error", "err", "code", "failure", "status", "returned", "return",
					  "result", "winerror", "retval", "rc" };
	for (size_t i = 0; i < sizeof kw / sizeof kw[0]; i++)
		if (strcmp(w, kw[i]) == 0)
			return true;
	return false;
}

static bool preposition(const char *w)
{
	static const char *const pw[] = { "on", "in", "at", "for", "from", "since", "after", "before", "under", "using" };
	for (size_t i = 0; i < sizeof pw / sizeof pw[0]; i++)
		if (strcmp(w, pw[i]) == 0)
			return true;
	return false;
}

/* The APIs a number on this line may belong to, most likely first. */
static size_t number_apis(const struct explain_reader *L, long code, bool hex, const char **apis)
{
	size_t n = 0;
	if (hex) {
		apis[n++] = "ntstatus";
		return n;
	}
	if (L->hints & H_WIN)
		apis[n++] = "win32";
	if (L->hints & H_CUDNN)
		apis[n++] = code >= 1000 ? "cudnn9" : "cudnn8";
	if (L->hints & H_CUBLAS)
		apis[n++] = "cublas";
	if (L->hints & H_NCCL)
		apis[n++] = "nccl";
	if (L->hints & H_NVML)
		apis[n++] = "nvml";
	if (L->hints & H_OPTIX) /* OptixResult: 7000-7999, no other API's range */
		apis[n++] = "optix";
	if (L->hints & H_CU)
		apis[n++] = "cu";
	if (L->hints & (H_CUDA | H_CU | H_GPU)) {
		apis[n++] = "cudart";
		apis[n++] = "cu";
		apis[n++] = "cudart_legacy";
	}
	return n;
}

/* make's exit status of a failed recipe, "make[2]: *** [Makefile:252: x.o] Error 1": no API's code
 * (a DKMS module build names nvidia in the target, which would read it as the runtime's). */
static bool make_status(const struct explain_reader *L, size_t t)
{
	if (t == 0 || !has_lc(L, "*** ["))
		return false;
	const struct tok *q = &L->toks[t - 1];
	if (q->len != 5 || memcmp(L->lc.p + q->off, "error", 5) != 0)
		return false;
	size_t i = q->off;
	while (i > 0 && L->lc.p[i - 1] == ' ')
		i--;
	return i > 0 && L->lc.p[i - 1] == ']';
}

/* A process's exit status, "failed with exit status 1", "exit code 2", "non-zero exit status 1": what
 * a build tool or a shell reports of a child, not an API's code (distutils' "command 'nvcc' failed
 * with exit status 1" is no cudaErrorInvalidValue). A Windows exit code in hex stays: 0xC0000409 is the
 * NTSTATUS of the crash. */
static bool exit_status(const struct explain_reader *L, size_t t)
{
	if (t < 2)
		return false;
	const struct tok *e = &L->toks[t - 2], *w = &L->toks[t - 1];
	return e->len == 4 && memcmp(L->lc.p + e->off, "exit", 4) == 0 &&
	       ((w->len == 6 && memcmp(L->lc.p + w->off, "status", 6) == 0) ||
		(w->len == 4 && memcmp(L->lc.p + w->off, "code", 4) == 0));
}

/* Whether tok is a plural noun a count stands before ("100 errors detected", "3 warnings"). */
static bool count_noun(const struct explain_reader *L, const struct tok *q)
{
	static const char *const nouns[] = { "errors", "warnings", "error(s)", "warning(s)", "times", "files",
					     "items", "tests", "steps", "epochs", "images", "samples", "attempts",
					     "retries", "seconds", "bytes", "lines" };
	for (size_t i = 0; i < sizeof nouns / sizeof nouns[0]; i++)
		if (q->len == strlen(nouns[i]) && memcmp(L->lc.p + q->off, nouns[i], q->len) == 0)
			return true;
	return false;
}

/* Whether a sentence ends between two offsets of the line (". ", "! ", "? "): a code word in the
 * sentence before does not announce a number in the next ("Error limit reached. 100 ..."). */
static bool sentence_between(const struct explain_reader *L, size_t from, size_t to)
{
	for (size_t i = from; i + 1 < to && i + 1 < L->lc.n; i++)
		if (strchr(".!?", L->lc.p[i]) && L->lc.p[i + 1] == ' ')
			return true;
	return false;
}

/* The API of a call whose status a number follows, hashcat's "cuDeviceGetCount(): 100" (a call's
 * name, "():" and the CUresult it returned, for every call it makes): named by the call's prefix (a
 * driver API call, cuXxx, is no runtime call); NULL when token q is no such call. Elsewhere ("()=",
 * "()->", NVML's calls) a program may print what the call returns by value instead
 * (nvmlDeviceGetCount() = 9): there a call that gives a count, a measurement or a name is left out. A version call's number
 * counts only below 1000 (every CUDA library's version number is 1000 or more). */
/* The API whose call token q names by its prefix, a capital and a small letter after it (cudaMalloc,
 * cuInit, nvmlInit, ncclCommInitRank; not the products cuDNN, cuBLAS, cuFFT); NULL when q is no
 * such name. */
static const char *api_of_call_name(const struct explain_reader *L, const struct tok *q)
{
	static const struct {
		const char *prefix, *api;
	} prefixes[] = { { "cuda", "cudart" }, { "nvml", "nvml" }, { "cudnn", "cudnn" }, { "cublas", "cublas" },
			 { "nccl", "nccl" }, { "cu", "cu" } };
	const uint8_t *p = L->line.p + q->off;
	for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++) {
		size_t n = strlen(prefixes[i].prefix);
		if (q->len > n + 1 && memcmp(p, prefixes[i].prefix, n) == 0 && isupper(p[n]) && islower(p[n + 1]))
			return prefixes[i].api;
	}
	return NULL;
}

static const char *api_call_value(const struct explain_reader *L, const struct tok *q, size_t off, long code)
{
	static const char *const by_value[] = { "count", "attribute", "temperature", "fanspeed", "info",
						"utilization", "clock", "power", "memory", "size", "name" };
	const char *api = api_of_call_name(L, q);
	if (!api)
		return NULL;
	char gap[8];
	size_t g = 0;
	for (size_t i = q->off + q->len; i < off; i++)
		if (L->line.p[i] != ' ') {
			if (g + 1 == sizeof gap)
				return NULL;
			gap[g++] = (char)L->line.p[i];
		}
	gap[g] = 0;
	if (strcmp(gap, "():") != 0 && strcmp(gap, "()=") != 0 && strcmp(gap, "()->") != 0)
		return NULL;
	/* hashcat's form: a CUDA driver or runtime call and the status it returned */
	bool status = strcmp(gap, "():") == 0 && (strcmp(api, "cu") == 0 || strcmp(api, "cudart") == 0);
	const struct span name = span_make((const char *)L->lc.p + q->off, q->len);
	for (size_t i = 0; i < sizeof by_value / sizeof by_value[0] && !status; i++)
		if (explain_find_lc(name, 0, by_value[i], strlen(by_value[i])) >= 0)
			return NULL;
	if (explain_find_lc(name, 0, "version", 7) >= 0 && code >= 1000)
		return NULL;
	if (strcmp(api, "cudnn") == 0)
		return code >= 1000 ? "cudnn9" : "cudnn8";
	return api;
}

/* A Windows exit status printed in decimal, signed (-1073741515) or not (3221225781): an NTSTATUS
 * error (0xC000xxxx), what a launcher prints of a child that Windows stopped (STATUS_DLL_NOT_FOUND
 * before main). No other API's codes come near that range, so no word needs to announce it. */
static bool ntstatus_decimal(const struct explain_reader *L, size_t t, long *code)
{
	const struct tok *k = &L->toks[t];
	const uint8_t *p = L->lc.p + k->off;
	if (k->len != 10)
		return false;
	for (size_t i = 0; i < k->len; i++)
		if (!isdigit(p[i]))
			return false;
	long v = strtol((const char *)p, NULL, 10);
	bool minus = k->off > 0 && L->lc.p[k->off - 1] == '-' && (k->off == 1 || !isalnum(L->lc.p[k->off - 2]));
	long c = minus ? -v : (long)(int32_t)(uint32_t)v;
	if (!minus && v > UINT32_MAX)
		return false;
	/* unsigned, it could be a count of bytes: only after a word of a process's end, one of the
	 * four tokens before it ("exited with code 3221225781", "return code", "status"), whole words */
	if (!minus) {
		static const char *const words[] = { "code", "status", "exit", "exited", "returned", "crashed", "terminated" };
		bool said = false;
		for (size_t b = 1; b <= 4 && b <= t && !said; b++) {
			const struct tok *q = &L->toks[t - b];
			for (size_t i = 0; i < sizeof words / sizeof words[0] && !said; i++)
				said = q->len == strlen(words[i]) && memcmp(L->lc.p + q->off, words[i], q->len) == 0;
		}
		if (!said)
			return false;
	}
	if (c < (int32_t)0xC0000000u || c > (int32_t)0xC000FFFFu)
		return false;
	*code = c;
	return true;
}

/* A number that a code word announces: "error 803", "error=48", "CUDA failure 804", "[WinError
 * 126]", "returned 35", "error code 126", "(38 vs. 0)" after cudaSuccess, "802 system error". */
static void read_numbers(struct explain_reader *L)
{
	char w[32];
	bool vs_check = has_lc(L, "cudasuccess") || has_lc(L, "cuda_success");
	for (size_t t = 0; t < L->n_toks; t++) {
		const struct tok *k = &L->toks[t];
		const uint8_t *p = L->lc.p + k->off;
		long nt;
		if (ntstatus_decimal(L, t, &nt)) {
			const struct kb_error *row = kb_error_lookup("ntstatus", nt);
			if (row)
				add_code(L, row, "number", (const char *)L->line.p + k->off, k->len);
			continue;
		}
		bool hex = k->len == 10 && p[0] == '0' && p[1] == 'x';
		bool digits = k->len <= 6;
		for (size_t i = 0; i < k->len && digits; i++)
			digits = isdigit(p[i]) != 0;
		if (!digits && !hex)
			continue;
		/* part of a version, a path or a file:line */
		size_t e = k->off + k->len;
		if (k->off > 0 && strchr(".:/\\-", L->line.p[k->off - 1]))
			continue;
		if (e + 1 < L->line.n && L->line.p[e] == '.' && isdigit(L->line.p[e + 1]))
			continue;
		/* a count: "100 errors detected", "2 warnings" */
		if (t + 1 < L->n_toks && count_noun(L, &L->toks[t + 1]))
			continue;
		bool announced = false;
		long code = hex ? (long)(int32_t)strtoul((const char *)p, NULL, 16) : strtol((const char *)p, NULL, 10);
		const char *call_api = NULL;
		for (size_t b = 1; b <= 3 && b <= t && !announced; b++) {
			const struct tok *q = &L->toks[t - b];
			if (q->len >= sizeof w || k->off - (q->off + q->len) > 24 ||
			    sentence_between(L, q->off + q->len, k->off))
				break;
			memcpy(w, L->lc.p + q->off, q->len);
			w[q->len] = 0;
			/* a preposition between starts another phrase ("error on CentOS 7", "error on GPU 1"),
			 * unless what it introduces is the failing call ("Error in cuInit: 999") */
			if (preposition(w) && !api_of_call_name(L, &L->toks[t - b + 1]))
				break;
			if (b == 1 && !hex)
				call_api = api_call_value(L, q, k->off, code);
			/* "errno 127" after a DLL's path: a Windows loader's code (vs-mlrt's preload), which
			 * a POSIX errno never reaches */
			announced = is_keyword(w) || call_api ||
				    (strcmp(w, "errno") == 0 && (L->hints & H_WIN) && code >= 100);
		}
		announced |= hex && memcmp(p, "0xc0", 4) == 0; /* an NTSTATUS error needs no word before it */
		if (!announced && vs_check && t + 1 < L->n_toks && L->toks[t + 1].len == 2 &&
		    memcmp(L->lc.p + L->toks[t + 1].off, "vs", 2) == 0)
			announced = true;
		/* the word after it, ending the phrase, with a verb of failing before: "fails with 802
		 * system error.". Only from 100 up and next to a CUDA word, where the codes of the runtime
		 * and the driver API stand apart from counts ("1 error detected", "Epoch 100 error on GPU
		 * 0", "HTTP 500 error", "300 images, 100 error") */
		bool failing = false;
		for (size_t b = 1; b <= 2 && b <= t && !failing; b++) {
			static const char *const verbs[] = { "with", "fails", "failed", "returned", "returns", "raised", "gave" };
			const struct tok *q = &L->toks[t - b];
			for (size_t v = 0; v < sizeof verbs / sizeof verbs[0] && !failing; v++)
				failing = q->len == strlen(verbs[v]) && memcmp(L->lc.p + q->off, verbs[v], q->len) == 0;
		}
		for (size_t a = 1; a <= 2 && !announced && !hex && failing && code >= 100 && (L->hints & (H_CUDA | H_CU)) &&
				   t + a < L->n_toks;
		     a++) {
			const struct tok *q = &L->toks[t + a];
			if (q->len >= sizeof w || q->off - e > 16)
				break;
			memcpy(w, L->lc.p + q->off, q->len);
			w[q->len] = 0;
			size_t after = q->off + q->len;
			bool ends = after >= L->lc.n || strchr(".,:;)!", L->lc.p[after]) ||
				    (L->lc.p[after] == ' ' && (after + 1 >= L->lc.n || strchr(".,:;)!", L->lc.p[after + 1])));
			announced = ends && (strcmp(w, "error") == 0 || strcmp(w, "failure") == 0);
		}
		if (!announced || make_status(L, t) || (!hex && exit_status(L, t)))
			continue;
		if (code == 0)
			continue;
		const char *apis[12];
		size_t na = 0;
		if (call_api) { /* the call's API; a runtime call's number may be CUDA <= 10.0's */
			apis[na++] = call_api;
			if (strcmp(call_api, "cudart") == 0)
				apis[na++] = "cudart_legacy";
		} else
			na = number_apis(L, code, hex, apis);
		for (size_t i = 0; i < na; i++) {
			const struct kb_error *row = kb_error_lookup(apis[i], code);
			if (row) {
				add_code(L, row, "number", (const char *)L->line.p + k->off, k->len);
				break;
			}
		}
	}
}

/* A number next to a name or text of the same API family says the same, or is the old numbering
 * of it (THCudaCheck error=48 with the text of 209): the name or text is the fact, the number goes. */
static void drop_shadowed_numbers(struct explain_reader *L)
{
	struct explain_linefacts *out = L->out;
	size_t w = 0;
	for (size_t r = 0; r < out->n; r++) {
		struct explain_fact *f = &out->v[r];
		bool drop = false;
		if (f->kind == EXF_CODE && strcmp(f->how, "number") == 0)
			for (size_t k = 0; k < out->n && !drop; k++) {
				const struct explain_fact *o = &out->v[k];
				drop = o->kind == EXF_CODE && strcmp(o->how, "number") != 0 &&
				       strcmp(api_family(o->code->api), api_family(f->code->api)) == 0;
			}
		if (!drop)
			out->v[w++] = *f;
	}
	out->n = w;
}

/* The form a Windows loader code gives a failed load: load-failed / not-found become win-126,
 * win-127, ... (the form's class row then decides); NULL for any other fact. */
const char *explain_code_refines_form(const struct explain_fact *c)
{
	static const struct {
		const char *api;
		long code;
		const char *form;
	} win[] = {
		{ "win32", 126, "win-126" },   { "win32", 127, "win-127" },          { "win32", 193, "win-193" },
		/* 182, an import by ordinal that the DLL found lacks: 127's failure, by number instead of name */
		{ "win32", 182, "win-127" },
		{ "win32", 1114, "win-1114" }, { "win32", 1455, "win-1455" },        { "ntstatus", -1073741701, "win-193" },
		/* 5, the file was found and refused (its permissions, an antivirus) */
		{ "win32", 5, "denied" },
		{ "ntstatus", -1073741515, "win-126" }, { "ntstatus", -1073741511, "win-127" },
		{ "ntstatus", -1073741502, "win-1114" },
	};
	if (c->kind != EXF_CODE)
		return NULL;
	for (size_t i = 0; i < sizeof win / sizeof win[0]; i++)
		if (c->code->code == win[i].code && strcmp(c->code->api, win[i].api) == 0)
			return win[i].form;
	return NULL;
}

bool explain_form_is_a_load(const struct explain_fact *f)
{
	return f->kind == EXF_FORM && (strcmp(f->form, "load-failed") == 0 || strcmp(f->form, "not-found") == 0);
}

/* A Windows code on the line tells how a named DLL failed (the code's own causes are absorbed). */
static void refine_forms(struct explain_reader *L)
{
	for (size_t k = 0; k < L->out->n; k++) {
		struct explain_fact *c = &L->out->v[k];
		const char *form = explain_code_refines_form(c);
		for (size_t j = 0; form && j < L->out->n; j++) {
			struct explain_fact *f = &L->out->v[j];
			if (explain_form_is_a_load(f)) {
				f->form = form;
				c->role = "absorbed"; /* the form speaks for it */
			}
		}
	}
}

/* A phrase that names a library (nvidia-container-cli's "load library failed: X") says what X's
 * failure means there: the loader's form about X on the same line adds nothing. */
/* "could not load library "X": X: undefined symbol: cuFoo": X was found and opened; the symbol is
 * why it failed, so the line's not-found / load-failed of X is not a fact of its own. */
static void drop_loads_a_symbol_explains(struct explain_reader *L)
{
	bool symbol = false;
	for (size_t k = 0; k < L->out->n && !symbol; k++)
		symbol = L->out->v[k].kind == EXF_FORM && L->out->v[k].form &&
			 strcmp(L->out->v[k].form, "undefined-symbol") == 0;
	if (!symbol)
		return;
	size_t w = 0;
	for (size_t r = 0; r < L->out->n; r++) {
		const struct explain_fact *f = &L->out->v[r];
		bool load = f->kind == EXF_FORM && f->form &&
			    (strcmp(f->form, "not-found") == 0 || strcmp(f->form, "load-failed") == 0);
		if (!load)
			L->out->v[w++] = *f;
	}
	L->out->n = w;
}

/* A form that says more about a library than "not found" makes the line's generic not-found of the
 * same library no second fact: the linker's "cannot find -l:libcuda.so.1" is about the linker's
 * search (which reads no ld.so.cache and no LD_LIBRARY_PATH); glibc's "cannot open shared object
 * file: Permission denied" found the file and was refused it. */
static void drop_loads_a_finer_form_explains(struct explain_reader *L)
{
	size_t w = 0;
	for (size_t r = 0; r < L->out->n; r++) {
		const struct explain_fact *f = &L->out->v[r];
		bool shadowed = false;
		for (size_t k = 0; k < L->out->n && !shadowed && f->kind == EXF_FORM && f->form &&
				   strcmp(f->form, "not-found") == 0;
		     k++) {
			const struct explain_fact *o = &L->out->v[k];
			shadowed = o->kind == EXF_FORM && o->form &&
				   (strcmp(o->form, "link-not-found") == 0 || strcmp(o->form, "denied") == 0) &&
				   strcasecmp(subject_key(o), subject_key(f)) == 0;
		}
		if (!shadowed)
			L->out->v[w++] = *f;
	}
	L->out->n = w;
}

static void absorb_forms(struct explain_reader *L)
{
	for (size_t k = 0; k < L->out->n; k++) {
		const struct explain_fact *p = &L->out->v[k];
		if (p->kind != EXF_PHRASE || !p->has_lib)
			continue;
		for (size_t j = 0; j < L->out->n; j++) {
			struct explain_fact *f = &L->out->v[j];
			if (f->kind == EXF_FORM && f->has_lib && f->lib.name && strcasecmp(f->lib.name, p->lib.name) == 0)
				f->role = "absorbed";
		}
	}
}

/* A failure class whose words stand before an error code's own text on the line ("failed to
 * allocate memory in compute_gradient: CUDA driver version is insufficient for CUDA runtime
 * version"): the class names the operation that failed, the code says why; where the code's causes
 * do not include the class's first, the class yields. Only a code text long enough to say a reason:
 * "not found" and "Unknown Error" read as codes too, and say none. */
static void drop_classes_a_code_explains(struct explain_reader *L)
{
	size_t w = 0;
	for (size_t r = 0; r < L->out->n; r++) {
		const struct explain_fact *f = &L->out->v[r];
		bool drop = false;
		for (size_t k = 0; k < L->out->n && !drop && f->kind == EXF_PHRASE && f->pattern->generic &&
				   f->pattern->n_causes;
		     k++) {
			const struct explain_fact *o = &L->out->v[k];
			bool text = o->kind == EXF_CODE && strcmp(o->how, "text") == 0;
			if (!text || strlen(o->text) < 24 || o->at <= f->at)
				continue;
			const struct explain_cause_def *cs[EXPLAIN_MAX_CAUSES];
			size_t nc = explain_code_causes(L->cat, o->code, cs, EXPLAIN_MAX_CAUSES);
			bool shares = false;
			for (size_t i = 0; i < nc; i++)
				shares |= cs[i] == f->pattern->causes[0];
			drop = nc > 0 && !shares; /* a code without causes of its own says nothing instead */
		}
		if (!drop)
			L->out->v[w++] = *f;
	}
	L->out->n = w;
}

/* A phrase that retells an error code's text in a tool's words ("XlaRuntimeError: UNKNOWN: no kernel
 * image is available": XLA compiled the kernel itself for this GPU) says what the code means there:
 * the code's generic causes on that line would outvote it. */
static void absorb_restated_codes(struct explain_reader *L)
{
	bool restated = false;
	for (size_t k = 0; k < L->out->n && !restated; k++)
		restated = L->out->v[k].kind == EXF_PHRASE && L->out->v[k].pattern->restates;
	for (size_t k = 0; restated && k < L->out->n; k++)
		if (L->out->v[k].kind == EXF_CODE && strcmp(L->out->v[k].how, "text") == 0)
			L->out->v[k].role = "absorbed"; /* a code by name or number is the program's own report */
}

/* ---- versions and architectures in free text ----------------------------------------------- */

/* nvidia-smi's banner, "Driver Version: 580.00   CUDA Version: 13.0": that CUDA is the newest the
 * driver runs, by the driver's own word, not a runtime's (role "driver"). Only in the banner's
 * shape, "driver version:" and its version then blanks up to "cuda version:"; a user's sentence
 * naming both ("my driver version is 470.82 and CUDA version 12.1") is no banner. */
static bool smi_banner_cuda(const struct explain_reader *L, const struct tok *k, const char *what)
{
	static const char dv[] = "driver version:";
	const size_t dvn = sizeof dv - 1;
	if (strcmp(what, "cuda") != 0 || L->lc.n - (k->off + k->len) < 9 ||
	    memcmp(L->lc.p + k->off + k->len, " version:", 9) != 0)
		return false;
	for (size_t i = 0; i + dvn <= k->off; i++) {
		if (memcmp(L->lc.p + i, dv, dvn) != 0)
			continue;
		size_t p = i + dvn, digits;
		while (p < k->off && L->lc.p[p] == ' ')
			p++;
		for (digits = 0; p < k->off && (isdigit((unsigned char)L->lc.p[p]) || L->lc.p[p] == '.'); p++)
			digits++;
		while (p < k->off && L->lc.p[p] == ' ')
			p++;
		if (digits && p == k->off)
			return true;
	}
	return false;
}

/* "compute capability 8.0 and higher": a threshold a tool states, not the device's architecture */
static bool threshold_after(const struct explain_reader *L, size_t pos)
{
	static const char *const tails[] = { " and higher", " and above", " and newer", " and later",
					     " or higher",  " or above",  " or newer",  " or later", "+" };
	for (size_t i = 0; i < sizeof tails / sizeof tails[0]; i++) {
		size_t n = strlen(tails[i]);
		if (L->lc.n - pos >= n && memcmp(L->lc.p + pos, tails[i], n) == 0)
			return true;
	}
	return false;
}

/* "driver 470.82", "Driver Version: 535.104.05", "CUDA 12.4", "CUDA Version: 12.2", "cuDNN 8.9.2",
 * "cuda>=11.8", "compute capability 8.6", "torch 2.1.0+cu121", sm_86, compute_90a. */
static void read_versions(struct explain_reader *L)
{
	static const struct {
		const char *word, *what;
	} kw[] = {
		{ "driver", "driver" }, { "cuda", "cuda" },     { "cudnn", "cudnn" },   { "nccl", "nccl" },
		{ "cublas", "cublas" }, { "pytorch", "torch" }, { "torch", "torch" },   { "tensorflow", "tensorflow" },
		{ "capability", "arch" },
	};
	static const char *const skip[] = { "version", "versions", "is", "runtime", "toolkit", "library", "of" };
	char w[32];
	for (size_t t = 0; t < L->n_toks; t++) {
		const struct tok *k = &L->toks[t];
		/* every word looked for is 4..10 long and starts with one of these: most tokens go here */
		if (k->len < 4 || k->len > 12 || !strchr("cdnpst", L->lc.p[k->off]))
			continue;
		memcpy(w, L->lc.p + k->off, k->len);
		w[k->len] = 0;
		/* sm_86, compute_90a */
		if ((strncmp(w, "sm_", 3) == 0 && isdigit((unsigned char)w[3])) ||
		    (strncmp(w, "compute_", 8) == 0 && isdigit((unsigned char)w[8]))) {
			add_arch(L, w);
			continue;
		}
		/* torch's CUDA variant: 2.1.0+cu121 */
		if (k->len == 5 && w[0] == 'c' && w[1] == 'u' && isdigit((unsigned char)w[2]) && isdigit((unsigned char)w[3]) &&
		    isdigit((unsigned char)w[4]) && k->off > 0 && L->line.p[k->off - 1] == '+') {
			char v[8];
			snprintf(v, sizeof v, "%c%c.%c", w[2], w[3], w[4]);
			add_version(L, "cuda", v, NULL);
			continue;
		}
		const char *what = NULL;
		for (size_t i = 0; i < sizeof kw / sizeof kw[0] && !what; i++)
			if (strcmp(w, kw[i].word) == 0)
				what = kw[i].what;
		if (!what)
			continue;
		/* skip blanks, ':', '=', '>', '<', '~', 'v' and a few words, then read a dotted version */
		size_t pos = k->off + k->len, words = 0;
		bool compared = false; /* ">= 8.0": a bound, not a value */
		for (;;) {
			/* '-' too: an installation's path or package names its version (/usr/local/cuda-12.2) */
			while (pos < L->line.n && strchr(" :=><~(-", L->line.p[pos])) {
				compared |= L->line.p[pos] == '>' || L->line.p[pos] == '<';
				pos++;
			}
			size_t s = pos;
			while (pos < L->line.n && isalpha(L->line.p[pos]))
				pos++;
			bool skipped = false;
			for (size_t i = 0; i < sizeof skip / sizeof skip[0] && pos > s; i++)
				skipped |= pos - s == strlen(skip[i]) && memcmp(L->lc.p + s, skip[i], pos - s) == 0;
			if (pos == s + 1 && L->lc.p[s] == 'v') /* v12.4 */
				break;
			if (!skipped || ++words > 2) {
				pos = s;
				break;
			}
		}
		size_t s = pos;
		while (pos < L->line.n && (isdigit(L->line.p[pos]) || L->line.p[pos] == '.'))
			pos++;
		while (pos > s && L->line.p[pos - 1] == '.')
			pos--;
		if (pos == s || !memchr(L->line.p + s, '.', pos - s)) {
			/* "CUDA 12.*", "cuDNN 9.*": a major alone */
			if (pos > s && pos + 1 < L->line.n && L->line.p[pos] == '.' && L->line.p[pos + 1] == '*')
				;
			else
				continue;
		}
		char v[32];
		size_t n = pos - s < sizeof v ? pos - s : sizeof v - 1;
		memcpy(v, L->line.p + s, n);
		v[n] = 0;
		if (strcmp(what, "arch") == 0) {
			if (!compared && !threshold_after(L, pos))
				add_arch(L, v);
		} else
			add_version(L, what, v, smi_banner_cuda(L, k, what) ? "driver" : NULL);
	}
}

struct explain_reader *explain_reader_new(struct arena *a, const struct explain_catalog *cat,
					  size_t max_line)
{
	struct explain_reader *L = arena_alloc(a, sizeof *L);
	L->cat = cat;
	L->max_toks = max_line / 2 + 1 < MAX_TOKENS ? max_line / 2 + 1 : MAX_TOKENS;
	L->toks = arena_alloc_uninit(a, L->max_toks * sizeof *L->toks); /* tokenize() fills them */
	memset(L->near_hints, 0, sizeof L->near_hints);
	return L;
}

static void read_line(struct explain_reader *L, struct span line, struct span lc, size_t line_no,
		      struct explain_linefacts *out)
{
	out->n = 0;
	out->used = 0;
	L->line = line;
	L->lc = lc;
	L->line_no = line_no;
	L->out = out;
	L->wants_api_word = false;
	tokenize(L);
	pairs_of(L);
	find_hints(L);
	read_libs(L);
	read_patterns(L, &L->buf);
	read_names(L);
	read_texts(L);
	read_numbers(L);
	drop_shadowed_numbers(L);
	refine_forms(L);
	drop_loads_a_symbol_explains(L);
	drop_loads_a_finer_form_explains(L);
	absorb_forms(L);
	absorb_restated_codes(L);
	drop_classes_a_code_explains(L);
	read_versions(L);
}

void explain_line_facts(struct explain_reader *L, struct span line, struct span lc, size_t line_no,
			struct explain_linefacts *out)
{
	read_line(L, line, lc, line_no, out);
	memmove(L->near_hints + 1, L->near_hints, sizeof L->near_hints - sizeof L->near_hints[0]);
	L->near_hints[0] = L->hints;
}

void explain_line_facts_joined(struct explain_reader *L, struct span line, struct span lc, size_t line_no,
			       struct explain_linefacts *out)
{
	read_line(L, line, lc, line_no, out);
	L->near_hints[0] |= L->hints; /* the same line, read once more with the one before */
}
