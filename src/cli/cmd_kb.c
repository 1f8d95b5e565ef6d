/* Placeholder until the module that owns `cudx kb` lands: it replaces this file. */
#include <stdio.h>

#include "cli/command.h"

static int kb_run(struct cudx_ctx *ctx, int argc, char **argv)
{
	(void)ctx, (void)argc, (void)argv;
	fprintf(stderr, "cudx kb: not available in this build yet\n");
	return 2;
}

const struct command cmd_kb = {
	.name = "kb",
	.usage = "kb TOPIC [ARGS]",
	.summary = "query the knowledge base (driver, gpu, arch, lib, cudnn, framework, error)",
	.run = kb_run,
};
