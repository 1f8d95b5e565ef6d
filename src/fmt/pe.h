/* PE/COFF reader over a byte span: machine, PE32/PE32+, DLL flag, imports, delay-load imports,
 * exports (with forwarders) and the VERSIONINFO resource (fixed file/product version and the
 * string table). Layout: Microsoft "PE Format" (formats.md §4.1). Bounds-checked; never trusts an
 * RVA, offset or count it read; no I/O; no recursion (the resource tree is walked at fixed depth). */
#ifndef CUDX_PE_H
#define CUDX_PE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fmt/pe_rva.h"
#include "util/arena.h"
#include "util/span.h"

#define PE_MACHINE_I386 0x014c
#define PE_MACHINE_AMD64 0x8664
#define PE_MACHINE_ARM64 0xaa64
#define PE_MACHINE_ARMNT 0x01c4
#define PE_MACHINE_IA64 0x0200

/* Limits that bound every input-driven allocation. */
#define PE_MAX_SECTIONS 96        /* the loader's own limit */
#define PE_MAX_IMPORT_DLLS 4096
#define PE_MAX_IMPORT_FUNCS 65536 /* per DLL */
#define PE_MAX_IMPORT_FUNCS_TOTAL (1u << 18) /* all DLLs together (they may share one table) */
#define PE_MAX_EXPORTS 262144
#define PE_MAX_NAME 4096
#define PE_MAX_NAME_BYTES (16u << 20) /* all names copied from one file together */

struct pe_import {
	const char *dll;      /* as written in the file ("KERNEL32.dll"); case kept */
	bool delay;           /* from the delay-load directory */
	const char **funcs;   /* imported names; "#123" for an import by ordinal */
	size_t n_funcs;
};

struct pe_export {
	const char *name;      /* NULL for an ordinal-only export */
	uint32_t ordinal;
	const char *forwarder; /* "OTHER.Func" when forwarded, else NULL */
};

struct pe_version {
	bool present;                  /* a VS_FIXEDFILEINFO was found */
	uint16_t file[4], product[4];  /* dwFileVersionMS/LS, dwProductVersionMS/LS split in four */
	uint32_t file_type;            /* 1 app, 2 dll, 3 driver */
	/* From the first StringTable; NULL when absent. UTF-16 converted to UTF-8. */
	const char *file_version_str;
	const char *product_version_str;
	const char *product_name;
	const char *company;
	const char *original_filename;
	const char *description;
};

struct pe_info {
	uint16_t machine;
	bool pe32plus;                 /* optional header magic 0x20b */
	bool is_dll;                   /* IMAGE_FILE_DLL */
	uint16_t characteristics;
	uint16_t subsystem;
	uint16_t dll_characteristics;
	uint64_t image_base;
	bool is_dotnet;                /* CLR runtime header directory present */
	struct pe_import *imports;     /* normal imports first, then delay-load imports */
	size_t n_imports;
	const char *export_name;       /* the DLL's own name in the export directory */
	struct pe_export *exports;
	size_t n_exports;
	struct pe_version version;
	const char *problem;           /* first non-fatal problem (a bad RVA skipped), or NULL */
};

/* Parse a PE image. Returns true when the headers are sound (machine and PE kind known); the
 * directories are read as far as they are valid, problems go to out->problem. On failure *err says
 * what was wrong ("not a PE file (no MZ header)", "truncated COFF header", ...). */
bool pe_parse(struct span file, struct arena *a, struct pe_info *out, const char **err);
/* Only the machine field and PE kind: cheap check of a search candidate. */
bool pe_ident(struct span file, uint16_t *machine, bool *is_dll, const char **err);
/* Headers sound and every section's data inside the file: what the Windows loader needs to map
 * it. False (with *err) for files it would reject with error 193. */
bool pe_validate(struct span file, const char **err);
/* "x64", "x86", "ARM64", "ARM (Thumb-2)", "IA-64", or "unknown (0x....)" (static buffer for the
 * last one is not used: unknown machines return "unknown"). */
const char *pe_machine_name(uint16_t machine);
/* The fixed file version as "a.b.c.d" in the arena, or NULL when no version resource. */
const char *pe_file_version(struct arena *a, const struct pe_info *pe);
const char *pe_product_version(struct arena *a, const struct pe_info *pe);
/* True when the DLL imports (normally or delay-loaded) a DLL named name, case-insensitively. */
bool pe_imports_dll(const struct pe_info *pe, const char *name, bool *delay);

#endif
