/* TEST DOUBLE of libcublas.so (no GPU on CI): a handle needs a working runtime (as the real one,
 * else CUBLAS_STATUS_NOT_INITIALIZED); SGEMM is computed on the host over "device" pointers that
 * the cudart double hands out as host memory. */
#include <dlfcn.h>

#include "double_env.h"

int cublasCreate_v2(void **h)
{
	void *rt = dlopen("libcudart.so.13", RTLD_NOW | RTLD_LOCAL);
	int (*count)(int *) = rt ? (int (*)(int *))dlsym(rt, "cudaGetDeviceCount") : NULL;
	int n = 0;
	if (!count || count(&n) != 0 || n == 0)
		return 1; /* CUBLAS_STATUS_NOT_INITIALIZED */
	*h = (void *)h;
	return 0;
}

int cublasDestroy_v2(void *h)
{
	(void)h;
	return 0;
}

int cublasGetProperty(int type, int *v)
{
	*v = type == 0 ? 13 : type == 1 ? 1 : 0;
	return 0;
}

int cublasSgemm_v2(void *h, int ta, int tb, int m, int n, int k, const float *alpha, const float *A, int lda,
		   const float *B, int ldb, const float *beta, float *C, int ldc)
{
	(void)h, (void)ta, (void)tb;
	for (int i = 0; i < m; i++)
		for (int j = 0; j < n; j++) {
			float s = 0;
			for (int p = 0; p < k; p++)
				s += A[i + p * lda] * B[p + j * ldb];
			C[i + j * ldc] = *alpha * s + *beta * C[i + j * ldc];
		}
	if (double_is("CUDX_DOUBLE_WRONG", "1"))
		C[0] += 1;
	return 0;
}

const char *cublasGetStatusName(int s)
{
	return s == 1 ? "CUBLAS_STATUS_NOT_INITIALIZED" : s == 0 ? "CUBLAS_STATUS_SUCCESS" : "CUBLAS_STATUS_DOUBLE";
}

const char *cublasGetStatusString(int s)
{
	(void)s;
	return "simulated by the cudx test double";
}
