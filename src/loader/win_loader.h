/* Windows LoadLibrary rules, simulated over an analysed tree (formats.md §4.2):
 *   API sets (api-ms-win-*, ext-ms-*) and KnownDLLs come from the OS;
 *   standard order: the application (.exe) directory, [SetDllDirectory dir], System32, the 16-bit
 *   System directory, the Windows directory, the current directory, PATH;
 *   LOAD_LIBRARY_SEARCH_DEFAULT_DIRS (Python >= 3.8 for extension modules and ctypes): [the loading
 *   DLL's own directory], the application directory, AddDllDirectory / os.add_dll_directory
 *   directories, System32 — PATH is not searched.
 * A DLL's dependencies are searched with the process's order (from the .exe's folder, not the
 * DLL's: there is no $ORIGIN on Windows). A file with the wrong machine stops the search with
 * error 193; nothing found is error 126, which Windows also reports when only a dependency is
 * missing. The output is a trace: every place tried, what was there, why it was taken or not. */
#ifndef CUDX_WIN_LOADER_H
#define CUDX_WIN_LOADER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fmt/pe.h"
#include "loader/win_path.h"
#include "sys/context.h"

#define WIN_ERROR_MOD_NOT_FOUND 126
#define WIN_ERROR_BAD_EXE_FORMAT 193
#define WIN_ERROR_PROC_NOT_FOUND 127
#define WIN_MAX_MISSING_PROCS 64 /* listed per import edge (all are counted) */
#define WIN_TREE_MAX_NODES 512
#define WIN_TREE_MAX_DEPTH 32

enum win_search_mode {
	WIN_SEARCH_STANDARD,     /* LoadLibrary with SafeDllSearchMode on (the default) */
	WIN_SEARCH_DEFAULT_DIRS, /* LOAD_LIBRARY_SEARCH_DEFAULT_DIRS: Python >= 3.8 */
};

/* The process doing the loading. */
struct win_target {
	const char *exe;             /* Windows path of the host .exe, or NULL when unknown */
	const char *app_dir;         /* its directory */
	const char *cwd;             /* current directory, or NULL */
	const char *system_root;     /* %SystemRoot%, default C:\Windows */
	uint16_t machine;            /* the process's machine (from the .exe; default x64) */
	const char *machine_source;  /* "the .exe", "default (x64)" */
	enum win_search_mode mode;
	const char *python_version;  /* "3.11" when the host is python.exe with python311.dll */
	bool conda;                  /* a conda environment (conda-meta next to python.exe) */
	const char **user_dirs;      /* AddDllDirectory / os.add_dll_directory, in call order */
	size_t n_user_dirs, cap_user_dirs;
	const char *set_dll_directory; /* SetDllDirectory(dir) in effect, or NULL */
};

enum win_cand_result {
	WIN_CAND_ABSENT,        /* the directory has no such file */
	WIN_CAND_DIR_MISSING,   /* the directory does not exist in the tree */
	WIN_CAND_NOT_IN_TREE,   /* another drive, UNC or relative: cannot be checked */
	WIN_CAND_FOUND,         /* taken */
	WIN_CAND_WRONG_MACHINE, /* present but for another machine: error 193, search stops */
	WIN_CAND_BAD_PE,        /* present but not a valid PE: error 193, search stops */
};

struct win_candidate {
	const char *dir;    /* the directory as Windows names it ("C:\Windows\System32") */
	const char *origin; /* "application directory", "System32", "PATH entry 3", ... */
	enum win_cand_result result;
	const char *path;   /* in-root path of the file when present */
	uint16_t machine;   /* its machine when present */
	const char *detail; /* "not in the analysed tree (drive D:)", "x86 DLL in an x64 process" */
};

struct win_resolution {
	const char *name;
	const char *system;    /* "API set", "KnownDLL": provided by Windows itself; else NULL */
	struct win_candidate *cands;
	size_t n_cands, cap_cands;
	int chosen;            /* index into cands, -1 when nothing was taken */
	int error;             /* 0, 126 or 193 */
	/* Copies of the same name in places this search does not look (PATH when Python ignores it,
	 * CUDA's bin\x64, cuDNN's bin\<cuda version>\, pip wheels' nvidia\*\bin). */
	struct win_candidate *elsewhere;
	size_t n_elsewhere, cap_elsewhere;
	/* Same library with another major (cublas64_12.dll when cublas64_11.dll is wanted), in the
	 * searched directories or elsewhere. */
	struct win_candidate *other_major;
	size_t n_other_major, cap_other_major;
};

/* One DLL in a dependency tree. */
struct win_node {
	const char *name;       /* as imported */
	int parent;             /* index of the importing node, -1 for the root */
	int depth;
	bool delay;             /* imported with delay-load: missing only fails at first call */
	bool repeat;            /* the name was already loaded (found earlier in the tree) */
	struct win_resolution res;
	struct pe_info *pe;     /* parsed when found and readable */
	const char *pe_error;   /* why the file could not be read */
	const char *version;    /* file version from VERSIONINFO */
	const struct pe_import *import; /* the importer's entry for this DLL (NULL for the root) */
	/* Error 127: what the importer takes from this DLL (by name, or "#ordinal") that the copy the
	 * search reached does not export; and a copy outside the search that exports all of it. */
	const char **missing_procs;
	size_t n_missing_procs;
	const char *procs_elsewhere; /* in-root path, or NULL */
};

struct win_tree {
	struct win_node *nodes;
	size_t n, cap;
	bool truncated; /* WIN_TREE_MAX_NODES reached */
};

struct win_loader {
	struct cudx_ctx *ctx;
	struct win_fs fs;
	struct win_target t;
	const char **path_dirs; /* PATH, split and %VAR%-expanded */
	size_t n_path_dirs;
};

/* Set up from the context (env: PATH, SystemRoot, CUDA_PATH*). exe may be NULL. */
void win_loader_init(struct win_loader *L, struct cudx_ctx *ctx, const char *exe, const char *cwd);
void win_loader_add_dll_dir(struct win_loader *L, const char *dir);
/* Resolve one name (or an absolute Windows path). from_dir: the directory of the DLL whose
 * dependency this is, used in DEFAULT_DIRS mode (LOAD_LIBRARY_SEARCH_DLL_LOAD_DIR), or NULL. */
/* Parse the PE file at in-root path into pe (its strings in the loader's arena); false when the
 * file cannot be read or its headers are not sound. */
bool win_pe_read(struct win_loader *L, const char *path, struct pe_info *pe);
void win_resolve(struct win_loader *L, const char *name, const char *from_dir, struct win_resolution *out);
/* The dependency tree of name: the load-time imports (and, marked, the delay-load ones) of every
 * DLL found, breadth first, each name resolved once as the loaded-module list does. from_dir: the
 * directory of the module that loads name (used in DEFAULT_DIRS mode), or NULL. */
void win_tree_build(struct win_loader *L, const char *name, const char *from_dir, struct win_tree *tree);
/* The node that loaded name: the first one not marked as a repeat (an "already loaded" edge
 * shares its resolution, not its file), or -1. */
int win_tree_loaded(const struct win_tree *t, const char *name);
/* The candidate taken, or NULL */
const struct win_candidate *win_chosen(const struct win_resolution *r);
/* In-root path of the System32 the process sees (SysWOW64 for an x86 process when present). */
const char *win_system32(struct win_loader *L, const char **win_name);
bool win_is_api_set(const char *name);
bool win_is_known_dll(const char *name);
const char *win_cand_result_name(enum win_cand_result r);
/* True when the tree looks like a Windows C: drive (Windows/System32 exists, any case). */
bool win_tree_detect(const struct sysroot *sr, struct arena *a);

#endif
