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
	struct probe_code_names names; /* cudaGetErrorName, cudaGetErrorString */
};

/* Resolve the entry points and make c name codes with cudaGetErrorName. */
void probe_cudart_bind(struct probe_child *c, struct probe_cudart *rt, void *lib);
/* Load the cudart a stage needs (c->helper), check it sees a device; true when usable. */
bool probe_cudart_ready(struct probe_child *c, struct probe_cudart *rt, char *file);
/* Copy n floats to a new device buffer, recording the steps; NULL on failure. */
void *probe_cudart_upload(struct probe_child *c, struct probe_cudart *rt, const float *h, size_t n,
			  const char *what);
/* The end of a library's computation, which the caller made with the library `file`: copy its n
 * floats at dev back to host with rt (the cudart in rtfile that gave the memory), compare them
 * with want, and report the outcome. */
struct probe_check {
	const char *copy;  /* the copy step: "cudaMemcpy C to host" */
	const char *step;  /* "SGEMM result verified" */
	const char *ok;    /* its value when the result matches */
	const char *wrong; /* and when it does not */
};
void probe_cudart_check(struct probe_child *c, struct probe_cudart *rt, const char *rtfile, const char *file,
			const struct probe_check *k, float *host, const void *dev, const float *want, size_t n);

#endif
