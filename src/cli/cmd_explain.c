/* Placeholder until the module that owns `cudx explain` lands: it replaces this file. */
#include <stdio.h>

#include "cli/command.h"

static int explain_run(struct cudx_ctx *ctx, int argc, char **argv)
{
	(void)ctx, (void)argc, (void)argv;
	fprintf(stderr, "cudx explain: not available in this build yet\n");
	return 2;
}

const struct command cmd_explain = {
	.name = "explain",
	.usage = "explain [MESSAGE|-]",
	.summary = "read an error message and diagnose it against this machine",
	.run = explain_run,
};
