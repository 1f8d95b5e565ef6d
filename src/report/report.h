/* The only place that prints. Text for people, JSON (schema "cudx/1", docs/json.md) for programs,
 * Prometheus text for fleets. */
#ifndef CUDX_REPORT_H
#define CUDX_REPORT_H

#include <stdio.h>

#include "collect/inventory.h"
#include "diag/finding.h"
#include "sys/context.h"

void report_check_text(FILE *out, const struct cudx_ctx *ctx, const struct inventory *inv,
		       const struct findings *fs);
void report_check_json(FILE *out, const struct cudx_ctx *ctx, const struct inventory *inv,
		       const struct findings *fs);
void report_check_prom(FILE *out, const struct cudx_ctx *ctx, const struct inventory *inv,
		       const struct findings *fs);

/* Shared pieces for other commands' renderers. */
struct json_t;
/* The findings array as JSON (for why, tree, arch, probe, explain). Caller owns the reference. */
struct json_t *report_findings_json(const struct findings *fs);
/* Findings as text: the same layout check uses. */
void report_findings_text(FILE *out, const struct cudx_ctx *ctx, const struct findings *fs);
/* Dump a jansson value to out with a trailing newline, keys in insertion order, indent 2. */
void report_json_dump(FILE *out, struct json_t *v);
/* Terminal styling: empty strings unless ctx->opt->color. */
const char *style_bold(const struct cudx_ctx *ctx);
const char *style_red(const struct cudx_ctx *ctx);
const char *style_yellow(const struct cudx_ctx *ctx);
const char *style_green(const struct cudx_ctx *ctx);
const char *style_dim(const struct cudx_ctx *ctx);
const char *style_reset(const struct cudx_ctx *ctx);

#endif
