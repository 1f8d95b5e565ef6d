/* The live environment of this process on Windows, as UTF-8 (GetEnvironmentStringsW: the
 * narrow `environ` would lose non-ANSI characters in paths). Names are case-insensitive. */
#include <windows.h>

#include "win/native.h"

void win_env_live(struct envsnap *e, struct arena *a)
{
	memset(e, 0, sizeof *e);
	e->origin = "this process";
	e->case_insensitive = true;
	wchar_t *block = GetEnvironmentStringsW();
	if (!block)
		return;
	size_t cap = 0;
	for (wchar_t *p = block; *p && e->n < ENVSNAP_MAX_VARS; p += wcslen(p) + 1) {
		/* "=C:=C:\dir" entries hold per-drive current directories: not variables */
		if (*p == L'=')
			continue;
		int n = WideCharToMultiByte(CP_UTF8, 0, p, -1, NULL, 0, NULL, NULL);
		if (n <= 0)
			continue;
		char *s = arena_alloc(a, (size_t)n);
		WideCharToMultiByte(CP_UTF8, 0, p, -1, s, n, NULL, NULL);
		char *eq = strchr(s, '=');
		if (!eq)
			continue;
		*eq = 0;
		struct env_var *v = ARENA_PUSH(a, e->vars, e->n, cap);
		v->name = s;
		v->value = eq + 1;
	}
	FreeEnvironmentStringsW(block);
}
