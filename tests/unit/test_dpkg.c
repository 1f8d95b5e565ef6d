#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "fmt/dpkg.h"
#include "kb/kb.h"

static bool span_is(struct span s, const char *want)
{
	return s.n == strlen(want) && memcmp(s.p, want, s.n) == 0;
}

static void reads_each_stanza_and_its_state(void **state)
{
	(void)state;
	const char text[] = "\n\nPackage: nvidia-open-kernel-dkms\n"
			    "Status: install ok installed\n"
			    "Version:  535.247.01-1~deb12u1 \n"
			    "Description: NVIDIA open kernel module DKMS source\n"
			    " Package: not-a-field (a continuation line)\n"
			    " .\n"
			    "\n"
			    "Package: nvidia-kernel-dkms\r\n"
			    "Status: deinstall ok config-files\r\n"
			    "\r\n"
			    "Package: libc6\n"
			    "Status: hold ok installed\n"
			    "Version: 2.36-9";
	struct span t = span_make(text, sizeof text - 1);
	size_t pos = 0;
	struct dpkg_package p;
	assert_true(dpkg_next(t, &pos, &p));
	assert_true(span_is(p.name, "nvidia-open-kernel-dkms"));
	assert_true(span_is(p.version, "535.247.01-1~deb12u1"));
	assert_true(p.installed);
	assert_true(dpkg_next(t, &pos, &p));
	assert_true(span_is(p.name, "nvidia-kernel-dkms"));
	assert_int_equal(p.version.n, 0);
	assert_false(p.installed); /* only its configuration files are left */
	assert_true(dpkg_next(t, &pos, &p));
	assert_true(span_is(p.name, "libc6"));
	assert_true(span_is(p.version, "2.36-9")); /* the last line has no newline */
	assert_true(p.installed);
	assert_false(dpkg_next(t, &pos, &p));
	assert_false(dpkg_next(t, &pos, &p));
}

static void garbage_gives_stanzas_without_fields(void **state)
{
	(void)state;
	const char text[] = "Package\nStatus:installed\nPackage:\n\n\n\xff\xfe: x\n";
	struct span t = span_make(text, sizeof text - 1);
	size_t pos = 0, n = 0;
	struct dpkg_package p;
	while (dpkg_next(t, &pos, &p)) {
		assert_false(p.installed); /* "installed" needs the word before it */
		n++;
	}
	assert_int_equal(n, 2);
	pos = 0;
	assert_false(dpkg_next(span_make("", 0), &pos, &p));
	assert_false(dpkg_next(span_make("\n\r\n\n", 4), &pos, &p));
}

/* data/driver_module_packages.tsv: open names before the wider proprietary ones */
static void packages_name_their_module_flavour(void **state)
{
	(void)state;
	static const struct {
		const char *manager, *name, *flavour;
	} v[] = {
		{ "pacman", "nvidia-open-dkms", "open" },
		{ "pacman", "nvidia-open", "open" },
		{ "pacman", "nvidia-dkms", "proprietary" },
		{ "pacman", "nvidia-580xx-dkms", "proprietary" },
		{ "dpkg", "nvidia-open-kernel-dkms", "open" },
		{ "dpkg", "nvidia-kernel-open-dkms", "open" },
		{ "dpkg", "nvidia-dkms-580-open", "open" },
		{ "dpkg", "linux-modules-nvidia-535-open-generic-hwe-24.04", "open" },
		{ "dpkg", "nvidia-dkms-535", "proprietary" },
		{ "dpkg", "linux-modules-nvidia-535-generic-hwe-22.04", "proprietary" },
		{ "dpkg", "nvidia-kernel-dkms", "proprietary" },
	};
	for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
		const struct kb_module_package *k = kb_module_package(v[i].manager, v[i].name);
		assert_non_null(k);
		assert_string_equal(k->flavour, v[i].flavour);
	}
	assert_null(kb_module_package("pacman", "nvidia-utils")); /* user space only */
	assert_null(kb_module_package("dpkg", "nvidia-open")); /* pacman's name, not dpkg's */
	assert_null(kb_module_package("dpkg", "libnvidia-ml1"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(reads_each_stanza_and_its_state),
		cmocka_unit_test(garbage_gives_stanzas_without_fields),
		cmocka_unit_test(packages_name_their_module_flavour),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
