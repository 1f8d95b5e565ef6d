#include <stdio.h>

#include "cli/command.h"

int command_usage(const struct command *c, const char *problem)
{
	if (problem)
		fprintf(stderr, "cudx %s: %s\n", c->name, problem);
	fprintf(stderr, "usage: cudx %s\n", c->usage);
	return 2;
}
