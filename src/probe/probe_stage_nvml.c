/* Stage 2: NVML, what nvidia-smi reads. Its driver version is compared with the kernel module's by
 * the rules (NVML_ERROR_LIB_RM_VERSION_MISMATCH 18 is the same problem seen from inside). */
#include <stdio.h>
#include <string.h>

#include "probe/probe_child.h"

struct nvml_memory {
	unsigned long long total, free, used;
};

struct probe_nvml {
	int (*init)(void);
	int (*shutdown)(void);
	/* nvmlErrorString gives a text; NVML has no name function (the knowledge base names codes) */
	struct probe_code_names names;
	int (*driver_version)(char *, unsigned);
	int (*cuda_version)(int *);
	int (*count)(unsigned *);
	int (*handle)(unsigned, void **);
	int (*name)(void *, char *, unsigned);
	int (*uuid)(void *, char *, unsigned);
	int (*cc)(void *, int *, int *);
	int (*memory)(void *, struct nvml_memory *);
};

#define NV(field, sym) PROBE_SYM(struct probe_nvml, field, sym)

static const struct probe_sym_entry nvml_syms[] = {
	NV(init, "nvmlInit_v2"),
	NV(shutdown, "nvmlShutdown"),
	NV(names.text, "nvmlErrorString"),
	NV(driver_version, "nvmlSystemGetDriverVersion"),
	NV(cuda_version, "nvmlSystemGetCudaDriverVersion_v2"),
	NV(count, "nvmlDeviceGetCount_v2"),
	NV(handle, "nvmlDeviceGetHandleByIndex_v2"),
	NV(name, "nvmlDeviceGetName"),
	NV(uuid, "nvmlDeviceGetUUID"),
	NV(cc, "nvmlDeviceGetCudaComputeCapability"),
	NV(memory, "nvmlDeviceGetMemoryInfo"),
};

static void probe_device(struct probe_child *c, const struct probe_nvml *n, unsigned i)
{
	struct probe_dev_step s;
	char buf[256];
	void *dev = NULL;
	probe_dev_begin(c, &s, "nvmlDeviceGetHandleByIndex", i, NULL);
	if (!probe_dev_end(c, &s, n->handle(i, &dev), NULL, NULL))
		return;
	if (n->name) {
		memset(buf, 0, sizeof buf);
		probe_dev_begin(c, &s, "nvmlDeviceGetName", i, NULL);
		probe_dev_end(c, &s, n->name(dev, buf, 96), "name", buf);
	}
	if (n->uuid) {
		memset(buf, 0, sizeof buf);
		probe_dev_begin(c, &s, "nvmlDeviceGetUUID", i, NULL);
		probe_dev_end(c, &s, n->uuid(dev, buf, 96), "uuid", buf);
	}
	if (n->cc) {
		int ma = 0, mi = 0;
		probe_dev_begin(c, &s, "nvmlDeviceGetCudaComputeCapability", i, NULL);
		int rc = n->cc(dev, &ma, &mi);
		snprintf(buf, sizeof buf, "%d.%d", ma, mi);
		probe_dev_end(c, &s, rc, "cc", buf);
	}
	if (n->memory) {
		struct nvml_memory m = { 0, 0, 0 };
		probe_dev_begin(c, &s, "nvmlDeviceGetMemoryInfo", i, NULL);
		int rc = n->memory(dev, &m);
		snprintf(buf, sizeof buf, "%llu", m.total);
		if (probe_dev_end(c, &s, rc, "memory", buf)) {
			/* free memory: a GPU that is full fails CUDA's initialisation (rules_probe.c) */
			char key[64];
			snprintf(key, sizeof key, "device.%u.memory_free", i);
			probe_fact(c, key, "%llu", m.free);
		}
	}
}

void probe_stage_nvml(struct probe_child *c)
{
	char file[PROBE_PATH_MAX];
	struct probe_nvml n;
	void *lib = probe_open(c, file, &n, sizeof n, PROBE_SYMS(nvml_syms));
	if (!lib)
		return;
	probe_name_codes(c, "nvml", probe_names_of, &n.names);
	if (!n.init) {
		probe_sym(c, lib, "nvmlInit_v2");
		return;
	}
	double t0 = probe_begin(c, "nvmlInit");
	if (!probe_code(c, "nvmlInit", t0, n.init(), NULL))
		return;

	char buf[256];
	if (n.driver_version) {
		memset(buf, 0, sizeof buf);
		t0 = probe_begin(c, "nvmlSystemGetDriverVersion");
		if (probe_code(c, "nvmlSystemGetDriverVersion", t0, n.driver_version(buf, 80), buf))
			probe_fact(c, "driver_version", "%s", buf);
	}
	if (n.cuda_version)
		probe_int_call(c, "nvmlSystemGetCudaDriverVersion", n.cuda_version, "driver_cuda_version", NULL);
	unsigned count = 0;
	if (n.count) {
		t0 = probe_begin(c, "nvmlDeviceGetCount");
		int rc = n.count(&count);
		snprintf(buf, sizeof buf, "%u", count);
		if (probe_code(c, "nvmlDeviceGetCount", t0, rc, buf))
			probe_fact(c, "device_count", "%u", count);
		else
			count = 0;
	}
	for (unsigned i = 0; i < count && i < PROBE_MAX_DEVICES && n.handle; i++)
		probe_device(c, &n, i);
	if (n.shutdown) {
		t0 = probe_begin(c, "nvmlShutdown");
		probe_code(c, "nvmlShutdown", t0, n.shutdown(), NULL);
	}
}
