#include "probe/probe_cuda.h"

#include <dlfcn.h>
#include <string.h>

static const char *cu_name(void *ctx, long code, const char **text)
{
	struct probe_cu *cu = ctx;
	const char *name = NULL;
	*text = NULL;
	if (cu->cuGetErrorName && cu->cuGetErrorName((int)code, &name) != 0)
		name = NULL;
	if (cu->cuGetErrorString && cu->cuGetErrorString((int)code, text) != 0)
		*text = NULL;
	return name;
}

/* dlsym returns void *; converting it to a function pointer is what POSIX requires to work. */
#define SYM(field, name) memcpy(&cu->field, &(void *){ dlsym(lib, name) }, sizeof(void *))

void probe_cu_bind(struct probe_child *c, struct probe_cu *cu, void *lib)
{
	memset(cu, 0, sizeof *cu);
	SYM(cuDriverGetVersion, "cuDriverGetVersion");
	SYM(cuInit, "cuInit");
	SYM(cuDeviceGetCount, "cuDeviceGetCount");
	SYM(cuDeviceGet, "cuDeviceGet");
	SYM(cuDeviceGetName, "cuDeviceGetName");
	SYM(cuDeviceGetAttribute, "cuDeviceGetAttribute");
	SYM(cuDeviceTotalMem, "cuDeviceTotalMem_v2");
	SYM(cuDeviceGetUuid, "cuDeviceGetUuid_v2");
	if (!cu->cuDeviceGetUuid)
		SYM(cuDeviceGetUuid, "cuDeviceGetUuid");
	SYM(cuDeviceGetPCIBusId, "cuDeviceGetPCIBusId");
	SYM(cuGetErrorName, "cuGetErrorName");
	SYM(cuGetErrorString, "cuGetErrorString");
	SYM(cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain");
	SYM(cuDevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2");
	SYM(cuCtxSetCurrent, "cuCtxSetCurrent");
	SYM(cuCtxSynchronize, "cuCtxSynchronize");
	SYM(cuModuleLoadDataEx, "cuModuleLoadDataEx");
	SYM(cuModuleGetFunction, "cuModuleGetFunction");
	SYM(cuModuleUnload, "cuModuleUnload");
	SYM(cuMemAlloc, "cuMemAlloc_v2");
	SYM(cuMemFree, "cuMemFree_v2");
	SYM(cuMemcpyHtoD, "cuMemcpyHtoD_v2");
	SYM(cuMemcpyDtoH, "cuMemcpyDtoH_v2");
	SYM(cuLaunchKernel, "cuLaunchKernel");
	if (!cu->cuDriverGetVersion)
		probe_sym(c, lib, "cuDriverGetVersion");
	if (!cu->cuInit)
		probe_sym(c, lib, "cuInit");
	c->api = "cu";
	c->name_code = cu_name;
	c->name_ctx = cu;
}
