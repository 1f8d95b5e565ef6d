/* Readers for the Python packaging files cudx looks at, without running Python:
 *  - core metadata (`*.dist-info/METADATA`, `*.egg-info/PKG-INFO`): RFC 822 style headers
 *    (Name, Version, Requires-Dist), body after the first blank line ignored;
 *  - requirement strings (PEP 508: `nvidia-cudnn-cu12==9.1.0.70; platform_system == "Linux"`,
 *    and the older `nvidia-cudnn-cu12 (==9.1.0.70)` form);
 *  - generated Python modules that hold literals: `torch/version.py`, TensorFlow's
 *    `build_info.py`, ONNX Runtime's `capi/version_info.py` (`key = 'v'`, `key: T = 'v'`,
 *    `('key', 'v')`, `'key': 'v'`, `['key'] = 'v'`); never evaluated, only the literal is read;
 *  - `pyvenv.cfg` (`key = value` lines) and conda's `environments.txt` (one path a line).
 * All work on spans, copy what they return into the arena, and bound every count. */
#ifndef CUDX_PYMETA_H
#define CUDX_PYMETA_H

#include <stdbool.h>
#include <stddef.h>

#include "util/arena.h"
#include "util/span.h"

#define PYMETA_MAX_REQUIRES 1024 /* torch has ~30, tensorflow ~40; more is not a real METADATA */
#define PYMETA_MAX_LINE 8192     /* longer header lines are cut (a Description folded into a header) */
#define PYMETA_MAX_LIST 256      /* items of a literal list (cuda_compute_capabilities) */
#define PYMETA_MAX_LINES 4096    /* environments.txt entries */

struct pymeta_dist {
	const char *name;     /* as written ("torch", "nvidia_cudnn_cu12") or NULL when absent */
	const char *version;  /* "2.5.1+cu124" or NULL */
	const char **requires; /* raw Requires-Dist values */
	size_t n_requires;
	bool truncated; /* more Requires-Dist than PYMETA_MAX_REQUIRES, or an over-long line */
};

/* Parse core metadata. Returns false (with *err) when the text is not metadata at all (binary,
 * no "Name:"/"Metadata-Version:" header in the first header block). */
bool pymeta_parse_metadata(struct span s, struct arena *a, struct pymeta_dist *out, const char **err);

struct pymeta_req {
	const char *name;    /* normalised: lower case, runs of '-', '_', '.' -> '-' */
	const char *op;      /* "==", ">=", "~=", ... of the first clause, or NULL */
	const char *version; /* its version, or NULL */
	const char *spec;    /* the whole version specifier as written (">=9.1,<10"), or NULL */
	const char *extra;   /* the extra the marker requires (`extra == "and-cuda"`), or NULL */
	const char *marker;  /* the whole marker, or NULL */
	bool linux_only;     /* marker restricts to Linux (platform_system/sys_platform) */
	bool windows_only;
};

/* Parse one requirement string. false when it has no valid name. */
bool pymeta_parse_req(const char *s, struct arena *a, struct pymeta_req *out);

/* PEP 503 normalisation into the arena: "Nvidia_CUDNN.cu12" -> "nvidia-cudnn-cu12". */
char *pymeta_normalize(struct arena *a, const char *name, size_t len);

enum pymeta_kind {
	PYLIT_NONE = 0, /* key not found */
	PYLIT_STR,      /* 'x' or "x" */
	PYLIT_NULL,     /* None */
	PYLIT_BOOL,
	PYLIT_NUMBER,   /* 12.2 written without quotes */
	PYLIT_LIST,     /* ['sm_50', 'compute_90'] (strings only) */
	PYLIT_OTHER,    /* present but not a literal we read (an expression): reported, not guessed */
};

struct pymeta_value {
	enum pymeta_kind kind;
	const char *str; /* STR, NUMBER: the text; OTHER: the first 60 bytes as written */
	bool b;
	const char **items; /* LIST */
	size_t n_items;
};

/* Find the literal bound to key in a generated Python module. The first binding wins. */
bool pymeta_py_value(struct span s, struct arena *a, const char *key, struct pymeta_value *out);

/* `key = value` from pyvenv.cfg (keys compared case-insensitively, spaces around '=' allowed). */
const char *pymeta_cfg_value(struct span s, struct arena *a, const char *key);

/* Shared libraries listed in a wheel's RECORD (CSV: path,hash,size): paths ending in ".so",
 * containing ".so." or ending in ".dll", at most max. Quoted paths (with commas) are read too. */
size_t pymeta_record_libs(struct span s, struct arena *a, const char ***out, size_t max);

/* Lines of a text file (environments.txt): trimmed, empty and '#' lines skipped, at most max. */
size_t pymeta_lines(struct span s, struct arena *a, const char ***out, size_t max);

#endif
