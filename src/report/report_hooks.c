/* The modules' parts of the check report, in the order they appear. */
#include "report/report_hooks.h"

#include "collect/python.h"
#include "collect/windows.h"
#include "probe/probe.h"

void report_hooks_json(const struct inventory *inv, json_t *inventory)
{
	if (inv->python)
		json_object_set_new(inventory, "python", py_report_json(inv->python));
	if (inv->windows)
		json_object_set_new(inventory, "windows", win_inventory_json(inv->windows));
	if (inv->probe)
		json_object_set_new(inventory, "probe", probe_report_json(inv->probe));
}

void report_hooks_text(FILE *out, const struct cudx_ctx *ctx, const struct inventory *inv)
{
	if (inv->python)
		py_report_text(out, ctx, inv->python);
	if (inv->windows)
		win_inventory_text(out, ctx, inv->windows);
	if (inv->probe)
		probe_report_text(out, ctx, inv->probe);
}
