/* The subset of jansson's API cudx's Windows-side code uses, for the native Windows build only
 * (there is no mingw-w64 jansson in Debian, and the build vendors nothing). Values build a small
 * tree and json_dumpf prints it the way report_json_dump asks jansson to: keys in insertion order,
 * indent 2, non-ASCII escaped. Only this directory's include path sees this header. */
#ifndef CUDX_WIN_JANSSON_SHIM_H
#define CUDX_WIN_JANSSON_SHIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

typedef long long json_int_t;
typedef struct json_t json_t;

#define JSON_INDENT(n) ((n)&0x1f)
#define JSON_PRESERVE_ORDER 0x100
#define JSON_ENSURE_ASCII 0x20

json_t *json_object(void);
json_t *json_array(void);
json_t *json_string(const char *s);
json_t *json_integer(json_int_t v);
json_t *json_real(double v);
json_t *json_boolean(bool v);
json_t *json_true(void);
json_t *json_false(void);
json_t *json_null(void);
int json_object_set_new(json_t *obj, const char *key, json_t *v);
int json_array_append_new(json_t *arr, json_t *v);
void json_decref(json_t *v);
int json_dumpf(const json_t *v, FILE *out, size_t flags);

#endif
