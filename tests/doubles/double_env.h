/* Shared by the test doubles: read the simulation knobs from the environment. */
#ifndef CUDX_DOUBLE_ENV_H
#define CUDX_DOUBLE_ENV_H
#include <stdlib.h>
#include <string.h>
static inline long double_env(const char *name, long dflt)
{
	const char *v = getenv(name);
	return v && *v ? strtol(v, NULL, 10) : dflt;
}
static inline int double_is(const char *name, const char *value)
{
	const char *v = getenv(name);
	return v && strcmp(v, value) == 0;
}
#endif
