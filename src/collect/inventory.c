#include <stdarg.h>
#include <string.h>

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

void inventory_collect(struct cudx_ctx *ctx, struct inventory *inv)
{
	memset(inv, 0, sizeof *inv);
	collect_system(ctx, inv);
	collect_env(ctx, inv);
	collect_toolkits(ctx, inv);
	collect_libs(ctx, inv);
	collect_driver(ctx, inv);
	collect_gpus(ctx, inv);
	collect_process(ctx, inv);
	collect_python(ctx, inv);
	collect_windows(ctx, inv);
	collect_arch(ctx, inv);
	collect_probe(ctx, inv);
}
