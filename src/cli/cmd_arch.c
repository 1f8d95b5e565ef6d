/* Placeholder until the module that owns `cudx arch` lands: it replaces this file. */
#include <stdio.h>

#include "cli/command.h"

static int arch_run(struct cudx_ctx *ctx, int argc, char **argv)
{
	(void)ctx, (void)argc, (void)argv;
	fprintf(stderr, "cudx arch: not available in this build yet\n");
	return 2;
}

const struct command cmd_arch = {
	.name = "arch",
	.usage = "arch FILE... [--gpu SM]",
	.summary = "GPU code (SASS/PTX) inside binaries and whether it runs here",
	.run = arch_run,
};
