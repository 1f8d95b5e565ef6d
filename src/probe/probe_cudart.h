/* The CUDA runtime entry points the probe calls (prototypes of cuda_runtime_api.h, declared here;
 * cudaError_t is an int). Shared by the runtime, cuBLAS and cuDNN stages, which need device memory. */
#ifndef CUDX_PROBE_CUDART_H
#define CUDX_PROBE_CUDART_H

#include <stdbool.h>
#include <stddef.h>

#include "probe/probe_child.h"

#define PROBE_MEMCPY_H2D 1 /* cudaMemcpyHostToDevice */
#define PROBE_MEMCPY_D2H 2 /* cudaMemcpyDeviceToHost */

struct probe_cudart {
	int (*runtime_version)(int *);
	int (*driver_version)(int *);
	int (*device_count)(int *);
	int (*malloc)(void **, size_t);
	int (*free)(void *);
	int (*memcpy)(void *, const void *, size_t, int);
	int (*malloc_host)(void **, size_t);
	int (*free_host)(void *);
	int (*sync)(void);
	const char *(*error_name)(int);
	const char *(*error_string)(int);
};

/* Resolve the entry points and make c name codes with cudaGetErrorName. */
void probe_cudart_bind(struct probe_child *c, struct probe_cudart *rt, void *lib);
/* Load the cudart a stage needs (c->helper), check it sees a device; true when usable. */
bool probe_cudart_ready(struct probe_child *c, struct probe_cudart *rt, char *file);
/* Copy n floats to a new device buffer, recording the steps; NULL on failure. */
void *probe_cudart_upload(struct probe_child *c, struct probe_cudart *rt, const float *h, size_t n,
			  const char *what);

#endif
