/* Stage 1: the driver API, as deviceQueryDrv does it (shared/research/anchors.md §8), with the
 * prototypes declared here so no CUDA header is needed. */
#include <stdio.h>
#include <string.h>

#include "probe/probe_child.h"
#include "probe/probe_cuda.h"

void probe_stage_driver(struct probe_child *c)
{
	char file[PROBE_PATH_MAX];
	void *lib = probe_load(c, c->target, file);
	if (!lib)
		return;
	struct probe_cu cu;
	probe_cu_bind(c, &cu, lib);
	if (!cu.cuDriverGetVersion || !cu.cuInit)
		return;

	int ver = 0;
	double t0 = probe_begin(c, "cuDriverGetVersion");
	int rc = cu.cuDriverGetVersion(&ver);
	char v[64];
	snprintf(v, sizeof v, "%d", ver);
	if (probe_code(c, "cuDriverGetVersion", t0, rc, v))
		probe_fact(c, "driver_cuda_version", "%d", ver);

	t0 = probe_begin(c, "cuInit");
	if (!probe_code(c, "cuInit", t0, cu.cuInit(0), NULL))
		return;

	int n = 0;
	if (!cu.cuDeviceGetCount)
		return;
	t0 = probe_begin(c, "cuDeviceGetCount");
	rc = cu.cuDeviceGetCount(&n);
	snprintf(v, sizeof v, "%d", n);
	if (!probe_code(c, "cuDeviceGetCount", t0, rc, v))
		return;
	probe_fact(c, "device_count", "%d", n);

	for (int i = 0; i < n && i < PROBE_MAX_DEVICES; i++) {
		char step[64], key[64], buf[256];
		int dev = 0;
		snprintf(step, sizeof step, "cuDeviceGet %d", i);
		t0 = probe_begin(c, step);
		if (!cu.cuDeviceGet || !probe_code(c, step, t0, cu.cuDeviceGet(&dev, i), NULL))
			continue;
		if (cu.cuDeviceGetName) {
			memset(buf, 0, sizeof buf);
			snprintf(step, sizeof step, "cuDeviceGetName %d", i);
			t0 = probe_begin(c, step);
			if (probe_code(c, step, t0, cu.cuDeviceGetName(buf, (int)sizeof buf - 1, dev), buf)) {
				snprintf(key, sizeof key, "device.%d.name", i);
				probe_fact(c, key, "%s", buf);
			}
		}
		if (cu.cuDeviceGetAttribute) {
			int ma = 0, mi = 0;
			snprintf(step, sizeof step, "cuDeviceGetAttribute %d compute capability", i);
			t0 = probe_begin(c, step);
			rc = cu.cuDeviceGetAttribute(&ma, PROBE_CU_ATTR_CC_MAJOR, dev);
			if (rc == 0)
				rc = cu.cuDeviceGetAttribute(&mi, PROBE_CU_ATTR_CC_MINOR, dev);
			snprintf(buf, sizeof buf, "%d.%d", ma, mi);
			if (probe_code(c, step, t0, rc, buf)) {
				snprintf(key, sizeof key, "device.%d.cc", i);
				probe_fact(c, key, "%s", buf);
			}
		}
		if (cu.cuDeviceTotalMem) {
			size_t mem = 0;
			snprintf(step, sizeof step, "cuDeviceTotalMem %d", i);
			t0 = probe_begin(c, step);
			rc = cu.cuDeviceTotalMem(&mem, dev);
			snprintf(buf, sizeof buf, "%zu", mem);
			if (probe_code(c, step, t0, rc, buf)) {
				snprintf(key, sizeof key, "device.%d.memory", i);
				probe_fact(c, key, "%zu", mem);
			}
		}
		if (cu.cuDeviceGetUuid) {
			unsigned char u[16] = { 0 };
			snprintf(step, sizeof step, "cuDeviceGetUuid %d", i);
			t0 = probe_begin(c, step);
			rc = cu.cuDeviceGetUuid(u, dev);
			snprintf(buf, sizeof buf,
				 "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
				 u[0], u[1], u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9], u[10], u[11],
				 u[12], u[13], u[14], u[15]);
			if (probe_code(c, step, t0, rc, buf)) {
				snprintf(key, sizeof key, "device.%d.uuid", i);
				probe_fact(c, key, "%s", buf);
			}
		}
		if (cu.cuDeviceGetPCIBusId) {
			memset(buf, 0, sizeof buf);
			snprintf(step, sizeof step, "cuDeviceGetPCIBusId %d", i);
			t0 = probe_begin(c, step);
			if (probe_code(c, step, t0, cu.cuDeviceGetPCIBusId(buf, 64, dev), buf)) {
				snprintf(key, sizeof key, "device.%d.pci_bus_id", i);
				probe_fact(c, key, "%s", buf);
			}
		}
	}
}
