#include <ctype.h>
#include <stdarg.h>
#include <string.h>

#include "collect/focus.h"
#include "collect/inventory.h"

void inventory_note(struct cudx_ctx *ctx, struct inventory *inv, const char *subject,
		    const char *fmt, ...)
{
	struct inventory_note *n = ARENA_PUSH(ctx->arena, inv->notes, inv->n_notes, inv->cap_notes);
	va_list ap;
	va_start(ap, fmt);
	n->message = arena_vprintf(ctx->arena, fmt, ap);
	va_end(ap);
	n->subject = subject ? arena_strdup(ctx->arena, subject) : NULL;
}

const char *inventory_env(const struct inventory *inv, const char *name)
{
	for (size_t i = 0; i < inv->n_env; i++)
		if (strcmp(inv->env[i].name, name) == 0)
			return inv->env[i].value;
	return NULL;
}

size_t inventory_visible_gpus(const struct inventory *inv, bool *by_nodes)
{
	size_t n = 0;
	for (size_t i = 0; i < inv->n_gpus; i++)
		n += strcmp(inv->gpus[i].source, "--gpu") != 0;
	if (by_nodes)
		*by_nodes = false;
	if (n)
		return n;
	for (size_t i = 0; i < inv->driver.n_nodes; i++) {
		const struct device_node *dn = &inv->driver.nodes[i];
		n += dn->exists && strncmp(dn->path, "/dev/nvidia", 11) == 0 && isdigit((unsigned char)dn->path[11]);
	}
	if (by_nodes)
		*by_nodes = n > 0;
	return n;
}

/* The native Windows build (src/win) compiles this file for the functions above; it has none of
 * the Linux collectors and runs collect_windows from its own `check`. */
#ifndef CUDX_WIN_NATIVE
#define ON_LINUX (1u << OS_LINUX)
#define ON_WINDOWS (1u << OS_WINDOWS)
#define ON_ANY (ON_LINUX | ON_WINDOWS)

/* The collectors in order, with the target OSes they run for. Linux-only: those that read ld.so's
 * cache, ELF libraries, /proc or /sys, or run the dlopen probe on this machine. driver and gpus
 * serve both: on Windows they only take --driver and --gpu (the /proc parts check ctx->os). */
static const struct collector {
	void (*collect)(struct cudx_ctx *ctx, struct inventory *inv);
	unsigned os;
} collectors[] = {
	{ collect_system, ON_ANY },    { collect_env, ON_ANY },       { collect_toolkits, ON_LINUX },
	{ collect_hostcc, ON_LINUX },  { collect_container_engine, ON_LINUX },
	{ collect_libs, ON_LINUX },    { collect_driver, ON_ANY },    { collect_gpus, ON_ANY },
	{ collect_focus, ON_LINUX },   { collect_python, ON_ANY },
	/* after python: a mapped wheel library's version is the copy's the python collector read */
	{ collect_process, ON_LINUX },
	{ collect_windows, ON_WINDOWS }, { collect_arch, ON_LINUX },  { collect_probe, ON_LINUX },
};

void inventory_collect_about(struct cudx_ctx *ctx, struct inventory *inv, struct focus *focus)
{
	memset(inv, 0, sizeof *inv);
	inv->focus = focus;
	for (size_t i = 0; i < sizeof collectors / sizeof collectors[0]; i++)
		if (collectors[i].os & (1u << ctx->os))
			collectors[i].collect(ctx, inv);
}

void inventory_collect(struct cudx_ctx *ctx, struct inventory *inv)
{
	inventory_collect_about(ctx, inv, NULL);
}
#endif
