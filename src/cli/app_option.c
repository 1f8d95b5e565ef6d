/* --app APP: see app_option.h. */
#include "cli/app_option.h"

#include <stdio.h>
#include <string.h>

enum app_option app_option(struct arena *a, struct focus *fo, int argc, char **argv, int *i)
{
	const char *app = NULL;
	if (strncmp(argv[*i], "--app=", 6) == 0)
		app = argv[*i] + 6;
	else if (strcmp(argv[*i], "--app") == 0)
		app = *i + 1 < argc ? argv[++*i] : "";
	else
		return APP_OPTION_NOT;
	if (!*app)
		return APP_OPTION_BAD;
	fo->whole_system = true;
	focus_add(a, fo, FOCUS_OBJECT, app);
	return APP_OPTION_TAKEN;
}

bool app_option_ok(const struct focus *fo, const char *cmd)
{
	bool ok = true;
	for (size_t i = 0; i < fo->n_items; i++)
		if (fo->items[i].kind == FOCUS_OBJECT && fo->items[i].error) {
			fprintf(stderr, "cudx %s: --app %s: %s\n", cmd, fo->items[i].name, fo->items[i].error);
			ok = false;
		}
	return ok;
}
