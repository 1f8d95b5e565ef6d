/* The focus list (collect/focus.h): built by a command, read by collectors and rules. Portable:
 * the native Windows build uses it for why/tree too. */
#include <string.h>

#include "collect/focus.h"

struct focus_item *focus_add(struct arena *a, struct focus *fo, enum focus_kind kind, const char *name)
{
	struct focus_item *it = ARENA_PUSH(a, fo->items, fo->n_items, fo->cap_items);
	it->kind = kind;
	it->name = name;
	return it;
}

const struct focus_item *focus_first(const struct focus *fo, enum focus_kind kind)
{
	for (size_t i = 0; fo && i < fo->n_items; i++)
		if (fo->items[i].kind == kind)
			return &fo->items[i];
	return NULL;
}
