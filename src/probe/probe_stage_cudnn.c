/* Stage 5: cuDNN: its version, the CUDA runtime it was built for (cudnnGetCudartVersion), a
 * handle, and a small convolution forward checked on the host. Device memory comes from the
 * shared cudart of the CUDA major cuDNN was built for; c->candidates lists them as "MAJOR=NAME". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probe/probe_cudart.h"

struct probe_cudnn {
	size_t (*version)(void);
	size_t (*cudart_version)(void);
	int (*create)(void **);
	int (*destroy)(void *);
	struct probe_code_names names; /* cudnnGetErrorString gives the name ("CUDNN_STATUS_...") */
	int (*tensor_create)(void **);
	int (*tensor_set)(void *, int, int, int, int, int, int);
	int (*filter_create)(void **);
	int (*filter_set)(void *, int, int, int, int, int, int);
	int (*conv_create)(void **);
	int (*conv_set)(void *, int, int, int, int, int, int, int, int);
	int (*forward)(void *, const void *, void *, const void *, void *, const void *, void *, int,
		       void *, size_t, const void *, void *, void *);
};

#define DNN(field, sym) PROBE_SYM(struct probe_cudnn, field, sym)

static const struct probe_sym_entry dnn_syms[] = {
	DNN(version, "cudnnGetVersion"),
	DNN(cudart_version, "cudnnGetCudartVersion"),
	DNN(create, "cudnnCreate"),
	DNN(destroy, "cudnnDestroy"),
	DNN(names.name, "cudnnGetErrorString"),
	DNN(tensor_create, "cudnnCreateTensorDescriptor"),
	DNN(tensor_set, "cudnnSetTensor4dDescriptor"),
	DNN(filter_create, "cudnnCreateFilterDescriptor"),
	DNN(filter_set, "cudnnSetFilter4dDescriptor"),
	DNN(conv_create, "cudnnCreateConvolutionDescriptor"),
	DNN(conv_set, "cudnnSetConvolution2dDescriptor"),
	DNN(forward, "cudnnConvolutionForward"),
};

static const struct probe_check conv_check = {
	.copy = "cudaMemcpy y to host",
	.step = "convolution result verified",
	.ok = "2x2 output matches the host",
	.wrong = "the convolution output differs from the host's",
};

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
	struct probe_cudnn d;
	void *lib = probe_open(c, file, &d, sizeof d, PROBE_SYMS(dnn_syms));
	if (!lib)
		return;
	probe_name_codes(c, "cudnn9", probe_names_of, &d.names);
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
	probe_name_codes(c, dnn_api, probe_names_of, &d.names);
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
	probe_cudart_check(c, &rt, rtfile, file, &conv_check, y, dy, want, YH * YH);
	if (d.destroy)
		d.destroy(h);
}
