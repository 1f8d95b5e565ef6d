#include "probe/probe_cudart.h"

#include <math.h>
#include <stdio.h>

#define RT(field, sym) PROBE_SYM(struct probe_cudart, field, sym)

static const struct probe_sym_entry rt_syms[] = {
	RT(runtime_version, "cudaRuntimeGetVersion"),
	RT(driver_version, "cudaDriverGetVersion"),
	RT(device_count, "cudaGetDeviceCount"),
	RT(malloc, "cudaMalloc"),
	RT(free, "cudaFree"),
	RT(memcpy, "cudaMemcpy"),
	RT(malloc_host, "cudaMallocHost"),
	RT(free_host, "cudaFreeHost"),
	RT(sync, "cudaDeviceSynchronize"),
	RT(names.name, "cudaGetErrorName"),
	RT(names.text, "cudaGetErrorString"),
};

void probe_cudart_bind(struct probe_child *c, struct probe_cudart *rt, void *lib)
{
	probe_bind(rt, sizeof *rt, lib, PROBE_SYMS(rt_syms));
	probe_name_codes(c, "cudart", probe_names_of, &rt->names);
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
	/* 0 here tells "no libcuda at all" from "libcuda too old" */
	if (rt->driver_version)
		probe_int_call(c, "cudaDriverGetVersion", rt->driver_version, "driver_cuda_version", NULL);
	int n = 0;
	return probe_int_call(c, "cudaGetDeviceCount", rt->device_count, NULL, &n) && n > 0;
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

void probe_cudart_check(struct probe_child *c, struct probe_cudart *rt, const char *rtfile, const char *file,
			const struct probe_check *k, float *host, const void *dev, const float *want, size_t n)
{
	probe_name_codes(c, "cudart", probe_names_of, &rt->names);
	c->library = rtfile;
	double t0 = probe_begin(c, k->copy);
	if (!probe_code(c, k->copy, t0, rt->memcpy(host, dev, n * sizeof *host, PROBE_MEMCPY_D2H), NULL))
		return;
	bool same = true;
	for (size_t i = 0; i < n; i++)
		same = same && fabsf(host[i] - want[i]) < 1e-3f;
	c->library = file;
	probe_outcome(c, k->step, 0, same ? PROBE_OK : PROBE_WRONG, same ? k->ok : k->wrong);
}
