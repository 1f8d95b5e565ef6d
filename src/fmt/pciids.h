/* Reader for the PCI ID Repository's pci.ids (/usr/share/misc/pci.ids, /usr/share/hwdata/pci.ids),
 * which names a PCI device by its vendor and device IDs (formats: https://pci-ids.ucw.cz):
 *     10de  NVIDIA Corporation          a vendor: four hex digits at the start of a line
 *     \t1380  GM107 [GeForce GTX 750 Ti]  one of its devices: a tab, four hex digits, two spaces
 *     \t\t1043 8452  ...                a subsystem of that device (ignored)
 *     # comment                         and blank lines anywhere
 * The file is 1.3 MiB and holds thousands of vendors: the reader scans for the one vendor and
 * stops at the next. */
#ifndef CUDX_PCIIDS_H
#define CUDX_PCIIDS_H

#include <stdint.h>

#include "util/arena.h"
#include "util/span.h"

/* The name of device vendor:device ("GM107 [GeForce GTX 750 Ti]"), at most 200 bytes, or NULL
 * when the file does not list it. */
const char *pciids_device_name(struct span ids, struct arena *a, uint16_t vendor, uint16_t device);

/* The parts of a device name: the chip word before the first blank ("GM107", "GK110BGL") and the
 * board in the last [...] ("GeForce GTX 750 Ti"), each NULL when absent. */
void pciids_split_name(const char *name, struct arena *a, const char **chip, const char **board);

#endif
