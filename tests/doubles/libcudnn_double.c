/* TEST DOUBLE of libcudnn.so.9 (no GPU on CI): version, the CUDA runtime it was "built for", a
 * handle that needs a working runtime of that major, and a 2-D cross-correlation on the host. */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

#include "double_env.h"

struct desc {
	int n, c, h, w;
};

size_t cudnnGetVersion(void)
{
	return 91900;
}

size_t cudnnGetCudartVersion(void)
{
	return (size_t)double_env("CUDX_DOUBLE_CUDNN_CUDART", 13000);
}

int cudnnCreate(void **h)
{
	char name[64];
	snprintf(name, sizeof name, "libcudart.so.%ld", double_env("CUDX_DOUBLE_CUDNN_CUDART", 13000) / 1000);
	void *rt = dlopen(name, RTLD_NOW | RTLD_LOCAL);
	int (*count)(int *) = rt ? (int (*)(int *))dlsym(rt, "cudaGetDeviceCount") : NULL;
	int n = 0;
	if (!count || count(&n) != 0 || n == 0)
		return 1001; /* CUDNN_STATUS_NOT_INITIALIZED */
	*h = (void *)h;
	return 0;
}

int cudnnDestroy(void *h)
{
	(void)h;
	return 0;
}

const char *cudnnGetErrorString(int s)
{
	return s == 1001 ? "CUDNN_STATUS_NOT_INITIALIZED" : s == 0 ? "CUDNN_STATUS_SUCCESS" : "CUDNN_STATUS_DOUBLE";
}

static int create(void **d)
{
	*d = calloc(1, sizeof(struct desc));
	return *d ? 0 : 4003;
}

int cudnnCreateTensorDescriptor(void **d) { return create(d); }
int cudnnCreateFilterDescriptor(void **d) { return create(d); }
int cudnnCreateConvolutionDescriptor(void **d) { return create(d); }

int cudnnSetTensor4dDescriptor(void *d, int fmt, int type, int n, int c, int h, int w)
{
	(void)fmt, (void)type;
	*(struct desc *)d = (struct desc){ n, c, h, w };
	return 0;
}

int cudnnSetFilter4dDescriptor(void *d, int type, int fmt, int k, int c, int h, int w)
{
	(void)fmt, (void)type;
	*(struct desc *)d = (struct desc){ k, c, h, w };
	return 0;
}

int cudnnSetConvolution2dDescriptor(void *d, int ph, int pw, int u, int v, int dh, int dw, int mode, int type)
{
	(void)d, (void)ph, (void)pw, (void)u, (void)v, (void)dh, (void)dw, (void)mode, (void)type;
	return 0;
}

int cudnnConvolutionForward(void *h, const void *alpha, void *xd, const void *x, void *wd, const void *w,
			    void *cd, int algo, void *ws, size_t wss, const void *beta, void *yd, void *y)
{
	(void)h, (void)alpha, (void)cd, (void)algo, (void)ws, (void)wss, (void)beta;
	const struct desc *X = xd, *W = wd, *Y = yd;
	const float *xf = x, *wf = w;
	float *yf = y;
	for (int r = 0; r < Y->h; r++)
		for (int s = 0; s < Y->w; s++) {
			float acc = 0;
			for (int i = 0; i < W->h; i++)
				for (int j = 0; j < W->w; j++)
					acc += xf[(r + i) * X->w + (s + j)] * wf[i * W->w + j];
			yf[r * Y->w + s] = acc;
		}
	if (double_is("CUDX_DOUBLE_WRONG", "1"))
		yf[0] += 1;
	return 0;
}
