/* Stage 2: NVML, what nvidia-smi reads. Its driver version is compared with the kernel module's by
 * the rules (NVML_ERROR_LIB_RM_VERSION_MISMATCH 18 is the same problem seen from inside). */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "probe/probe_child.h"

struct nvml_memory {
	unsigned long long total, free, used;
};

struct probe_nvml {
	int (*init)(void);
	int (*shutdown)(void);
	const char *(*error_string)(int);
	int (*driver_version)(char *, unsigned);
	int (*cuda_version)(int *);
	int (*count)(unsigned *);
	int (*handle)(unsigned, void **);
	int (*name)(void *, char *, unsigned);
	int (*uuid)(void *, char *, unsigned);
	int (*cc)(void *, int *, int *);
	int (*memory)(void *, struct nvml_memory *);
};

static const char *nvml_name(void *ctx, long code, const char **text)
{
	struct probe_nvml *n = ctx;
	*text = n->error_string ? n->error_string((int)code) : NULL;
	return NULL; /* NVML has no name function; the knowledge base names the code */
}

#define SYM(field, name) memcpy(&n.field, &(void *){ dlsym(lib, name) }, sizeof(void *))

void probe_stage_nvml(struct probe_child *c)
{
	char file[PROBE_PATH_MAX];
	void *lib = probe_load(c, c->target, file);
	if (!lib)
		return;
	struct probe_nvml n;
	memset(&n, 0, sizeof n);
	SYM(init, "nvmlInit_v2");
	SYM(shutdown, "nvmlShutdown");
	SYM(error_string, "nvmlErrorString");
	SYM(driver_version, "nvmlSystemGetDriverVersion");
	SYM(cuda_version, "nvmlSystemGetCudaDriverVersion_v2");
	SYM(count, "nvmlDeviceGetCount_v2");
	SYM(handle, "nvmlDeviceGetHandleByIndex_v2");
	SYM(name, "nvmlDeviceGetName");
	SYM(uuid, "nvmlDeviceGetUUID");
	SYM(cc, "nvmlDeviceGetCudaComputeCapability");
	SYM(memory, "nvmlDeviceGetMemoryInfo");
	c->api = "nvml";
	c->name_code = nvml_name;
	c->name_ctx = &n;
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
	if (n.cuda_version) {
		int v = 0;
		t0 = probe_begin(c, "nvmlSystemGetCudaDriverVersion");
		int rc = n.cuda_version(&v);
		snprintf(buf, sizeof buf, "%d", v);
		if (probe_code(c, "nvmlSystemGetCudaDriverVersion", t0, rc, buf))
			probe_fact(c, "driver_cuda_version", "%d", v);
	}
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
	for (unsigned i = 0; i < count && i < PROBE_MAX_DEVICES && n.handle; i++) {
		char step[64], key[64];
		void *dev = NULL;
		snprintf(step, sizeof step, "nvmlDeviceGetHandleByIndex %u", i);
		t0 = probe_begin(c, step);
		if (!probe_code(c, step, t0, n.handle(i, &dev), NULL))
			continue;
		if (n.name) {
			memset(buf, 0, sizeof buf);
			snprintf(step, sizeof step, "nvmlDeviceGetName %u", i);
			t0 = probe_begin(c, step);
			if (probe_code(c, step, t0, n.name(dev, buf, 96), buf)) {
				snprintf(key, sizeof key, "device.%u.name", i);
				probe_fact(c, key, "%s", buf);
			}
		}
		if (n.uuid) {
			memset(buf, 0, sizeof buf);
			snprintf(step, sizeof step, "nvmlDeviceGetUUID %u", i);
			t0 = probe_begin(c, step);
			if (probe_code(c, step, t0, n.uuid(dev, buf, 96), buf)) {
				snprintf(key, sizeof key, "device.%u.uuid", i);
				probe_fact(c, key, "%s", buf);
			}
		}
		if (n.cc) {
			int ma = 0, mi = 0;
			snprintf(step, sizeof step, "nvmlDeviceGetCudaComputeCapability %u", i);
			t0 = probe_begin(c, step);
			int rc = n.cc(dev, &ma, &mi);
			snprintf(buf, sizeof buf, "%d.%d", ma, mi);
			if (probe_code(c, step, t0, rc, buf)) {
				snprintf(key, sizeof key, "device.%u.cc", i);
				probe_fact(c, key, "%s", buf);
			}
		}
		if (n.memory) {
			struct nvml_memory m = { 0, 0, 0 };
			snprintf(step, sizeof step, "nvmlDeviceGetMemoryInfo %u", i);
			t0 = probe_begin(c, step);
			int rc = n.memory(dev, &m);
			snprintf(buf, sizeof buf, "%llu", m.total);
			if (probe_code(c, step, t0, rc, buf)) {
				snprintf(key, sizeof key, "device.%u.memory", i);
				probe_fact(c, key, "%llu", m.total);
			}
		}
	}
	if (n.shutdown) {
		t0 = probe_begin(c, "nvmlShutdown");
		probe_code(c, "nvmlShutdown", t0, n.shutdown(), NULL);
	}
}
