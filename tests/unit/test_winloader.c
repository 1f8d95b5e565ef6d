/* Windows loader rules over fake C: trees made of mingw-built DLLs: path mapping, case-insensitive
 * lookup, env formats (cmd `set`, PowerShell table, UTF-16), the standard and the
 * LOAD_LIBRARY_SEARCH_DEFAULT_DIRS orders, error 193 stopping the search, KnownDLLs/API sets,
 * WOW64 redirection, and dependency trees. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <cmocka.h>

#include "loader/win_env.h"
#include "loader/win_loader.h"
#include "pe_fixtures.h"

static int fixtures_status;
static char tmp_root[4096];

struct env_case {
	struct arena a;
	struct cudx_ctx ctx;
	struct options opt;
	struct win_loader L;
};

static void sh(const char *fmt, ...)
{
	char cmd[16384];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(cmd, sizeof cmd, fmt, ap);
	va_end(ap);
	assert_int_equal(system(cmd), 0);
}

/* copy fixture rel into ROOT/dir/name */
static void put(const char *dir, const char *rel, const char *name)
{
	sh("mkdir -p '%s/%s' && cp '%s/%s' '%s/%s/%s'", tmp_root, dir, winfix_dir, rel, tmp_root, dir, name);
}

static void need_fixtures(void)
{
	if (fixtures_status == 77)
		skip();
	assert_int_equal(fixtures_status, 0);
}

static void fresh_tree(void)
{
	const char *b = getenv("CUDX_BUILD");
	snprintf(tmp_root, sizeof tmp_root, "%s/test_winloader_root", b ? b : "build");
	sh("rm -rf '%s' && mkdir -p '%s/Windows/System32'", tmp_root, tmp_root);
}

static void setup_ctx(struct env_case *c, const char *env_text, const char *exe)
{
	memset(c, 0, sizeof *c);
	arena_init(&c->a);
	c->ctx.arena = &c->a;
	c->ctx.opt = &c->opt;
	c->ctx.os = OS_WINDOWS;
	assert_int_equal(sysroot_init(&c->ctx.root, &c->a, tmp_root), 0);
	envsnap_parse(&c->ctx.env, &c->a, span_make(env_text, strlen(env_text)), "test");
	c->ctx.env.case_insensitive = true;
	win_loader_init(&c->L, &c->ctx, exe, NULL);
}

static void test_paths(void **state)
{
	(void)state;
	struct arena a;
	arena_init(&a);
	const char *why = NULL;
	assert_string_equal(win_path_to_root(&a, "C:\\Program Files\\NVIDIA\\..\\X\\", &why), "/Program Files/X");
	assert_string_equal(win_path_to_root(&a, "c:/Windows/System32", &why), "/Windows/System32");
	assert_null(win_path_to_root(&a, "D:\\cuda\\bin", &why));
	assert_non_null(strstr(why, "another drive"));
	assert_null(win_path_to_root(&a, "\\\\server\\share\\bin", &why));
	assert_non_null(strstr(why, "UNC"));
	assert_null(win_path_to_root(&a, "bin", &why));
	assert_string_equal(win_path_from_root(&a, "/Program Files/X"), "C:\\Program Files\\X");
	struct envsnap e;
	const char *t = "SystemRoot=C:\\Windows\nCUDA_PATH=C:\\CUDA\n";
	envsnap_parse(&e, &a, span_make(t, strlen(t)), "t");
	assert_string_equal(win_expand_vars(&a, &e, "%SystemRoot%\\System32;%cuda_path%\\bin;%NOPE%"),
			    "C:\\Windows\\System32;C:\\CUDA\\bin;%NOPE%");
	assert_string_equal(win_env_get(&e, "SYSTEMROOT"), "C:\\Windows");
	/* many references to a long value: cut at Windows' limit for a value (the expansion grew with
	 * the square of the input before: 3,000 references to 16 KB made 48 MB) */
	size_t vlen = 16384, refs = 3000;
	char *env_text = malloc(vlen + 8), *many = malloc(refs * 3 + 1);
	assert_non_null(env_text);
	assert_non_null(many);
	memcpy(env_text, "A=", 2);
	memset(env_text + 2, 'x', vlen);
	env_text[vlen + 2] = 0;
	for (size_t i = 0; i < refs; i++)
		memcpy(many + i * 3, "%A%", 3);
	many[refs * 3] = 0;
	struct envsnap big;
	envsnap_parse(&big, &a, span_make(env_text, strlen(env_text)), "t");
	size_t before = a.total;
	const char *x = win_expand_vars(&a, &big, many);
	assert_int_equal(strlen(x), WIN_MAX_ENV_VALUE);
	assert_true(x[0] == 'x' && x[WIN_MAX_ENV_VALUE - 1] == 'x');
	assert_true(a.total - before < 1u << 20);
	free(env_text);
	free(many);
	arena_free(&a);
}

static void test_pstable(void **state)
{
	(void)state;
	struct arena a;
	arena_init(&a);
	const char *t = "\r\nName                           Value\r\n"
			"----                           -----\r\n"
			"ALLUSERSPROFILE                C:\\ProgramData\r\n"
			"CUDA_PATH_V12_4                C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v12.4\r\n"
			"A_VERY_LONG_VARIABLE_NAME_PAST_THE_COLUMN x=y\r\n"
			"Path                           C:\\Windows\\system32;C:\\Windows;C:\\Program Files\\NVIDIA G...\r\n";
	struct span s = span_make(t, strlen(t));
	assert_true(win_env_is_pstable(s));
	struct envsnap e;
	memset(&e, 0, sizeof e);
	size_t cut = 0;
	assert_int_equal(win_env_parse_pstable(&e, &a, s, "t", &cut), 4);
	assert_int_equal(cut, 1);
	assert_string_equal(win_env_get(&e, "cuda_path_v12_4"),
			    "C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v12.4");
	assert_string_equal(win_env_get(&e, "A_VERY_LONG_VARIABLE_NAME_PAST_THE_COLUMN"), "x=y");
	const char *set = "Path=C:\\Windows\r\nSystemRoot=C:\\Windows\r\n";
	assert_false(win_env_is_pstable(span_make(set, strlen(set))));
	/* UTF-16LE with BOM, as Windows PowerShell 5 writes `>` redirections */
	static const unsigned char u16[] = { 0xff, 0xfe, 'P', 0, '=', 0, 0xe9, 0, 0x2026 & 0xff, 0x20 };
	struct span u = win_env_to_utf8(&a, span_make(u16, sizeof u16));
	assert_int_equal(u.n, 1 + 1 + 2 + 3);
	assert_memory_equal(u.p, "P=\xc3\xa9\xe2\x80\xa6", 7);
	arena_free(&a);
}

static void test_standard_order(void **state)
{
	(void)state;
	need_fixtures();
	fresh_tree();
	put("app", "x64/app.exe", "app.exe");
	put("app", "x64/cudart64_12.dll", "cudart64_12.dll");
	put("CUDA/BIN", "x64/cudart64_12.dll", "CUDART64_12.DLL");
	struct env_case c;
	setup_ctx(&c, "SystemRoot=C:\\Windows\nPath=C:\\cuda\\bin\n", "C:\\app\\app.exe");
	struct win_resolution r;
	win_resolve(&c.L, "cudart64_12.dll", NULL, &r);
	assert_int_equal(r.error, 0);
	const struct win_candidate *ch = win_chosen(&r);
	assert_non_null(ch);
	assert_string_equal(ch->origin, "application directory");
	assert_int_equal(r.chosen, 0);
	/* from a program elsewhere, the PATH copy (case differs everywhere) is found */
	arena_free(&c.a);
	setup_ctx(&c, "SystemRoot=C:\\Windows\nPath=c:\\CUDA\\bin\n", NULL);
	win_resolve(&c.L, "Cudart64_12.dll", NULL, &r);
	ch = win_chosen(&r);
	assert_non_null(ch);
	assert_string_equal(ch->path, "/CUDA/BIN/CUDART64_12.DLL");
	assert_string_equal(ch->origin, "PATH entry 1");
	/* the order before PATH: System32, System, Windows dir */
	assert_string_equal(r.cands[0].origin, "System32");
	assert_string_equal(r.cands[1].origin, "16-bit System directory");
	assert_string_equal(r.cands[2].origin, "Windows directory");
	arena_free(&c.a);
}

static void test_wrong_machine_stops(void **state)
{
	(void)state;
	need_fixtures();
	fresh_tree();
	char p[8192];
	snprintf(p, sizeof p, "%s/x86/zlibwapi.dll", winfix_dir);
	FILE *f = fopen(p, "rb");
	if (!f)
		skip(); /* no i686 mingw */
	fclose(f);
	put("zlib32", "x86/zlibwapi.dll", "zlibwapi.dll");
	put("zlib64", "x64/zlibwapi.dll", "zlibwapi.dll");
	struct env_case c;
	setup_ctx(&c, "Path=C:\\zlib32;C:\\zlib64\n", NULL);
	struct win_resolution r;
	win_resolve(&c.L, "zlibwapi.dll", NULL, &r);
	assert_int_equal(r.error, WIN_ERROR_BAD_EXE_FORMAT);
	assert_null(win_chosen(&r));
	assert_int_equal(r.cands[r.n_cands - 1].result, WIN_CAND_WRONG_MACHINE);
	assert_int_equal(r.cands[r.n_cands - 1].machine, PE_MACHINE_I386);
	/* C:\zlib64 was never tried */
	for (size_t i = 0; i < r.n_cands; i++)
		assert_null(strstr(r.cands[i].dir, "zlib64"));
	arena_free(&c.a);
}

static void test_python_default_dirs(void **state)
{
	(void)state;
	need_fixtures();
	fresh_tree();
	put("Python311", "x64/app.exe", "python.exe");
	put("Python311", "x64/zlibwapi.dll", "python311.dll");
	put("cuda/bin", "x64/cudart64_12.dll", "cudart64_12.dll");
	put("Python311/Lib/site-packages/nvidia/cublas/bin", "x64/cublas64_12.dll", "cublas64_12.dll");
	struct env_case c;
	setup_ctx(&c, "Path=C:\\cuda\\bin\n", "C:\\Python311\\python.exe");
	assert_int_equal(c.L.t.mode, WIN_SEARCH_DEFAULT_DIRS);
	assert_string_equal(c.L.t.python_version, "3.11");
	struct win_resolution r;
	win_resolve(&c.L, "cudart64_12.dll", NULL, &r);
	assert_int_equal(r.error, WIN_ERROR_MOD_NOT_FOUND);
	for (size_t i = 0; i < r.n_cands; i++)
		assert_null(strstr(r.cands[i].origin, "PATH"));
	assert_int_equal(r.n_elsewhere, 1);
	assert_non_null(strstr(r.elsewhere[0].origin, "PATH entry 1"));
	/* the pip wheel's bin is known but not searched either */
	win_resolve(&c.L, "cublas64_12.dll", NULL, &r);
	assert_null(win_chosen(&r));
	assert_int_equal(r.n_elsewhere, 1);
	assert_string_equal(r.elsewhere[0].origin, "pip wheel nvidia\\cublas");
	/* os.add_dll_directory fixes both */
	win_loader_add_dll_dir(&c.L, "C:\\cuda\\bin");
	win_resolve(&c.L, "cudart64_12.dll", NULL, &r);
	assert_non_null(win_chosen(&r));
	assert_string_equal(win_chosen(&r)->origin, "os.add_dll_directory / AddDllDirectory");
	/* a .pyd's own folder comes first for its dependencies (LOAD_LIBRARY_SEARCH_DLL_LOAD_DIR) */
	win_resolve(&c.L, "cublas64_12.dll", "C:\\Python311\\Lib\\site-packages\\nvidia\\cublas\\bin", &r);
	assert_int_equal(r.chosen, 0);
	arena_free(&c.a);
}

static void test_system_names(void **state)
{
	(void)state;
	need_fixtures();
	fresh_tree();
	struct env_case c;
	setup_ctx(&c, "Path=C:\\Windows\\system32\n", NULL);
	struct win_resolution r;
	win_resolve(&c.L, "api-ms-win-crt-runtime-l1-1-0.dll", NULL, &r);
	assert_non_null(r.system);
	assert_int_equal(r.error, 0);
	win_resolve(&c.L, "KERNEL32.dll", NULL, &r);
	assert_non_null(r.system);
	win_resolve(&c.L, "VCRUNTIME140.dll", NULL, &r);
	assert_null(r.system);
	assert_int_equal(r.error, WIN_ERROR_MOD_NOT_FOUND);
	arena_free(&c.a);
}

static void test_wow64(void **state)
{
	(void)state;
	need_fixtures();
	fresh_tree();
	char p[8192];
	snprintf(p, sizeof p, "%s/x86/zlibwapi.dll", winfix_dir);
	FILE *f = fopen(p, "rb");
	if (!f)
		skip();
	fclose(f);
	/* a 32-bit host: its System32 is SysWOW64 */
	sh("mkdir -p '%s/app32' && cp '%s' '%s/app32/app.exe'", tmp_root, p, tmp_root);
	put("Windows/SysWOW64", "x86/zlibwapi.dll", "zlibwapi.dll");
	put("Windows/System32", "x64/zlibwapi.dll", "zlibwapi.dll");
	struct env_case c;
	setup_ctx(&c, "Path=C:\\nothing\n", "C:\\app32\\app.exe");
	assert_int_equal(c.L.t.machine, PE_MACHINE_I386);
	struct win_resolution r;
	win_resolve(&c.L, "zlibwapi.dll", NULL, &r);
	assert_non_null(win_chosen(&r));
	assert_string_equal(win_chosen(&r)->path, "/Windows/SysWOW64/zlibwapi.dll");
	arena_free(&c.a);
}

static void test_tree(void **state)
{
	(void)state;
	need_fixtures();
	fresh_tree();
	put("cudnn/bin", "x64/cudnn_cnn_infer64_8.dll", "cudnn_cnn_infer64_8.dll");
	put("cudnn/bin", "x64/cublasLt64_11.dll", "cublasLt64_11.dll");
	put("cuda/bin", "x64/cublas64_12.dll", "cublas64_12.dll");
	struct env_case c;
	setup_ctx(&c, "Path=C:\\cudnn\\bin;C:\\cuda\\bin\n", NULL);
	struct win_tree t;
	win_tree_build(&c.L, "cudnn_cnn_infer64_8.dll", NULL, &t);
	assert_non_null(win_chosen(&t.nodes[0].res));
	assert_string_equal(t.nodes[0].version, "8.9.7.29");
	bool zlib = false, lt = false, nv = false;
	for (size_t i = 1; i < t.n; i++) {
		const struct win_node *n = &t.nodes[i];
		if (strcasecmp(n->name, "zlibwapi.dll") == 0) {
			zlib = true;
			assert_int_equal(n->res.error, WIN_ERROR_MOD_NOT_FOUND);
			assert_int_equal(n->parent, 0);
			assert_false(n->delay);
		} else if (strcasecmp(n->name, "cublasLt64_11.dll") == 0) {
			lt = true;
			assert_non_null(win_chosen(&n->res));
			assert_int_equal(n->n_missing_procs, 0); /* it exports cublasLtCreate */
		} else if (strcasecmp(n->name, "nvcuda.dll") == 0) {
			nv = true;
			assert_true(n->delay);
		}
	}
	assert_true(zlib && lt && nv);
	/* another major of a versioned name is reported */
	struct win_resolution r;
	win_resolve(&c.L, "cublas64_11.dll", NULL, &r);
	assert_int_equal(r.n_other_major, 1);
	assert_string_equal(r.other_major[0].detail, "cublas64_12.dll");
	/* but cublasLt is not "another major" of cublas */
	win_resolve(&c.L, "cublas64_13.dll", NULL, &r);
	for (size_t i = 0; i < r.n_other_major; i++)
		assert_null(strstr(r.other_major[i].detail, "Lt"));
	arena_free(&c.a);
}

/* The one node of the tree with imports its DLL does not export: named name, missing only proc. */
static const struct win_node *only_node_missing(const struct win_tree *t, const char *name, const char *proc)
{
	const struct win_node *found = NULL;
	for (size_t i = 0; i < t->n; i++)
		if (t->nodes[i].n_missing_procs) {
			assert_null(found);
			found = &t->nodes[i];
		}
	assert_non_null(found);
	assert_string_equal(found->name, name);
	assert_int_equal(found->n_missing_procs, 1);
	assert_string_equal(found->missing_procs[0], proc);
	return found;
}

/* Error 127: the cublasLt64_11.dll first on PATH lacks cublasLtCreate, which the cuDNN fixture
 * imports; the copy under %CUDA_PATH%\bin (not reached) has it. */
static void test_tree_missing_export(void **state)
{
	(void)state;
	need_fixtures();
	fresh_tree();
	put("cudnn/bin", "x64/cudnn_cnn_infer64_8.dll", "cudnn_cnn_infer64_8.dll");
	put("cudnn/bin", "x64/zlibwapi.dll", "zlibwapi.dll");
	put("tools", "x64/old/cublasLt64_11.dll", "cublasLt64_11.dll");
	put("cuda11/bin", "x64/cublasLt64_11.dll", "cublasLt64_11.dll");
	struct env_case c;
	setup_ctx(&c, "CUDA_PATH=C:\\cuda11\nPath=C:\\tools;C:\\cudnn\\bin\n", NULL);
	struct win_tree t;
	win_tree_build(&c.L, "cudnn_cnn_infer64_8.dll", NULL, &t);
	/* zlibwapi.dll exports inflate; nvcuda.dll is delay-loaded */
	const struct win_node *n = only_node_missing(&t, "cublasLt64_11.dll", "cublasLtCreate");
	assert_string_equal(win_chosen(&n->res)->path, "/tools/cublasLt64_11.dll");
	assert_non_null(n->procs_elsewhere);
	assert_string_equal(n->procs_elsewhere, "/cuda11/bin/cublasLt64_11.dll");
	arena_free(&c.a);
}

/* Imports by ordinal: byord.dll takes ordinals 1 and 7 from zlibwapi.dll, whose stub exports
 * only inflate (ordinal 1). */
static void test_tree_missing_ordinal(void **state)
{
	(void)state;
	need_fixtures();
	fresh_tree();
	put("app", "x64/byord.dll", "byord.dll");
	put("app", "x64/zlibwapi.dll", "zlibwapi.dll");
	struct env_case c;
	setup_ctx(&c, "Path=C:\\app\n", NULL);
	struct win_tree t;
	win_tree_build(&c.L, "byord.dll", NULL, &t);
	assert_null(only_node_missing(&t, "zlibwapi.dll", "#7")->procs_elsewhere);
	arena_free(&c.a);
}

int main(void)
{
	fixtures_status = winfix_build();
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_paths),
		cmocka_unit_test(test_pstable),
		cmocka_unit_test(test_standard_order),
		cmocka_unit_test(test_wrong_machine_stops),
		cmocka_unit_test(test_python_default_dirs),
		cmocka_unit_test(test_system_names),
		cmocka_unit_test(test_wow64),
		cmocka_unit_test(test_tree),
		cmocka_unit_test(test_tree_missing_export),
		cmocka_unit_test(test_tree_missing_ordinal),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
