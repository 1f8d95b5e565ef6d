/* What containerd's config.toml says about the NVIDIA runtime (formats: containerd's CRI plugin
 * configuration, version 1 to 3; the NVIDIA Container Toolkit's `nvidia-ctk runtime configure`
 * adds the runtime):
 *   [plugins."io.containerd.grpc.v1.cri".containerd]            (v1/v2; v3: 'io.containerd.cri.v1.runtime')
 *     default_runtime_name = "nvidia"
 *   [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.nvidia]
 * Only these two facts are read, line by line; the rest of the TOML is skipped. A pod (or a `ctr`
 * container) that names no runtime class runs under the default runtime, runc when none is set,
 * and gets no GPU driver from it. */
#ifndef CUDX_CONTAINERD_TOML_H
#define CUDX_CONTAINERD_TOML_H

#include <stdbool.h>

#include "util/arena.h"
#include "util/span.h"

struct containerd_config {
	bool nvidia_runtime;         /* a [...runtimes.nvidia] (or nvidia-*) table */
	const char *default_runtime; /* default_runtime_name's value, NULL when not set (runc) */
	size_t lines;                /* lines read */
};

/* Reads at most the first 1 MiB of text; never fails (garbage gives no runtime and no default). */
void containerd_config_scan(struct span text, struct arena *a, struct containerd_config *out);

#endif
