/* TEST DOUBLE of libcudart.so (no GPU on CI). Like the real runtime it loads libcuda.so.1 itself
 * and derives its answers from it: no libcuda -> 35 with driver version 0; a driver older than the
 * runtime's major -> 35; a failing cuInit -> that code. Device memory is host memory. */
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

#include "double_env.h"

static int state = -1; /* -1 not initialised, else the error every call returns */
static int drv_version;

static int init(void)
{
	if (state >= 0)
		return state;
	void *cu = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
	if (!cu)
		return state = 35;
	int (*ver)(int *) = (int (*)(int *))dlsym(cu, "cuDriverGetVersion");
	int (*ini)(unsigned) = (int (*)(unsigned))dlsym(cu, "cuInit");
	if (!ver || !ini)
		return state = 35;
	int rc = ver(&drv_version);
	if (rc)
		return state = rc;
	if (drv_version / 1000 < double_env("CUDX_DOUBLE_RUNTIME_VERSION", 13000) / 1000)
		return state = 35;
	return state = ini(0);
}

int cudaRuntimeGetVersion(int *v)
{
	*v = (int)double_env("CUDX_DOUBLE_RUNTIME_VERSION", 13000);
	return 0;
}

int cudaDriverGetVersion(int *v)
{
	init();
	*v = drv_version;
	return 0;
}

int cudaGetDeviceCount(int *n)
{
	int rc = init();
	if (rc)
		return rc;
	*n = (int)double_env("CUDX_DOUBLE_DEVICES", 1);
	return *n ? 0 : 100;
}

int cudaMalloc(void **p, size_t n)
{
	int rc = init();
	if (rc)
		return rc;
	*p = malloc(n);
	return *p ? 0 : 2;
}

int cudaFree(void *p)
{
	free(p);
	return 0;
}

int cudaMemcpy(void *dst, const void *src, size_t n, int kind)
{
	int rc = init();
	if (rc)
		return rc;
	memcpy(dst, src, n);
	if (kind == 2 && n > 100 && double_is("CUDX_DOUBLE_WRONG", "1"))
		((unsigned char *)dst)[100] ^= 0xff;
	return 0;
}

int cudaMallocHost(void **p, size_t n)
{
	return cudaMalloc(p, n);
}

int cudaFreeHost(void *p)
{
	free(p);
	return 0;
}

int cudaDeviceSynchronize(void)
{
	return init();
}

const char *cudaGetErrorName(int code)
{
	return code == 35 ? "cudaErrorInsufficientDriver" : code == 0 ? "cudaSuccess" : "cudaErrorDouble";
}

const char *cudaGetErrorString(int code)
{
	(void)code;
	return "simulated by the cudx test double";
}
