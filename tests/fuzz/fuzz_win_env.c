/* libFuzzer target for the Windows --env readers: UTF-16 detection, the PowerShell table, and
 * %VAR% expansion of what was read. */
#include <stddef.h>
#include <stdint.h>

#include "loader/win_env.h"
#include "loader/win_path.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct arena a;
	arena_init(&a);
	struct span t = win_env_to_utf8(&a, span_make(data, size));
	struct envsnap e = { 0 };
	size_t cut = 0;
	if (win_env_is_pstable(t))
		win_env_parse_pstable(&e, &a, t, "fuzz", &cut);
	else
		envsnap_parse(&e, &a, t, "fuzz");
	for (size_t i = 0; i < e.n && i < 16; i++) {
		(void)win_expand_vars(&a, &e, e.vars[i].value);
		(void)win_path_to_root(&a, e.vars[i].value, NULL);
	}
	arena_free(&a);
	return 0;
}
