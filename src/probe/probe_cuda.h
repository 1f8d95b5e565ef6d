/* The few CUDA driver-API entry points the probe calls, resolved with dlsym. Prototypes are
 * declared here (CUresult is an int, CUdevice an int, the others opaque pointers) so cudx needs no
 * CUDA header; they match cuda.h's ABI, which NVIDIA keeps stable per symbol version suffix. */
#ifndef CUDX_PROBE_CUDA_H
#define CUDX_PROBE_CUDA_H

#include <stddef.h>

#include "probe/probe_child.h"

#define PROBE_CU_ATTR_CC_MAJOR 75 /* CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR */
#define PROBE_CU_ATTR_CC_MINOR 76

struct probe_cu {
	int (*cuDriverGetVersion)(int *);
	int (*cuInit)(unsigned);
	int (*cuDeviceGetCount)(int *);
	int (*cuDeviceGet)(int *, int);
	int (*cuDeviceGetName)(char *, int, int);
	int (*cuDeviceGetAttribute)(int *, int, int);
	int (*cuDeviceTotalMem)(size_t *, int);          /* cuDeviceTotalMem_v2 */
	int (*cuDeviceGetUuid)(unsigned char *, int);    /* _v2 when present */
	int (*cuDeviceGetPCIBusId)(char *, int, int);
	int (*cuGetErrorName)(int, const char **);
	int (*cuGetErrorString)(int, const char **);
	int (*cuDevicePrimaryCtxRetain)(void **, int);
	int (*cuDevicePrimaryCtxRelease)(int);           /* _v2 */
	int (*cuCtxSetCurrent)(void *);
	int (*cuCtxSynchronize)(void);
	int (*cuModuleLoadDataEx)(void **, const void *, unsigned, void *, void *);
	int (*cuModuleGetFunction)(void **, void *, const char *);
	int (*cuModuleUnload)(void *);
	int (*cuMemAlloc)(unsigned long long *, size_t);   /* _v2 */
	int (*cuMemFree)(unsigned long long);              /* _v2 */
	int (*cuMemcpyHtoD)(unsigned long long, const void *, size_t); /* _v2 */
	int (*cuMemcpyDtoH)(void *, unsigned long long, size_t);       /* _v2 */
	int (*cuLaunchKernel)(void *, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
			      unsigned, void *, void **, void **);
};

/* Load the stage's libcuda (c->target), resolve the entry points (missing ones stay NULL; the
 * essential ones are recorded as MISSING steps) and make the child name codes with cuGetErrorName.
 * NULL when it did not load. */
void *probe_cu_open(struct probe_child *c, struct probe_cu *cu, char *file);

#endif
