/* `cudx kb` queries as data: each topic answers with a jansson object that the command renders as
 * text or dumps as JSON (compute, then show). */
#ifndef CUDX_KB_QUERY_H
#define CUDX_KB_QUERY_H

#include <jansson.h>
#include <stdbool.h>

#include "sys/options.h"

struct kb_query {
	const char *topic;  /* "driver", "gpu", "arch", "lib", "cudnn", "framework", "error", "tables" */
	const char *arg;    /* the thing asked about; NULL for listings */
	const char *arg2;   /* framework version */
	int cuda_major;     /* lib --cuda N; 0 = any */
	enum target_os os;  /* lib --os; OS_AUTO = both */
	const char *api;    /* error --api */
};

enum kb_query_status { KBQ_FOUND = 0, KBQ_NOT_FOUND = 1, KBQ_USAGE = 2 };

/* Answer a query. *result is always set (also when not found: {"found": false, ...}); *problem
 * names a usage problem when KBQ_USAGE is returned. */
enum kb_query_status kb_query_run(const struct kb_query *q, json_t **result, const char **problem);
/* The topics, for usage messages. */
extern const char kb_query_topics[];

#endif
