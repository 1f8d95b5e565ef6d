/* Readers for the NVIDIA kernel driver's /proc files (formats.md §5.1):
 *   /proc/driver/nvidia/version, both module flavours:
 *     "NVRM version: NVIDIA UNIX x86_64 Kernel Module  550.54.15  Tue Mar  5 22:23:56 UTC 2024"
 *     "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  580.95.05  Release Build  (...)"
 *   /proc/driver/nvidia/gpus/<bus>/information: "Key:   value" lines;
 * and the Jetson's /etc/nv_tegra_release, which names the L4T release its driver belongs to (Jetson
 * has no /proc/driver/nvidia):
 *     "# R35 (release), REVISION: 4.1, GCID: 33958178, BOARD: t186ref, EABI: aarch64, DATE: ..." */
#ifndef CUDX_NVPROC_H
#define CUDX_NVPROC_H

#include <stdbool.h>
#include <stddef.h>

#include "util/arena.h"
#include "util/span.h"

struct nvproc_version {
	const char *line;    /* the first line (at most 512 bytes) */
	const char *version; /* "550.54.15" */
	const char *flavour; /* "proprietary" | "open" */
	const char *arch;    /* "x86_64", "aarch64", or NULL */
};

/* false with *err set ("not an NVRM version line", "no version number") on unexpected content */
bool nvproc_parse_version(struct span text, struct arena *a, struct nvproc_version *out, const char **err);
struct tegra_release {
	const char *line;    /* the first line (at most 512 bytes) */
	const char *release; /* "35.4.1": R<major> and REVISION <minor>.<patch> */
	const char *board;   /* "t186ref", or NULL */
};

/* false with *err set ("not an L4T release line", "no REVISION") on unexpected content */
bool nvproc_parse_tegra_release(struct span text, struct arena *a, struct tegra_release *out, const char **err);
/* The value of "Key:" in an information file, trimmed, or NULL. */
const char *nvproc_field(struct span text, struct arena *a, const char *key);

#endif
