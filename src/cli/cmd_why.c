/* Placeholder until the module that owns `cudx why` lands: it replaces this file. */
#include <stdio.h>

#include "cli/command.h"

static int why_run(struct cudx_ctx *ctx, int argc, char **argv)
{
	(void)ctx, (void)argc, (void)argv;
	fprintf(stderr, "cudx why: not available in this build yet\n");
	return 2;
}

const struct command cmd_why = {
	.name = "why",
	.usage = "why NAME [--from OBJECT]",
	.summary = "how the loader looks for a library, every place tried, the fix",
	.run = why_run,
};
