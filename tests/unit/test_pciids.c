#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "fmt/pciids.h"
#include "kb/kb.h"

/* lines as pci.ids has them: NVIDIA's block with a subsystem line, the next vendor with a device of
 * the same number, and the class list that ends the file */
static const char ids[] = "#\tList of PCI ID's\n"
			  "#\n"
			  "10de  NVIDIA Corporation\n"
			  "\t102d  GK210GL [Tesla K80]\n"
			  "\t\t10de 106c  K80 Accelerator\n"
			  "\t1380  GM107 [GeForce GTX 750 Ti]\n"
			  "\t2330  GH100[H100 SXM5 80GB]\n"
			  "\t2684  AD102 [GeForce RTX 4090]  \r\n"
			  "10df  Emulex Corporation\n"
			  "\t1ae5  LP6000 Fibre Channel Host Adapter\n"
			  "C 00  Unclassified device\n";

static void names_a_device_of_the_vendor(void **state)
{
	(void)state;
	struct arena a;
	arena_init(&a);
	struct span s = span_make(ids, sizeof ids - 1);
	assert_string_equal(pciids_device_name(s, &a, 0x10de, 0x1380), "GM107 [GeForce GTX 750 Ti]");
	assert_string_equal(pciids_device_name(s, &a, 0x10de, 0x2684), "AD102 [GeForce RTX 4090]");
	/* a subsystem line (two tabs) is not a device, and another vendor's device is not NVIDIA's */
	assert_null(pciids_device_name(s, &a, 0x10de, 0x106c));
	assert_null(pciids_device_name(s, &a, 0x10de, 0x1ae5));
	assert_string_equal(pciids_device_name(s, &a, 0x10df, 0x1ae5), "LP6000 Fibre Channel Host Adapter");
	assert_null(pciids_device_name(s, &a, 0x1234, 0x1380));
	/* cut in the middle of a line, and empty */
	assert_string_equal(pciids_device_name(span_make(ids, 90), &a, 0x10de, 0x102d), "GK210GL [Tesla K80]");
	assert_null(pciids_device_name(span_make(ids, 0), &a, 0x10de, 0x102d));
	arena_free(&a);
}

static void splits_chip_and_board(void **state)
{
	(void)state;
	struct arena a;
	arena_init(&a);
	const char *chip, *board;
	pciids_split_name("GK110BGL [Tesla K40m]", &a, &chip, &board);
	assert_string_equal(chip, "GK110BGL");
	assert_string_equal(board, "Tesla K40m");
	pciids_split_name("GH100[H100 SXM5 80GB]", &a, &chip, &board);
	assert_string_equal(chip, "GH100");
	assert_string_equal(board, "H100 SXM5 80GB");
	pciids_split_name("GK107", &a, &chip, &board);
	assert_string_equal(chip, "GK107");
	assert_null(board);
	pciids_split_name("[]", &a, &chip, &board);
	assert_null(chip);
	assert_null(board);
	arena_free(&a);
}

static void chip_gives_the_architecture(void **state)
{
	(void)state;
	assert_int_equal(kb_gpu_chip("GK110BGL")->cc_minor, 5); /* GK110 -> 3.5 */
	assert_int_equal(kb_gpu_chip("GK210GL")->cc_minor, 7);  /* not GK2 of another row */
	assert_string_equal(kb_gpu_chip("TU104GL")->family, "Turing");
	assert_int_equal(kb_gpu_chip("GA102")->cc_minor, 6);
	assert_int_equal(kb_gpu_chip("GA100")->cc_minor, 0);
	assert_int_equal(kb_gpu_chip("GB202")->cc_major, 12);
	assert_null(kb_gpu_chip("GK20A")); /* Tegra K1: not a PCI GPU */
	assert_null(kb_gpu_chip("LP6000"));
	assert_null(kb_gpu_chip(NULL));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(names_a_device_of_the_vendor),
		cmocka_unit_test(splits_chip_and_board),
		cmocka_unit_test(chip_gives_the_architecture),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
