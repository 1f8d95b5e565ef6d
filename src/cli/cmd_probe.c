/* Placeholder until the module that owns `cudx probe` lands: it replaces this file. */
#include <stdio.h>

#include "cli/command.h"

static int probe_run(struct cudx_ctx *ctx, int argc, char **argv)
{
	(void)ctx, (void)argc, (void)argv;
	fprintf(stderr, "cudx probe: not available in this build yet\n");
	return 2;
}

const struct command cmd_probe = {
	.name = "probe",
	.usage = "probe",
	.summary = "the live smoke test alone",
	.run = probe_run,
};
