#ifndef CUDX_GLOBAL_OPTIONS_H
#define CUDX_GLOBAL_OPTIONS_H

#include "sys/options.h"

#define GLOBAL_OPTIONS_HELP 100
#define GLOBAL_OPTIONS_VERSION 101

extern const char global_options_help[];

/* Take the global options out of argv (they may appear anywhere); everything else is copied to
 * rest in order. Returns 0, GLOBAL_OPTIONS_HELP/VERSION, or 2 after printing a usage error.
 * "--" ends option parsing: what follows goes to rest as it is. */
int global_options_parse(struct options *o, int argc, char **argv, char **rest, int *n_rest);

#endif
