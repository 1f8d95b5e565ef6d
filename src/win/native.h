/* Pieces of the native Windows build (cudx.exe, built by scripts/build-windows.sh with mingw-w64):
 * the live environment and the live load probe. */
#ifndef CUDX_WIN_NATIVE_H
#define CUDX_WIN_NATIVE_H

#include <stdbool.h>
#include <string.h>

#include "sys/envsnap.h"

void win_env_live(struct envsnap *e, struct arena *a);

/* LoadLibraryExW(name) in a child process (this .exe run with --probe-child), so a DllMain that
 * crashes or hangs cannot take cudx down; killed after timeout_s. */
struct win_probe_result {
	bool ran;            /* the child started and answered */
	bool loaded;
	unsigned long error; /* GetLastError() of the failed load: 126, 193, ... */
	const char *path;    /* the file Windows loaded (GetModuleFileNameW) */
	const char *problem; /* why the probe itself failed (timeout, no answer) */
};
void win_probe_load(struct arena *a, const char *name, double timeout_s, struct win_probe_result *r);
/* The child's side: load, print one line, return the exit status. */
int win_probe_child(const char *name);

#endif
