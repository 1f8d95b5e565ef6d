/* `cudx why` / `cudx tree` for Windows trees. cmd_why.c and cmd_tree.c call these when
 * ctx->os == OS_WINDOWS (the target OS is --os windows, or the root holds Windows/System32). */
#ifndef CUDX_WIN_WHY_H
#define CUDX_WIN_WHY_H

struct cudx_ctx;

int win_why_run(struct cudx_ctx *ctx, int argc, char **argv);
int win_tree_run(struct cudx_ctx *ctx, int argc, char **argv);

#endif
