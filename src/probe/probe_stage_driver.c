/* Stage 1: the driver API, as deviceQueryDrv does it (shared/research/anchors.md §8), with the
 * prototypes declared here so no CUDA header is needed. */
#include <stdio.h>
#include <string.h>

#include "probe/probe_child.h"
#include "probe/probe_cuda.h"

static void probe_device(struct probe_child *c, const struct probe_cu *cu, unsigned i)
{
	struct probe_dev_step s;
	char buf[256];
	int dev = 0;
	probe_dev_begin(c, &s, "cuDeviceGet", i, NULL);
	if (!cu->cuDeviceGet || !probe_dev_end(c, &s, cu->cuDeviceGet(&dev, (int)i), NULL, NULL))
		return;
	if (cu->cuDeviceGetName) {
		memset(buf, 0, sizeof buf);
		probe_dev_begin(c, &s, "cuDeviceGetName", i, NULL);
		probe_dev_end(c, &s, cu->cuDeviceGetName(buf, (int)sizeof buf - 1, dev), "name", buf);
	}
	if (cu->cuDeviceGetAttribute) {
		int ma = 0, mi = 0;
		probe_dev_begin(c, &s, "cuDeviceGetAttribute", i, "compute capability");
		int rc = cu->cuDeviceGetAttribute(&ma, PROBE_CU_ATTR_CC_MAJOR, dev);
		if (rc == 0)
			rc = cu->cuDeviceGetAttribute(&mi, PROBE_CU_ATTR_CC_MINOR, dev);
		snprintf(buf, sizeof buf, "%d.%d", ma, mi);
		probe_dev_end(c, &s, rc, "cc", buf);
	}
	if (cu->cuDeviceTotalMem) {
		size_t mem = 0;
		probe_dev_begin(c, &s, "cuDeviceTotalMem", i, NULL);
		int rc = cu->cuDeviceTotalMem(&mem, dev);
		snprintf(buf, sizeof buf, "%zu", mem);
		probe_dev_end(c, &s, rc, "memory", buf);
	}
	if (cu->cuDeviceGetUuid) {
		unsigned char u[16] = { 0 };
		probe_dev_begin(c, &s, "cuDeviceGetUuid", i, NULL);
		int rc = cu->cuDeviceGetUuid(u, dev);
		snprintf(buf, sizeof buf, "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
			 u[0], u[1], u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9], u[10], u[11], u[12], u[13],
			 u[14], u[15]);
		probe_dev_end(c, &s, rc, "uuid", buf);
	}
	if (cu->cuDeviceGetPCIBusId) {
		memset(buf, 0, sizeof buf);
		probe_dev_begin(c, &s, "cuDeviceGetPCIBusId", i, NULL);
		probe_dev_end(c, &s, cu->cuDeviceGetPCIBusId(buf, 64, dev), "pci_bus_id", buf);
	}
}

void probe_stage_driver(struct probe_child *c)
{
	char file[PROBE_PATH_MAX];
	struct probe_cu cu;
	if (!probe_cu_open(c, &cu, file) || !cu.cuDriverGetVersion || !cu.cuInit)
		return;
	probe_int_call(c, "cuDriverGetVersion", cu.cuDriverGetVersion, "driver_cuda_version", NULL);

	double t0 = probe_begin(c, "cuInit");
	if (!probe_code(c, "cuInit", t0, cu.cuInit(0), NULL))
		return;

	int n = 0;
	if (!cu.cuDeviceGetCount || !probe_int_call(c, "cuDeviceGetCount", cu.cuDeviceGetCount, "device_count", &n))
		return;
	for (int i = 0; i < n && i < PROBE_MAX_DEVICES; i++)
		probe_device(c, &cu, (unsigned)i);
}
