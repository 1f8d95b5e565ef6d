/* Least privilege for probe children: vendor code must not change the host (see probe_sandbox.c). */
#ifndef CUDX_PROBE_SANDBOX_H
#define CUDX_PROBE_SANDBOX_H

#include <stdbool.h>
#include <stddef.h>

#define PROBE_SANDBOX_MAX_NOTES 4

struct probe_sandbox {
	bool reported;      /* parent side: a child said how it was confined */
	bool no_new_privs;  /* PR_SET_NO_NEW_PRIVS set */
	bool caps_dropped;  /* CAP_MKNOD, CAP_SYS_MODULE, ... gone from every set (read back) */
	bool dev_needed;    /* the child runs as root: /dev must be read-only */
	bool dev_readonly;  /* /dev read-only in a private mount namespace */
	char failed[PROBE_SANDBOX_MAX_NOTES][96]; /* steps that could not be applied, with errno text */
	size_t n_failed;
};

/* In a freshly forked child, before any vendor code: apply every step that this process may. */
void probe_sandbox_enter(struct probe_sandbox *s);
/* Everything that keeps vendor code from changing the host is in place. */
bool probe_sandbox_complete(const struct probe_sandbox *s);
/* The state as one probe fact value ("nnp=1|caps=1|root=1|dev=1|fail=..."), and back. Decoding
 * takes any text (it comes through the pipe) and fills only what it recognises. */
void probe_sandbox_encode(const struct probe_sandbox *s, char *buf, size_t n);
void probe_sandbox_decode(const char *text, struct probe_sandbox *s);

#endif
