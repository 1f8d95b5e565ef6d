/* A PTX assembly file on its own (nvcc -ptx, a .ptx an application loads with cuModuleLoad): the
 * PTX ISA version and the target its header declares. The PTX grammar puts `.version X.Y` first
 * (after comments) and `.target sm_XY[a|f][, modifiers]` next; only the first PTX_TEXT_HEAD bytes
 * are read, so a huge or binary file costs nothing. */
#ifndef CUDX_PTX_TEXT_H
#define CUDX_PTX_TEXT_H

#include <stdbool.h>
#include <stdint.h>

#include "util/span.h"

#define PTX_TEXT_HEAD 65536 /* NVVM writes a few comment lines; 64 KiB of them is no PTX */

struct ptx_text_header {
	uint16_t isa_major, isa_minor; /* .version 8.5 */
	uint32_t sm;                   /* .target sm_90a: 90 */
	char variant;                  /* 0, 'a' or 'f' */
};

/* True when f starts (after whitespace and comments) with a well-formed .version and .target. */
bool ptx_text_header(struct span f, struct ptx_text_header *out);

#endif
