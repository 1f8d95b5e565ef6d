/* See loader_present.h. */
#include <limits.h>
#include <string.h>
#include <unistd.h>

#include "collect/inventory.h"
#include "loader/loader_present.h"
#include "report/report.h"
#include "report/json_parts.h"

void loader_present_init(struct cudx_ctx *ctx, struct loader *L)
{
	struct loader_config cfg = { 0 };
	cfg.root = &ctx->root;
	cfg.env = &ctx->env;
	char buf[PATH_MAX];
	if (ctx->root.live && getcwd(buf, sizeof buf))
		cfg.cwd = arena_strdup(ctx->arena, buf);
	loader_init(L, ctx->arena, &cfg);
}

size_t loader_present_known_libs(struct cudx_ctx *ctx, const char ***paths)
{
	struct inventory *inv = arena_calloc(ctx->arena, 1, sizeof *inv);
	collect_system(ctx, inv);
	collect_env(ctx, inv);
	collect_toolkits(ctx, inv);
	collect_libs(ctx, inv);
	const char **p = arena_calloc(ctx->arena, inv->n_libs + 1, sizeof *p);
	for (size_t i = 0; i < inv->n_libs; i++)
		p[i] = inv->libs[i].path;
	*paths = p;
	return inv->n_libs;
}

json_t *loader_present_candidates_json(const struct loader_result *r)
{
	json_t *a = json_array();
	for (size_t i = 0; i < r->n_cands; i++) {
		const struct loader_candidate *c = &r->cands[i];
		json_t *o = json_object();
		json_object_set_new(o, "path", report_json_str(c->path));
		json_object_set_new(o, "taken", json_boolean(c->verdict == LOADER_OK));
		json_object_set_new(o, "reason", json_string(c->reason ? c->reason : ""));
		json_object_set_new(o, "verdict", json_string(loader_verdict_name(c->verdict)));
		json_object_set_new(o, "how", json_string(loader_how_name(c->how)));
		json_object_set_new(o, "via", json_string(c->via ? c->via : ""));
		json_array_append_new(a, o);
	}
	return a;
}

void loader_present_candidates_text(struct cudx_ctx *ctx, const struct loader_result *r, const char *indent)
{
	FILE *out = ctx->out;
	const char *section = NULL;
	size_t k = 0;
	for (size_t i = 0; i < r->n_cands; i++) {
		const struct loader_candidate *c = &r->cands[i];
		const char *how = loader_how_name(c->how);
		if (!section || strcmp(section, c->via) != 0) {
			section = c->via;
			fprintf(out, "%s%s%s%s\n", indent, style_bold(ctx), c->via, style_reset(ctx));
		}
		const char *col = c->verdict == LOADER_OK ? style_green(ctx)
				  : c->verdict == LOADER_WRONG_CLASS || c->verdict == LOADER_WRONG_MACHINE || c->verdict == LOADER_NOT_ELF
				  ? style_yellow(ctx)
				  : style_dim(ctx);
		fprintf(out, "%s  %2zu. %s  %s%s%s\n", indent, ++k, c->path, col, c->reason ? c->reason : how,
			style_reset(ctx));
	}
	if (!r->n_cands)
		fprintf(out, "%s  (nothing to search)\n", indent);
}
