/* TEST DOUBLE of libcuda.so.1 (no GPU on CI): simulates devices, failure codes, crashes, hangs and
 * exit() inside the driver. Device memory is host memory; the PTX kernel is run on the host. */
#include <dlfcn.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "double_env.h"

static int inited;

__attribute__((constructor)) static void ctor(void)
{
	if (double_is("CUDX_DOUBLE_CTOR_EXIT", "1"))
		exit(3);
}

int cuDriverGetVersion(int *v)
{
	*v = (int)double_env("CUDX_DOUBLE_DRIVER_VERSION", 13000);
	return 0;
}

int cuInit(unsigned flags)
{
	(void)flags;
	if (double_is("CUDX_DOUBLE_CHATTER", "1")) {
		printf("double libcuda chatter on stdout\n");
		fprintf(stderr, "double libcuda chatter on stderr\n");
		fflush(stdout);
	}
	if (double_is("CUDX_DOUBLE_CRASH", "segv"))
		raise(SIGSEGV);
	if (double_is("CUDX_DOUBLE_CRASH", "abort"))
		abort();
	if (double_is("CUDX_DOUBLE_CRASH", "exit"))
		exit(7);
	if (double_is("CUDX_DOUBLE_CRASH", "hang"))
		for (;;)
			pause();
	int rc = (int)double_env("CUDX_DOUBLE_CUINIT", 0);
	inited = rc == 0;
	return rc;
}

#define NEED_INIT() \
	do {                  \
		if (!inited)  \
			return 3; \
	} while (0)

int cuDeviceGetCount(int *n)
{
	NEED_INIT();
	*n = (int)double_env("CUDX_DOUBLE_DEVICES", 1);
	return 0;
}

int cuDeviceGet(int *d, int i)
{
	NEED_INIT();
	if (i < 0 || i >= double_env("CUDX_DOUBLE_DEVICES", 1))
		return 101;
	*d = i;
	return 0;
}

int cuDeviceGetName(char *s, int len, int d)
{
	snprintf(s, (size_t)len, "Double GPU %d", d);
	return 0;
}

int cuDeviceGetAttribute(int *v, int attr, int d)
{
	(void)d;
	*v = attr == 75 ? 9 : attr == 76 ? 0 : 0;
	return 0;
}

int cuDeviceTotalMem_v2(size_t *m, int d)
{
	(void)d;
	*m = (size_t)80 << 30;
	return 0;
}

int cuDeviceGetUuid_v2(unsigned char *u, int d)
{
	for (int i = 0; i < 16; i++)
		u[i] = (unsigned char)(0x10 * d + i);
	return 0;
}

int cuDeviceGetPCIBusId(char *s, int len, int d)
{
	snprintf(s, (size_t)len, "00000000:%02X:00.0", 0x17 + d);
	return 0;
}

int cuGetErrorName(int code, const char **s)
{
	*s = code == 0 ? "CUDA_SUCCESS" : code == 222 ? "CUDA_ERROR_UNSUPPORTED_PTX_VERSION"
		: code == 221 ? "CUDA_ERROR_JIT_COMPILER_NOT_FOUND" : "CUDA_ERROR_DOUBLE";
	return 0;
}

int cuGetErrorString(int code, const char **s)
{
	(void)code;
	*s = "simulated by the cudx test double";
	return 0;
}

int cuDevicePrimaryCtxRetain(void **ctx, int d)
{
	NEED_INIT();
	*ctx = (void *)(uintptr_t)(0x1000 + d);
	return 0;
}

int cuDevicePrimaryCtxRelease_v2(int d)
{
	(void)d;
	return 0;
}

int cuCtxSetCurrent(void *ctx)
{
	(void)ctx;
	return 0;
}

int cuCtxSynchronize(void)
{
	return 0;
}

static int saxpy_handle;

int cuModuleLoadDataEx(void **mod, const void *image, unsigned n, void *o, void *v)
{
	(void)n, (void)o, (void)v;
	int rc = (int)double_env("CUDX_DOUBLE_PTX", 0);
	if (rc)
		return rc;
	/* as the real libcuda: the JIT compiler is loaded by name when PTX first needs it */
	if (!dlopen("libnvidia-ptxjitcompiler.so.1", RTLD_LAZY | RTLD_LOCAL))
		return 221; /* CUDA_ERROR_JIT_COMPILER_NOT_FOUND */
	if (!strstr(image, ".entry cudx_probe_saxpy"))
		return 218; /* CUDA_ERROR_INVALID_PTX */
	*mod = &saxpy_handle;
	return 0;
}

int cuModuleGetFunction(void **fn, void *mod, const char *name)
{
	if (mod != &saxpy_handle || strcmp(name, "cudx_probe_saxpy") != 0)
		return 500; /* CUDA_ERROR_NOT_FOUND */
	*fn = &saxpy_handle;
	return 0;
}

int cuModuleUnload(void *mod)
{
	(void)mod;
	return 0;
}

int cuMemAlloc_v2(unsigned long long *p, size_t n)
{
	NEED_INIT();
	*p = (unsigned long long)(uintptr_t)malloc(n);
	return *p ? 0 : 2;
}

int cuMemFree_v2(unsigned long long p)
{
	free((void *)(uintptr_t)p);
	return 0;
}

int cuMemcpyHtoD_v2(unsigned long long d, const void *h, size_t n)
{
	memcpy((void *)(uintptr_t)d, h, n);
	return 0;
}

int cuMemcpyDtoH_v2(void *h, unsigned long long d, size_t n)
{
	memcpy(h, (void *)(uintptr_t)d, n);
	return 0;
}

int cuLaunchKernel(void *fn, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
		   unsigned shmem, void *stream, void **args, void **extra)
{
	(void)gy, (void)gz, (void)by, (void)bz, (void)shmem, (void)stream, (void)extra;
	if (fn != &saxpy_handle)
		return 400; /* CUDA_ERROR_INVALID_HANDLE */
	float *x = (float *)(uintptr_t)*(unsigned long long *)args[0];
	float *y = (float *)(uintptr_t)*(unsigned long long *)args[1];
	float a = *(float *)args[2];
	unsigned n = *(unsigned *)args[3];
	for (unsigned i = 0; i < n && i < gx * bx; i++)
		y[i] = a * x[i] + y[i] + (double_is("CUDX_DOUBLE_WRONG", "1") && i == 7 ? 1.0f : 0.0f);
	return 0;
}
