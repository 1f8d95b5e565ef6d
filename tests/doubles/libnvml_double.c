/* TEST DOUBLE of libnvidia-ml.so.1 (no GPU on CI): a driver version and devices, or a failing init. */
#include <stdio.h>
#include <string.h>

#include "double_env.h"

struct nvml_memory {
	unsigned long long total, free, used;
};

int nvmlInit_v2(void)
{
	return (int)double_env("CUDX_DOUBLE_NVML_INIT", 0);
}

int nvmlShutdown(void)
{
	return 0;
}

const char *nvmlErrorString(int code)
{
	return code == 18 ? "RM has detected an NVML/RM version mismatch" : "simulated by the cudx test double";
}

int nvmlSystemGetDriverVersion(char *s, unsigned n)
{
	const char *v = getenv("CUDX_DOUBLE_NVML_DRIVER");
	snprintf(s, n, "%s", v && *v ? v : "580.65.06");
	return 0;
}

int nvmlSystemGetCudaDriverVersion_v2(int *v)
{
	*v = (int)double_env("CUDX_DOUBLE_DRIVER_VERSION", 13000);
	return 0;
}

int nvmlDeviceGetCount_v2(unsigned *n)
{
	*n = (unsigned)double_env("CUDX_DOUBLE_DEVICES", 1);
	return 0;
}

int nvmlDeviceGetHandleByIndex_v2(unsigned i, void **h)
{
	*h = (void *)(unsigned long)(i + 1);
	return 0;
}

int nvmlDeviceGetName(void *h, char *s, unsigned n)
{
	snprintf(s, n, "Double GPU %lu", (unsigned long)h - 1);
	return 0;
}

int nvmlDeviceGetUUID(void *h, char *s, unsigned n)
{
	snprintf(s, n, "GPU-00000000-0000-0000-0000-%012lu", (unsigned long)h - 1);
	return 0;
}

int nvmlDeviceGetCudaComputeCapability(void *h, int *ma, int *mi)
{
	(void)h;
	*ma = 9;
	*mi = 0;
	return 0;
}

int nvmlDeviceGetMemoryInfo(void *h, struct nvml_memory *m)
{
	(void)h;
	m->total = 80ull << 30;
	m->free = (unsigned long long)double_env("CUDX_DOUBLE_NVML_FREE", (long)(m->total >> 20)) << 20;
	m->used = m->total - m->free;
	return 0;
}
