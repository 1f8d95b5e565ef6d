/* Placeholder until the module that owns `cudx tree` lands: it replaces this file. */
#include <stdio.h>

#include "cli/command.h"

static int tree_run(struct cudx_ctx *ctx, int argc, char **argv)
{
	(void)ctx, (void)argc, (void)argv;
	fprintf(stderr, "cudx tree: not available in this build yet\n");
	return 2;
}

const struct command cmd_tree = {
	.name = "tree",
	.usage = "tree FILE",
	.summary = "dependency tree with resolution, including run-time (dlopen) loads",
	.run = tree_run,
};
