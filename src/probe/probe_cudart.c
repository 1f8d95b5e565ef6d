#include "probe/probe_cudart.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

static const char *rt_name(void *ctx, long code, const char **text)
{
	struct probe_cudart *rt = ctx;
	*text = rt->error_string ? rt->error_string((int)code) : NULL;
	return rt->error_name ? rt->error_name((int)code) : NULL;
}

#define SYM(field, name) memcpy(&rt->field, &(void *){ dlsym(lib, name) }, sizeof(void *))

void probe_cudart_bind(struct probe_child *c, struct probe_cudart *rt, void *lib)
{
	memset(rt, 0, sizeof *rt);
	SYM(runtime_version, "cudaRuntimeGetVersion");
	SYM(driver_version, "cudaDriverGetVersion");
	SYM(device_count, "cudaGetDeviceCount");
	SYM(malloc, "cudaMalloc");
	SYM(free, "cudaFree");
	SYM(memcpy, "cudaMemcpy");
	SYM(malloc_host, "cudaMallocHost");
	SYM(free_host, "cudaFreeHost");
	SYM(sync, "cudaDeviceSynchronize");
	SYM(error_name, "cudaGetErrorName");
	SYM(error_string, "cudaGetErrorString");
	c->api = "cudart";
	c->name_code = rt_name;
	c->name_ctx = rt;
}

bool probe_cudart_ready(struct probe_child *c, struct probe_cudart *rt, char *file)
{
	void *lib = probe_load(c, c->helper, file);
	if (!lib)
		return false;
	probe_cudart_bind(c, rt, lib);
	if (!rt->device_count || !rt->malloc || !rt->memcpy || !rt->free) {
		probe_sym(c, lib, "cudaGetDeviceCount");
		return false;
	}
	int n = 0;
	char v[32];
	double t0 = probe_begin(c, "cudaGetDeviceCount");
	int rc = rt->device_count(&n);
	snprintf(v, sizeof v, "%d", n);
	return probe_code(c, "cudaGetDeviceCount", t0, rc, v) && n > 0;
}

void *probe_cudart_upload(struct probe_child *c, struct probe_cudart *rt, const float *h, size_t n,
			  const char *what)
{
	char step[96];
	void *d = NULL;
	snprintf(step, sizeof step, "cudaMalloc %s", what);
	double t0 = probe_begin(c, step);
	if (!probe_code(c, step, t0, rt->malloc(&d, n * sizeof *h), NULL))
		return NULL;
	if (!h)
		return d;
	snprintf(step, sizeof step, "cudaMemcpy %s to device", what);
	t0 = probe_begin(c, step);
	if (!probe_code(c, step, t0, rt->memcpy(d, h, n * sizeof *h, PROBE_MEMCPY_H2D), NULL))
		return NULL;
	return d;
}
