/* inventory_note for the native build (the same as src/collect/inventory.c's, which is left out
 * there because it calls the Linux collectors). */
#include <stdarg.h>

#include "collect/inventory.h"

void inventory_note(struct cudx_ctx *ctx, struct inventory *inv, const char *subject, const char *fmt, ...)
{
	struct inventory_note *n = ARENA_PUSH(ctx->arena, inv->notes, inv->n_notes, inv->cap_notes);
	va_list ap;
	va_start(ap, fmt);
	n->message = arena_vprintf(ctx->arena, fmt, ap);
	va_end(ap);
	n->subject = subject ? arena_strdup(ctx->arena, subject) : NULL;
}
