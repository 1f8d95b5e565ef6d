/* Windows findings over simulated DLL loads; shared by `cudx check` (rule family) and
 * `cudx why`/`tree` on a Windows tree (src/cli/win_why.c). */
#ifndef CUDX_RULES_WINDOWS_H
#define CUDX_RULES_WINDOWS_H

#include "collect/windows.h"
#include "diag/finding.h"

struct win_diag {
	struct cudx_ctx *ctx;
	const struct windows_inventory *w;
	struct findings *out;
};

/* Findings for one simulated load (its whole dependency tree). */
void win_diagnose_query(struct win_diag *wd, const struct win_query *q);
/* Findings for every load in the inventory. */
void win_diagnose(struct win_diag *wd);

#endif
