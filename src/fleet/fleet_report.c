/* Reduce one `cudx check --json` report to what `cudx compare` groups on. The document is walked
 * once with the scanner (fleet_json.c); only these paths are read, everything else is checked and
 * skipped:
 *   schema, command, system.hostname, inventory.driver.effective_version,
 *   inventory.gpus[].{name,source}, inventory.libraries[].{family,version}, findings[].id
 * Absent or null values count as "none"; values of the wrong type refuse the report with the
 * path that was wrong, so a report from a newer cudx with a changed meaning is not misread. */
#include "fleet/fleet_report.h"

#include <stdio.h>
#include <string.h>

#include "fleet/fleet_json.h"

#define FLEET_SCHEMA "cudx/1"

struct reader {
	struct fleet_json j;
	struct fleet_report *r;
	const char *bad_path; /* the field whose value had the wrong type */
};

/* off at a value that must be `kind` ('{' or '[') or null. Returns 1 to descend, 0 for null
 * (consumed), -1 when it is something else (the path is recorded). */
static int open_container(struct reader *rd, int kind, const char *path)
{
	int c = fleet_json_peek(&rd->j);
	if (c == kind)
		return 1;
	size_t at = rd->j.off;
	if (!fleet_json_skip(&rd->j))
		return -1; /* a syntax error: the scanner's message says it */
	if (c == 'n')
		return 0;
	if (!rd->bad_path)
		rd->bad_path = path;
	rd->j.err_off = at;
	return -1;
}

/* A string field: 1 read, 0 null, -1 error (the path is recorded when the type was wrong). */
static int read_string(struct reader *rd, const char *path, char *out, size_t cap)
{
	int rc = fleet_json_string(&rd->j, out, cap);
	if (rc < 0 && !rd->bad_path)
		rd->bad_path = path;
	return rc;
}

/* Copy a string the reader bounded already (cut at cap-1 all the same). */
static void copy_str(char *dst, size_t cap, const char *src)
{
	size_t n = strnlen(src, cap - 1);
	memcpy(dst, src, n);
	dst[n] = '\0';
}

/* Add s to a list of distinct strings (beyond the bound: ignored). */
static void add_distinct(char (*list)[FLEET_VALUE_MAX], size_t *n, const char *s)
{
	for (size_t i = 0; i < *n; i++)
		if (strcmp(list[i], s) == 0)
			return;
	if (*n == FLEET_MAX_VERSIONS)
		return;
	copy_str(list[(*n)++], FLEET_VALUE_MAX, s);
}

/* One string member of an object (system.hostname, inventory.driver.effective_version). */
static bool read_member_string(struct reader *rd, const char *obj_path, const char *key, const char *path, char *out,
			       size_t cap)
{
	struct fleet_json_iter it = { 0 };
	struct span k;
	bool esc;
	int rc = open_container(rd, '{', obj_path);
	if (rc <= 0)
		return rc == 0;
	while ((rc = fleet_json_member(&rd->j, &it, &k, &esc)) == 1) {
		if (fleet_json_key_is(k, esc, key)) {
			if (read_string(rd, path, out, cap) < 0)
				return false;
		} else if (!fleet_json_skip(&rd->j))
			return false;
	}
	return rc == 0;
}

static void add_gpu(struct fleet_report *r, const char *name)
{
	for (size_t i = 0; i < r->n_gpus; i++)
		if (strcmp(r->gpus[i].name, name) == 0) {
			r->gpus[i].count++;
			return;
		}
	if (r->n_gpus == FLEET_MAX_GPUS)
		return;
	copy_str(r->gpus[r->n_gpus].name, FLEET_VALUE_MAX, name);
	r->gpus[r->n_gpus++].count = 1;
}

/* The string members read from each object of an array: up to two keys, into vals[0] and vals[1]
 * ("" when absent or null), then `done` takes them. */
struct array_fields {
	const char *path;   /* the array, for messages */
	const char *key[2]; /* NULL: unused */
	const char *key_path[2];
	size_t cap;
	void (*done)(struct reader *rd, char (*vals)[FLEET_VALUE_MAX]);
};

static bool read_member(struct reader *rd, const struct array_fields *af, struct span key, bool esc,
			char (*vals)[FLEET_VALUE_MAX])
{
	for (int i = 0; i < 2; i++)
		if (af->key[i] && fleet_json_key_is(key, esc, af->key[i]))
			return read_string(rd, af->key_path[i], vals[i], af->cap) >= 0;
	return fleet_json_skip(&rd->j);
}

static bool read_objects(struct reader *rd, const struct array_fields *af)
{
	struct fleet_json_iter arr = { 0 };
	int rc = open_container(rd, '[', af->path);
	if (rc <= 0)
		return rc == 0;
	while ((rc = fleet_json_element(&rd->j, &arr)) == 1) {
		char vals[2][FLEET_VALUE_MAX] = { "", "" };
		struct fleet_json_iter it = { 0 };
		struct span key;
		bool esc;
		if (open_container(rd, '{', af->path) != 1)
			return false;
		while ((rc = fleet_json_member(&rd->j, &it, &key, &esc)) == 1)
			if (!read_member(rd, af, key, esc, vals))
				return false;
		if (rc < 0)
			return false;
		af->done(rd, vals);
	}
	return rc == 0;
}

/* gpus[]: vals[0] name, vals[1] source */
static void gpu_done(struct reader *rd, char (*vals)[FLEET_VALUE_MAX])
{
	/* a GPU given with --gpu is a simulation, not hardware of the node */
	if (strcmp(vals[1], "--gpu") != 0)
		add_gpu(rd->r, vals[0][0] ? vals[0] : "unnamed GPU");
}

/* libraries[]: vals[0] family, vals[1] version */
static void lib_done(struct reader *rd, char (*vals)[FLEET_VALUE_MAX])
{
	if (!vals[1][0])
		return;
	if (strcmp(vals[0], "cuda-runtime") == 0)
		add_distinct(rd->r->cudart, &rd->r->n_cudart, vals[1]);
	else if (strcmp(vals[0], "cudnn") == 0)
		add_distinct(rd->r->cudnn, &rd->r->n_cudnn, vals[1]);
}

/* findings[]: vals[0] id */
static void finding_done(struct reader *rd, char (*vals)[FLEET_VALUE_MAX])
{
	struct fleet_report *r = rd->r;
	if (!vals[0][0])
		return;
	for (size_t i = 0; i < r->n_findings; i++)
		if (strcmp(r->findings[i], vals[0]) == 0)
			return;
	if (r->n_findings == FLEET_MAX_FINDINGS)
		return;
	copy_str(r->findings[r->n_findings++], FLEET_ID_MAX, vals[0]);
}

static const struct array_fields gpu_fields = {
	"inventory.gpus", { "name", "source" }, { "inventory.gpus[].name", "inventory.gpus[].source" },
	FLEET_VALUE_MAX, gpu_done,
};
static const struct array_fields lib_fields = {
	"inventory.libraries", { "family", "version" },
	{ "inventory.libraries[].family", "inventory.libraries[].version" }, FLEET_VALUE_MAX, lib_done,
};
static const struct array_fields finding_fields = {
	"findings", { "id", NULL }, { "findings[].id", NULL }, FLEET_ID_MAX, finding_done,
};

static bool read_inventory(struct reader *rd, bool *seen)
{
	struct fleet_json_iter it = { 0 };
	struct span key;
	bool esc;
	int rc = open_container(rd, '{', "inventory");
	if (rc <= 0)
		return rc == 0;
	*seen = true;
	while ((rc = fleet_json_member(&rd->j, &it, &key, &esc)) == 1) {
		bool ok;
		if (fleet_json_key_is(key, esc, "driver"))
			ok = read_member_string(rd, "inventory.driver", "effective_version", "inventory.driver.effective_version",
						rd->r->driver, sizeof rd->r->driver);
		else if (fleet_json_key_is(key, esc, "gpus"))
			ok = read_objects(rd, &gpu_fields);
		else if (fleet_json_key_is(key, esc, "libraries"))
			ok = read_objects(rd, &lib_fields);
		else
			ok = fleet_json_skip(&rd->j);
		if (!ok)
			return false;
	}
	return rc == 0;
}

static bool refuse(struct fleet_report *r, const char *fmt, const char *arg)
{
	snprintf(r->error, sizeof r->error, fmt, arg);
	/* arg comes from the file: no control characters in a message meant for a terminal */
	for (char *p = r->error; *p; p++)
		if ((unsigned char)*p < 0x20)
			*p = '?';
	return false;
}

/* The walk failed: a syntax error (the scanner's message) or a field of the wrong type. */
static bool refuse_walk(struct reader *rd)
{
	struct fleet_report *r = rd->r;
	if (rd->bad_path && (!rd->j.err || strcmp(rd->j.err, "expected a string") == 0))
		snprintf(r->error, sizeof r->error, "%s has the wrong type at byte %zu", rd->bad_path, rd->j.err_off);
	else if (rd->bad_path)
		snprintf(r->error, sizeof r->error, "%s: %s at byte %zu", rd->bad_path, rd->j.err, rd->j.err_off);
	else
		snprintf(r->error, sizeof r->error, "not JSON: %s at byte %zu", rd->j.err ? rd->j.err : "cannot read",
			 rd->j.err_off);
	return false;
}

bool fleet_report_read(struct span doc, struct fleet_report *r)
{
	/* not a memset: the struct is 50 KB and 10,000 reports are read into it */
	r->hostname[0] = r->driver[0] = r->error[0] = '\0';
	r->n_cudart = r->n_cudnn = r->n_gpus = r->n_findings = 0;
	if (doc.n == 0)
		return refuse(r, "%sempty file", "");
	if (doc.n > FLEET_REPORT_MAX_BYTES)
		return refuse(r, "%slarger than 64 MiB: not a cudx report", "");
	struct reader rd = { .r = r };
	fleet_json_init(&rd.j, doc);
	char schema[64] = "", command[64] = "";
	bool have_schema = false, have_inventory = false;
	struct fleet_json_iter it = { 0 };
	struct span key;
	bool esc;
	int rc;
	if (fleet_json_peek(&rd.j) != '{') {
		/* a syntax error reads better than "not an object" for garbage */
		if (fleet_json_skip(&rd.j))
			return refuse(r, "%snot a cudx report: the document is not a JSON object", "");
		return refuse_walk(&rd);
	}
	while ((rc = fleet_json_member(&rd.j, &it, &key, &esc)) == 1) {
		bool ok;
		if (fleet_json_key_is(key, esc, "schema")) {
			ok = read_string(&rd, "schema", schema, sizeof schema) >= 0;
			have_schema = ok && schema[0];
		} else if (fleet_json_key_is(key, esc, "command"))
			ok = read_string(&rd, "command", command, sizeof command) >= 0;
		else if (fleet_json_key_is(key, esc, "system"))
			ok = read_member_string(&rd, "system", "hostname", "system.hostname", r->hostname, sizeof r->hostname);
		else if (fleet_json_key_is(key, esc, "inventory"))
			ok = read_inventory(&rd, &have_inventory);
		else if (fleet_json_key_is(key, esc, "findings"))
			ok = read_objects(&rd, &finding_fields);
		else
			ok = fleet_json_skip(&rd.j);
		if (!ok)
			return refuse_walk(&rd);
	}
	if (rc < 0)
		return refuse_walk(&rd);
	if (!fleet_json_at_end(&rd.j)) {
		rd.j.err = "data after the end of the document";
		rd.j.err_off = rd.j.off;
		return refuse_walk(&rd);
	}
	/* the schema first: a cudx/2 report may have moved the fields read above */
	if (!have_schema)
		return refuse(r, "%snot a cudx report: no \"schema\" key", "");
	if (strcmp(schema, FLEET_SCHEMA) != 0)
		return refuse(r, "schema '%s' is not supported: this cudx reads " FLEET_SCHEMA, schema);
	if (command[0] && strcmp(command, "check") != 0)
		return refuse(r, "a `cudx %s` report: compare reads `cudx check --json` reports", command);
	if (!have_inventory)
		return refuse(r, "%sno \"inventory\" object: not a `cudx check --json` report", "");
	return true;
}
