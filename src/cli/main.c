/* cudx: find out why the NVIDIA GPU software stack does not work, and say what to do.
 * main only parses the global options and dispatches to a command (src/cli/cmd_*.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/command.h"
#include "cli/global_options.h"
#include "sys/context.h"

static const struct command *const commands[] = {
	&cmd_check, &cmd_why, &cmd_tree, &cmd_arch, &cmd_probe, &cmd_explain, &cmd_kb, &cmd_run, &cmd_compare,
};

static const struct command *command_lookup(const char *name)
{
	for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
		if (strcmp(commands[i]->name, name) == 0)
			return commands[i];
	return NULL;
}

static void print_help(FILE *f)
{
	fprintf(f, "usage: cudx [COMMAND] [OPTIONS]\n\n"
		   "Finds out why the NVIDIA GPU software stack does not work, and says what to do.\n\n"
		   "commands:\n");
	for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
		if (strlen(commands[i]->usage) > 30)
			fprintf(f, "  %s\n  %-30s %s\n", commands[i]->usage, "", commands[i]->summary);
		else
			fprintf(f, "  %-30s %s\n", commands[i]->usage, commands[i]->summary);
	}
	fprintf(f, "\n%s", global_options_help);
}

int main(int argc, char **argv)
{
	struct arena arena;
	struct options opt;
	arena_init(&arena);
	options_defaults(&opt);

	/* argv minus the global options; the first remaining word may name the command */
	char **rest = arena_calloc(&arena, (size_t)argc + 1, sizeof *rest);
	int n_rest = 0;
	int rc = global_options_parse(&opt, argc, argv, rest, &n_rest);
	if (rc == GLOBAL_OPTIONS_HELP) {
		print_help(stdout);
		arena_free(&arena);
		return 0;
	}
	if (rc == GLOBAL_OPTIONS_VERSION) {
		printf("cudx %s\n", CUDX_VERSION);
		arena_free(&arena);
		return 0;
	}
	if (rc != 0) {
		arena_free(&arena);
		return 2;
	}

	const struct command *cmd = &cmd_check;
	int first = 0;
	if (n_rest > 0 && rest[0][0] != '-') {
		cmd = command_lookup(rest[0]);
		if (!cmd) {
			fprintf(stderr, "cudx: unknown command '%s'\n\n", rest[0]);
			print_help(stderr);
			arena_free(&arena);
			return 2;
		}
		first = 1;
	}

	struct cudx_ctx ctx;
	if (ctx_init(&ctx, &arena, &opt) != 0) {
		arena_free(&arena);
		return 2;
	}
	int status = cmd->run(&ctx, n_rest - first, rest + first);
	fflush(stdout);
	arena_free(&arena);
	return status;
}
