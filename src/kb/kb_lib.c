/* The library catalogue: which known library a file name is a copy of, the names of a component
 * per CUDA major and OS, the pip wheels, and the run-time (dlopen) edges. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "kb/kb_internal.h"

/* "libcudart.so.11.8.89" -> stem "libcudart", ver "11.8.89"; "libcuda.so" -> ver "". */
struct so_name {
	const char *stem;
	size_t stem_len;
	const char *ver; /* after ".so." or "" */
};

static bool split_so(const char *name, struct so_name *s)
{
	const char *so = strstr(name, ".so");
	if (!so || so == name)
		return false;
	/* take the last ".so" followed by end or '.' (names like "libnvrtc.alt.so.13" keep their stem) */
	for (const char *p = so; (p = strstr(p, ".so")) != NULL; p += 3)
		if (p[3] == '\0' || p[3] == '.')
			so = p;
	if (so[3] != '\0' && so[3] != '.')
		return false;
	s->stem = name;
	s->stem_len = (size_t)(so - name);
	s->ver = so[3] == '.' ? so + 4 : "";
	return true;
}

static long leading_number(const char *s)
{
	if (!isdigit((unsigned char)*s))
		return -1;
	return strtol(s, NULL, 10);
}

static const char *basename_of(const char *path)
{
	const char *b = path;
	for (const char *p = path; *p; p++)
		if (*p == '/' || *p == '\\')
			b = p + 1;
	return b;
}

static bool looks_windows(const char *name)
{
	size_t n = strlen(name);
	return n > 4 && kb_streq_nocase(name + n - 4, ".dll");
}

/* How well a file name matches a Linux row: 1000 exact; 100 + length when the SONAME is a prefix at
 * a '.' boundary ("libcublas.so.10.2.1.243" for "libcublas.so.10"; the longer SONAME wins, so
 * "libcublas.so.10.0.130" is CUDA 10.0's "libcublas.so.10.0"); 1 same stem and major (or any
 * version for driver-versioned names like libcuda.so.535.104.05, or no version at all: a dev link or
 * the stub); 0 no match. */
/* f is the file's name split once by the caller (split_so is the costly part: a directory
 * listing classifies thousands of names against every row). */
static int match_linux(const char *file, const struct so_name *f, const struct kb_lib *row)
{
	if (strcmp(file, row->name) == 0)
		return 1000;
	size_t rn = strlen(row->name);
	if (strncmp(file, row->name, rn) == 0 && file[rn] == '.' && isdigit((unsigned char)file[rn + 1]))
		return 100 + (int)(rn > 800 ? 800 : rn);
	/* same stem: the row's name must be "<stem>.so..." */
	if (strncmp(row->name, f->stem, f->stem_len) != 0 || strncmp(row->name + f->stem_len, ".so", 3) != 0)
		return 0;
	struct so_name r;
	if (!split_so(row->name, &r) || f->stem_len != r.stem_len)
		return 0;
	if (!*f->ver || row->driver_versioned)
		return 1;
	return leading_number(f->ver) == leading_number(r.ver) ? 1 : 0;
}

#define CLASSIFY_MAX 64

/* Linux rows grouped by the length of their name's stem, each group in table order, built once
 * (the tables are constant). Every Linux match needs the file's stem, so a file is compared only
 * with the rows of its stem length: a directory listing classifies thousands of names. */
#define STEM_BUCKETS 64
struct stem_index {
	size_t *rows;                  /* row indices, grouped by stem length */
	size_t start[STEM_BUCKETS + 1]; /* rows[start[k] .. start[k+1]) have stem length k (63: >= 63) */
};

static const struct stem_index *stem_index(void)
{
	static struct stem_index idx;
	static bool built;
	if (built)
		return idx.rows ? &idx : NULL;
	built = true;
	size_t *rows = calloc(kbt_lib_n ? kbt_lib_n : 1, sizeof *rows);
	size_t *lens = calloc(kbt_lib_n ? kbt_lib_n : 1, sizeof *lens);
	if (!rows || !lens) {
		free(rows);
		free(lens);
		return NULL;
	}
	size_t count[STEM_BUCKETS] = { 0 };
	for (size_t i = 0; i < kbt_lib_n; i++) {
		struct so_name r;
		lens[i] = STEM_BUCKETS; /* no stem: never a Linux stem match */
		if (kbt_lib[i].os == OS_LINUX && split_so(kbt_lib[i].name, &r))
			lens[i] = r.stem_len < STEM_BUCKETS - 1 ? r.stem_len : STEM_BUCKETS - 1;
		if (lens[i] < STEM_BUCKETS)
			count[lens[i]]++;
	}
	for (size_t k = 0; k < STEM_BUCKETS; k++)
		idx.start[k + 1] = idx.start[k] + count[k];
	size_t fill[STEM_BUCKETS];
	memcpy(fill, idx.start, sizeof fill);
	for (size_t i = 0; i < kbt_lib_n; i++)
		if (lens[i] < STEM_BUCKETS)
			rows[fill[lens[i]]++] = i;
	free(lens);
	idx.rows = rows;
	return &idx;
}

static size_t classify_consider(const char *file, const struct so_name *f, enum target_os os, size_t i,
				const struct kb_lib **cand, int *score, size_t n)
{
	const struct kb_lib *row = &kbt_lib[i];
	int sc = os == OS_WINDOWS ? (kb_streq_nocase(file, row->name) ? 1000 : 0) : match_linux(file, f, row);
	if (!sc || n >= CLASSIFY_MAX)
		return n;
	/* insertion sort, stable: table order (newest CUDA major first) breaks ties */
	size_t j = n++;
	while (j > 0 && score[j - 1] < sc) {
		cand[j] = cand[j - 1];
		score[j] = score[j - 1];
		j--;
	}
	cand[j] = row;
	score[j] = sc;
	return n;
}

size_t kb_lib_classify_all(const char *filename, enum target_os os, const struct kb_lib **out, size_t max)
{
	if (!filename)
		return 0;
	const char *file = basename_of(filename);
	if (os == OS_AUTO)
		os = looks_windows(file) ? OS_WINDOWS : OS_LINUX;
	struct so_name f = { 0 };
	/* every Linux row names a shared object: a file without ".so" matches none */
	if (os == OS_LINUX && !split_so(file, &f))
		return 0;
	const struct kb_lib *cand[CLASSIFY_MAX];
	int score[CLASSIFY_MAX];
	size_t n = 0;
	const struct stem_index *idx = os == OS_LINUX ? stem_index() : NULL;
	if (idx) {
		size_t k = f.stem_len < STEM_BUCKETS - 1 ? f.stem_len : STEM_BUCKETS - 1;
		for (size_t r = idx->start[k]; r < idx->start[k + 1]; r++)
			n = classify_consider(file, &f, os, idx->rows[r], cand, score, n);
	} else {
		for (size_t i = 0; i < kbt_lib_n; i++)
			if (kbt_lib[i].os == os)
				n = classify_consider(file, &f, os, i, cand, score, n);
	}
	for (size_t i = 0; i < n && i < max; i++)
		out[i] = cand[i];
	return n;
}

const struct kb_lib *kb_lib_classify(const char *filename, enum target_os os)
{
	const struct kb_lib *row = NULL;
	return kb_lib_classify_all(filename, os, &row, 1) ? row : NULL;
}

bool kb_lib_name_unversioned(const char *filename)
{
	struct so_name f;
	return filename && split_so(basename_of(filename), &f) && !*f.ver;
}

size_t kb_lib_rows(const struct kb_lib **rows)
{
	*rows = kbt_lib;
	return kbt_lib_n;
}

/* "cudnn" names cuDNN and its sub-libraries "cudnn_ops", "cudnn_cnn_infer", ...; "cublas" is not
 * "cublasLt". */
static bool component_matches(const char *component, const char *name)
{
	size_t n = strlen(name);
	for (size_t i = 0; i < n; i++)
		if (!component[i] || tolower((unsigned char)component[i]) != tolower((unsigned char)name[i]))
			return false;
	return component[n] == '\0' || component[n] == '_';
}

static size_t lib_find(const char *name, bool by_family, int cuda_major, enum target_os os,
		       const struct kb_lib **out, size_t max)
{
	size_t n = 0;
	for (size_t i = 0; i < kbt_lib_n; i++) {
		const struct kb_lib *row = &kbt_lib[i];
		if (by_family ? !kb_streq_nocase(row->family, name) : !component_matches(row->component, name))
			continue;
		if (os != OS_AUTO && row->os != os)
			continue;
		/* rows not tied to a CUDA major (cuDNN, NCCL, driver) answer every major */
		if (cuda_major && row->cuda_major && row->cuda_major != cuda_major)
			continue;
		if (n < max)
			out[n] = row;
		n++;
	}
	return n;
}

/* A component and its sub-libraries first ("cublas" is cuBLAS alone, "cudnn" every cuDNN
 * library); a family when no component has the name ("cuda-runtime"). */
size_t kb_lib_find(const char *component, int cuda_major, enum target_os os, const struct kb_lib **out,
		   size_t max)
{
	if (!component)
		return 0;
	size_t n = lib_find(component, false, cuda_major, os, out, max);
	return n ? n : lib_find(component, true, cuda_major, os, out, max);
}

size_t kb_lib_dlopens(const char *from_name, enum target_os os, const char *const **names)
{
	*names = NULL;
	if (!from_name)
		return 0;
	const char *file = basename_of(from_name);
	if (os == OS_AUTO)
		os = looks_windows(file) ? OS_WINDOWS : OS_LINUX;
	/* a file name ("libcudnn.so.9.1.0") stands for its catalogue row's SONAME */
	const struct kb_lib *row = kb_lib_classify(file, os);
	const char *key = row ? row->name : file;
	/* rows of one (from, os) are adjacent (kbgen checks #!contiguous) */
	for (size_t i = 0; i < kbt_lib_edge_n; i++) {
		if (kbt_lib_edge[i].os != os || (os == OS_WINDOWS ? !kb_streq_nocase(kbt_lib_edge[i].from, key)
								 : strcmp(kbt_lib_edge[i].from, key) != 0))
			continue;
		size_t n = 1;
		while (i + n < kbt_lib_edge_n && kbt_lib_edge[i + n].os == os &&
		       strcmp(kbt_lib_edge[i + n].from, kbt_lib_edge[i].from) == 0)
			n++;
		*names = &kbt_lib_edge_to[i];
		return n;
	}
	return 0;
}

size_t kb_lib_edges(const struct kb_lib_edge **rows)
{
	*rows = kbt_lib_edge;
	return kbt_lib_edge_n;
}

const struct kb_pip_wheel *kb_pip_wheel(const char *family, int cuda_major)
{
	if (!family)
		return NULL;
	for (size_t i = 0; i < kbt_pip_wheel_n; i++)
		if (strcmp(kbt_pip_wheel[i].family, family) == 0 && kbt_pip_wheel[i].cuda_major == cuda_major)
			return &kbt_pip_wheel[i];
	return NULL;
}

bool kb_wheel_ships_libs(const char *wheel)
{
	for (size_t i = 0; i < kbt_lib_n; i++)
		if (kbt_lib[i].pip_wheel && strcmp(kbt_lib[i].pip_wheel, wheel) == 0)
			return true;
	for (size_t i = 0; i < kbt_pip_wheel_n; i++)
		if (strcmp(kbt_pip_wheel[i].wheel, wheel) == 0)
			return true;
	return false;
}

size_t kb_pip_wheels(const struct kb_pip_wheel **rows)
{
	*rows = kbt_pip_wheel;
	return kbt_pip_wheel_n;
}

size_t kb_driver_dirs(const struct kb_driver_dir **rows)
{
	*rows = kbt_driver_dir;
	return kbt_driver_dir_n;
}

size_t kb_node_drivers(const struct kb_node_driver **rows)
{
	*rows = kbt_node_driver;
	return kbt_node_driver_n;
}

/* name matches pattern, where '*' stands for any text (no other special character) */
static bool star_match(const char *p, const char *s)
{
	const char *star = NULL, *resume = NULL;
	while (*s) {
		if (*p == '*') {
			star = p++;
			resume = s;
		} else if (*p == *s) {
			p++;
			s++;
		} else if (star) {
			p = star + 1;
			s = ++resume;
		} else
			return false;
	}
	while (*p == '*')
		p++;
	return *p == '\0';
}

const struct kb_module_package *kb_module_package(const char *manager, const char *name)
{
	for (size_t i = 0; i < kbt_module_package_n; i++)
		if (strcmp(kbt_module_package[i].manager, manager) == 0 && star_match(kbt_module_package[i].package, name))
			return &kbt_module_package[i];
	return NULL;
}
