/* Stage 6: PTX JIT through the driver API: load a small embedded PTX kernel, launch it, check the
 * result. This is what fails when libnvidia-ptxjitcompiler is missing (221), when the PTX is newer
 * than the driver's JIT (222), or when the GPU cannot run what was built (209). The PTX is ISA 6.0
 * for sm_50 (CUDA 9 era) so that any driver able to run CUDA at all can JIT it. c->helper is the
 * name libcuda loads its PTX JIT compiler by (the knowledge base's dlopen edges). */
#include <stdbool.h>

#include "probe/probe_cuda.h"

static const char saxpy_ptx[] =
	".version 6.0\n"
	".target sm_50\n"
	".address_size 64\n"
	".visible .entry cudx_probe_saxpy(.param .u64 px, .param .u64 py, .param .f32 pa, .param .u32 pn)\n"
	"{\n"
	"  .reg .pred %p<2>;\n"
	"  .reg .f32 %f<4>;\n"
	"  .reg .b32 %r<6>;\n"
	"  .reg .b64 %rd<8>;\n"
	"  ld.param.u64 %rd1, [px];\n"
	"  ld.param.u64 %rd2, [py];\n"
	"  ld.param.f32 %f1, [pa];\n"
	"  ld.param.u32 %r1, [pn];\n"
	"  mov.u32 %r2, %ctaid.x;\n"
	"  mov.u32 %r3, %ntid.x;\n"
	"  mov.u32 %r4, %tid.x;\n"
	"  mad.lo.s32 %r5, %r2, %r3, %r4;\n"
	"  setp.ge.u32 %p1, %r5, %r1;\n"
	"  @%p1 bra DONE;\n"
	"  cvta.to.global.u64 %rd3, %rd1;\n"
	"  cvta.to.global.u64 %rd4, %rd2;\n"
	"  mul.wide.u32 %rd5, %r5, 4;\n"
	"  add.s64 %rd6, %rd3, %rd5;\n"
	"  add.s64 %rd7, %rd4, %rd5;\n"
	"  ld.global.f32 %f2, [%rd6];\n"
	"  ld.global.f32 %f3, [%rd7];\n"
	"  fma.rn.f32 %f3, %f1, %f2, %f3;\n"
	"  st.global.f32 [%rd7], %f3;\n"
	"DONE:\n"
	"  ret;\n"
	"}\n";

#define PTX_N 256

/* libcuda loads the JIT compiler by name when it first needs it. When the JIT failed, the file that
 * name reaches, if any, tells a missing compiler from a broken or mismatched one (ptxjit-missing).
 * Loaded lazily and not called, as the locate stage does. */
static void locate_jit_compiler(struct probe_child *c)
{
	if (!c->helper)
		return;
	char jit[PROBE_PATH_MAX];
	const char *library = c->library;
	bool lazy = c->lazy;
	c->lazy = true;
	if (probe_load(c, c->helper, jit))
		probe_fact(c, "jit_compiler", "%s", jit);
	c->lazy = lazy;
	c->library = library;
}

void probe_stage_ptx(struct probe_child *c)
{
	char file[PROBE_PATH_MAX];
	struct probe_cu cu;
	if (!probe_cu_open(c, &cu, file))
		return;
	if (!cu.cuInit || !cu.cuDeviceGet || !cu.cuDevicePrimaryCtxRetain || !cu.cuCtxSetCurrent ||
	    !cu.cuModuleLoadDataEx || !cu.cuModuleGetFunction || !cu.cuMemAlloc || !cu.cuMemcpyHtoD ||
	    !cu.cuMemcpyDtoH || !cu.cuLaunchKernel || !cu.cuCtxSynchronize) {
		probe_outcome(c, "driver entry points", 0, PROBE_MISSING, "a module or launch entry point is absent");
		return;
	}
	double t0 = probe_begin(c, "cuInit");
	if (!probe_code(c, "cuInit", t0, cu.cuInit(0), NULL))
		return;
	int dev = 0;
	t0 = probe_begin(c, "cuDeviceGet 0");
	if (!probe_code(c, "cuDeviceGet 0", t0, cu.cuDeviceGet(&dev, 0), NULL))
		return;
	void *ctx = NULL;
	t0 = probe_begin(c, "cuDevicePrimaryCtxRetain");
	if (!probe_code(c, "cuDevicePrimaryCtxRetain", t0, cu.cuDevicePrimaryCtxRetain(&ctx, dev), NULL))
		return;
	t0 = probe_begin(c, "cuCtxSetCurrent");
	if (!probe_code(c, "cuCtxSetCurrent", t0, cu.cuCtxSetCurrent(ctx), NULL))
		return;
	void *mod = NULL, *fn = NULL;
	t0 = probe_begin(c, "cuModuleLoadDataEx (PTX JIT)");
	if (!probe_code(c, "cuModuleLoadDataEx (PTX JIT)", t0,
			cu.cuModuleLoadDataEx(&mod, saxpy_ptx, 0, NULL, NULL), "PTX ISA 6.0, sm_50")) {
		locate_jit_compiler(c);
		return;
	}
	t0 = probe_begin(c, "cuModuleGetFunction");
	if (!probe_code(c, "cuModuleGetFunction", t0, cu.cuModuleGetFunction(&fn, mod, "cudx_probe_saxpy"),
			"cudx_probe_saxpy"))
		return;

	float x[PTX_N], y[PTX_N], want[PTX_N];
	float a = 3.0f;
	for (int i = 0; i < PTX_N; i++) {
		x[i] = (float)(i % 11);
		y[i] = (float)(i % 5) - 2.0f;
		want[i] = a * x[i] + y[i];
	}
	unsigned long long dx = 0, dy = 0;
	t0 = probe_begin(c, "cuMemAlloc");
	int rc = cu.cuMemAlloc(&dx, sizeof x);
	if (rc == 0)
		rc = cu.cuMemAlloc(&dy, sizeof y);
	if (!probe_code(c, "cuMemAlloc", t0, rc, NULL))
		return;
	t0 = probe_begin(c, "cuMemcpyHtoD");
	rc = cu.cuMemcpyHtoD(dx, x, sizeof x);
	if (rc == 0)
		rc = cu.cuMemcpyHtoD(dy, y, sizeof y);
	if (!probe_code(c, "cuMemcpyHtoD", t0, rc, NULL))
		return;
	unsigned n = PTX_N;
	void *args[] = { &dx, &dy, &a, &n };
	t0 = probe_begin(c, "cuLaunchKernel");
	if (!probe_code(c, "cuLaunchKernel", t0, cu.cuLaunchKernel(fn, 2, 1, 1, 128, 1, 1, 0, NULL, args, NULL), NULL))
		return;
	t0 = probe_begin(c, "cuCtxSynchronize");
	if (!probe_code(c, "cuCtxSynchronize", t0, cu.cuCtxSynchronize(), NULL))
		return;
	t0 = probe_begin(c, "cuMemcpyDtoH");
	if (!probe_code(c, "cuMemcpyDtoH", t0, cu.cuMemcpyDtoH(y, dy, sizeof y), NULL))
		return;
	bool same = true; /* compare values: a float's bytes are not its value (-0.0f, NaN) */
	for (int i = 0; i < PTX_N; i++)
		same = same && y[i] == want[i];
	probe_outcome(c, "kernel result verified", 0, same ? PROBE_OK : PROBE_WRONG,
		      same ? "256 SAXPY results match the host" : "the kernel's results differ from the host's");
	if (cu.cuMemFree) {
		cu.cuMemFree(dx);
		cu.cuMemFree(dy);
	}
	if (cu.cuModuleUnload)
		cu.cuModuleUnload(mod);
	if (cu.cuDevicePrimaryCtxRelease)
		cu.cuDevicePrimaryCtxRelease(dev);
}
