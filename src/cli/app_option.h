/* `--app APP` (repeatable), the option of `check` and `explain` that makes an application a subject
 * of the inventory as `tree APP` does (collect/focus.h): the GPU libraries its dependency tree
 * reaches, RUNPATH $ORIGIN/../lib included, are judged by the rules like any other. */
#ifndef CUDX_APP_OPTION_H
#define CUDX_APP_OPTION_H

#include "collect/focus.h"

enum app_option { APP_OPTION_NOT, APP_OPTION_TAKEN, APP_OPTION_BAD };

/* Whether argv[*i] is `--app APP` or `--app=APP`: then APP joins fo (made whole_system, so that
 * the command still sees everything) and *i moves past it. APP_OPTION_BAD: --app without a file. */
enum app_option app_option(struct arena *a, struct focus *fo, int argc, char **argv, int *i);

/* After collection: prints each application that could not be read ("cudx CMD: --app X: why") and
 * returns false when there was one. */
bool app_option_ok(const struct focus *fo, const char *cmd);

#endif
