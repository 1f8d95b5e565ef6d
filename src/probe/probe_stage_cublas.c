/* Stage 4: cuBLAS: a handle and a 4x4 SGEMM whose result is checked on the host. cuBLAS links its
 * own copy of cudart statically; device memory comes from the shared cudart of the same CUDA
 * major (c->helper), as a framework would have it. */
#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "probe/probe_cudart.h"

#define N 4

struct probe_cublas {
	int (*create)(void **);
	int (*destroy)(void *);
	int (*property)(int, int *);
	int (*sgemm)(void *, int, int, int, int, int, const float *, const float *, int, const float *,
		     int, const float *, float *, int);
	const char *(*status_name)(int);
	const char *(*status_string)(int);
};

static const char *blas_name(void *ctx, long code, const char **text)
{
	struct probe_cublas *b = ctx;
	*text = b->status_string ? b->status_string((int)code) : NULL;
	return b->status_name ? b->status_name((int)code) : NULL;
}

#define SYM(field, name) memcpy(&b.field, &(void *){ dlsym(lib, name) }, sizeof(void *))

void probe_stage_cublas(struct probe_child *c)
{
	char file[PROBE_PATH_MAX], rtfile[PROBE_PATH_MAX];
	void *lib = probe_load(c, c->target, file);
	if (!lib)
		return;
	struct probe_cublas b;
	memset(&b, 0, sizeof b);
	SYM(create, "cublasCreate_v2");
	SYM(destroy, "cublasDestroy_v2");
	SYM(property, "cublasGetProperty");
	SYM(sgemm, "cublasSgemm_v2");
	SYM(status_name, "cublasGetStatusName");
	SYM(status_string, "cublasGetStatusString");
	c->api = "cublas";
	c->name_code = blas_name;
	c->name_ctx = &b;
	if (b.property) {
		int ma = 0, mi = 0, pa = 0;
		double t0 = probe_begin(c, "cublasGetProperty");
		int rc = b.property(0, &ma);
		if (rc == 0)
			rc = b.property(1, &mi);
		if (rc == 0)
			rc = b.property(2, &pa);
		char v[64];
		snprintf(v, sizeof v, "%d.%d.%d", ma, mi, pa);
		if (probe_code(c, "cublasGetProperty", t0, rc, v))
			probe_fact(c, "version", "%s", v);
	}
	if (!b.create || !b.sgemm) {
		probe_sym(c, lib, "cublasCreate_v2");
		return;
	}
	void *h = NULL;
	double t0 = probe_begin(c, "cublasCreate");
	bool created = probe_code(c, "cublasCreate", t0, b.create(&h), NULL);

	/* Either for the SGEMM's memory or, when the handle failed, to show why: a
	 * NOT_INITIALIZED handle is nearly always the runtime failing underneath. */
	struct probe_cudart rt;
	if (!c->helper || !probe_cudart_ready(c, &rt, rtfile) || !created)
		return;

	float A[N * N], B[N * N], C[N * N], want[N * N];
	for (int i = 0; i < N * N; i++) {
		A[i] = (float)(i % 5 + 1);
		B[i] = (float)((i * 3) % 7 - 2);
		C[i] = 0;
	}
	for (int i = 0; i < N; i++) /* column-major, C = A * B */
		for (int j = 0; j < N; j++) {
			float s = 0;
			for (int k = 0; k < N; k++)
				s += A[i + k * N] * B[k + j * N];
			want[i + j * N] = s;
		}
	void *dA = probe_cudart_upload(c, &rt, A, N * N, "A");
	void *dB = dA ? probe_cudart_upload(c, &rt, B, N * N, "B") : NULL;
	void *dC = dB ? probe_cudart_upload(c, &rt, C, N * N, "C") : NULL;
	if (!dC)
		return;
	c->api = "cublas";
	c->name_code = blas_name;
	c->name_ctx = &b;
	c->library = file;
	const float one = 1, zero = 0;
	t0 = probe_begin(c, "cublasSgemm");
	if (!probe_code(c, "cublasSgemm", t0, b.sgemm(h, 0, 0, N, N, N, &one, dA, N, dB, N, &zero, dC, N), "4x4"))
		return;
	probe_cudart_bind(c, &rt, dlopen(rtfile, RTLD_NOW | RTLD_NOLOAD));
	c->library = rtfile;
	t0 = probe_begin(c, "cudaMemcpy C to host");
	if (!probe_code(c, "cudaMemcpy C to host", t0, rt.memcpy(C, dC, sizeof C, PROBE_MEMCPY_D2H), NULL))
		return;
	bool same = true;
	for (int i = 0; i < N * N; i++)
		same = same && fabsf(C[i] - want[i]) < 1e-3f;
	c->library = file;
	probe_outcome(c, "SGEMM result verified", 0, same ? PROBE_OK : PROBE_WRONG,
		      same ? "4x4 product matches the host" : "the 4x4 product differs from the host's");
	if (b.destroy)
		b.destroy(h);
}
