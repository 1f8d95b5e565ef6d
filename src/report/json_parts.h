/* JSON pieces shared by the renderers of both builds. src/report/findings_json.c defines them
 * with only the jansson calls the native Windows build's shim (src/win/shim/jansson.h) has. */
#ifndef CUDX_REPORT_JSON_PARTS_H
#define CUDX_REPORT_JSON_PARTS_H

#include <jansson.h>
#include <stddef.h>

/* A JSON string, or null for NULL; bytes that are not UTF-8 become '?'. */
json_t *report_json_str(const char *s);
/* An array of strings. */
json_t *report_json_strings(const char *const *v, size_t n);

#endif
