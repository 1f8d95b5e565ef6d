/* The table is data/python/frameworks_extra.tsv, row for row (see python_facts.h); edit the TSV
 * and this table together: tests/unit/test_py_facts.c compares them and prints the missing rows. */
#include "collect/python_facts.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const struct py_fact py_facts[] = {
	{ "build", "tensorflow", "2.21", "12.5", "9.3", "linux", "-",
	  "https://www.tensorflow.org/install/source#gpu (compat-facts 5a)" },
	{ "build", "tensorflow", "2.20", "12.5", "9.3", "linux", "-",
	  "https://www.tensorflow.org/install/source#gpu (compat-facts 5a)" },
	{ "build", "tensorflow", "2.19", "12.5", "9.3", "linux", "-",
	  "https://www.tensorflow.org/install/source#gpu (compat-facts 5a)" },
	{ "build", "tensorflow", "2.18", "12.5", "9.3", "linux", "-",
	  "https://www.tensorflow.org/install/source#gpu (compat-facts 5a)" },
	{ "build", "tensorflow", "2.17", "12.3", "8.9", "linux", "-",
	  "https://www.tensorflow.org/install/source#gpu (compat-facts 5a)" },
	{ "build", "tensorflow", "2.16", "12.3", "8.9", "linux", "-",
	  "https://www.tensorflow.org/install/source#gpu (compat-facts 5a)" },
	{ "build", "tensorflow", "2.15", "12.2", "8.9", "linux", "-",
	  "https://www.tensorflow.org/install/source#gpu (compat-facts 5a)" },
	{ "build", "tensorflow", "2.14", "11.8", "8.7", "linux", "-",
	  "https://www.tensorflow.org/install/source#gpu (compat-facts 5a)" },
	{ "build", "tensorflow", "2.13", "11.8", "8.6", "linux", "-",
	  "https://www.tensorflow.org/install/source#gpu (compat-facts 5a)" },
	{ "build", "tensorflow", "2.12", "11.8", "8.6", "linux", "-",
	  "https://www.tensorflow.org/install/source#gpu (compat-facts 5a)" },
	{ "build", "tensorflow", "2.11", "11.2", "8.1", "linux", "-",
	  "https://www.tensorflow.org/install/source#gpu (compat-facts 5a)" },
	{ "build", "tensorflow", "2.10", "11.2", "8.1", "linux", "-",
	  "https://www.tensorflow.org/install/source#gpu (compat-facts 5a)" },
	{ "build", "tensorflow", "2.9", "11.2", "8.1", "linux", "-",
	  "https://www.tensorflow.org/install/source#gpu (compat-facts 5a)" },
	{ "build", "tensorflow", "2.8", "11.2", "8.1", "linux", "-",
	  "https://www.tensorflow.org/install/source#gpu (compat-facts 5a)" },
	{ "build", "tensorflow", "2.7", "11.2", "8.1", "linux", "-",
	  "https://www.tensorflow.org/install/source#gpu (compat-facts 5a)" },
	{ "build", "tensorflow", "2.6", "11.2", "8.1", "linux", "-",
	  "https://www.tensorflow.org/install/source#gpu (compat-facts 5a)" },
	{ "build", "tensorflow", "2.5", "11.2", "8.1", "linux", "-",
	  "https://www.tensorflow.org/install/source#gpu (compat-facts 5a)" },
	{ "build", "tensorflow", "2.4", "11.0", "8.0", "linux", "-",
	  "https://www.tensorflow.org/install/source#gpu (compat-facts 5a)" },
	{ "build", "tensorflow", "2.3", "10.1", "7.6", "linux", "-",
	  "https://www.tensorflow.org/install/source#gpu (compat-facts 5a)" },
	{ "build", "tensorflow", "2.2", "10.1", "7.6", "linux", "-",
	  "https://www.tensorflow.org/install/source#gpu (compat-facts 5a)" },
	{ "build", "tensorflow", "2.1", "10.1", "7.6", "linux", "-",
	  "https://www.tensorflow.org/install/source#gpu (compat-facts 5a)" },
	{ "build", "tensorflow", "2.0", "10.0", "7.4", "linux", "-",
	  "https://www.tensorflow.org/install/source#gpu (compat-facts 5a)" },
	{ "build", "tensorflow", "2.10", "11.2", "8.1", "windows", "last-native-gpu",
	  "https://www.tensorflow.org/install/source_windows#gpu (compat-facts 5b)" },
	{ "build", "tensorflow", "2.9", "11.2", "8.1", "windows", "-",
	  "https://www.tensorflow.org/install/source_windows#gpu (compat-facts 5b)" },
	{ "build", "tensorflow", "2.8", "11.2", "8.1", "windows", "-",
	  "https://www.tensorflow.org/install/source_windows#gpu (compat-facts 5b)" },
	{ "build", "tensorflow", "2.7", "11.2", "8.1", "windows", "-",
	  "https://www.tensorflow.org/install/source_windows#gpu (compat-facts 5b)" },
	{ "build", "tensorflow", "2.6", "11.2", "8.1", "windows", "-",
	  "https://www.tensorflow.org/install/source_windows#gpu (compat-facts 5b)" },
	{ "build", "tensorflow", "2.5", "11.2", "8.1", "windows", "-",
	  "https://www.tensorflow.org/install/source_windows#gpu (compat-facts 5b)" },
	{ "build", "tensorflow", "2.4", "11.0", "8.0", "windows", "-",
	  "https://www.tensorflow.org/install/source_windows#gpu (compat-facts 5b)" },
	{ "build", "torch", "2.14", "13.0", "9.24.0.43", "linux", "-",
	  "pytorch RELEASE.md compatibility matrix (compat-facts 6a)" },
	{ "build", "torch", "2.14", "12.6", "9.10.2.21", "linux", "-",
	  "pytorch RELEASE.md compatibility matrix (compat-facts 6a)" },
	{ "build", "torch", "2.13", "13.0", "9.20.0.48", "linux", "-",
	  "pytorch RELEASE.md compatibility matrix (compat-facts 6a)" },
	{ "build", "torch", "2.13", "12.6", "9.10.2.21", "linux", "-",
	  "pytorch RELEASE.md compatibility matrix (compat-facts 6a)" },
	{ "build", "torch", "2.12", "13.0", "9.20.0.48", "linux", "-",
	  "pytorch RELEASE.md compatibility matrix (compat-facts 6a)" },
	{ "build", "torch", "2.12", "12.6", "9.10.2.21", "linux", "-",
	  "pytorch RELEASE.md compatibility matrix (compat-facts 6a)" },
	{ "build", "torch", "2.11", "13.0", "9.17.1.4", "linux", "-",
	  "pytorch RELEASE.md compatibility matrix (compat-facts 6a)" },
	{ "build", "torch", "2.11", "12.8", "9.17.1.4", "linux", "-",
	  "pytorch RELEASE.md compatibility matrix (compat-facts 6a)" },
	{ "build", "torch", "2.11", "12.6", "9.10.2.21", "linux", "-",
	  "pytorch RELEASE.md compatibility matrix (compat-facts 6a)" },
	{ "build", "torch", "2.10", "13.0", "9.15.1.9", "linux", "-",
	  "pytorch RELEASE.md compatibility matrix (compat-facts 6a)" },
	{ "build", "torch", "2.10", "12.8", "9.10.2.21", "linux", "-",
	  "pytorch RELEASE.md compatibility matrix (compat-facts 6a)" },
	{ "build", "torch", "2.10", "12.6", "9.10.2.21", "linux", "-",
	  "pytorch RELEASE.md compatibility matrix (compat-facts 6a)" },
	{ "build", "torch", "2.9", "13.0", "9.13.0.50", "linux", "-",
	  "pytorch RELEASE.md compatibility matrix (compat-facts 6a)" },
	{ "build", "torch", "2.9", "12.8", "9.10.2.21", "linux", "-",
	  "pytorch RELEASE.md compatibility matrix (compat-facts 6a)" },
	{ "build", "torch", "2.9", "12.6", "9.10.2.21", "linux", "-",
	  "pytorch RELEASE.md compatibility matrix (compat-facts 6a)" },
	{ "build", "torch", "2.8", "12.9", "9.10.2.21", "linux", "-",
	  "pytorch RELEASE.md compatibility matrix (compat-facts 6a)" },
	{ "build", "torch", "2.8", "12.8", "9.10.2.21", "linux", "-",
	  "pytorch RELEASE.md compatibility matrix (compat-facts 6a)" },
	{ "build", "torch", "2.8", "12.6", "9.10.2.21", "linux", "-",
	  "pytorch RELEASE.md compatibility matrix (compat-facts 6a)" },
	{ "build", "torch", "2.7", "12.8", "9.7.1.26", "linux", "-",
	  "pytorch RELEASE.md compatibility matrix (compat-facts 6a)" },
	{ "build", "torch", "2.7", "12.6", "9.5.1.17", "linux", "-",
	  "pytorch RELEASE.md compatibility matrix (compat-facts 6a)" },
	{ "build", "torch", "2.7", "11.8", "9.1.0.70", "linux", "-",
	  "pytorch RELEASE.md compatibility matrix (compat-facts 6a)" },
	{ "build", "torch", "2.6", "12.6", "9.5.1.17", "linux", "-",
	  "pytorch RELEASE.md compatibility matrix (compat-facts 6a)" },
	{ "build", "torch", "2.6", "12.4", "9.1.0.70", "linux", "-",
	  "pytorch RELEASE.md compatibility matrix (compat-facts 6a)" },
	{ "build", "torch", "2.6", "11.8", "9.1.0.70", "linux", "-",
	  "pytorch RELEASE.md compatibility matrix (compat-facts 6a)" },
	{ "build", "torch", "2.5", "12.4", "9.1.0.70", "linux", "-",
	  "pytorch RELEASE.md compatibility matrix (compat-facts 6a)" },
	{ "build", "torch", "2.5", "12.1", "9.1.0.70", "linux", "-",
	  "pytorch RELEASE.md compatibility matrix (compat-facts 6a)" },
	{ "build", "torch", "2.5", "11.8", "9.1.0.70", "linux", "-",
	  "pytorch RELEASE.md compatibility matrix (compat-facts 6a)" },
	{ "build", "torch", "2.4", "12.4", "9.1.0.70", "linux", "-",
	  "pytorch RELEASE.md compatibility matrix (compat-facts 6a)" },
	{ "build", "torch", "2.4", "12.1", "9.1.0.70", "linux", "-",
	  "pytorch RELEASE.md compatibility matrix (compat-facts 6a)" },
	{ "build", "torch", "2.4", "11.8", "9.1.0.70", "linux", "-",
	  "pytorch RELEASE.md compatibility matrix (compat-facts 6a)" },
	{ "build", "torch", "2.3", "12.1", "8.9.2.26", "linux", "-",
	  "pytorch RELEASE.md compatibility matrix (compat-facts 6a)" },
	{ "build", "torch", "2.3", "11.8", "8.7.0.84", "linux", "-",
	  "pytorch RELEASE.md compatibility matrix (compat-facts 6a)" },
	{ "build", "torch", "2.2", "12.1", "8.9.2.26", "linux", "-",
	  "pytorch RELEASE.md compatibility matrix (compat-facts 6a)" },
	{ "build", "torch", "2.2", "11.8", "8.7.0.84", "linux", "-",
	  "pytorch RELEASE.md compatibility matrix (compat-facts 6a)" },
	{ "build", "torch", "2.1", "12.1", "8.9.2.26", "linux", "-",
	  "pytorch RELEASE.md compatibility matrix (compat-facts 6a)" },
	{ "build", "torch", "2.1", "11.8", "8.7.0.84", "linux", "-",
	  "pytorch RELEASE.md compatibility matrix (compat-facts 6a)" },
	{ "build", "torch", "2.0", "11.8", "8.7.0.84", "linux", "-",
	  "pytorch RELEASE.md compatibility matrix (compat-facts 6a)" },
	{ "build", "torch", "2.0", "11.7", "8.5.0.96", "linux", "-",
	  "pytorch RELEASE.md compatibility matrix (compat-facts 6a)" },
	{ "build", "torch", "1.13", "11.7", "8.5.0.96", "linux", "-",
	  "pytorch RELEASE.md compatibility matrix (compat-facts 6a)" },
	{ "build", "torch", "1.13", "11.6", "8.3.2.44", "linux", "-",
	  "pytorch RELEASE.md compatibility matrix (compat-facts 6a)" },
	{ "build", "onnxruntime-gpu", "1.20", "12", "9", "linux", "-",
	  "https://onnxruntime.ai/docs/execution-providers/CUDA-ExecutionProvider.html#requirements (compat-facts 7b)" },
	{ "build", "onnxruntime-gpu", "1.19", "12", "9", "linux", "-",
	  "https://onnxruntime.ai/docs/execution-providers/CUDA-ExecutionProvider.html#requirements (compat-facts 7b)" },
	{ "build", "onnxruntime-gpu", "1.18.1", "12", "9", "linux", "-",
	  "https://onnxruntime.ai/docs/execution-providers/CUDA-ExecutionProvider.html#requirements (compat-facts 7b)" },
	{ "build", "onnxruntime-gpu", "1.18.0", "12", "8", "linux", "-",
	  "https://onnxruntime.ai/docs/execution-providers/CUDA-ExecutionProvider.html#requirements (compat-facts 7b)" },
	{ "build", "onnxruntime-gpu", "1.17", "11.8", "8", "linux", "-",
	  "https://onnxruntime.ai/docs/execution-providers/CUDA-ExecutionProvider.html#requirements (compat-facts 7b)" },
	{ "build", "onnxruntime-gpu", "1.16", "11.8", "8", "linux", "-",
	  "https://onnxruntime.ai/docs/execution-providers/CUDA-ExecutionProvider.html#requirements (compat-facts 7b)" },
	{ "build", "onnxruntime-gpu", "1.15", "11.8", "8", "linux", "-",
	  "https://onnxruntime.ai/docs/execution-providers/CUDA-ExecutionProvider.html#requirements (compat-facts 7b)" },
	{ "build", "jax-cuda13-plugin", "-", "13.0", "9.8", "linux", "min",
	  "https://docs.jax.dev/en/latest/installation.html (compat-facts 7a)" },
	{ "build", "jax-cuda12-plugin", "-", "12.3", "9.8", "linux", "min",
	  "https://docs.jax.dev/en/latest/installation.html (compat-facts 7a)" },
	{ "build", "cupy-cuda13x", "-", "13", "-", "linux", "-",
	  "https://docs.cupy.dev/en/stable/install.html (compat-facts 7c)" },
	{ "build", "cupy-cuda12x", "-", "12", "-", "linux", "-",
	  "https://docs.cupy.dev/en/stable/install.html (compat-facts 7c)" },
	{ "build", "cupy-cuda11x", "-", "11", "-", "linux", "-",
	  "https://docs.cupy.dev/en/stable/install.html (compat-facts 7c)" },
	{ "soname", "cudart", "-", "13", "-", "linux", "libcudart.so.13",
	  "compat-facts 4a (S6)" },
	{ "soname", "cudart", "-", "12", "-", "linux", "libcudart.so.12",
	  "compat-facts 4a (S6)" },
	{ "soname", "cudart", "-", "11", "-", "linux", "libcudart.so.11.0",
	  "compat-facts 4a (S6)" },
	{ "soname", "cublas", "-", "13", "-", "linux", "libcublas.so.13",
	  "compat-facts 4a (S6)" },
	{ "soname", "cublas", "-", "12", "-", "linux", "libcublas.so.12",
	  "compat-facts 4a (S6)" },
	{ "soname", "cublas", "-", "11", "-", "linux", "libcublas.so.11",
	  "compat-facts 4a (S6)" },
	{ "soname", "cublasLt", "-", "13", "-", "linux", "libcublasLt.so.13",
	  "compat-facts 4a (S6)" },
	{ "soname", "cublasLt", "-", "12", "-", "linux", "libcublasLt.so.12",
	  "compat-facts 4a (S6)" },
	{ "soname", "cublasLt", "-", "11", "-", "linux", "libcublasLt.so.11",
	  "compat-facts 4a (S6)" },
	{ "soname", "cufft", "-", "13", "-", "linux", "libcufft.so.12",
	  "compat-facts 4a (S6)" },
	{ "soname", "cufft", "-", "12", "-", "linux", "libcufft.so.11",
	  "compat-facts 4a (S6)" },
	{ "soname", "cufft", "-", "11", "-", "linux", "libcufft.so.10",
	  "compat-facts 4a (S6)" },
	{ "soname", "cusolver", "-", "13", "-", "linux", "libcusolver.so.12",
	  "compat-facts 4a (S6)" },
	{ "soname", "cusolver", "-", "12", "-", "linux", "libcusolver.so.11",
	  "compat-facts 4a (S6)" },
	{ "soname", "cusolver", "-", "11", "-", "linux", "libcusolver.so.11",
	  "compat-facts 4a (S6)" },
	{ "soname", "cusparse", "-", "13", "-", "linux", "libcusparse.so.12",
	  "compat-facts 4a (S6)" },
	{ "soname", "cusparse", "-", "12", "-", "linux", "libcusparse.so.12",
	  "compat-facts 4a (S6)" },
	{ "soname", "cusparse", "-", "11", "-", "linux", "libcusparse.so.11",
	  "compat-facts 4a (S6)" },
	{ "soname", "cudnn", "-", "9", "-", "linux", "libcudnn.so.9",
	  "compat-facts 3b" },
	{ "soname", "cudnn", "-", "8", "-", "linux", "libcudnn.so.8",
	  "compat-facts 3b" },
	{ "soname", "cudnn", "-", "7", "-", "linux", "libcudnn.so.7",
	  "compat-facts 3b" },
	{ "loads", "tensorflow", "tensorflow/libtensorflow_framework.so.2", "-", "-", "linux", "cudart,cublas,cublasLt,cufft,cusolver,cusparse,cudnn",
	  "anchors 2c (xla/tsl dso_loader: dlopen by file name)" },
	{ "loads", "torch", "torch/lib/libtorch_cuda.so", "-", "-", "linux", "cudart,cublas,cublasLt,cudnn",
	  "anchors 1 / torch wheels: NEEDED with RUNPATH into nvidia/*/lib" },
	{ "loads", "onnxruntime-gpu", "onnxruntime/capi/libonnxruntime_providers_cuda.so", "-", "-", "linux", "cudart,cublas,cublasLt,cufft,cudnn",
	  "compat-facts 7b; error-cases gpuerr-021/044 (NEEDED of the CUDA provider)" },
	{ "loads", "jax-cuda12-plugin", "jax_plugins/xla_cuda12/xla_cuda_plugin.so", "-", "-", "linux", "cudart,cublas,cublasLt,cufft,cusolver,cusparse,cudnn",
	  "anchors 8 (jax_plugins/cuda preloads the nvidia wheels)" },
	{ "loads", "jax-cuda13-plugin", "jax_plugins/xla_cuda13/xla_cuda_plugin.so", "-", "-", "linux", "cudart,cublas,cublasLt,cufft,cusolver,cusparse,cudnn",
	  "anchors 8 (jax_plugins/cuda preloads the nvidia wheels)" },
	{ "floor", "-", "-", "11", "-", "linux", "450.80.02",
	  "compat-facts 1b (S1,S3): minor-version compatibility floor, used when src/kb/ has no answer" },
	{ "floor", "-", "-", "12", "-", "linux", "525.60.13",
	  "compat-facts 1b (S1,S3,S10,S12)" },
	{ "floor", "-", "-", "13", "-", "linux", "580.65.06",
	  "compat-facts 1b (S1,S10,S18)" },
	{ "floor", "-", "-", "11", "-", "windows", "452.39",
	  "compat-facts 1b (S1,S3)" },
	{ "floor", "-", "-", "12", "-", "windows", "527.41",
	  "compat-facts 1b (S1,S3,S10,S12)" },
	{ "floor", "-", "-", "13", "-", "windows", "580.88",
	  "compat-facts 1b (S18)" },
};
const size_t py_n_facts = sizeof py_facts / sizeof py_facts[0];

/* "2.15" is a prefix of "2.15.1" and of "2.15.0+cpu" but not of "2.150" */
static bool version_prefix(const char *row, const char *v)
{
	if (strcmp(row, "-") == 0)
		return true;
	size_t n = strlen(row);
	if (!v || strncmp(row, v, n) != 0)
		return false;
	return v[n] == 0 || v[n] == '.' || v[n] == '+' || v[n] == '-';
}

/* major.minor of a CUDA version equal ("12.4" vs "12.4.131"); a row "12" matches any 12.x */
static bool cuda_match(const char *row, const char *cuda)
{
	int ra = 0, rb = -1, ca = 0, cb = -1;
	if (sscanf(row, "%d.%d", &ra, &rb) < 1 || sscanf(cuda, "%d.%d", &ca, &cb) < 1)
		return false;
	return ra == ca && (rb < 0 || cb < 0 || rb == cb);
}

const struct py_fact *py_fact_build(const char *framework, const char *version, const char *cuda,
				    const char *os)
{
	const struct py_fact *best = NULL;
	size_t best_len = 0;
	for (size_t i = 0; i < py_n_facts; i++) {
		const struct py_fact *f = &py_facts[i];
		if (strcmp(f->kind, "build") || strcmp(f->framework, framework) || strcmp(f->os, os))
			continue;
		if (!version_prefix(f->version, version))
			continue;
		if (cuda && !cuda_match(f->cuda, cuda))
			continue;
		/* the longest matching version prefix is the most specific row (1.18.1 over 1.18) */
		size_t l = strcmp(f->version, "-") ? strlen(f->version) : 0;
		if (!best || l > best_len)
			best = f, best_len = l;
	}
	return best;
}

const char *py_fact_soname(const char *component, int major)
{
	for (size_t i = 0; i < py_n_facts; i++) {
		const struct py_fact *f = &py_facts[i];
		if (strcmp(f->kind, "soname") == 0 && strcmp(f->framework, component) == 0 &&
		    atoi(f->cuda) == major)
			return f->extra;
	}
	return NULL;
}

const struct py_fact *py_fact_loads(const char *framework)
{
	for (size_t i = 0; i < py_n_facts; i++)
		if (strcmp(py_facts[i].kind, "loads") == 0 && strcmp(py_facts[i].framework, framework) == 0)
			return &py_facts[i];
	return NULL;
}

const char *py_fact_floor(int cuda_major, const char *os)
{
	for (size_t i = 0; i < py_n_facts; i++) {
		const struct py_fact *f = &py_facts[i];
		if (strcmp(f->kind, "floor") == 0 && atoi(f->cuda) == cuda_major && strcmp(f->os, os) == 0)
			return f->extra;
	}
	return NULL;
}
