/* GPUs: what the kernel driver lists in /proc/driver/nvidia/gpus/<bus>/information, the NVIDIA
 * GPUs on the PCI bus whether a driver took them or not (/sys/bus/pci/devices, named from pci.ids),
 * plus the ones given with --gpu (simulating a target host). Compute capability from the knowledge
 * base; the probe adds what the driver API reports. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "collect/inventory.h"
#include "fmt/nvproc.h"
#include "fmt/pciids.h"
#include "kb/kb.h"

static void set_cc(struct gpu_info *g, const char *query)
{
	const struct kb_gpu *k = kb_gpu_lookup(query);
	if (k) {
		g->cc_major = k->cc_major;
		g->cc_minor = k->cc_minor;
		if (!g->name)
			g->name = k->name;
	}
}

#define PCI_DEVICES "/sys/bus/pci/devices"
#define PCI_VENDOR_NVIDIA 0x10de

/* "0x10de\n" -> 0x10de; -1 when the file is missing or not hex */
static long sysfs_hex(struct cudx_ctx *ctx, const char *dev, const char *file)
{
	size_t len;
	char *t = sysroot_read_text(&ctx->root, ctx->arena,
				    arena_printf(ctx->arena, "%s/%s/%s", PCI_DEVICES, dev, file), 64, &len, NULL);
	if (!t)
		return -1;
	char *end;
	long v = strtol(t, &end, 16);
	return end == t || v < 0 ? -1 : v;
}

/* pci.ids where distributions put it (Debian /usr/share/misc, Fedora and Arch /usr/share/hwdata) */
static const char *pci_device_name(struct cudx_ctx *ctx, uint16_t device)
{
	static const char *const files[] = { "/usr/share/misc/pci.ids", "/usr/share/hwdata/pci.ids",
					     "/usr/share/pci.ids" };
	for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
		struct mapped_file m;
		if (sysroot_map(&ctx->root, files[i], &m) != 0)
			continue;
		const char *name = pciids_device_name(m.data, ctx->arena, PCI_VENDOR_NVIDIA, device);
		sysroot_unmap(&m);
		if (name)
			return name; /* else an older copy elsewhere may still list it */
	}
	return NULL;
}

/* An NVSwitch: pci.ids names it so ("GA100 [A100 NVSwitch]"), or its device ID is one of the
 * switches' (data/nvswitch.tsv) */
static bool nvswitch_device(struct cudx_ctx *ctx, uint16_t device)
{
	const char *name = pci_device_name(ctx, device);
	return name ? strstr(name, "NVSwitch") != NULL : kb_nvswitch_device(device);
}

/* Name and compute capability of a GPU known by its PCI device: the board pci.ids names, when the
 * knowledge base knows it, else the chip (data/gpu_chips.tsv). */
static void name_pci_gpu(struct cudx_ctx *ctx, struct gpu_info *g, uint16_t device)
{
	const char *name = pci_device_name(ctx, device);
	const char *chip, *board;
	pciids_split_name(name, ctx->arena, &chip, &board);
	const struct kb_gpu *k = board ? kb_gpu_lookup(board) : NULL;
	const struct kb_gpu_chip *c = chip ? kb_gpu_chip(chip) : NULL;
	g->name = board ? arena_printf(ctx->arena, "NVIDIA %s", board) : name;
	if (!g->name)
		g->name = arena_printf(ctx->arena, "NVIDIA device %s", g->pci_id);
	if (k && strcmp(k->segment, "arch") != 0) {
		g->cc_major = k->cc_major;
		g->cc_minor = k->cc_minor;
	} else if (c) {
		g->cc_major = c->cc_major;
		g->cc_minor = c->cc_minor;
	}
}

static bool same_bus(const char *a, const char *b)
{
	return a && b && strcasecmp(a, b) == 0;
}

/* Each NVIDIA display or 3D controller on the bus, with the kernel driver bound to it. One the
 * NVIDIA driver lists already gets these facts; another is added as pci_only. */
static void collect_pci_gpus(struct cudx_ctx *ctx, struct inventory *inv)
{
	struct sysroot_dirent *ents;
	size_t n;
	if (sysroot_list_dir(&ctx->root, ctx->arena, PCI_DEVICES, &ents, &n, 16384) != 0)
		return;
	for (size_t i = 0; i < n; i++) {
		const char *dev = ents[i].name;
		long vendor = sysfs_hex(ctx, dev, "vendor"), device = sysfs_hex(ctx, dev, "device");
		long cls = sysfs_hex(ctx, dev, "class");
		/* an NVIDIA bridge (0x0680xx) is an NVSwitch of an HGX board when its device says so
		 * (old nForce chipsets' Ethernet is a bridge of that class too) */
		if (vendor == PCI_VENDOR_NVIDIA && cls >> 8 == 0x0680 && !inv->driver.nvswitch && device >= 0 &&
		    nvswitch_device(ctx, (uint16_t)device))
			inv->driver.nvswitch = arena_printf(ctx->arena, "%s/%s", PCI_DEVICES, dev);
		/* 0x0300xx VGA, 0x0302xx 3D controller; a GPU's audio or USB function is not a GPU */
		if (vendor != PCI_VENDOR_NVIDIA || device < 0 || device > 0xffff ||
		    (cls >> 8 != 0x0300 && cls >> 8 != 0x0302))
			continue;
		const char *link = sysroot_readlink(&ctx->root, ctx->arena,
						    arena_printf(ctx->arena, "%s/%s/driver", PCI_DEVICES, dev));
		const char *drv = link ? strrchr(link, '/') : NULL;
		drv = drv ? drv + 1 : link;
		struct gpu_info *g = NULL;
		for (size_t k = 0; k < inv->n_gpus && !g; k++)
			if (same_bus(inv->gpus[k].bus_id, dev))
				g = &inv->gpus[k];
		if (!g) {
			g = ARENA_PUSH(ctx->arena, inv->gpus, inv->n_gpus, inv->cap_gpus);
			g->bus_id = dev;
			g->source = arena_printf(ctx->arena, "%s/%s", PCI_DEVICES, dev);
			g->pci_only = true;
		}
		g->pci_id = arena_printf(ctx->arena, "10de:%04lx", device);
		g->kernel_driver = drv && *drv ? drv : NULL;
		if (g->pci_only)
			name_pci_gpu(ctx, g, (uint16_t)device);
	}
}

void collect_gpus(struct cudx_ctx *ctx, struct inventory *inv)
{
	struct sysroot_dirent *ents;
	size_t n;
	if (ctx->os == OS_LINUX &&
	    sysroot_list_dir(&ctx->root, ctx->arena, "/proc/driver/nvidia/gpus", &ents, &n, 256) == 0) {
		for (size_t i = 0; i < n; i++) {
			const char *path = arena_printf(ctx->arena, "/proc/driver/nvidia/gpus/%s/information",
							ents[i].name);
			size_t len;
			char *text = sysroot_read_text(&ctx->root, ctx->arena, path, 8192, &len, NULL);
			if (!text)
				continue;
			struct span info = span_make(text, len);
			struct gpu_info *g = ARENA_PUSH(ctx->arena, inv->gpus, inv->n_gpus, inv->cap_gpus);
			g->name = nvproc_field(info, ctx->arena, "Model");
			g->uuid = nvproc_field(info, ctx->arena, "GPU UUID");
			g->bus_id = nvproc_field(info, ctx->arena, "Bus Location");
			if (!g->bus_id)
				g->bus_id = ents[i].name;
			g->source = path;
			if (g->name)
				set_cc(g, g->name);
			else
				inventory_note(ctx, inv, path, "no Model line");
		}
	}
	/* a Jetson's integrated GPU is not listed under /proc/driver/nvidia: the board's model names it
	 * ("NVIDIA Jetson AGX Orin Developer Kit" -> the gpus.tsv row "NVIDIA Jetson AGX Orin") */
	if (inv->driver.tegra && !inv->n_gpus && !ctx->opt->n_gpus) {
		size_t len;
		char *model = sysroot_read_text(&ctx->root, ctx->arena, "/proc/device-tree/model", 256, &len, NULL);
		const struct kb_gpu *k = model ? kb_gpu_lookup(model) : NULL;
		if (k && strcmp(k->segment, "jetson") == 0) {
			struct gpu_info *g = ARENA_PUSH(ctx->arena, inv->gpus, inv->n_gpus, inv->cap_gpus);
			g->name = k->name;
			g->cc_major = k->cc_major;
			g->cc_minor = k->cc_minor;
			g->source = "/proc/device-tree/model";
		} else if (model)
			inventory_note(ctx, inv, "/proc/device-tree/model",
				       "no Jetson the knowledge base knows: \"%.80s\"", model);
	}
	if (ctx->os == OS_LINUX)
		collect_pci_gpus(ctx, inv);
	size_t found = inv->n_gpus;
	for (size_t i = 0; i < ctx->opt->n_gpus; i++) {
		struct gpu_info *g = ARENA_PUSH(ctx->arena, inv->gpus, inv->n_gpus, inv->cap_gpus);
		g->source = "--gpu";
		set_cc(g, ctx->opt->gpus[i]);
		if (!g->name)
			g->name = ctx->opt->gpus[i];
		if (!g->cc_major)
			inventory_note(ctx, inv, "--gpu", "unknown GPU or architecture '%s' (try sm_86 or 8.6)",
				       ctx->opt->gpus[i]);
		/* a GPU the machine itself shows (the driver's list, the PCI bus) is judged once: --gpu
		 * of the same model, or of its architecture, adds nothing but each finding twice */
		bool arch_only = strncmp(g->name, "compute capability ", 19) == 0;
		const struct kb_gpu *model = kb_gpu_lookup(ctx->opt->gpus[i]);
		for (size_t k = 0; g->cc_major && k < found; k++) {
			const struct gpu_info *o = &inv->gpus[k];
			/* the same model by the knowledge base's name ("H100" is "NVIDIA H100 80GB HBM3" as
			 * the driver lists it), or by the name itself where the knowledge base has none */
			bool same = o->name &&
				    (strcasecmp(o->name, g->name) == 0 || (model && kb_gpu_lookup(o->name) == model));
			if (o->cc_major == g->cc_major && o->cc_minor == g->cc_minor && (arch_only || same)) {
				inventory_note(ctx, inv, "--gpu", "'%s' is the %s the machine shows (%s): judged once",
					       ctx->opt->gpus[i], o->name ? o->name : "GPU", o->source);
				inv->n_gpus--;
				break;
			}
		}
	}
}
