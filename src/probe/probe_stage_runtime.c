/* Stage 3: one CUDA runtime (cudart), as deviceQuery does it, plus a device memory round trip and
 * pinned host memory: the first things every framework does. */
#include <string.h>

#include "probe/probe_cudart.h"

#define ROUND_TRIP_BYTES (1u << 20)

void probe_stage_runtime(struct probe_child *c)
{
	char file[PROBE_PATH_MAX];
	c->helper = c->target;
	void *lib = probe_load(c, c->target, file);
	if (!lib)
		return;
	struct probe_cudart rt;
	probe_cudart_bind(c, &rt, lib);
	if (rt.runtime_version)
		probe_int_call(c, "cudaRuntimeGetVersion", rt.runtime_version, "runtime_version", NULL);
	/* 0 with success means cudart found no libcuda at all */
	if (rt.driver_version)
		probe_int_call(c, "cudaDriverGetVersion", rt.driver_version, "driver_cuda_version", NULL);
	if (!rt.device_count || !rt.malloc || !rt.memcpy || !rt.free) {
		probe_sym(c, lib, "cudaGetDeviceCount");
		return;
	}
	if (!probe_int_call(c, "cudaGetDeviceCount", rt.device_count, "device_count", NULL))
		return;

	/* A round trip through device memory with a pattern that a no-op copy cannot fake. */
	static unsigned char src[ROUND_TRIP_BYTES], back[ROUND_TRIP_BYTES];
	for (size_t i = 0; i < sizeof src; i++)
		src[i] = (unsigned char)(i * 131u + 7u);
	memset(back, 0, sizeof back);
	void *d = NULL;
	double t0 = probe_begin(c, "cudaMalloc");
	if (!probe_code(c, "cudaMalloc", t0, rt.malloc(&d, sizeof src), "1 MiB"))
		return;
	t0 = probe_begin(c, "cudaMemcpy host to device");
	if (probe_code(c, "cudaMemcpy host to device", t0,
		       rt.memcpy(d, src, sizeof src, PROBE_MEMCPY_H2D), NULL)) {
		t0 = probe_begin(c, "cudaMemcpy device to host");
		if (probe_code(c, "cudaMemcpy device to host", t0,
			       rt.memcpy(back, d, sizeof back, PROBE_MEMCPY_D2H), NULL)) {
			bool same = memcmp(src, back, sizeof src) == 0;
			probe_outcome(c, "memory round trip verified", 0, same ? PROBE_OK : PROBE_WRONG,
				      same ? "1 MiB came back intact" : "the bytes read back differ");
		}
	}
	t0 = probe_begin(c, "cudaFree");
	probe_code(c, "cudaFree", t0, rt.free(d), NULL);

	if (rt.malloc_host && rt.free_host) {
		void *h = NULL;
		t0 = probe_begin(c, "cudaMallocHost");
		if (probe_code(c, "cudaMallocHost", t0, rt.malloc_host(&h, 1u << 16), "64 KiB pinned")) {
			memset(h, 0x5a, 1u << 16);
			t0 = probe_begin(c, "cudaFreeHost");
			probe_code(c, "cudaFreeHost", t0, rt.free_host(h), NULL);
		}
	}
}
