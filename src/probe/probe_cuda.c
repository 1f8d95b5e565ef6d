#include "probe/probe_cuda.h"

#include <stddef.h>

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

#define CU(field, sym) PROBE_SYM(struct probe_cu, field, sym)

static const struct probe_sym_entry cu_syms[] = {
	CU(cuDriverGetVersion, "cuDriverGetVersion"),
	CU(cuInit, "cuInit"),
	CU(cuDeviceGetCount, "cuDeviceGetCount"),
	CU(cuDeviceGet, "cuDeviceGet"),
	CU(cuDeviceGetName, "cuDeviceGetName"),
	CU(cuDeviceGetAttribute, "cuDeviceGetAttribute"),
	CU(cuDeviceTotalMem, "cuDeviceTotalMem_v2"),
	CU(cuDeviceGetUuid, "cuDeviceGetUuid_v2"),
	CU(cuDeviceGetUuid, "cuDeviceGetUuid"), /* drivers before _v2 */
	CU(cuDeviceGetPCIBusId, "cuDeviceGetPCIBusId"),
	CU(cuGetErrorName, "cuGetErrorName"),
	CU(cuGetErrorString, "cuGetErrorString"),
	CU(cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain"),
	CU(cuDevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2"),
	CU(cuCtxSetCurrent, "cuCtxSetCurrent"),
	CU(cuCtxSynchronize, "cuCtxSynchronize"),
	CU(cuModuleLoadDataEx, "cuModuleLoadDataEx"),
	CU(cuModuleGetFunction, "cuModuleGetFunction"),
	CU(cuModuleUnload, "cuModuleUnload"),
	CU(cuMemAlloc, "cuMemAlloc_v2"),
	CU(cuMemFree, "cuMemFree_v2"),
	CU(cuMemcpyHtoD, "cuMemcpyHtoD_v2"),
	CU(cuMemcpyDtoH, "cuMemcpyDtoH_v2"),
	CU(cuLaunchKernel, "cuLaunchKernel"),
};

void *probe_cu_open(struct probe_child *c, struct probe_cu *cu, char *file)
{
	void *lib = probe_open(c, file, cu, sizeof *cu, PROBE_SYMS(cu_syms));
	if (!lib)
		return NULL;
	if (!cu->cuDriverGetVersion)
		probe_sym(c, lib, "cuDriverGetVersion");
	if (!cu->cuInit)
		probe_sym(c, lib, "cuInit");
	probe_name_codes(c, "cu", cu_name, cu);
	return lib;
}
