#include "cli/global_options.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char global_options_help[] =
	"options (any command):\n"
	"  --json                 machine-readable output (schema: docs/json.md)\n"
	"  --prom                 Prometheus text format (check only)\n"
	"  --root DIR             analyse a tree (container image, chroot, copied Windows C:)\n"
	"  --env FILE             environment of the target (env, set, or /proc/PID/environ format)\n"
	"  --pid PID              use a running process's environment and loaded libraries\n"
	"  --driver VER           simulate a host with this NVIDIA driver version\n"
	"  --gpu SM|NAME          simulate this GPU (sm_86, 8.6, \"RTX 3090\"); repeatable\n"
	"  --python PREFIX        also inspect this Python environment; repeatable\n"
	"  --os linux|windows     the target's OS when it cannot be inferred from --root\n"
	"  --no-probe             skip the live smoke test\n"
	"  --probe-timeout SEC    time limit of the live probe (default 20)\n"
	"  --color, --no-color    force or disable colour (default: on a terminal, unless NO_COLOR)\n"
	"  -v                     more detail (repeatable)\n"
	"  -h, --help, --version\n";

void options_defaults(struct options *o)
{
	memset(o, 0, sizeof *o);
	o->format = OUT_TEXT;
	o->probe_timeout = 20.0;
	const char *nc = getenv("NO_COLOR");
	o->color = isatty(STDOUT_FILENO) && !(nc && *nc);
}

/* "--name VALUE" or "--name=VALUE"; advances *i past the value. */
static const char *take_value(int argc, char **argv, int *i, const char *name)
{
	const char *arg = argv[*i];
	size_t len = strlen(name);
	if (strncmp(arg, name, len) == 0 && arg[len] == '=')
		return arg + len + 1;
	if (strcmp(arg, name) == 0) {
		if (*i + 1 >= argc) {
			fprintf(stderr, "cudx: %s needs a value\n", name);
			return NULL;
		}
		return argv[++*i];
	}
	return NULL;
}

static bool is_opt(const char *arg, const char *name)
{
	size_t len = strlen(name);
	return strncmp(arg, name, len) == 0 && (arg[len] == '\0' || arg[len] == '=');
}

int global_options_parse(struct options *o, int argc, char **argv, char **rest, int *n_rest)
{
	*n_rest = 0;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v;
		if (strcmp(a, "--") == 0) {
			while (++i < argc)
				rest[(*n_rest)++] = argv[i];
			break;
		}
		if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0)
			return GLOBAL_OPTIONS_HELP;
		if (strcmp(a, "--version") == 0)
			return GLOBAL_OPTIONS_VERSION;
		if (strcmp(a, "--json") == 0)
			o->format = OUT_JSON;
		else if (strcmp(a, "--prom") == 0)
			o->format = OUT_PROM;
		else if (strcmp(a, "--no-probe") == 0)
			o->no_probe = true;
		else if (strcmp(a, "--color") == 0)
			o->color = true;
		else if (strcmp(a, "--no-color") == 0)
			o->color = false;
		else if (strcmp(a, "-v") == 0 || strcmp(a, "--verbose") == 0)
			o->verbose++;
		else if (strcmp(a, "-vv") == 0)
			o->verbose += 2;
		else if (is_opt(a, "--root")) {
			if (!(v = take_value(argc, argv, &i, "--root")))
				return 2;
			/* an empty root would be the live system: not what `--root "$UNSET"` meant */
			if (!*v) {
				fprintf(stderr, "cudx: --root needs a directory\n");
				return 2;
			}
			o->root = v;
		} else if (is_opt(a, "--env")) {
			if (!(v = take_value(argc, argv, &i, "--env")))
				return 2;
			if (!*v) {
				fprintf(stderr, "cudx: --env needs a file\n");
				return 2;
			}
			o->env_file = v;
		} else if (is_opt(a, "--pid")) {
			if (!(v = take_value(argc, argv, &i, "--pid")))
				return 2;
			char *end;
			long pid = strtol(v, &end, 10);
			if (*end || pid <= 0 || pid > 1 << 30) {
				fprintf(stderr, "cudx: --pid wants a process id, not '%s'\n", v);
				return 2;
			}
			o->pid = (int)pid;
		} else if (is_opt(a, "--driver")) {
			if (!(v = take_value(argc, argv, &i, "--driver")))
				return 2;
			o->driver = v;
		} else if (is_opt(a, "--gpu")) {
			if (!(v = take_value(argc, argv, &i, "--gpu")))
				return 2;
			if (o->n_gpus == OPT_MAX_GPUS) {
				fprintf(stderr, "cudx: at most %d --gpu options\n", OPT_MAX_GPUS);
				return 2;
			}
			o->gpus[o->n_gpus++] = v;
		} else if (is_opt(a, "--python")) {
			if (!(v = take_value(argc, argv, &i, "--python")))
				return 2;
			if (o->n_python == OPT_MAX_PYTHON) {
				fprintf(stderr, "cudx: at most %d --python options\n", OPT_MAX_PYTHON);
				return 2;
			}
			o->python[o->n_python++] = v;
		} else if (is_opt(a, "--os")) {
			if (!(v = take_value(argc, argv, &i, "--os")))
				return 2;
			if (strcmp(v, "linux") == 0)
				o->os = OS_LINUX;
			else if (strcmp(v, "windows") == 0)
				o->os = OS_WINDOWS;
			else {
				fprintf(stderr, "cudx: --os wants linux or windows, not '%s'\n", v);
				return 2;
			}
		} else if (is_opt(a, "--probe-timeout")) {
			if (!(v = take_value(argc, argv, &i, "--probe-timeout")))
				return 2;
			char *end;
			double t = strtod(v, &end);
			if (*end || !(t > 0 && t <= 3600)) {
				fprintf(stderr, "cudx: --probe-timeout wants seconds (0 < s <= 3600), not '%s'\n", v);
				return 2;
			}
			o->probe_timeout = t;
		} else
			rest[(*n_rest)++] = argv[i];
	}
	return 0;
}
