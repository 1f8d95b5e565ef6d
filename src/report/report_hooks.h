/* Subjects owned by other modules (frameworks, probe, Windows, GPU code) render their part of the
 * check report here, so the core renderers need not know their structures. */
#ifndef CUDX_REPORT_HOOKS_H
#define CUDX_REPORT_HOOKS_H

#include <jansson.h>
#include <stdio.h>

#include "collect/inventory.h"

json_t *report_inventory_json(const struct inventory *inv);
/* Add each module's inventory object to the inventory JSON object. */
void report_hooks_json(const struct inventory *inv, json_t *inventory);
/* Print each module's text section. */
void report_hooks_text(FILE *out, const struct cudx_ctx *ctx, const struct inventory *inv);

#endif
