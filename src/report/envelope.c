/* The JSON envelope of every command (docs/json.md, docs/cudx.schema.json). Compiled by both
 * builds: only the jansson calls the native Windows build's shim has. */
#include <jansson.h>
#include <string.h>

#include "report/json_parts.h"
#include "report/report.h"

/* The system object check prints; from the context alone when nothing was collected. */
static json_t *system_json(const struct cudx_ctx *ctx, const struct inventory *inv)
{
	struct system_info own = { 0 };
	const struct system_info *s = inv && inv->system.os ? &inv->system : &own;
	if (s == &own) {
		own.root = ctx->root.live ? "/" : ctx->root.root;
		own.live = ctx->root.live;
		own.env_origin = ctx->env.origin;
		own.os = ctx->os == OS_WINDOWS ? "windows" : "linux";
	}
	json_t *o = json_object();
	json_object_set_new(o, "root", report_json_str(s->root));
	json_object_set_new(o, "live", json_boolean(s->live));
	json_object_set_new(o, "os", report_json_str(s->os));
	json_object_set_new(o, "os_name", report_json_str(s->os_name));
	json_object_set_new(o, "kernel", report_json_str(s->kernel));
	json_object_set_new(o, "machine", report_json_str(s->machine));
	json_object_set_new(o, "hostname", report_json_str(s->hostname));
	json_object_set_new(o, "container", json_boolean(s->container));
	json_object_set_new(o, "env_origin", report_json_str(s->env_origin));
	return o;
}

json_t *report_envelope_json(const struct cudx_ctx *ctx, const struct inventory *inv, const char *command,
			     const struct findings *fs)
{
	json_t *root = json_object();
	json_object_set_new(root, "schema", json_string(REPORT_SCHEMA));
	json_object_set_new(root, "command", json_string(command));
	json_t *tool = json_object();
	json_object_set_new(tool, "name", json_string("cudx"));
	json_object_set_new(tool, "version", json_string(CUDX_VERSION));
	json_object_set_new(root, "tool", tool);
	json_object_set_new(root, "system", system_json(ctx, inv));
	struct findings none = { 0 };
	json_object_set_new(root, "findings", report_findings_json(fs ? fs : &none));
	return root;
}
