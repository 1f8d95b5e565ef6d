/* The output of `cudx compare`: text for people, JSON (command "compare", docs/fleet.md). */
#ifndef CUDX_FLEET_RENDER_H
#define CUDX_FLEET_RENDER_H

#include "collect/inventory.h"
#include "diag/finding.h"
#include "fleet/fleet_compare.h"
#include "sys/context.h"

void fleet_render_text(struct cudx_ctx *ctx, const struct fleet *f);
/* The envelope (report_envelope_json: inv holds the system compare ran on; fs, the findings the
 * fleet rules drew from f), then compare's own keys (docs/fleet.md). */
void fleet_render_json(struct cudx_ctx *ctx, const struct inventory *inv, const struct fleet *f,
		       const struct findings *fs);

#endif
