/* `cudx compare`: nodes grouped by driver, CUDA runtimes, cuDNN, GPUs and finding set, and the
 * nodes that differ from the majority. Computes only; src/fleet/fleet_render.c prints.
 *
 * Memory is bounded by what is kept per node: its name, file, host name and one interned value per
 * dimension. Equal values are stored once (a hash table of strings), so 10,000 nodes running the
 * same stack hold a few dozen strings besides their names. */
#ifndef CUDX_FLEET_COMPARE_H
#define CUDX_FLEET_COMPARE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fleet/fleet_report.h"
#include "util/arena.h"

enum fleet_dim { FLEET_DRIVER, FLEET_CUDART, FLEET_CUDNN, FLEET_GPUS, FLEET_FINDINGS, FLEET_NDIM };

/* "driver", "CUDA runtime", ... for people; "driver", "cuda_runtime", ... for JSON */
extern const char *const fleet_dim_title[FLEET_NDIM];
extern const char *const fleet_dim_key[FLEET_NDIM];

/* A value a dimension takes: "550.54.15", "12.4.127, 11.8.89", "8x NVIDIA H100 80GB HBM3",
 * "driver-too-old no-driver" (finding ids, sorted, space-separated), or "none". */
struct fleet_value {
	const char *s;
	uint32_t count[FLEET_NDIM]; /* nodes with this value in each dimension */
	uint32_t first[FLEET_NDIM]; /* the first such node: ties between groups go to the earlier */
};

struct fleet_node {
	const char *name;     /* the file name without .json (srun --output=%N.json names it) */
	const char *file;     /* as given */
	const char *hostname; /* from the report; NULL for a --root report */
	uint32_t v[FLEET_NDIM]; /* index into values */
};

struct fleet_unreadable {
	const char *file;
	const char *error;
};

struct fleet {
	struct arena *arena;
	struct fleet_node *nodes;
	size_t n_nodes, cap_nodes;
	struct fleet_value *values;
	size_t n_values, cap_values;
	uint32_t *slots; /* open addressing: value index + 1, 0 free */
	size_t n_slots;
	struct fleet_unreadable *bad;
	size_t n_bad, cap_bad;
	/* after fleet_finish */
	uint32_t majority[FLEET_NDIM];
	bool tied[FLEET_NDIM];  /* another value has as many nodes */
	size_t n_outliers;
};

void fleet_init(struct fleet *f, struct arena *a);
/* Add a node; sorts r's lists in place. */
void fleet_add(struct fleet *f, const char *file, struct fleet_report *r);
void fleet_add_unreadable(struct fleet *f, const char *file, const char *error);
/* Majorities and outliers; call once, after the last add. */
void fleet_finish(struct fleet *f);

bool fleet_node_differs(const struct fleet *f, const struct fleet_node *n, enum fleet_dim d);
bool fleet_node_is_outlier(const struct fleet *f, const struct fleet_node *n);

/* The values dimension d takes, most nodes first (ties: first seen first). Returns how many; *out
 * lives in the arena. */
size_t fleet_groups(const struct fleet *f, enum fleet_dim d, uint32_t **out);
/* Node indices in group order of dimension d (as fleet_groups), by name (node2 before node10)
 * within a group. */
size_t *fleet_node_order(const struct fleet *f, enum fleet_dim d);

/* Finding ids of node n that the majority's set lacks (extra) and the other way (missing); the
 * arrays live in the arena. */
void fleet_findings_diff(const struct fleet *f, const struct fleet_node *n, const char ***extra,
			 size_t *n_extra, const char ***missing, size_t *n_missing);

#endif
