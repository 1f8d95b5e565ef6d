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

/* The schema name every --json output carries; it changes only when a key is removed or changes
 * meaning (docs/json.md). */
#define REPORT_SCHEMA "cudx/1"
/* The envelope every command's --json output is: a new object whose first keys are
 *   "schema": "cudx/1", "command": command, "tool": {"name": "cudx", "version": ...},
 *   "system": {...the object check prints...}, "findings": [...the findings as check prints them...]
 * The command then appends its own keys (jansson keeps insertion order) and prints it with
 * report_json_dump. check, why, tree, arch, probe and kb use it; explain, run and compare are to.
 * inv: the inventory the command collected, or NULL (system is then what the context knows: root,
 * live, os, env_origin). fs: the findings the command reports (after focusing), or NULL for none.
 * The keys and each command's own are described in docs/json.md and docs/cudx.schema.json.
 * Caller owns the reference. */
struct json_t *report_envelope_json(const struct cudx_ctx *ctx, const struct inventory *inv, const char *command,
				    const struct findings *fs);
/* Every rule entry of the registry (or the one owning only_id, when not NULL) as
 * {"query", "found", "findings": [{id, family, severity, mild_severity, mild_when, about, cause,
 * fix[], ref}]}: `cudx kb findings`. Caller owns the reference. */
struct json_t *report_rules_json(const char *only_id);
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
