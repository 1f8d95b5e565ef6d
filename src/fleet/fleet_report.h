/* One node's `cudx check --json` report (schema cudx/1, docs/json.md), reduced to the fields
 * `cudx compare` groups on. Lists keep their first FLEET_MAX_* distinct entries (more than any
 * cudx report holds) and ignore the rest. Reading keeps no part of the document: a report of any size becomes
 * this fixed-size summary, so comparing 10,000 nodes holds 10,000 summaries' keys, not reports. */
#ifndef CUDX_FLEET_REPORT_H
#define CUDX_FLEET_REPORT_H

#include <stdbool.h>
#include <stddef.h>

#include "util/span.h"

#define FLEET_MAX_VERSIONS 16 /* distinct CUDA runtime / cuDNN versions kept per node */
#define FLEET_MAX_GPUS 64
#define FLEET_MAX_FINDINGS 256 /* distinct finding ids kept per node */
#define FLEET_VALUE_MAX 256    /* longest string kept, with its NUL */
#define FLEET_ID_MAX 96        /* longest finding id kept, with its NUL */
#define FLEET_REPORT_MAX_BYTES (64u << 20)

struct fleet_gpu {
	char name[FLEET_VALUE_MAX];
	unsigned count;
};

struct fleet_report {
	char hostname[FLEET_VALUE_MAX]; /* "" when the report has none (a --root report) */
	char driver[FLEET_VALUE_MAX];   /* inventory.driver.effective_version, "" when none */
	char cudart[FLEET_MAX_VERSIONS][FLEET_VALUE_MAX];
	size_t n_cudart;
	char cudnn[FLEET_MAX_VERSIONS][FLEET_VALUE_MAX];
	size_t n_cudnn;
	struct fleet_gpu gpus[FLEET_MAX_GPUS]; /* distinct models, with how many of each */
	size_t n_gpus;
	char findings[FLEET_MAX_FINDINGS][FLEET_ID_MAX];
	size_t n_findings;
	char error[192]; /* why the report was refused */
};

/* Read one report. Returns true with r filled, or false with r->error set ("not JSON: unexpected
 * end of input at byte 812", "schema 'cudx/2' is not supported: this cudx reads cudx/1", ...). */
bool fleet_report_read(struct span doc, struct fleet_report *r);

#endif
