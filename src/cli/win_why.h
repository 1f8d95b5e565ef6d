/* `cudx why` / `cudx tree` for Windows trees. cmd_why.c and cmd_tree.c call these when
 * ctx->os == OS_WINDOWS (the target OS is --os windows, or the root holds Windows/System32). */
#ifndef CUDX_WIN_WHY_H
#define CUDX_WIN_WHY_H

struct cudx_ctx;

int win_why_run(struct cudx_ctx *ctx, int argc, char **argv);
int win_tree_run(struct cudx_ctx *ctx, int argc, char **argv);

/* The Windows part of `cudx check`'s report: report_hooks.c calls these when inv->windows is set. */
#include <stdio.h>
struct json_t;
struct windows_inventory;
struct json_t *win_inventory_json(const struct windows_inventory *w);
void win_inventory_text(FILE *out, const struct cudx_ctx *ctx, const struct windows_inventory *w);

#endif
