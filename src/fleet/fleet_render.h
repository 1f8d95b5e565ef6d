/* The output of `cudx compare`: text for people, JSON (command "compare", docs/fleet.md). */
#ifndef CUDX_FLEET_RENDER_H
#define CUDX_FLEET_RENDER_H

#include "diag/finding.h"
#include "fleet/fleet_compare.h"
#include "sys/context.h"

/* One outlier's differences in words: "driver 535.104.05 (majority 550.54.15, 412 of 420
 * nodes); extra finding driver-too-old". In the arena. */
const char *fleet_outlier_line(const struct fleet *f, const struct fleet_node *n);

/* The findings compare draws: fleet-node-differs per outlier, fleet-report-unreadable per file. */
void fleet_findings(const struct fleet *f, struct findings *fs);

void fleet_render_text(struct cudx_ctx *ctx, const struct fleet *f);
void fleet_render_json(struct cudx_ctx *ctx, const struct fleet *f, const struct findings *fs);

#endif
