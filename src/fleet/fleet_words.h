/* `cudx compare`'s differences in words, shared by its renderer and the fleet rules
 * (src/diag/rules_fleet.c), which put the same lines in the findings' evidence. */
#ifndef CUDX_FLEET_WORDS_H
#define CUDX_FLEET_WORDS_H

#include "fleet/fleet_compare.h"

/* A dimension's value for people: "none" becomes "no driver", "no cuDNN", ...; a finding set's ids
 * are joined with ", ". In the arena (or v itself). */
const char *fleet_value_words(struct arena *a, enum fleet_dim d, const char *v);

/* The differences of node n with the majority, one string each, in dimension order ("driver
 * 535.104.05 (majority 550.54.15, 412 of 420 nodes)", "extra finding driver-too-old"); out holds
 * FLEET_NDIM + 1. Returns how many. */
size_t fleet_differences(const struct fleet *f, const struct fleet_node *n, const char **out);

/* The same joined with "; ". In the arena. */
const char *fleet_outlier_line(const struct fleet *f, const struct fleet_node *n);

#endif
