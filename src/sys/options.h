/* Options every command understands. Parsed once in main; commands read them. */
#ifndef CUDX_OPTIONS_H
#define CUDX_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>

enum output_format { OUT_TEXT, OUT_JSON, OUT_PROM };
enum target_os { OS_AUTO = 0, OS_LINUX, OS_WINDOWS };

#define OPT_MAX_GPUS 16
#define OPT_MAX_PYTHON 16

struct options {
	enum output_format format;
	const char *root;     /* --root DIR; NULL = live system */
	const char *env_file; /* --env FILE */
	int pid;              /* --pid PID; 0 = none */
	const char *driver;   /* --driver VER: simulate a host with this driver */
	const char *gpus[OPT_MAX_GPUS]; /* --gpu SM|NAME, repeatable */
	size_t n_gpus;
	const char *python[OPT_MAX_PYTHON]; /* --python PREFIX, repeatable */
	size_t n_python;
	enum target_os os; /* --os linux|windows */
	bool no_probe;     /* --no-probe */
	double probe_timeout; /* --probe-timeout SECONDS, default 20 */
	int verbose;          /* -v, repeatable */
	bool color;           /* decided from isatty + NO_COLOR + --color/--no-color */
};

void options_defaults(struct options *o);

#endif
