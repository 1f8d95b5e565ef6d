/* One file per subcommand, each exporting a `const struct command`; main.c only looks the name up
 * (the tmux/git pattern). */
#ifndef CUDX_COMMAND_H
#define CUDX_COMMAND_H

#include "sys/options.h"

struct cudx_ctx;

struct command {
	const char *name;
	const char *usage;   /* "why NAME [--from OBJECT]" */
	const char *summary; /* one line for `cudx --help` */
	/* argc/argv hold the command's own arguments: global options already removed.
	 * Returns the process exit status: 0 ok, 1 problems found, 2 usage or internal error. */
	int (*run)(struct cudx_ctx *ctx, int argc, char **argv);
};

extern const struct command cmd_check, cmd_why, cmd_tree, cmd_arch, cmd_probe, cmd_explain, cmd_kb, cmd_run;
extern const struct command cmd_compare;

/* Print "usage: cudx USAGE" to stderr and return 2. */
int command_usage(const struct command *c, const char *problem);

#endif
