/* The loader simulator against the real glibc loader. tests/loader/fixtures.sh builds small
 * libraries and programs (RPATH/RUNPATH inheritance, LD_LIBRARY_PATH order, $ORIGIN through a
 * symlinked directory, a wrong-machine copy, missing symbol versions, -z nodefaultlib, a NEEDED
 * cycle, a symlink loop, a text file posing as a library, an empty LD_LIBRARY_PATH element,
 * glibc-hwcaps). Each program prints what ld.so really loaded (dl_iterate_phdr); the simulated tree
 * must load exactly the same files, or fail on the same name with the same message. Any difference
 * fails. Then real NVIDIA libraries, and bounded behaviour on 10 000-deep chains. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>
#include <limits.h>
#include <unistd.h>

#include "elf_synth.h"
#include "loader/loader.h"

static char fx[256];

static int setup(void **state)
{
	(void)state;
	snprintf(fx, sizeof fx, "/tmp/cudx-loader-XXXXXX");
	if (!mkdtemp(fx))
		return -1;
	const char *src = getenv("CUDX_SRC");
	char cmd[1024];
	snprintf(cmd, sizeof cmd, "sh %s/tests/loader/fixtures.sh %s >/dev/null 2>&1", src ? src : ".", fx);
	if (system(cmd) != 0) {
		fprintf(stderr, "fixtures.sh failed (a C compiler is needed)\n");
		return -1;
	}
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	char cmd[400];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", fx);
	return system(cmd) == 0 ? 0 : -1;
}

struct real_run {
	char loaded[64][PATH_MAX];
	int n;
	char error[1024]; /* the ld.so error line, or "" */
};

static void run_real(const char *cwd, const char *llp, const char *cmdline, struct real_run *rr)
{
	memset(rr, 0, sizeof *rr);
	char cmd[2048], line[2048];
	snprintf(cmd, sizeof cmd, "cd '%s' && %s%s%s %s 2>&1", cwd, llp ? "LD_LIBRARY_PATH='" : "",
		 llp ? llp : "", llp ? "'" : "", cmdline);
	FILE *p = popen(cmd, "r");
	assert_non_null(p);
	while (fgets(line, sizeof line, p)) {
		line[strcspn(line, "\n")] = 0;
		if (strstr(line, "error while loading shared libraries: ") || strstr(line, "not found (required by") ||
		    strstr(line, "DLOPEN-ERROR")) {
			snprintf(rr->error, sizeof rr->error, "%s", line);
			continue;
		}
		if (strstr(line, "linux-vdso") || rr->n >= 64)
			continue;
		char abs[PATH_MAX * 2];
		if (line[0] == '/')
			snprintf(abs, sizeof abs, "%s", line);
		else
			snprintf(abs, sizeof abs, "%s/%s", cwd, line);
		if (!realpath(abs, rr->loaded[rr->n]))
			snprintf(rr->loaded[rr->n], PATH_MAX, "%s", abs);
		rr->n++;
	}
	pclose(p);
}

static int cmpstr(const void *a, const void *b)
{
	return strcmp((const char *)a, (const char *)b);
}

struct sim {
	struct arena a;
	struct sysroot sr;
	struct envsnap env;
	struct loader L;
	struct loader_tree t;
};

static void sim_init(struct sim *s, const char *cwd, const char *llp)
{
	arena_init(&s->a);
	assert_int_equal(sysroot_init(&s->sr, &s->a, "/"), 0);
	memset(&s->env, 0, sizeof s->env);
	char text[1024] = "";
	if (llp)
		snprintf(text, sizeof text, "LD_LIBRARY_PATH=%s\n", llp);
	envsnap_parse(&s->env, &s->a, span_make(text, strlen(text)), "test");
	struct loader_config cfg = { .root = &s->sr, .env = &s->env, .cwd = cwd, .no_dlopen_edges = true };
	loader_init(&s->L, &s->a, &cfg);
}

/* Compare one program: the same files loaded, or the same failure. */
static void differential(const char *dir, const char *llp, const char *cwd_rel)
{
	char prog[512], cwd[512];
	snprintf(prog, sizeof prog, "%s/%s/prog", fx, dir);
	snprintf(cwd, sizeof cwd, "%s/%s", fx, cwd_rel ? cwd_rel : "");
	struct real_run rr;
	run_real(cwd, llp, prog, &rr);
	struct sim s;
	sim_init(&s, cwd, llp);
	loader_tree(&s.L, prog, &s.t);
	assert_non_null(s.t.root);
	if (rr.error[0]) {
		/* the simulated tree must fail on the same name with the same message */
		bool matched = false;
		for (size_t i = 0; i < s.t.n_edges && !matched; i++) {
			const struct loader_result *r = s.t.edges[i].result;
			if (!r->object && r->error)
				matched = strstr(rr.error, r->error) != NULL && strstr(rr.error, r->name) != NULL;
			for (size_t k = 0; k < r->n_missing_versions && !matched; k++) {
				char want[256];
				snprintf(want, sizeof want, "version `%s' not found", r->missing_versions[k]);
				matched = strstr(rr.error, want) != NULL && strstr(rr.error, r->path) != NULL;
			}
		}
		if (!matched)
			fail_msg("%s: ld.so said \"%s\"; cudx did not predict it", dir, rr.error);
		arena_free(&s.a);
		return;
	}
	assert_int_equal(s.t.n_missing, 0);
	char (*mine)[PATH_MAX] = calloc(64, PATH_MAX);
	int n = 0;
	for (size_t i = 1; i < s.L.n_objects && n < 64; i++) /* 0 is the program itself */
		if (!realpath(s.L.objects[i]->real_path, mine[n++]))
			snprintf(mine[n - 1], PATH_MAX, "%s", s.L.objects[i]->real_path);
	qsort(mine, (size_t)n, PATH_MAX, cmpstr);
	qsort(rr.loaded, (size_t)rr.n, PATH_MAX, cmpstr);
	if (n != rr.n)
		fail_msg("%s: ld.so loaded %d objects, cudx predicts %d", dir, rr.n, n);
	for (int i = 0; i < n; i++)
		if (strcmp(mine[i], rr.loaded[i]) != 0)
			fail_msg("%s: ld.so loaded %s, cudx predicts %s", dir, rr.loaded[i], mine[i]);
	free(mine);
	arena_free(&s.a);
}

static void test_differential_fixtures(void **state)
{
	(void)state;
	static const char *const dirs[] = { "01", "02", "03", "04", "05", "06", "07",
					    "08", "09", "10", "11", "13" };
	for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++)
		differential(dirs[i], NULL, NULL);
	char llp[600];
	snprintf(llp, sizeof llp, "%s/03/x", fx);
	differential("04", llp, NULL);   /* LD_LIBRARY_PATH before RUNPATH */
	differential("03", llp, NULL);   /* RPATH before LD_LIBRARY_PATH */
	differential("12", ":/nonexistent", "03/y"); /* empty element = cwd */
	differential("12", "/nonexistent::", "03/x");
	snprintf(llp, sizeof llp, "%s/01/b", fx);
	differential("02", llp, NULL); /* RUNPATH misses libbar, LD_LIBRARY_PATH has it */
}

/* What each fixture proves, asserted on the trace itself. */
static void test_fixture_traces(void **state)
{
	(void)state;
	char prog[512];
	struct sim s;
	/* 01: libbar found through the program's RPATH, inherited by libfoo */
	snprintf(prog, sizeof prog, "%s/01/prog", fx);
	sim_init(&s, "/", NULL);
	loader_tree(&s.L, prog, &s.t);
	const struct loader_result *bar = NULL;
	for (size_t i = 0; i < s.t.n_edges; i++)
		if (strcmp(s.t.edges[i].result->name, "libbar.so.1") == 0)
			bar = s.t.edges[i].result;
	assert_non_null(bar);
	assert_int_equal(bar->how, LOADER_HOW_RPATH);
	assert_non_null(strstr(bar->cands[bar->n_cands - 1].via, "(inherited)"));
	arena_free(&s.a);
	/* 06: the AArch64 copy is rejected as wrong machine, then the good one taken */
	snprintf(prog, sizeof prog, "%s/06/prog", fx);
	sim_init(&s, "/", NULL);
	loader_tree(&s.L, prog, &s.t);
	const struct loader_result *r6 = s.t.edges[0].result;
	assert_string_equal(r6->name, "libbar.so.1");
	assert_int_equal(r6->cands[0].verdict, LOADER_WRONG_MACHINE);
	assert_non_null(strstr(r6->cands[0].reason, "AArch64"));
	assert_int_equal(r6->cands[1].verdict, LOADER_OK);
	arena_free(&s.a);
	/* 05: $ORIGIN is the symlinked directory, not normalised */
	snprintf(prog, sizeof prog, "%s/05/prog", fx);
	sim_init(&s, "/", NULL);
	loader_tree(&s.L, prog, &s.t);
	bool seen = false;
	for (size_t i = 0; i < s.t.n_edges; i++)
		if (strcmp(s.t.edges[i].result->name, "libbar.so.1") == 0) {
			assert_non_null(strstr(s.t.edges[i].result->path, "/05/view/c/../a/libbar.so.1"));
			seen = true;
		}
	assert_true(seen);
	arena_free(&s.a);
	/* 14: dlopen by name from a program with RPATH, then a SONAME already loaded */
	snprintf(prog, sizeof prog, "%s/14/prog", fx);
	struct real_run rr;
	char cmdline[700];
	snprintf(cmdline, sizeof cmdline, "%s libfoo.so.1", prog);
	run_real("/", NULL, cmdline, &rr);
	sim_init(&s, "/", NULL);
	loader_tree(&s.L, prog, &s.t);
	struct loader_result *d = loader_resolve(&s.L, "libfoo.so.1", s.t.root, true);
	assert_non_null(d->object);
	char want[PATH_MAX];
	assert_non_null(realpath(d->path, want));
	bool found = false;
	for (int i = 0; i < rr.n; i++)
		found |= strcmp(rr.loaded[i], want) == 0;
	assert_true(found);
	struct loader_result *again = loader_resolve(&s.L, "libfoo.so.1", s.t.root, true);
	assert_int_equal(again->how, LOADER_HOW_ALREADY_LOADED);
	arena_free(&s.a);
}

/* Real NVIDIA libraries: the CUDA 13 tree here and Debian's CUDA 11.8 packages. */
static void test_real_nvidia(void **state)
{
	(void)state;
	if (access("/usr/local/cuda/lib64/libcublas.so.13", R_OK) != 0)
		skip();
	struct sim s;
	sim_init(&s, "/", NULL);
	loader_tree(&s.L, "/usr/local/cuda/lib64/libcublas.so.13", &s.t);
	assert_non_null(s.t.root);
	const struct loader_result *lt = NULL;
	for (size_t i = 0; i < s.t.n_edges; i++)
		if (strcmp(s.t.edges[i].result->name, "libcublasLt.so.13") == 0 && !s.t.edges[i].runtime)
			lt = s.t.edges[i].result;
	assert_non_null(lt);
	assert_non_null(lt->object); /* RUNPATH $ORIGIN finds it next to libcublas */
	assert_int_equal(lt->n_missing_versions, 0); /* libcublasLt.so.13 version node is there */
	assert_int_equal(s.t.n_version_errors, 0);
	arena_free(&s.a);

	/* cuDNN 9's sub-libraries come in as run-time loads from the knowledge base */
	sim_init(&s, "/", NULL);
	s.L.cfg.no_dlopen_edges = false;
	loader_tree(&s.L, "/usr/local/cuda/lib64/libcudnn.so.9", &s.t);
	int runtime = 0;
	for (size_t i = 0; i < s.t.n_edges; i++)
		if (s.t.edges[i].runtime && s.t.edges[i].result->object &&
		    strstr(s.t.edges[i].result->name, "libcudnn_"))
			runtime++;
	assert_true(runtime >= 4);
	arena_free(&s.a);

	/* Debian CUDA 11.8 cuBLAS: libcublas.so.11 needs libcublasLt.so.11 version nodes; with the
	 * CUDA 13 cuBLASLt on LD_LIBRARY_PATH it is not found at all (other major) */
	const char *cache = getenv("CUDX_PKG_CACHE");
	char dir[600];
	snprintf(dir, sizeof dir, "%s/libcublas11/root/usr/lib/x86_64-linux-gnu", cache ? cache : "/work/pkgcache");
	char lib[700];
	snprintf(lib, sizeof lib, "%s/libcublas.so.11", dir);
	if (access(lib, R_OK) != 0) {
		printf("SKIP part: libcublas11 not in CUDX_PKG_CACHE\n");
		return;
	}
	char ltdir[600];
	snprintf(ltdir, sizeof ltdir, "%s/libcublaslt11/root/usr/lib/x86_64-linux-gnu", cache ? cache : "/work/pkgcache");
	sim_init(&s, "/", ltdir);
	loader_tree(&s.L, lib, &s.t);
	assert_non_null(s.t.root);
	const struct loader_result *lt11 = NULL;
	for (size_t i = 0; i < s.t.n_edges; i++)
		if (strcmp(s.t.edges[i].result->name, "libcublasLt.so.11") == 0)
			lt11 = s.t.edges[i].result;
	assert_non_null(lt11);
	if (access(ltdir, R_OK) == 0) {
		assert_non_null(lt11->object);
		assert_int_equal(lt11->how, LOADER_HOW_LD_LIBRARY_PATH);
		assert_int_equal(lt11->n_missing_versions, 0);
	}
	arena_free(&s.a);
}

/* n synthesized libraries lib00000.so -> lib00001.so -> ... in dir, each with rpath_tag
 * (DT_RUNPATH or DT_RPATH) "$ORIGIN"; the last needs nothing. */
static void write_chain(const char *dir, int n, uint64_t rpath_tag)
{
	for (int i = 0; i < n; i++) {
		struct synth s;
		synth_build(&s, 64, 0, ELF_EM_X86_64);
		char strs[64];
		memset(strs, 0, sizeof strs);
		snprintf(strs + 1, 12, "lib%05d.so", i);
		snprintf(strs + 13, 12, "lib%05d.so", i + 1);
		memcpy(strs + 25, "$ORIGIN", 8);
		memset(s.b + 0x200, 0, 0x100);
		memcpy(s.b + 0x200, strs, sizeof strs);
		uint64_t dyn[][2] = { { i + 1 < n ? 1 : 21, 13 }, { 21, 0 }, { 14, 1 }, { rpath_tag, 25 },
				      { 5, SYNTH_VADDR + 0x200 }, { 10, 64 }, { 0, 0 } };
		memset(s.b + 0x400, 0, 0x200);
		for (size_t k = 0; k < sizeof dyn / sizeof dyn[0]; k++) {
			sw64(&s, 0x400 + k * 16, dyn[k][0]);
			sw64(&s, 0x400 + k * 16 + 8, dyn[k][1]);
		}
		char path[600];
		snprintf(path, sizeof path, "%s/lib%05d.so", dir, i);
		FILE *f = fopen(path, "wb");
		assert_non_null(f);
		fwrite(s.b, 1, sizeof s.b, f);
		fclose(f);
	}
}

static void test_deep_chains_bounded(void **state)
{
	(void)state;
	static const uint64_t tags[] = { 29 /* RUNPATH */, 15 /* RPATH: every lookup walks the chain */ };
	for (int k = 0; k < 2; k++) {
		char dir[400];
		snprintf(dir, sizeof dir, "%s/chain%d", fx, k);
		char cmd[500];
		snprintf(cmd, sizeof cmd, "mkdir -p %s", dir);
		assert_int_equal(system(cmd), 0);
		write_chain(dir, 10000, tags[k]);
		struct sim s;
		sim_init(&s, "/", NULL);
		struct timespec t0, t1;
		clock_gettime(CLOCK_MONOTONIC, &t0);
		char first[500];
		snprintf(first, sizeof first, "%s/lib00000.so", dir);
		loader_tree(&s.L, first, &s.t);
		clock_gettime(CLOCK_MONOTONIC, &t1);
		double sec = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
		printf("10000-deep %s chain: %zu objects in %.2f s\n", k ? "RPATH" : "RUNPATH", s.L.n_objects, sec);
		assert_int_equal(s.t.n_missing, 0);
		/* the chain plus the program interpreter, which every process has */
		assert_int_equal(s.L.n_objects, 10000 + (s.L.interp ? 1 : 0));
		assert_int_equal(s.L.objects[s.L.n_objects - 1]->depth, 9999);
		assert_true(sec < 60);
		arena_free(&s.a);
	}
}

/* Symlink loops and garbage as the object itself: a message, no crash. */
static void test_bad_objects(void **state)
{
	(void)state;
	char path[500], cmd[1200];
	snprintf(path, sizeof path, "%s/selfloop.so", fx);
	snprintf(cmd, sizeof cmd, "ln -sfn selfloop.so %s && head -c 3000 /dev/urandom > %s/garbage.so", path, fx);
	assert_int_equal(system(cmd), 0);
	struct sim s;
	sim_init(&s, "/", NULL);
	loader_tree(&s.L, path, &s.t);
	assert_null(s.t.root);
	assert_non_null(strstr(s.t.error, "symbolic links"));
	arena_free(&s.a);
	snprintf(path, sizeof path, "%s/garbage.so", fx);
	sim_init(&s, "/", NULL);
	loader_tree(&s.L, path, &s.t);
	assert_null(s.t.root);
	assert_non_null(s.t.error);
	arena_free(&s.a);
	/* a bare name with no object: searched like dlopen from a program without RPATH */
	sim_init(&s, "/", NULL);
	struct loader_result *r = loader_resolve(&s.L, "libdoes-not-exist.so.7", NULL, true);
	assert_null(r->object);
	assert_string_equal(r->error, "cannot open shared object file: No such file or directory");
	assert_true(r->n_cands >= 2);
	arena_free(&s.a);
}

static const struct loader_result *edge_named(const struct loader_tree *t, const char *name)
{
	for (size_t i = 0; i < t->n_edges; i++)
		if (strcmp(t->edges[i].result->name, name) == 0)
			return t->edges[i].result;
	return NULL;
}

/* The program interpreter is loaded before anything else, as glibc's rtld is: a NEEDED
 * ld-linux-x86-64.so.2 is "already loaded", for a program (its PT_INTERP), for a library taken as
 * the program (the machine's default interpreter) and for a bare lookup. */
static void test_interp_already_loaded(void **state)
{
	(void)state;
	if (access("/lib64/ld-linux-x86-64.so.2", R_OK) != 0)
		skip(); /* not an x86-64 glibc system */
	char path[512];
	struct sim s;
	/* a program: PT_INTERP, and libc's NEEDED ld-linux-x86-64.so.2 finds it loaded */
	snprintf(path, sizeof path, "%s/01/prog", fx);
	sim_init(&s, "/", NULL);
	loader_tree(&s.L, path, &s.t);
	assert_non_null(s.L.interp);
	assert_ptr_equal(s.L.objects[1], s.L.interp); /* right after the program, before its NEEDED */
	assert_string_equal(s.L.interp_path, "/lib64/ld-linux-x86-64.so.2");
	assert_null(s.L.no_libc);
	const struct loader_result *r = edge_named(&s.t, "ld-linux-x86-64.so.2");
	assert_non_null(r);
	assert_int_equal(r->how, LOADER_HOW_ALREADY_LOADED);
	assert_ptr_equal(r->object, s.L.interp);
	arena_free(&s.a);
	/* a library as the program: no PT_INTERP, the default interpreter stands in */
	sim_init(&s, "/", NULL);
	assert_non_null(loader_open_main(&s.L, "/lib/x86_64-linux-gnu/libc.so.6", &(const char *){ NULL }));
	assert_non_null(s.L.interp);
	r = loader_resolve(&s.L, "ld-linux-x86-64.so.2", NULL, false);
	assert_int_equal(r->how, LOADER_HOW_ALREADY_LOADED);
	assert_int_equal(r->n_cands, 1); /* never searched */
	arena_free(&s.a);
	/* a bare lookup, as `cudx why` makes */
	sim_init(&s, "/", NULL);
	r = loader_resolve(&s.L, "ld-linux-x86-64.so.2", NULL, true);
	assert_int_equal(r->how, LOADER_HOW_ALREADY_LOADED);
	assert_ptr_equal(r->object, s.L.interp);
	arena_free(&s.a);
}

/* A tree without a C library (an image layer holding only libraries): the base libraries are
 * marked base_absent and counted apart (one note for the tree), a missing library of the tree's
 * own is still missing. */
static void test_no_libc(void **state)
{
	(void)state;
	char root[400], cmd[1400], lib[600];
	snprintf(root, sizeof root, "%s/nolibc", fx);
	/* libfoo (fixture 01) needs libbar.so.1, which is left out, and libc.so.6 */
	snprintf(cmd, sizeof cmd, "mkdir -p %s/opt/lib %s/etc && cp %s/01/a/libfoo.so.1 %s/opt/lib/", root, root, fx, root);
	assert_int_equal(system(cmd), 0);
	struct sim s;
	arena_init(&s.a);
	assert_int_equal(sysroot_init(&s.sr, &s.a, root), 0);
	memset(&s.env, 0, sizeof s.env);
	struct loader_config cfg = { .root = &s.sr, .env = &s.env, .no_dlopen_edges = true };
	loader_init(&s.L, &s.a, &cfg);
	snprintf(lib, sizeof lib, "/opt/lib/libfoo.so.1");
	loader_tree(&s.L, lib, &s.t);
	assert_non_null(s.t.root);
	assert_null(s.L.interp);
	assert_non_null(s.L.no_libc);
	assert_non_null(strstr(s.L.no_libc, "no C library"));
	assert_non_null(strstr(s.L.no_libc, "/lib64/ld-linux-x86-64.so.2"));
	const struct loader_result *c = edge_named(&s.t, "libc.so.6"), *b = edge_named(&s.t, "libbar.so.1");
	assert_non_null(c);
	assert_non_null(b);
	assert_true(c->base_absent);
	assert_null(c->object);
	assert_false(b->base_absent);
	assert_int_equal(s.t.n_missing, 1);     /* libbar.so.1 only */
	assert_int_equal(s.t.n_base_absent, 1); /* libc.so.6 */
	arena_free(&s.a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_differential_fixtures), cmocka_unit_test(test_fixture_traces),
		cmocka_unit_test(test_real_nvidia),           cmocka_unit_test(test_deep_chains_bounded),
		cmocka_unit_test(test_bad_objects),           cmocka_unit_test(test_interp_already_loaded),
		cmocka_unit_test(test_no_libc),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
