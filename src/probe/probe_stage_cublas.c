/* Stage 4: cuBLAS: a handle and a 4x4 SGEMM whose result is checked on the host. cuBLAS links its
 * own copy of cudart statically; device memory comes from the shared cudart of the same CUDA
 * major (c->helper), as a framework would have it. */
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
	struct probe_code_names names; /* cublasGetStatusName, cublasGetStatusString */
};

#define BLAS(field, sym) PROBE_SYM(struct probe_cublas, field, sym)

static const struct probe_sym_entry blas_syms[] = {
	BLAS(create, "cublasCreate_v2"),
	BLAS(destroy, "cublasDestroy_v2"),
	BLAS(property, "cublasGetProperty"),
	BLAS(sgemm, "cublasSgemm_v2"),
	BLAS(names.name, "cublasGetStatusName"),
	BLAS(names.text, "cublasGetStatusString"),
};

static const struct probe_check sgemm_check = {
	.copy = "cudaMemcpy C to host",
	.step = "SGEMM result verified",
	.ok = "4x4 product matches the host",
	.wrong = "the 4x4 product differs from the host's",
};

void probe_stage_cublas(struct probe_child *c)
{
	char file[PROBE_PATH_MAX], rtfile[PROBE_PATH_MAX];
	struct probe_cublas b;
	void *lib = probe_open(c, file, &b, sizeof b, PROBE_SYMS(blas_syms));
	if (!lib)
		return;
	probe_name_codes(c, "cublas", probe_names_of, &b.names);
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
	probe_name_codes(c, "cublas", probe_names_of, &b.names);
	c->library = file;
	const float one = 1, zero = 0;
	t0 = probe_begin(c, "cublasSgemm");
	if (!probe_code(c, "cublasSgemm", t0, b.sgemm(h, 0, 0, N, N, N, &one, dA, N, dB, N, &zero, dC, N), "4x4"))
		return;
	probe_cudart_check(c, &rt, rtfile, file, &sgemm_check, C, dC, want, N * N);
	if (b.destroy)
		b.destroy(h);
}
