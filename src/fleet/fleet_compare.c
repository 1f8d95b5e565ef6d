/* Grouping and majorities of `cudx compare` (see fleet_compare.h). */
#include "fleet/fleet_compare.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fleet/fleet_json.h"
#include "sys/sysroot.h"

const char *const fleet_dim_title[FLEET_NDIM] = { "driver", "CUDA runtime", "cuDNN", "GPUs", "findings" };
const char *const fleet_dim_key[FLEET_NDIM] = { "driver", "cuda_runtime", "cudnn", "gpus", "findings" };

/* The longest value a report can make: every finding id (FLEET_MAX_FINDINGS * FLEET_ID_MAX) */
#define KEY_MAX (FLEET_MAX_FINDINGS * FLEET_ID_MAX + 64)

struct keybuf {
	char s[KEY_MAX];
	size_t n;
};

static void key_add(struct keybuf *k, const char *sep, const char *s)
{
	int w = snprintf(k->s + k->n, sizeof k->s - k->n, "%s%s", k->n ? sep : "", s);
	if (w > 0)
		k->n += (size_t)w < sizeof k->s - k->n ? (size_t)w : sizeof k->s - k->n - 1;
}

static int cmp_version(const void *a, const void *b)
{
	return strverscmp((const char *)a, (const char *)b);
}

static int cmp_id(const void *a, const void *b)
{
	return strcmp((const char *)a, (const char *)b);
}

static int cmp_gpu(const void *pa, const void *pb)
{
	const struct fleet_gpu *a = pa, *b = pb;
	if (a->count != b->count)
		return a->count > b->count ? -1 : 1;
	return strcmp(a->name, b->name);
}

void fleet_init(struct fleet *f, struct arena *a)
{
	memset(f, 0, sizeof *f);
	f->arena = a;
	f->n_slots = 1024;
	f->slots = arena_calloc(a, f->n_slots, sizeof *f->slots);
}

static uint64_t hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ull; /* FNV-1a */
	for (; *s; s++)
		h = (h ^ (uint8_t)*s) * 1099511628211ull;
	return h;
}

static void rehash(struct fleet *f)
{
	size_t n = f->n_slots * 2;
	uint32_t *slots = arena_calloc(f->arena, n, sizeof *slots);
	for (size_t i = 0; i < f->n_values; i++) {
		size_t h = hash_str(f->values[i].s) & (n - 1);
		while (slots[h])
			h = (h + 1) & (n - 1);
		slots[h] = (uint32_t)i + 1;
	}
	f->slots = slots;
	f->n_slots = n;
}

static uint32_t intern(struct fleet *f, const char *s)
{
	size_t h = hash_str(s) & (f->n_slots - 1);
	for (; f->slots[h]; h = (h + 1) & (f->n_slots - 1))
		if (strcmp(f->values[f->slots[h] - 1].s, s) == 0)
			return f->slots[h] - 1;
	struct fleet_value *v = ARENA_PUSH(f->arena, f->values, f->n_values, f->cap_values);
	v->s = arena_strdup(f->arena, s);
	f->slots[h] = (uint32_t)f->n_values;
	if (f->n_values * 2 > f->n_slots)
		rehash(f);
	return (uint32_t)f->n_values - 1;
}

/* Sort a report's list and join it; "none" when empty. */
static const char *join_sorted(struct keybuf *k, void *base, size_t n, size_t size, int (*cmp)(const void *, const void *),
			       const char *sep)
{
	k->n = 0;
	k->s[0] = '\0';
	qsort(base, n, size, cmp);
	for (size_t i = 0; i < n; i++)
		key_add(k, sep, (const char *)base + i * size);
	return n ? k->s : "none";
}

static const char *gpus_key(struct keybuf *k, struct fleet_gpu *g, size_t n)
{
	char one[FLEET_VALUE_MAX + 16];
	k->n = 0;
	k->s[0] = '\0';
	qsort(g, n, sizeof *g, cmp_gpu);
	for (size_t i = 0; i < n; i++) {
		snprintf(one, sizeof one, "%ux %s", g[i].count, g[i].name);
		key_add(k, ", ", one);
	}
	return n ? k->s : "none";
}

static const char *node_name(struct arena *a, const char *file)
{
	const char *base = path_basename(file);
	size_t n = strlen(base);
	if (n > 5 && strcmp(base + n - 5, ".json") == 0)
		n -= 5;
	return arena_strndup(a, base, n);
}

void fleet_add(struct fleet *f, const char *file, struct fleet_report *r)
{
	static struct keybuf k; /* 24 KB: not on the stack */
	struct fleet_node *n = ARENA_PUSH(f->arena, f->nodes, f->n_nodes, f->cap_nodes);
	n->file = fleet_json_text(f->arena, file);
	n->name = node_name(f->arena, n->file);
	n->hostname = r->hostname[0] ? arena_strdup(f->arena, r->hostname) : NULL;
	n->v[FLEET_DRIVER] = intern(f, r->driver[0] ? r->driver : "none");
	n->v[FLEET_CUDART] = intern(f, join_sorted(&k, r->cudart, r->n_cudart, sizeof r->cudart[0], cmp_version, ", "));
	n->v[FLEET_CUDNN] = intern(f, join_sorted(&k, r->cudnn, r->n_cudnn, sizeof r->cudnn[0], cmp_version, ", "));
	n->v[FLEET_GPUS] = intern(f, gpus_key(&k, r->gpus, r->n_gpus));
	n->v[FLEET_FINDINGS] = intern(f, join_sorted(&k, r->findings, r->n_findings, sizeof r->findings[0], cmp_id, " "));
	uint32_t idx = (uint32_t)(f->n_nodes - 1);
	for (int d = 0; d < FLEET_NDIM; d++) {
		struct fleet_value *v = &f->values[n->v[d]];
		if (!v->count[d]++)
			v->first[d] = idx;
	}
}

void fleet_add_unreadable(struct fleet *f, const char *file, const char *error)
{
	struct fleet_unreadable *b = ARENA_PUSH(f->arena, f->bad, f->n_bad, f->cap_bad);
	b->file = fleet_json_text(f->arena, file);
	b->error = fleet_json_text(f->arena, error);
}

bool fleet_node_differs(const struct fleet *f, const struct fleet_node *n, enum fleet_dim d)
{
	return n->v[d] != f->majority[d];
}

bool fleet_node_is_outlier(const struct fleet *f, const struct fleet_node *n)
{
	for (int d = 0; d < FLEET_NDIM; d++)
		if (fleet_node_differs(f, n, (enum fleet_dim)d))
			return true;
	return false;
}

void fleet_finish(struct fleet *f)
{
	for (int d = 0; d < FLEET_NDIM; d++) {
		uint32_t best = UINT32_MAX;
		for (uint32_t i = 0; i < f->n_values; i++) {
			const struct fleet_value *v = &f->values[i];
			if (v->count[d] && (best == UINT32_MAX || v->count[d] > f->values[best].count[d] ||
					    (v->count[d] == f->values[best].count[d] && v->first[d] < f->values[best].first[d])))
				best = i;
		}
		f->majority[d] = best == UINT32_MAX ? 0 : best;
		f->tied[d] = false;
		for (uint32_t i = 0; best != UINT32_MAX && i < f->n_values; i++)
			f->tied[d] |= i != best && f->values[i].count[d] == f->values[best].count[d];
	}
	f->n_outliers = 0;
	for (size_t i = 0; i < f->n_nodes; i++)
		f->n_outliers += fleet_node_is_outlier(f, &f->nodes[i]);
}

/* qsort has no context argument in C17: the comparators below read these. */
static const struct fleet *sort_fleet;
static enum fleet_dim sort_dim;

static int cmp_group(uint32_t a, uint32_t b)
{
	const struct fleet_value *va = &sort_fleet->values[a], *vb = &sort_fleet->values[b];
	if (va->count[sort_dim] != vb->count[sort_dim])
		return va->count[sort_dim] > vb->count[sort_dim] ? -1 : 1;
	return (va->first[sort_dim] > vb->first[sort_dim]) - (va->first[sort_dim] < vb->first[sort_dim]);
}

static int cmp_value_idx(const void *pa, const void *pb)
{
	return cmp_group(*(const uint32_t *)pa, *(const uint32_t *)pb);
}

size_t fleet_groups(const struct fleet *f, enum fleet_dim d, uint32_t **out)
{
	uint32_t *v = arena_calloc(f->arena, f->n_values + 1, sizeof *v);
	size_t n = 0;
	for (uint32_t i = 0; i < f->n_values; i++)
		if (f->values[i].count[d])
			v[n++] = i;
	sort_fleet = f;
	sort_dim = d;
	qsort(v, n, sizeof *v, cmp_value_idx);
	*out = v;
	return n;
}

static int cmp_node_idx(const void *pa, const void *pb)
{
	const struct fleet_node *a = &sort_fleet->nodes[*(const size_t *)pa], *b = &sort_fleet->nodes[*(const size_t *)pb];
	int c = a->v[sort_dim] == b->v[sort_dim] ? 0 : cmp_group(a->v[sort_dim], b->v[sort_dim]);
	if (!c)
		c = strverscmp(a->name, b->name);
	return c ? c : strcmp(a->file, b->file);
}

size_t *fleet_node_order(const struct fleet *f, enum fleet_dim d)
{
	size_t *order = arena_calloc(f->arena, f->n_nodes + 1, sizeof *order);
	for (size_t i = 0; i < f->n_nodes; i++)
		order[i] = i;
	sort_fleet = f;
	sort_dim = d;
	qsort(order, f->n_nodes, sizeof *order, cmp_node_idx);
	return order;
}

/* The ids of a finding-set value, split in the arena ("none" is the empty set). */
static size_t split_ids(struct arena *a, const char *set, const char ***out)
{
	size_t n = 0, cap = 0;
	const char **v = NULL;
	if (strcmp(set, "none") != 0) {
		for (const char *p = set; *p;) {
			size_t len = strcspn(p, " ");
			*ARENA_PUSH(a, v, n, cap) = arena_strndup(a, p, len);
			p += len;
			p += *p == ' ';
		}
	}
	*out = v;
	return n;
}

static bool has_id(const char **v, size_t n, const char *id)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(v[i], id) == 0)
			return true;
	return false;
}

void fleet_findings_diff(const struct fleet *f, const struct fleet_node *n, const char ***extra,
			 size_t *n_extra, const char ***missing, size_t *n_missing)
{
	const char **mine, **major;
	size_t n_mine = split_ids(f->arena, f->values[n->v[FLEET_FINDINGS]].s, &mine);
	size_t n_major = split_ids(f->arena, f->values[f->majority[FLEET_FINDINGS]].s, &major);
	*extra = arena_calloc(f->arena, n_mine + 1, sizeof **extra);
	*missing = arena_calloc(f->arena, n_major + 1, sizeof **missing);
	*n_extra = *n_missing = 0;
	for (size_t i = 0; i < n_mine; i++)
		if (!has_id(major, n_major, mine[i]))
			(*extra)[(*n_extra)++] = mine[i];
	for (size_t i = 0; i < n_major; i++)
		if (!has_id(mine, n_mine, major[i]))
			(*missing)[(*n_missing)++] = major[i];
}
