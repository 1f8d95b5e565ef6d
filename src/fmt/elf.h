/* ELF reader over a byte span: header, section and program headers, the dynamic section
 * (SONAME, NEEDED, RPATH, RUNPATH, FLAGS_1), symbol versioning (VERDEF, VERNEED) and section
 * lookup by name. ELF32/ELF64, little- and big-endian. Bounds-checked; never trusts an offset or
 * count it read; no I/O. Touches only the headers, the dynamic section, its string table and the
 * version records, so parsing a mapped 540 MB library reads a few pages. */
#ifndef CUDX_ELF_H
#define CUDX_ELF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/arena.h"
#include "util/span.h"

#define ELF_MAX_NEEDED 4096
#define ELF_MAX_VERSIONS 4096

/* e_machine values cudx names (a subset of <elf.h>, so the reader needs no system header). */
#define ELF_EM_386 3
#define ELF_EM_PPC64 21
#define ELF_EM_S390 22
#define ELF_EM_ARM 40
#define ELF_EM_X86_64 62
#define ELF_EM_AARCH64 183
#define ELF_EM_RISCV 243

#define ELF_DF_1_NODEFLIB 0x800u

/* Section types and flags cudx looks at (sh_type, sh_flags). */
#define ELF_SHT_PROGBITS 1u
#define ELF_SHT_NOBITS 8u
#define ELF_SHF_WRITE 0x1u
#define ELF_SHF_ALLOC 0x2u
#define ELF_SHF_EXECINSTR 0x4u

struct elf_verneed {
	const char *file;   /* the library these versions are needed from (vn_file) */
	const char **names; /* version names needed from it, e.g. "GLIBC_2.34", "libcublasLt.so.11" */
	size_t n_names;
	bool *weak; /* per name: VER_FLG_WEAK */
};

struct elf_info {
	int elf_class;    /* 32 or 64 */
	int big_endian;   /* 0 or 1 */
	uint8_t osabi;    /* EI_OSABI */
	uint16_t type;    /* ET_DYN, ET_EXEC, ... */
	uint16_t machine; /* EM_X86_64, EM_AARCH64, ... */
	uint32_t e_flags;
	const char *interp;
	bool has_dynamic;
	const char *soname;
	const char **needed;
	size_t n_needed;
	const char *rpath;   /* DT_RPATH, raw (with $ORIGIN etc.) */
	const char *runpath; /* DT_RUNPATH, raw */
	uint64_t flags_1;    /* DT_FLAGS_1 (DF_1_NODEFLIB ...) */
	const char **verdefs; /* version names this object defines (VERDEF, excluding the base) */
	size_t n_verdefs;
	struct elf_verneed *verneeds;
	size_t n_verneeds;
	const char *problem; /* non-fatal problem met while reading (a bad offset skipped), or NULL */
};

/* Parse the headers and dynamic information. Returns true on success; on failure *err names what
 * was wrong ("not an ELF file", "truncated program headers", ...). Strings are copied to the arena. */
bool elf_parse(struct span file, struct arena *a, struct elf_info *out, const char **err);
/* Quick check of the magic and class/machine only (for skipping wrong-arch candidates). */
bool elf_ident(struct span file, int *elf_class, uint16_t *machine);
/* The contents of the section named name (e.g. ".nv_fatbin"), or false. A SHT_NOBITS section
 * gives true and an empty span. */
bool elf_section(struct span file, const char *name, struct span *out);
/* One section header as elf_sections() hands it over. offset and size are what the header says,
 * not checked against the file (a SHT_NOBITS section has no bytes there at all). */
struct elf_section_info {
	const char *name; /* into the file, name_len bytes (NUL-terminated there); NULL when the name
			   * offset is outside the section name table or there is no such table */
	size_t name_len;
	uint32_t type;    /* ELF_SHT_* */
	uint64_t flags;   /* ELF_SHF_* */
	uint64_t offset, size;
};
/* Call fn for each section header after the null one (index 1 on), in table order, until fn
 * returns false. Returns false, without calling fn, when the file is not ELF, has no section
 * header table, or its table runs past the end of the file (then nothing in it is trusted);
 * true otherwise, also when fn stopped the walk. Extended numbering (e_shnum 0, e_shstrndx
 * SHN_XINDEX) is followed. */
bool elf_sections(struct span file, bool (*fn)(void *ud, const struct elf_section_info *s), void *ud);
/* Name of a machine for messages: "x86-64", "AArch64", "i386", "PowerPC64", ... */
const char *elf_machine_name(uint16_t machine);
/* Look for a defined dynamic symbol; true when the object exports it. */
bool elf_has_symbol(struct span file, const char *name);
/* Does the provider define version node name (VERDEF)? A provider without any VERDEF returns
 * false; callers tell the two apart with info->n_verdefs. */
bool elf_defines_version(const struct elf_info *provider, const char *name);

#endif
