/* What cudx observed on a Windows tree (--root of a copied C: drive, --os windows): the
 * environment that matters to DLL loading, the CUDA toolkits and cuDNN copies installed, the
 * driver's nvcuda.dll, and the DLL loads simulated with the Windows loader rules. */
#ifndef CUDX_COLLECT_WINDOWS_H
#define CUDX_COLLECT_WINDOWS_H

#include "collect/inventory.h"
#include "loader/win_loader.h"

struct win_install {
	const char *what;      /* "CUDA toolkit", "cuDNN" */
	const char *dir;       /* Windows path of its root ("C:\...\CUDA\v12.4") */
	const char *version;   /* from the directory name ("12.4"), or NULL */
	const char *dll_dir;   /* where its DLLs are (bin, bin\x64, bin\12.8) */
	const char *env_var;   /* CUDA_PATH_V12_4 when a variable points at it, else NULL */
	bool on_path;          /* dll_dir is on PATH */
};

/* One simulated load: the name, why it was checked, the dependency tree. */
struct win_query {
	const char *name;
	const char *reason;     /* "installed in C:\...\bin", "asked for (cudx why)" */
	bool asked;             /* the user asked about it: problems are errors, not warnings */
	struct win_tree tree;
};

struct windows_inventory {
	struct win_loader loader;
	size_t env_truncated;      /* PowerShell table values cut at the console width */
	const char *path_raw;      /* PATH as given */
	struct win_install *installs;
	size_t n_installs, cap_installs;
	const char *nvcuda_path;   /* in-root path of System32\nvcuda.dll, or NULL */
	const char *nvcuda_version; /* its file version, "32.0.15.6094" */
	const char *driver_version; /* "560.94" derived from it (UNVERIFIED convention, formats.md §4.1) */
	struct win_query *queries;
	size_t n_queries, cap_queries;
};

/* Set the loader up from the context and options: --env re-read with the Windows formats
 * (PowerShell table, UTF-16). exe: the host program (Windows path) or NULL. */
void win_inventory_init(struct cudx_ctx *ctx, struct windows_inventory *w, const char *exe, const char *cwd);
/* Find toolkits, cuDNN and nvcuda.dll. */
void win_inventory_scan(struct cudx_ctx *ctx, struct windows_inventory *w);
/* Simulate loading name and add it as a query. */
struct win_query *win_inventory_query(struct cudx_ctx *ctx, struct windows_inventory *w, const char *name,
				      const char *from_dir, const char *reason, bool asked);

/* Renderers (src/report/windows_report.c): the Windows part of `cudx check`'s report, and the
 * installs array that the native build's check report shares with it. */
#include <stdio.h>
struct json_t;
struct json_t *win_inventory_json(const struct windows_inventory *w);
void win_inventory_text(FILE *out, const struct cudx_ctx *ctx, const struct windows_inventory *w);
struct json_t *win_installs_json(const struct windows_inventory *w);

#endif
