/* `cudx compare`'s differences in words (fleet_words.h). */
#include "fleet/fleet_words.h"

#include <string.h>

const char *fleet_value_words(struct arena *a, enum fleet_dim d, const char *v)
{
	if (strcmp(v, "none") == 0) {
		static const char *const none[FLEET_NDIM] = { "no driver", "no CUDA runtime", "no cuDNN", "no GPU",
							      "no finding" };
		return none[d];
	}
	if (d != FLEET_FINDINGS || !strchr(v, ' '))
		return v;
	char *s = arena_strdup(a, "");
	for (const char *p = v; *p;) {
		size_t len = strcspn(p, " ");
		s = arena_printf(a, "%s%s%.*s", s, *s ? ", " : "", (int)len, p);
		p += len;
		p += *p == ' ';
	}
	return s;
}

/* "extra finding a" / "extra findings a, b" */
static char *id_list(struct arena *a, const char *what, const char **ids, size_t n)
{
	char *s = arena_printf(a, "%s finding%s ", what, n > 1 ? "s" : "");
	for (size_t i = 0; i < n; i++)
		s = arena_printf(a, "%s%s%s", s, i ? ", " : "", ids[i]);
	return s;
}

size_t fleet_differences(const struct fleet *f, const struct fleet_node *n, const char **out)
{
	size_t k = 0;
	for (int d = 0; d < FLEET_NDIM; d++) {
		if (!fleet_node_differs(f, n, (enum fleet_dim)d))
			continue;
		if (d == FLEET_FINDINGS) {
			const char **extra, **missing;
			size_t n_extra, n_missing;
			fleet_findings_diff(f, n, &extra, &n_extra, &missing, &n_missing);
			if (n_extra)
				out[k++] = id_list(f->arena, "extra", extra, n_extra);
			if (n_missing)
				out[k++] = id_list(f->arena, "missing", missing, n_missing);
			continue;
		}
		const struct fleet_value *maj = &f->values[f->majority[d]];
		const char *mine = f->values[n->v[d]].s;
		bool none = strcmp(mine, "none") == 0; /* "no driver" says which dimension itself */
		out[k++] = arena_printf(f->arena, "%s%s%s (majority %s, %u of %zu nodes%s)", none ? "" : fleet_dim_title[d],
					none ? "" : " ", fleet_value_words(f->arena, (enum fleet_dim)d, mine), maj->s,
					maj->count[d], f->n_nodes, f->tied[d] ? ", tied" : "");
	}
	return k;
}

const char *fleet_outlier_line(const struct fleet *f, const struct fleet_node *n)
{
	const char *d[FLEET_NDIM + 1];
	size_t k = fleet_differences(f, n, d);
	char *s = arena_strdup(f->arena, "");
	for (size_t i = 0; i < k; i++)
		s = arena_printf(f->arena, "%s%s%s", s, i ? "; " : "", d[i]);
	return s;
}
