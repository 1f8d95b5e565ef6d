/* PE reader against real third-party DLLs: the npm package onnxruntime-node ships x64 and ARM64
 * builds of onnxruntime.dll and DirectML.dll (Microsoft-built, MSVC-linked, with delay-load
 * imports and version resources). The package is fetched once with `npm pack` into
 * $CUDX_BUILD/npm/ (skip when npm or the registry is unreachable). Imports and exports are checked
 * against llvm-readobj's reading of the same files when it is installed, else against facts. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/wait.h>

#include <cmocka.h>

#include "fmt/pe.h"

#define ORT_VERSION "1.20.1"

static char pkg_dir[4096];
static int fetch_status;

static int fetch(void)
{
	const char *build = getenv("CUDX_BUILD");
	snprintf(pkg_dir, sizeof pkg_dir, "%s/npm/onnxruntime-node-" ORT_VERSION, build ? build : "build");
	char cmd[16384];
	snprintf(cmd, sizeof cmd,
		 "d='%s'; [ -f \"$d/stamp\" ] && exit 0; command -v npm >/dev/null || exit 77; mkdir -p \"$d\" && "
		 "cd \"$d\" && timeout 600 npm pack --silent onnxruntime-node@" ORT_VERSION " >/dev/null 2>&1 || exit 77; "
		 "tar xzf onnxruntime-node-" ORT_VERSION ".tgz package/bin/napi-v3/win32 && rm -f *.tgz && touch stamp",
		 pkg_dir);
	int st = system(cmd);
	return st == -1 || !WIFEXITED(st) ? 1 : WEXITSTATUS(st);
}

/* "Name: X" lines of llvm-readobj under blocks whose header starts with block ("Import {",
 * "DelayImport {", "Export {"), joined as "|x|y|" (lower case). NULL when llvm-readobj is missing. */
static char *readobj_names(const char *opt, const char *file, const char *block)
{
	char cmd[8192];
	snprintf(cmd, sizeof cmd, "llvm-readobj %s '%s' 2>/dev/null", opt, file);
	FILE *p = popen(cmd, "r");
	if (!p)
		return NULL;
	size_t cap = 1 << 20, n = 1;
	char *out = calloc(1, cap);
	out[0] = '|';
	char line[4096];
	bool in = false, any = false;
	while (fgets(line, sizeof line, p)) {
		any = true;
		char *s = line;
		while (*s == ' ')
			s++;
		if (strchr(s, '{'))
			in = strncmp(s, block, strlen(block)) == 0;
		else if (in && strncmp(s, "Name: ", 6) == 0) {
			s += 6;
			s[strcspn(s, "\r\n")] = 0;
			for (char *c = s; *c; c++)
				*c = (char)(*c >= 'A' && *c <= 'Z' ? *c + 32 : *c);
			if (n + strlen(s) + 2 < cap)
				n += (size_t)sprintf(out + n, "%s|", s);
		}
	}
	int st = pclose(p);
	if (!any || st != 0) {
		free(out);
		return NULL;
	}
	return out;
}

static bool in_set(const char *set, const char *name)
{
	char key[1024];
	snprintf(key, sizeof key, "|%s|", name);
	for (char *c = key; *c; c++)
		*c = (char)(*c >= 'A' && *c <= 'Z' ? *c + 32 : *c);
	return strstr(set, key) != NULL;
}

static size_t set_count(const char *set)
{
	size_t n = 0;
	for (const char *c = set + 1; *c; c++)
		n += *c == '|';
	return n;
}

static void check_dll(const char *rel, uint16_t machine, const char *must_export, const char *must_import)
{
	char path[8192];
	snprintf(path, sizeof path, "%s/package/bin/napi-v3/win32/%s", pkg_dir, rel);
	FILE *f = fopen(path, "rb");
	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	long len = ftell(f);
	fseek(f, 0, SEEK_SET);
	unsigned char *buf = malloc((size_t)len);
	assert_int_equal(fread(buf, 1, (size_t)len, f), (size_t)len);
	fclose(f);
	struct arena a;
	arena_init(&a);
	struct pe_info pe;
	const char *err = NULL;
	assert_true(pe_parse(span_make(buf, (size_t)len), &a, &pe, &err));
	assert_true(pe_validate(span_make(buf, (size_t)len), &err));
	assert_int_equal(pe.machine, machine);
	assert_true(pe.is_dll);
	assert_true(pe.pe32plus);
	assert_null(pe.problem);
	bool found_export = false;
	for (size_t i = 0; i < pe.n_exports; i++)
		found_export |= pe.exports[i].name && strcmp(pe.exports[i].name, must_export) == 0;
	assert_true(found_export);
	assert_true(pe_imports_dll(&pe, must_import, NULL));
	assert_true(pe.version.present);

	char *imps = readobj_names("--coff-imports", path, "Import {");
	if (imps) {
		char *dimps = readobj_names("--coff-imports", path, "DelayImport {");
		char *exps = readobj_names("--coff-exports", path, "Export {");
		size_t n_norm = 0, n_delay = 0, n_named = 0;
		for (size_t i = 0; i < pe.n_imports; i++) {
			if (!in_set(pe.imports[i].delay ? dimps : imps, pe.imports[i].dll)) {
				print_message("%s: %s import %s not in llvm-readobj's list\n", rel,
					      pe.imports[i].delay ? "delay" : "normal", pe.imports[i].dll);
				fail();
			}
			pe.imports[i].delay ? n_delay++ : n_norm++;
		}
		assert_int_equal(n_norm, set_count(imps));
		assert_int_equal(n_delay, set_count(dimps));
		for (size_t i = 0; i < pe.n_exports; i++)
			if (pe.exports[i].name) {
				assert_true(in_set(exps, pe.exports[i].name));
				n_named++;
			}
		assert_int_equal(n_named, set_count(exps));
		free(dimps);
		free(exps);
		free(imps);
	} else {
		print_message("llvm-readobj missing: checked against known facts only\n");
	}
	arena_free(&a);
	free(buf);
}

static void test_onnxruntime_x64(void **state)
{
	(void)state;
	if (fetch_status == 77)
		skip();
	assert_int_equal(fetch_status, 0);
	check_dll("x64/onnxruntime.dll", PE_MACHINE_AMD64, "OrtGetApiBase", "DirectML.dll");
	/* ONNX Runtime stamps its build into the version strings ("1.20.20241119.10.5c1b7cc") */
	char path[8192];
	snprintf(path, sizeof path, "%s/package/bin/napi-v3/win32/x64/onnxruntime.dll", pkg_dir);
	FILE *f = fopen(path, "rb");
	fseek(f, 0, SEEK_END);
	long len = ftell(f);
	fseek(f, 0, SEEK_SET);
	unsigned char *buf = malloc((size_t)len);
	assert_int_equal(fread(buf, 1, (size_t)len, f), (size_t)len);
	fclose(f);
	struct arena a;
	arena_init(&a);
	struct pe_info pe;
	assert_true(pe_parse(span_make(buf, (size_t)len), &a, &pe, NULL));
	assert_non_null(pe.version.file_version_str);
	assert_int_equal(strncmp(pe.version.file_version_str, "1.20.", 5), 0);
	assert_int_equal(pe.version.file[0], 1);
	assert_int_equal(pe.version.file[1], 20);
	arena_free(&a);
	free(buf);
}

static void test_onnxruntime_arm64(void **state)
{
	(void)state;
	if (fetch_status == 77)
		skip();
	assert_int_equal(fetch_status, 0);
	check_dll("arm64/onnxruntime.dll", PE_MACHINE_ARM64, "OrtGetApiBase", "DirectML.dll");
}

static void test_directml(void **state)
{
	(void)state;
	if (fetch_status == 77)
		skip();
	assert_int_equal(fetch_status, 0);
	check_dll("x64/DirectML.dll", PE_MACHINE_AMD64, "DMLCreateDevice", "d3d12.dll");
	check_dll("arm64/DirectML.dll", PE_MACHINE_ARM64, "DMLCreateDevice", "d3d12.dll");
}

int main(void)
{
	fetch_status = fetch();
	if (fetch_status == 77)
		fprintf(stderr, "test_pe_npm: npm pack onnxruntime-node@" ORT_VERSION " failed (npm or registry unreachable): skipping\n");
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_onnxruntime_x64),
		cmocka_unit_test(test_onnxruntime_arm64),
		cmocka_unit_test(test_directml),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
