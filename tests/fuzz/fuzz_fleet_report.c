/* `cudx compare`'s reader of `cudx check --json` reports (src/fleet): any bytes give a summary or a
 * message, never a crash, a hang or unbounded memory. The scanner is also held against jansson:
 * a document jansson accepts must be one the scanner accepts (unless nested deeper than the
 * scanner's bound, or holding a NUL byte: jansson stops reading at one). */
#include <jansson.h>
#include <stdint.h>
#include <string.h>

#include "fleet/fleet_compare.h"
#include "fleet/fleet_json.h"

static struct fleet_report report;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fleet_json j;
	fleet_json_init(&j, span_make(data, size));
	bool scanned = fleet_json_skip(&j) && fleet_json_at_end(&j);
	json_error_t e;
	json_t *v = json_loadb((const char *)data, size, JSON_DECODE_ANY, &e);
	if (v && !scanned && !memchr(data, 0, size) && strcmp(j.err ? j.err : "", "nested deeper than 64 levels") != 0)
		__builtin_trap();
	json_decref(v);

	struct arena a;
	arena_init(&a);
	struct fleet f;
	fleet_init(&f, &a);
	if (fleet_report_read(span_make(data, size), &report)) {
		fleet_add(&f, "fuzz/a.json", &report);
		fleet_add(&f, "fuzz/b.json", &report);
	} else if (!report.error[0])
		__builtin_trap(); /* a refusal always says why */
	else
		fleet_add_unreadable(&f, "fuzz/c.json", report.error);
	fleet_finish(&f);
	if (f.n_outliers) /* two copies of one report are alike */
		__builtin_trap();
	arena_free(&a);
	return 0;
}
