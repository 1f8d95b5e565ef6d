/* Least privilege for probe children: vendor code must not change the host (see probe_sandbox.c). */
#ifndef CUDX_PROBE_SANDBOX_H
#define CUDX_PROBE_SANDBOX_H

#include <stdbool.h>
#include <stddef.h>

#define PROBE_SANDBOX_MAX_NOTES 4

struct probe_sandbox {
	bool no_new_privs;  /* PR_SET_NO_NEW_PRIVS set */
	bool caps_dropped;  /* CAP_MKNOD, CAP_SYS_MODULE, ... gone from every set */
	bool dev_readonly;  /* root only: /dev read-only in a private mount namespace */
	char failed[PROBE_SANDBOX_MAX_NOTES][96]; /* steps that could not be applied, with errno text */
	size_t n_failed;
};

/* In a freshly forked child, before any vendor code: apply every step that this process may. */
void probe_sandbox_enter(struct probe_sandbox *s);

#endif
