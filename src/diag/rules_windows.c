/* Windows DLL loading: turn the simulated loads (collect/windows.h) into findings that say which
 * DLL is really missing, why the search did not reach it, and what to change.
 *   dll-not-found            the DLL asked for is in no searched directory (error 126)
 *   dll-dependency-missing   it is found, but something it imports is not: Windows still reports
 *                            error 126 for the DLL asked for, and never names the missing one
 *   dll-wrong-arch           the search stops at a DLL built for another machine (error 193)
 *   dll-wrong-major          only another major of the library is installed (cublas64_12.dll
 *                            when cublas64_11.dll is wanted)
 *   python-dll-directory     the DLL is only on PATH, which Python >= 3.8 does not search
 *   cudnn-zlibwapi-missing   cuDNN 8 on Windows needs zlibwapi.dll (compat-facts.md §3d)
 *   dll-proc-not-found       the DLL the search reaches lacks a function its importer takes from it
 *                            (error 127): another release of it than the importer was built for */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "collect/python.h"
#include "collect/windows.h"
#include "diag/rule.h"
#include "kb/kb.h"

#define REF_SEARCH_ORDER "https://learn.microsoft.com/windows/win32/dlls/dynamic-link-library-search-order"
#define REF_PY38 "https://docs.python.org/3/whatsnew/3.8.html#bpo-36085-whatsnew"
#define REF_ADD_DLL_DIR "https://docs.python.org/3/library/os.html#os.add_dll_directory"
#define REF_CUDNN8_ZLIB "https://docs.nvidia.com/deeplearning/cudnn/archives/cudnn-890/install-guide/index.html#install-zlib-windows"

/* One walk over the simulated loads, and where its findings go. */
struct win_diag {
	struct cudx_ctx *ctx;
	const struct inventory *inv;
	const struct windows_inventory *w;
	struct findings *out;
};

/* Emit each (id, subject) once per run: several queries often share one missing dependency. */
static bool already(struct findings *out, const char *id, const char *subject)
{
	for (size_t i = 0; i < out->n; i++)
		if (strcmp(out->v[i].id, id) == 0 && out->v[i].subject && strcasecmp(out->v[i].subject, subject) == 0)
			return true;
	return false;
}

static struct finding *emit(struct win_diag *wd, const char *id, const char *subject, const char *summary)
{
	if (already(wd->out, id, subject))
		return NULL;
	struct diag_ctx d = { .ctx = wd->ctx, .out = wd->out };
	struct finding *f = rule_emit(&d, rule_family_find(&rules_windows, id), "%s", summary);
	finding_subject(f, subject);
	return f;
}

static const char *win_path(struct win_diag *wd, const char *root_path)
{
	return root_path ? win_path_from_root(wd->ctx->arena, root_path) : "?";
}

/* "cudnn_cnn_infer64_8.dll -> zlibwapi.dll" from the root of the tree to node i. */
static const char *chain(struct win_diag *wd, const struct win_tree *t, size_t i)
{
	const char *parts[WIN_TREE_MAX_DEPTH + 2];
	size_t n = 0;
	for (int k = (int)i; k >= 0 && n < WIN_TREE_MAX_DEPTH + 2; k = t->nodes[k].parent)
		parts[n++] = t->nodes[k].name;
	const char *s = parts[n - 1];
	for (size_t k = n - 1; k-- > 0;)
		s = arena_printf(wd->ctx->arena, "%s -> %s", s, parts[k]);
	return s;
}

/* Every place the search tried, as evidence lines. */
static void evidence_search(struct win_diag *wd, struct finding *f, const struct win_resolution *r)
{
	const struct win_target *t = &wd->w->loader.t;
	finding_evidence(f, "search order: %s%s%s",
			 t->mode == WIN_SEARCH_DEFAULT_DIRS ? "LOAD_LIBRARY_SEARCH_DEFAULT_DIRS" : "standard (SafeDllSearchMode)",
			 t->python_version ? ", host python " : "", t->python_version ? t->python_version : "");
	for (size_t i = 0; i < r->n_cands; i++) {
		const struct win_candidate *c = &r->cands[i];
		finding_evidence(f, "tried %s (%s): %s%s%s", c->dir, c->origin, win_cand_result_name(c->result),
				 c->detail ? " - " : "", c->detail ? c->detail : "");
	}
}

static void evidence_elsewhere(struct win_diag *wd, struct finding *f, const struct win_resolution *r)
{
	for (size_t i = 0; i < r->n_elsewhere; i++) {
		const struct win_candidate *c = &r->elsewhere[i];
		finding_evidence(f, "present but not searched: %s (%s)%s%s", win_path(wd, c->path), c->origin,
				 c->result == WIN_CAND_WRONG_MACHINE ? " - " : "",
				 c->result == WIN_CAND_WRONG_MACHINE ? c->detail : "");
	}
}

/* The fix for "it exists in dir, which the search does not reach". */
static void fix_add_dir(struct win_diag *wd, struct finding *f, const char *dir)
{
	const struct win_target *t = &wd->w->loader.t;
	if (t->mode == WIN_SEARCH_DEFAULT_DIRS) {
		finding_fix(f, "in Python, before the import that loads it: import os; os.add_dll_directory(r\"%s\")", dir);
		return;
	}
	finding_fix(f, "cmd.exe (this session): set \"PATH=%s;%%PATH%%\"", dir);
	finding_fix(f, "PowerShell (this session): $env:Path = \"%s;\" + $env:Path", dir);
	finding_fix(f, "for good: add %s to Path in System Properties > Environment Variables, then restart the program", dir);
}

/* A good copy outside the search (the right machine), or NULL. */
static const struct win_candidate *good_elsewhere(const struct win_resolution *r, bool path_only)
{
	for (size_t i = 0; i < r->n_elsewhere; i++)
		if (r->elsewhere[i].result == WIN_CAND_FOUND &&
		    (!path_only || strncmp(r->elsewhere[i].origin, "PATH entry", 10) == 0))
			return &r->elsewhere[i];
	return NULL;
}

static const char *component_label(const char *name)
{
	const struct kb_lib *k = kb_lib_classify(name, OS_WINDOWS);
	return k ? k->component : NULL;
}

/* Only another major is there: which CUDA major each one is for, when the kb knows. */
static void diag_wrong_major(struct win_diag *wd, const struct win_resolution *r, const char *needed_by)
{
	struct finding *f = emit(wd, "dll-wrong-major", r->name,
				 arena_printf(wd->ctx->arena, "%s is not installed; only %s is", r->name,
					      r->other_major[0].detail));
	if (!f)
		return;
	const struct kb_lib *want = kb_lib_classify(r->name, OS_WINDOWS);
	const struct kb_lib *have = kb_lib_classify(r->other_major[0].detail, OS_WINDOWS);
	finding_cause(f,
		      "%s asks for %s by that exact name. Windows has no version fallback: %s is a different "
		      "library to the loader, so the load fails with error 126.%s",
		      needed_by ? needed_by : "The program", r->name, r->other_major[0].detail,
		      want && have && want->cuda_major && have->cuda_major && want->cuda_major != have->cuda_major
			      ? arena_printf(wd->ctx->arena, " %s belongs to CUDA %d, %s to CUDA %d.", r->name,
					     want->cuda_major, r->other_major[0].detail, have->cuda_major)
			      : "");
	for (size_t i = 0; i < r->n_other_major; i++)
		finding_evidence(f, "found %s (%s)", win_path(wd, r->other_major[i].path), r->other_major[i].origin);
	evidence_search(wd, f, r);
	if (want && want->cuda_major)
		finding_fix(f, "install the CUDA %d toolkit (or the %s redistributable DLLs) next to the one you have, and put its bin directory on PATH",
			    want->cuda_major, want->component);
	else
		finding_fix(f, "install the release of the library that provides %s, or use a build of the program made for the version you have",
			    r->name);
	finding_fix(f, "do not copy or rename %s to %s: the exports and ABI differ between majors",
		    r->other_major[0].detail, r->name);
	finding_ref(f, REF_SEARCH_ORDER);
}

/* Whether Windows path dir is prefix or its Scripts folder (a venv's python.exe). */
static bool host_dir_of(const char *dir, const char *prefix)
{
	size_t n = strlen(prefix);
	while (n && (prefix[n - 1] == '\\' || prefix[n - 1] == '/'))
		n--;
	if (strncasecmp(dir, prefix, n) != 0)
		return false;
	return dir[n] == 0 || strcasecmp(dir + n, "\\Scripts") == 0 || strcasecmp(dir + n, "/Scripts") == 0;
}

/* The host Python's environment holds a GPU framework that reaches DLLs on PATH itself: PyTorch
 * adds torch\lib, the environment's Library\bin and CUDA_PATH's bin with os.add_dll_directory and
 * retries its own DLLs with LoadLibraryW, which searches PATH; TensorFlow's and ONNX Runtime's
 * loaders call LoadLibrary; CuPy adds CUDA_PATH's bin. Its name, or NULL. */
static const char *host_framework_finds_path(const struct win_diag *wd)
{
	const char *exe = wd->w->loader.t.exe;
	const struct python_inventory *py = wd->inv ? wd->inv->python : NULL;
	const char *slash = exe ? strrchr(exe, '\\') : NULL;
	if (!py || !slash)
		return NULL;
	const char *dir = arena_strndup(wd->ctx->arena, exe, (size_t)(slash - exe));
	for (size_t i = 0; i < py->n_envs; i++) {
		const struct py_env *e = &py->envs[i];
		/* the environment's own python.exe, or a venv's base interpreter (pyvenv.cfg's home) */
		const char *pre = e->prefix && e->prefix[0] == '/' ? win_path_from_root(wd->ctx->arena, e->prefix) : e->prefix;
		const char *base = e->base && e->base[0] == '/' ? win_path_from_root(wd->ctx->arena, e->base) : e->base;
		if (!(pre && host_dir_of(dir, pre)) && !(base && host_dir_of(dir, base)))
			continue;
		/* named here: the native Windows build links no Python reader (python_fw.c) */
		for (size_t k = 0; k < e->n_fws; k++) {
			const struct py_framework *fw = &e->fws[k];
			if (!fw->gpu_build || fw->cpu_only)
				continue;
			switch (fw->kind) {
			case PY_FW_TORCH: return "PyTorch";
			case PY_FW_TENSORFLOW: return "TensorFlow";
			case PY_FW_ONNXRUNTIME: return "ONNX Runtime";
			case PY_FW_CUPY: return "CuPy";
			default: break;
			}
		}
	}
	return NULL;
}

static void diag_python(struct win_diag *wd, const struct win_resolution *r, const char *needed_by)
{
	const struct win_candidate *c = good_elsewhere(r, true);
	const struct win_target *t = &wd->w->loader.t;
	struct finding *f = emit(wd, "python-dll-directory", r->name,
				 arena_printf(wd->ctx->arena, "%s is only on PATH, which Python %s does not search for DLLs",
					      r->name, t->python_version));
	if (!f)
		return;
	finding_cause(f,
		      "Since Python 3.8, extension modules and ctypes load DLLs with LOAD_LIBRARY_SEARCH_DEFAULT_DIRS: "
		      "the application directory, directories added with os.add_dll_directory(), and System32. PATH "
		      "and the current directory are not searched, so %s%s%s fails with error 126 (\"DLL load failed\" / "
		      "\"Could not find module ... (or one of its dependencies)\") although %s is on PATH.%s",
		      r->name, needed_by ? ", needed by " : "", needed_by ? needed_by : "", win_path(wd, c->path),
		      t->conda ? " (This is a conda environment: conda's Python may restore PATH searching; UNVERIFIED.)" : "");
	const char *fw = host_framework_finds_path(wd);
	if (fw) {
		/* what the process loads through the framework reaches PATH: a module that imports a
		 * CUDA DLL itself (dlib, a ctypes library) is what fails */
		finding_mild(f);
		finding_evidence(f, "%s in this environment loads its CUDA DLLs through PATH or directories it adds itself; "
				    "a module importing %s directly (a .pyd such as dlib's, a ctypes library) does not",
				 fw, r->name);
	}
	finding_evidence(f, "host: %s (Python %s)", t->exe, t->python_version);
	finding_evidence(f, "on PATH: %s (%s)", win_path(wd, c->path), c->origin);
	evidence_search(wd, f, r);
	fix_add_dir(wd, f, win_path_from_root(wd->ctx->arena, path_dirname(wd->ctx->arena, c->path)));
	finding_ref(f, REF_PY38);
	finding_ref(f, REF_ADD_DLL_DIR);
}

static void diag_wrong_arch(struct win_diag *wd, const struct win_resolution *r, const char *needed_by)
{
	const struct win_candidate *bad = &r->cands[r->n_cands - 1];
	const struct win_target *t = &wd->w->loader.t;
	struct finding *f = emit(wd, "dll-wrong-arch", r->name,
				 bad->result == WIN_CAND_BAD_PE
					 ? arena_printf(wd->ctx->arena, "%s at %s is not a valid PE file: error 193", r->name,
							win_path(wd, bad->path))
					 : arena_printf(wd->ctx->arena, "%s at %s is %s, not %s: error 193", r->name,
							win_path(wd, bad->path), pe_machine_name(bad->machine),
							pe_machine_name(t->machine)));
	if (!f)
		return;
	finding_cause(f,
		      "The search for %s%s%s reaches %s first. %s. Windows does not skip such a file and keep looking, "
		      "as the Linux loader does: the load stops with error 193 (\"%%1 is not a valid Win32 application\").",
		      r->name, needed_by ? " (needed by " : "", needed_by ? arena_printf(wd->ctx->arena, "%s)", needed_by) : "",
		      win_path(wd, bad->path),
		      bad->result == WIN_CAND_BAD_PE ? arena_printf(wd->ctx->arena, "It is not a usable DLL (%s)", bad->detail)
						     : arena_printf(wd->ctx->arena, "It is built for %s, the process is %s (%s)",
								    pe_machine_name(bad->machine), pe_machine_name(t->machine),
								    t->machine_source));
	evidence_search(wd, f, r);
	evidence_elsewhere(wd, f, r);
	finding_fix(f, "replace %s with the %s build of %s (for zlibwapi.dll: the x64 zlib build from the cuDNN install guide)",
		    win_path(wd, bad->path), pe_machine_name(t->machine), r->name);
	const struct win_candidate *good = good_elsewhere(r, false);
	if (good)
		fix_add_dir(wd, f, win_path_from_root(wd->ctx->arena, path_dirname(wd->ctx->arena, good->path)));
	finding_ref(f, REF_SEARCH_ORDER);
}

static void diag_zlibwapi(struct win_diag *wd, const struct win_tree *t, size_t i)
{
	const struct win_node *nd = &t->nodes[i];
	const char *needer = t->nodes[nd->parent].name;
	const struct win_resolution *r = &nd->res;
	struct finding *f = emit(wd, "cudnn-zlibwapi-missing", nd->name,
				 arena_printf(wd->ctx->arena, "%s needs zlibwapi.dll, which is not installed where Windows looks",
					      needer));
	if (!f)
		return;
	finding_cause(f,
		      "cuDNN 8 on Windows (8.3 to 8.9) links zlibwapi.dll, a zlib build NVIDIA does not ship with it; "
		      "the install guide has a separate \"Installing zlib\" step. When it is missing, loading %s fails "
		      "with error 126 and the message names %s (\"Could not load library %s. Error code 126\"), never "
		      "zlibwapi.dll.",
		      t->nodes[0].name, t->nodes[0].name, t->nodes[0].name);
	finding_evidence(f, "dependency chain: %s", chain(wd, t, i));
	evidence_search(wd, f, r);
	evidence_elsewhere(wd, f, r);
	const struct win_candidate *good = good_elsewhere(r, false);
	if (good) {
		fix_add_dir(wd, f, win_path_from_root(wd->ctx->arena, path_dirname(wd->ctx->arena, good->path)));
	} else {
		const struct win_candidate *c = win_chosen(&t->nodes[nd->parent].res);
		const char *dir = c ? win_path_from_root(wd->ctx->arena, path_dirname(wd->ctx->arena, c->path)) : NULL;
		finding_fix(f, "download the x64 zlib build the cuDNN install guide links (zlib123dllx64.zip) and copy dll_x64\\zlibwapi.dll into %s",
			    dir ? dir : "a directory on PATH");
		finding_fix(f, "or with conda: conda install -c conda-forge zlib-wapi");
	}
	finding_ref(f, REF_CUDNN8_ZLIB);
}

static void diag_dep_missing(struct win_diag *wd, const struct win_tree *t, size_t i)
{
	const struct win_node *nd = &t->nodes[i];
	const char *needer = t->nodes[nd->parent].name;
	const struct win_resolution *r = &nd->res;
	struct finding *f = emit(wd, "dll-dependency-missing", nd->name,
				 arena_printf(wd->ctx->arena, "%s is found, but %s, which %s imports, is not", t->nodes[0].name,
					      nd->name, needer));
	if (!f)
		return;
	const struct win_candidate *root = win_chosen(&t->nodes[0].res);
	finding_cause(f,
		      "Windows loads %s from %s, then every DLL it imports. %s (imported by %s) is in none of the "
		      "searched directories. The error the program sees is 126 for %s (\"The specified module could not "
		      "be found\"), which does not say that a dependency is what is missing.",
		      t->nodes[0].name, root ? win_path(wd, root->path) : "?", nd->name, needer, t->nodes[0].name);
	finding_evidence(f, "dependency chain: %s", chain(wd, t, i));
	evidence_search(wd, f, r);
	evidence_elsewhere(wd, f, r);
	const struct win_candidate *good = good_elsewhere(r, false);
	if (good)
		fix_add_dir(wd, f, win_path_from_root(wd->ctx->arena, path_dirname(wd->ctx->arena, good->path)));
	else if (strncasecmp(nd->name, "vcruntime", 9) == 0 || strncasecmp(nd->name, "msvcp", 5) == 0)
		finding_fix(f, "install the Microsoft Visual C++ Redistributable (x64): https://aka.ms/vs/17/release/vc_redist.x64.exe");
	else
		finding_fix(f, "install the package that provides %s and put its directory on PATH (or next to the program's .exe)",
			    nd->name);
	finding_ref(f, REF_SEARCH_ORDER);
}

/* r: the DLL not found; reason: why the walk looked for it; exe: the program that imports it
 * directly, NULL when the DLL itself was asked for */
static void diag_not_found(struct win_diag *wd, const struct win_resolution *r, const char *reason, const char *exe)
{
	const struct win_candidate *good = good_elsewhere(r, false);
	struct finding *f = emit(wd, "dll-not-found", r->name,
				 good ? arena_printf(wd->ctx->arena, "%s is installed at %s, but not where Windows looks", r->name,
						     win_path(wd, good->path))
				      : arena_printf(wd->ctx->arena, "%s is not found in any directory Windows searches", r->name));
	if (!f)
		return;
	const char *label = component_label(r->name);
	if (exe)
		finding_cause(f,
			      "%s imports %s directly, and %s is in none of the directories Windows searches%s. Windows stops "
			      "the program before it starts (STATUS_DLL_NOT_FOUND, 0xC0000135; its dialog names %s).",
			      exe, r->name, r->name,
			      good ? arena_printf(wd->ctx->arena, " (a copy is at %s)", win_path(wd, good->path)) : "",
			      r->name);
	else if (good)
		finding_cause(f,
			      "Windows looks for %s only in the directories below (it does not search subdirectories, "
			      "and CUDA 13 puts its DLLs in bin\\x64, cuDNN 9 in bin\\<CUDA version>). The copy at %s (%s) "
			      "is in none of them, so the load fails with error 126.",
			      r->name, win_path(wd, good->path), good->origin);
	else
		finding_cause(f, "%s%s%s is in none of the searched directories, nor in the CUDA, cuDNN or pip "
			      "locations cudx knows; the load fails with error 126.",
			      r->name, label ? arena_printf(wd->ctx->arena, " (%s)", label) : "", "");
	if (reason)
		finding_evidence(f, "checked because: %s", reason);
	evidence_search(wd, f, r);
	evidence_elsewhere(wd, f, r);
	if (good)
		fix_add_dir(wd, f, win_path_from_root(wd->ctx->arena, path_dirname(wd->ctx->arena, good->path)));
	else if (strcasecmp(r->name, "nvcuda.dll") == 0)
		finding_fix(f, "install the NVIDIA display driver (it puts nvcuda.dll in System32): https://www.nvidia.com/Download/index.aspx");
	else
		finding_fix(f, "install the library that provides %s (CUDA toolkit, cuDNN, or the matching nvidia-* pip wheel) and put its DLL directory on PATH",
			    r->name);
	finding_ref(f, REF_SEARCH_ORDER);
}

/* "cudnnA, cudnnB, cudnnC and 4 more" */
static const char *proc_list(struct win_diag *wd, const struct win_node *nd, size_t max)
{
	size_t listed = nd->n_missing_procs < max ? nd->n_missing_procs : max;
	const char *s = nd->missing_procs[0];
	for (size_t k = 1; k < listed; k++)
		s = arena_printf(wd->ctx->arena, "%s, %s", s, nd->missing_procs[k]);
	if (nd->n_missing_procs > listed)
		s = arena_printf(wd->ctx->arena, "%s and %zu more", s, nd->n_missing_procs - listed);
	return s;
}

/* The node that loaded nd's name (nd itself unless it is a repeat). */
static const struct win_node *loaded_node(const struct win_tree *t, const struct win_node *nd)
{
	int p = nd->repeat ? win_tree_loaded(t, nd->name) : -1;
	return p >= 0 ? &t->nodes[p] : nd;
}

static void diag_proc_missing(struct win_diag *wd, const struct win_tree *t, size_t i)
{
	const struct win_node *nd = &t->nodes[i], *prov = loaded_node(t, nd);
	const struct win_node *imp = &t->nodes[nd->parent];
	const struct win_candidate *c = win_chosen(&nd->res), *ic = win_chosen(&imp->res);
	const char *at = win_path(wd, c ? c->path : NULL);
	const char *prov_ver = prov->version ? arena_printf(wd->ctx->arena, ", version %s", prov->version) : "";
	const char *imp_ver = imp->version ? arena_printf(wd->ctx->arena, ", version %s", imp->version) : "";
	struct finding *f = emit(wd, "dll-proc-not-found", nd->name,
				 arena_printf(wd->ctx->arena, "%s at %s does not export %s, which %s imports: error 127", nd->name,
					      at, proc_list(wd, nd, 1), imp->name));
	if (!f)
		return;
	finding_cause(f,
		      "Windows binds every function a DLL imports when it loads it. %s imports %zu function%s from %s that "
		      "the copy the search reaches (%s%s) does not export, so loading %s fails with error 127 (\"The "
		      "specified procedure could not be found\"). That copy is another release than the one %s was built "
		      "against: usually an older DLL of the same name earlier in the search, or DLLs of two releases of "
		      "one library mixed.",
		      imp->name, nd->n_missing_procs, nd->n_missing_procs == 1 ? "" : "s", nd->name, at, prov_ver,
		      t->nodes[0].name, imp->name);
	finding_evidence(f, "dependency chain: %s", chain(wd, t, i));
	finding_evidence(f, "%s (%s%s) imports from %s, not exported there: %s", imp->name,
			 win_path(wd, ic ? ic->path : NULL), imp_ver, nd->name, proc_list(wd, nd, 8));
	if (prov->pe)
		finding_evidence(f, "%s%s exports %zu function%s", at, prov_ver, prov->pe->n_exports,
				 prov->pe->n_exports == 1 ? "" : "s");
	evidence_search(wd, f, &nd->res);
	evidence_elsewhere(wd, f, &nd->res);
	if (nd->procs_elsewhere) {
		finding_evidence(f, "%s exports all of them", win_path(wd, nd->procs_elsewhere));
		fix_add_dir(wd, f, win_path_from_root(wd->ctx->arena, path_dirname(wd->ctx->arena, nd->procs_elsewhere)));
	}
	finding_fix(f, "use the %s that %s was built against (one that exports %s): remove or rename the copy at %s, "
		       "or put the directory of the matching copy before %s in the search",
		    nd->name, imp->name, proc_list(wd, nd, 1), at, c ? c->dir : "its directory");
	finding_ref(f, REF_SEARCH_ORDER);
}

static bool is_exe(const char *name)
{
	size_t n = strlen(name);
	return n > 4 && strcasecmp(name + n - 4, ".exe") == 0;
}

/* One missing or unusable DLL in a tree: pick the most specific explanation. */
static void diag_node(struct win_diag *wd, const struct win_query *q, size_t i)
{
	const struct win_tree *t = &q->tree;
	const struct win_node *nd = &t->nodes[i];
	const struct win_resolution *r = &nd->res;
	const char *needed_by = i ? t->nodes[nd->parent].name : NULL;
	if (r->error == WIN_ERROR_BAD_EXE_FORMAT) {
		diag_wrong_arch(wd, r, needed_by);
		return;
	}
	if (r->error != WIN_ERROR_MOD_NOT_FOUND || r->system)
		return;
	if (wd->w->loader.t.mode == WIN_SEARCH_DEFAULT_DIRS && good_elsewhere(r, true)) {
		diag_python(wd, r, needed_by);
		return;
	}
	if (i > 0 && strcasecmp(nd->name, "zlibwapi.dll") == 0) {
		diag_zlibwapi(wd, t, i);
		return;
	}
	if (r->n_other_major && !good_elsewhere(r, false)) {
		diag_wrong_major(wd, r, needed_by);
		return;
	}
	/* a program's own import is what a program fails on (0xC0000135 names it): no outer DLL's
	 * error 126 hides it */
	bool exe_import = i > 0 && nd->parent == 0 && is_exe(t->nodes[0].name);
	if (i == 0)
		diag_not_found(wd, r, q->reason, NULL);
	else if (exe_import)
		diag_not_found(wd, r, NULL, t->nodes[0].name);
	else
		diag_dep_missing(wd, t, i);
}

static void diagnose_query(struct win_diag *wd, const struct win_query *q)
{
	for (size_t i = 0; i < q->tree.n; i++) {
		const struct win_node *nd = &q->tree.nodes[i];
		/* A missing delay-load import fails only at its first call, if ever: not a load error. */
		if (nd->n_missing_procs)
			diag_proc_missing(wd, &q->tree, i);
		if (nd->repeat || nd->delay)
			continue;
		diag_node(wd, q, i);
	}
}

/* The walker: every simulated load of the inventory (check's: nvcuda.dll and every CUDA DLL
 * installed; why's and tree's: the DLL asked about), each failure explained by the entry whose
 * id fits it best. One walk for all the ids: a per-id split would only repeat it. */
static void check_windows(struct diag_ctx *d, const struct rule *self)
{
	(void)self;
	if (!d->inv || !d->inv->windows)
		return;
	struct win_diag wd = { .ctx = d->ctx, .inv = d->inv, .w = d->inv->windows, .out = d->out };
	for (size_t i = 0; i < wd.w->n_queries; i++)
		diagnose_query(&wd, &wd.w->queries[i]);
}

#define REF_WIN_SEARCH .ref = REF_SEARCH_ORDER

static const struct rule rules[] = {
	{ .check = check_windows }, /* walker */
	{ "dll-not-found", SEV_ERROR, NULL,
	  .cause = "The DLL is in none of the directories Windows searches; the load fails with error 126.",
	  .fix = "put the directory that holds it on PATH (or next to the program's .exe)", REF_WIN_SEARCH },
	{ "dll-dependency-missing", SEV_ERROR, NULL,
	  .cause = "The DLL is found, but a DLL it imports is not: Windows still reports error 126 for the DLL asked "
		   "for, and never names the missing one.",
	  .fix = "install the package that provides the missing DLL and put its directory on PATH", REF_WIN_SEARCH },
	{ "dll-wrong-arch", SEV_ERROR, NULL,
	  .cause = "The search stops at a DLL built for another machine, or not a valid PE file: error 193.",
	  .fix = "replace it with the build for the process's machine", REF_WIN_SEARCH },
	{ "dll-wrong-major", SEV_ERROR, NULL,
	  .cause = "Only another major version of the library is installed; Windows has no version fallback.",
	  .fix = "install the release of the library the program asks for", REF_WIN_SEARCH },
	{ "python-dll-directory", SEV_ERROR, NULL,
	  .cause = "The DLL is only on PATH, which Python 3.8 and later does not search for DLLs.",
	  .fix = "call os.add_dll_directory() with its directory before the import", .ref = REF_PY38,
	  .mild = SEV_WARNING,
	  .mild_when = "the host Python's environment has a GPU framework that reaches PATH itself (PyTorch, "
		       "TensorFlow, ONNX Runtime, CuPy): only a module importing the DLL directly fails" },
	{ "cudnn-zlibwapi-missing", SEV_ERROR, NULL,
	  .cause = "cuDNN 8 on Windows needs zlibwapi.dll, which NVIDIA does not ship with it.",
	  .fix = "install the x64 zlib build the cuDNN install guide links, next to the cuDNN DLLs",
	  .ref = REF_CUDNN8_ZLIB },
	{ "dll-proc-not-found", SEV_ERROR, NULL,
	  .cause = "The DLL the search reaches does not export a function its importer needs: it is another release "
		   "than the importer was built for. The load fails with error 127.",
	  .fix = "use the DLL from the importer's release: remove the other copy or put the matching one first",
	  REF_WIN_SEARCH },
};

RULE_FAMILY(rules_windows, "windows", rules);
