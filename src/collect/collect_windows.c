/* Placeholder: the windows collector is filled in by its module. */
#include "collect/inventory.h"

void collect_windows(struct cudx_ctx *ctx, struct inventory *inv)
{
	(void)ctx, (void)inv;
}
