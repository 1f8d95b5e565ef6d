/* The sysroot must keep every access inside the analysed tree: absolute symlinks are taken
 * relative to the root, ".." stops at the root, loops end with ELOOP, and every hop is recorded. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "sys/sysroot.h"

static char root[256];

static void put_file(const char *rel, const char *content)
{
	char p[512];
	snprintf(p, sizeof p, "%s%s", root, rel);
	FILE *f = fopen(p, "w");
	assert_non_null(f);
	fputs(content, f);
	fclose(f);
}

static void put_link(const char *rel, const char *target)
{
	char p[512];
	snprintf(p, sizeof p, "%s%s", root, rel);
	assert_int_equal(symlink(target, p), 0);
}

static void put_dir(const char *rel)
{
	char p[512];
	snprintf(p, sizeof p, "%s%s", root, rel);
	assert_int_equal(mkdir(p, 0755), 0);
}

static int setup(void **state)
{
	(void)state;
	snprintf(root, sizeof root, "/tmp/cudx-sysroot-XXXXXX");
	if (!mkdtemp(root))
		return -1;
	put_dir("/usr");
	put_dir("/usr/lib");
	put_file("/usr/lib/libcudnn.so.8.9.7", "real");
	put_link("/usr/lib/libcudnn.so.8", "libcudnn.so.8.9.7");
	put_link("/usr/lib/libcudnn.so", "/usr/lib/libcudnn.so.8"); /* absolute: must stay in the root */
	put_link("/usr/lib/escape", "../../../../../usr/lib/libcudnn.so.8.9.7");
	put_link("/usr/lib/dangling", "libcudnn.so.7.6.5");
	put_link("/usr/lib/loop1", "loop2");
	put_link("/usr/lib/loop2", "loop1");
	put_link("/lib", "usr/lib");
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	char cmd[300];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
	return system(cmd);
}

static void absolute_links_resolve_inside_the_root(void **state)
{
	(void)state;
	struct arena a;
	arena_init(&a);
	struct sysroot sr;
	assert_int_equal(sysroot_init(&sr, &a, root), 0);
	assert_false(sr.live);
	struct sysroot_resolved r;
	assert_int_equal(sysroot_resolve(&sr, &a, "/lib/libcudnn.so", &r), 0);
	assert_string_equal(r.path, "/usr/lib/libcudnn.so.8.9.7");
	assert_int_equal(r.n_links, 3); /* /lib, libcudnn.so, libcudnn.so.8 */
	assert_string_equal(r.links[1].target, "/usr/lib/libcudnn.so.8");
	/* ".." cannot climb above the root */
	assert_int_equal(sysroot_resolve(&sr, &a, "/usr/lib/escape", &r), 0);
	assert_string_equal(r.path, "/usr/lib/libcudnn.so.8.9.7");
	arena_free(&a);
}

static void broken_links_and_loops_are_reported(void **state)
{
	(void)state;
	struct arena a;
	arena_init(&a);
	struct sysroot sr;
	sysroot_init(&sr, &a, root);
	struct sysroot_resolved r;
	assert_int_equal(sysroot_resolve(&sr, &a, "/usr/lib/dangling", &r), ENOENT);
	assert_null(r.path);
	assert_string_equal(r.failed_at, "/usr/lib/libcudnn.so.7.6.5");
	assert_int_equal(r.n_links, 1);
	assert_int_equal(sysroot_resolve(&sr, &a, "/usr/lib/loop1", &r), ELOOP);
	assert_int_equal(r.n_links, SYSROOT_MAX_LINKS);
	assert_int_equal(sysroot_resolve(&sr, &a, "/usr/lib/libcudnn.so.8.9.7/x", &r), ENOTDIR);
	arena_free(&a);
}

static void reads_lists_and_maps(void **state)
{
	(void)state;
	struct arena a;
	arena_init(&a);
	struct sysroot sr;
	sysroot_init(&sr, &a, root);
	size_t len;
	int err;
	char *t = sysroot_read_text(&sr, &a, "/lib/libcudnn.so", 100, &len, &err);
	assert_non_null(t);
	assert_string_equal(t, "real");
	assert_null(sysroot_read_text(&sr, &a, "/nope", 100, &len, &err));
	assert_int_equal(err, ENOENT);
	struct sysroot_dirent *ents;
	size_t n;
	assert_int_equal(sysroot_list_dir(&sr, &a, "/lib", &ents, &n, 0), 0);
	assert_int_equal(n, 7);
	assert_string_equal(ents[0].name, "dangling"); /* sorted */
	struct mapped_file m;
	assert_int_equal(sysroot_map(&sr, "/usr/lib/libcudnn.so.8", &m), 0);
	assert_int_equal(m.data.n, 4);
	assert_memory_equal(m.data.p, "real", 4);
	sysroot_unmap(&m);
	assert_int_equal(sysroot_map(&sr, "/usr/lib", &m), EISDIR);
	assert_true(sysroot_exists(&sr, "/lib/libcudnn.so"));
	assert_false(sysroot_exists(&sr, "/usr/lib/dangling"));
	arena_free(&a);
}

static void path_helpers(void **state)
{
	(void)state;
	struct arena a;
	arena_init(&a);
	assert_string_equal(path_join(&a, "/usr/lib/", "/libx.so"), "/usr/lib/libx.so");
	assert_string_equal(path_join(&a, "/", "lib"), "/lib");
	assert_string_equal(path_basename("/a/b/libc.so.6"), "libc.so.6");
	assert_string_equal(path_dirname(&a, "/a/b/c"), "/a/b");
	assert_string_equal(path_dirname(&a, "/c"), "/");
	assert_string_equal(path_normalize(&a, "/usr//local/./cuda/../lib/"), "/usr/local/lib");
	assert_string_equal(path_normalize(&a, "/../.."), "/");
	arena_free(&a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(absolute_links_resolve_inside_the_root),
		cmocka_unit_test(broken_links_and_loops_are_reported),
		cmocka_unit_test(reads_lists_and_maps),
		cmocka_unit_test(path_helpers),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
