/* Stage 5: cuDNN: its version, the CUDA runtime it was built for (cudnnGetCudartVersion), a
 * handle, and a small convolution forward checked on the host. Device memory comes from the
 * shared cudart of the CUDA major cuDNN was built for; c->candidates lists them as "MAJOR=NAME". */
#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probe/probe_cudart.h"

struct probe_cudnn {
	size_t (*version)(void);
	size_t (*cudart_version)(void);
	int (*create)(void **);
	int (*destroy)(void *);
	const char *(*error_string)(int);
	int (*tensor_create)(void **);
	int (*tensor_set)(void *, int, int, int, int, int, int);
	int (*filter_create)(void **);
	int (*filter_set)(void *, int, int, int, int, int, int);
	int (*conv_create)(void **);
	int (*conv_set)(void *, int, int, int, int, int, int, int, int);
	int (*forward)(void *, const void *, void *, const void *, void *, const void *, void *, int,
		       void *, size_t, const void *, void *, void *);
};

static const char *dnn_name(void *ctx, long code, const char **text)
{
	struct probe_cudnn *d = ctx;
	*text = NULL;
	return d->error_string ? d->error_string((int)code) : NULL;
}

#define SYM(field, name) memcpy(&d.field, &(void *){ dlsym(lib, name) }, sizeof(void *))

/* x: 1x1x4x4, w: 1x1x3x3, no padding, stride 1 -> y: 1x1x2x2 (cross-correlation, as cuDNN). */
#define XH 4
#define WH 3
#define YH 2

static const char *helper_for(const struct probe_child *c, long major)
{
	for (const char *const *p = c->candidates; p && *p; p++) {
		char *end;
		long m = strtol(*p, &end, 10);
		if (m == major && *end == '=')
			return end + 1;
	}
	return NULL;
}

void probe_stage_cudnn(struct probe_child *c)
{
	char file[PROBE_PATH_MAX], rtfile[PROBE_PATH_MAX];
	void *lib = probe_load(c, c->target, file);
	if (!lib)
		return;
	struct probe_cudnn d;
	memset(&d, 0, sizeof d);
	SYM(version, "cudnnGetVersion");
	SYM(cudart_version, "cudnnGetCudartVersion");
	SYM(create, "cudnnCreate");
	SYM(destroy, "cudnnDestroy");
	SYM(error_string, "cudnnGetErrorString");
	SYM(tensor_create, "cudnnCreateTensorDescriptor");
	SYM(tensor_set, "cudnnSetTensor4dDescriptor");
	SYM(filter_create, "cudnnCreateFilterDescriptor");
	SYM(filter_set, "cudnnSetFilter4dDescriptor");
	SYM(conv_create, "cudnnCreateConvolutionDescriptor");
	SYM(conv_set, "cudnnSetConvolution2dDescriptor");
	SYM(forward, "cudnnConvolutionForward");
	c->name_code = dnn_name;
	c->name_ctx = &d;
	c->api = "cudnn9";
	char v[64];
	long cudart = 0;
	if (d.version) {
		double t0 = probe_begin(c, "cudnnGetVersion");
		size_t ver = d.version();
		/* 8.x encodes major*1000+minor*100+patch, 9.x major*10000+... (compat-facts §3c) */
		if (ver < 90000)
			c->api = "cudnn8";
		snprintf(v, sizeof v, "%zu", ver);
		probe_outcome(c, "cudnnGetVersion", t0, PROBE_OK, v);
		probe_fact(c, "version", "%zu", ver);
	}
	if (d.cudart_version) {
		double t0 = probe_begin(c, "cudnnGetCudartVersion");
		cudart = (long)d.cudart_version();
		snprintf(v, sizeof v, "%ld", cudart);
		probe_outcome(c, "cudnnGetCudartVersion", t0, PROBE_OK, v);
		probe_fact(c, "cudart_version", "%ld", cudart);
	}
	const char *dnn_api = c->api;
	if (!d.create) {
		probe_sym(c, lib, "cudnnCreate");
		return;
	}
	void *h = NULL;
	double t0 = probe_begin(c, "cudnnCreate");
	bool created = probe_code(c, "cudnnCreate", t0, d.create(&h), NULL);

	c->helper = cudart ? helper_for(c, cudart / 1000) : NULL;
	struct probe_cudart rt;
	if (!c->helper || !probe_cudart_ready(c, &rt, rtfile) || !created)
		return;
	if (!d.tensor_create || !d.tensor_set || !d.filter_create || !d.filter_set ||
	    !d.conv_create || !d.conv_set || !d.forward) {
		probe_outcome(c, "convolution API", 0, PROBE_MISSING, "legacy convolution entry points absent");
		return;
	}
	float x[XH * XH], w[WH * WH], y[YH * YH], want[YH * YH];
	for (int i = 0; i < XH * XH; i++)
		x[i] = (float)(i % 7 - 3);
	for (int i = 0; i < WH * WH; i++)
		w[i] = (float)(i % 4 - 1);
	for (int r = 0; r < YH; r++)
		for (int s = 0; s < YH; s++) {
			float acc = 0;
			for (int i = 0; i < WH; i++)
				for (int j = 0; j < WH; j++)
					acc += x[(r + i) * XH + (s + j)] * w[i * WH + j];
			want[r * YH + s] = acc;
			y[r * YH + s] = 0;
		}
	void *dx = probe_cudart_upload(c, &rt, x, XH * XH, "x");
	void *dw = dx ? probe_cudart_upload(c, &rt, w, WH * WH, "w") : NULL;
	void *dy = dw ? probe_cudart_upload(c, &rt, y, YH * YH, "y") : NULL;
	if (!dy)
		return;
	c->library = file;
	c->name_code = dnn_name;
	c->name_ctx = &d;
	c->api = dnn_api;
	void *xd = NULL, *yd = NULL, *wd = NULL, *cd = NULL;
	t0 = probe_begin(c, "cudnn descriptors");
	int rc = d.tensor_create(&xd);
	if (!rc)
		rc = d.tensor_set(xd, 0, 0, 1, 1, XH, XH); /* NCHW, FLOAT */
	if (!rc)
		rc = d.tensor_create(&yd);
	if (!rc)
		rc = d.tensor_set(yd, 0, 0, 1, 1, YH, YH);
	if (!rc)
		rc = d.filter_create(&wd);
	if (!rc)
		rc = d.filter_set(wd, 0, 0, 1, 1, WH, WH); /* FLOAT, NCHW */
	if (!rc)
		rc = d.conv_create(&cd);
	if (!rc)
		rc = d.conv_set(cd, 0, 0, 1, 1, 1, 1, 1, 0); /* CROSS_CORRELATION, FLOAT */
	if (!probe_code(c, "cudnn descriptors", t0, rc, NULL))
		return;
	const float one = 1, zero = 0;
	t0 = probe_begin(c, "cudnnConvolutionForward");
	rc = d.forward(h, &one, xd, dx, wd, dw, cd, 0, NULL, 0, &zero, yd, dy);
	if (!probe_code(c, "cudnnConvolutionForward", t0, rc, "4x4 * 3x3"))
		return;
	probe_cudart_bind(c, &rt, dlopen(rtfile, RTLD_NOW | RTLD_NOLOAD));
	c->library = rtfile;
	t0 = probe_begin(c, "cudaMemcpy y to host");
	if (!probe_code(c, "cudaMemcpy y to host", t0, rt.memcpy(y, dy, sizeof y, PROBE_MEMCPY_D2H), NULL))
		return;
	bool same = true;
	for (int i = 0; i < YH * YH; i++)
		same = same && fabsf(y[i] - want[i]) < 1e-3f;
	c->library = file;
	probe_outcome(c, "convolution result verified", 0, same ? PROBE_OK : PROBE_WRONG,
		      same ? "2x2 output matches the host" : "the convolution output differs from the host's");
	if (d.destroy)
		d.destroy(h);
}
