/* Shared by the Windows unit tests: build the mingw-w64 PE fixtures (tests/fixtures/windows/
 * build.sh) once into $CUDX_BUILD/winfix and read them. A missing cross compiler is a skip. */
#ifndef CUDX_TEST_PE_FIXTURES_H
#define CUDX_TEST_PE_FIXTURES_H

#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>

static char winfix_dir[4096];

/* 0 when built, 77 when the toolchain is missing, other values on failure. */
static inline int winfix_build(void)
{
	const char *src = getenv("CUDX_SRC"), *build = getenv("CUDX_BUILD");
	if (!src)
		src = ".";
	if (!build)
		build = "build";
	snprintf(winfix_dir, sizeof winfix_dir, "%s/winfix", build);
	char cmd[8192];
	snprintf(cmd, sizeof cmd, "sh '%s/tests/fixtures/windows/build.sh' '%s'", src, winfix_dir);
	int st = system(cmd);
	if (st == -1 || !WIFEXITED(st))
		return 1;
	return WEXITSTATUS(st);
}

/* Read a whole fixture into malloc'd memory (tests free it). */
static inline unsigned char *winfix_read(const char *rel, size_t *n)
{
	char path[8192];
	snprintf(path, sizeof path, "%s/%s", winfix_dir, rel);
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	long len = ftell(f);
	fseek(f, 0, SEEK_SET);
	unsigned char *buf = malloc(len > 0 ? (size_t)len : 1);
	*n = fread(buf, 1, (size_t)len, f);
	fclose(f);
	return buf;
}

#endif
