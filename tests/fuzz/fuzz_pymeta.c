/* Every reader of src/fmt/pymeta.c over the same bytes: METADATA, requirement strings taken from
 * it, literals of generated modules, pyvenv.cfg, environments.txt and RECORD. */
#include <stdint.h>

#include "fmt/pymeta.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct arena a;
	arena_init(&a);
	struct span s = span_make(data, size);
	struct pymeta_dist d;
	const char *err;
	if (pymeta_parse_metadata(s, &a, &d, &err)) {
		for (size_t i = 0; i < d.n_requires; i++) {
			struct pymeta_req r;
			pymeta_parse_req(d.requires[i], &a, &r);
		}
	}
	static const char *const keys[] = { "cuda", "__version__", "hip", "cuda_version",
					    "cudnn_version", "cuda_compute_capabilities", "is_cuda_build" };
	for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
		struct pymeta_value v;
		pymeta_py_value(s, &a, keys[i], &v);
	}
	pymeta_cfg_value(s, &a, "home");
	const char **lines;
	pymeta_lines(s, &a, &lines, PYMETA_MAX_LINES);
	pymeta_record_libs(s, &a, &lines, 256);
	arena_free(&a);
	return 0;
}
