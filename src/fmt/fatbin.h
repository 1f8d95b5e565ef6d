/* NVIDIA fat binaries inside host files (ELF, PE, or anything else), read without decompressing.
 *
 * A fat binary ("container") is a 16-byte header (magic 0xBA55ED50, version 1, header size 16,
 * u64 size) followed by entries laid end to end; every entry is one GPU image: SASS (a cubin ELF),
 * PTX text or LTO-IR, for one SM, possibly compressed. Layout: research/formats.md §1.3-1.4.
 *
 * Containers live in .nv_fatbin, but NVIDIA libraries also keep many outside it (cuFFT in .ldata,
 * cuBLASLt and cuDNN in .cask_resource) with no wrapper record pointing at them, so the reader
 * scans every loadable data section for the header and checks each hit. Scanning is linear,
 * strides over valid containers by their sizes (their payload pages are never touched), and
 * reports its progress through a callback so a caller holding a file mapping can drop the pages
 * it has passed (the peak RSS of a 540 MB library stays small). */
#ifndef CUDX_FATBIN_H
#define CUDX_FATBIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/arena.h"
#include "util/span.h"

#define FATBIN_MAGIC 0xBA55ED50u
#define FATBIN_MAX_ENTRIES (1u << 20)  /* more than any real library; bounds memory on garbage */
#define FATBIN_MAX_REGIONS 4096        /* sections scanned per file */
#define FATBIN_MAX_PROBLEMS 16         /* messages kept; the rest are counted */

enum fatbin_kind { FATBIN_KIND_PTX = 1, FATBIN_KIND_ELF = 2, FATBIN_KIND_OLDCUBIN = 4, FATBIN_KIND_LTOIR = 8 };

enum fatbin_compression { FATBIN_COMP_NONE = 0, FATBIN_COMP_LZ4, FATBIN_COMP_ZSTD, FATBIN_COMP_OTHER };

/* Entry flag bits (u64 at entry offset 0x28), VERIFIED in formats.md §1.4. */
#define FATBIN_FLAG_64BIT 0x1ull
#define FATBIN_FLAG_DEBUG 0x2ull
#define FATBIN_FLAG_COMPRESS_OTHER 0x1000ull /* UNVERIFIED third-party name; never seen */
#define FATBIN_FLAG_LZ4 0x2000ull
#define FATBIN_FLAG_ZSTD 0x8000ull
#define FATBIN_FLAG_ARCH_SPECIFIC 0x100000ull   /* "a" targets: sm_90a */
#define FATBIN_FLAG_FAMILY_SPECIFIC 0x200000ull /* "f" targets: sm_100f */

enum fatbin_host { FATBIN_HOST_RAW = 0, FATBIN_HOST_ELF, FATBIN_HOST_PE };

/* One GPU image, as its header describes it. */
struct fatbin_entry {
	uint64_t offset;            /* file offset of the entry header */
	uint64_t payload_size;      /* bytes stored after the header, padding included */
	uint64_t uncompressed_size; /* 0 when stored uncompressed */
	uint64_t flags;
	uint32_t compressed_size;   /* exact compressed length; 0 when not compressed */
	uint32_t header_size;
	uint32_t sm;                /* 75, 90, 100, 120 ... as stored (not trusted to be sane) */
	uint32_t container;         /* index into fatbin_file.containers */
	uint16_t kind;              /* enum fatbin_kind, or an unknown value as stored */
	uint16_t major, minor;      /* PTX: PTX ISA version; ELF: cubin ABI (1,7) or (1,8) */
	char variant;               /* 0, 'a' or 'f' */
	uint8_t compression;        /* enum fatbin_compression */
};

struct fatbin_container {
	uint64_t offset; /* file offset of the 16-byte header */
	uint64_t size;   /* header + entries */
	uint32_t first_entry, n_entries;
	uint32_t region; /* index into fatbin_file.regions */
};

/* A part of the file that was scanned: an ELF/PE section, or the whole file. */
struct fatbin_region {
	const char *name; /* ".nv_fatbin", ".cask_resource", "(whole file)" */
	uint64_t offset, size;
	uint32_t containers, entries;
};

struct fatbin_file {
	enum fatbin_host host;
	struct fatbin_region *regions;
	size_t n_regions;
	struct fatbin_container *containers;
	size_t n_containers, cap_containers;
	struct fatbin_entry *entries;
	size_t n_entries, cap_entries;
	const char *problems[FATBIN_MAX_PROBLEMS]; /* malformed containers met (scan went on) */
	size_t n_problems;       /* kept in problems[] */
	size_t n_problems_total; /* all of them */
	bool truncated;          /* FATBIN_MAX_ENTRIES reached; later entries not recorded */
	uint64_t bytes_scanned;  /* bytes looked at for the magic (not strided over) */
};

struct fatbin_opts {
	/* Called with increasing offsets: the reader will not look at bytes before `upto` again.
	 * May be NULL. A caller with an mmap'd file drops those pages (madvise) to bound RSS. */
	void (*release)(void *ud, uint64_t upto);
	void *ud;
};

/* Find and walk every fat binary in file. Never fails: malformed containers become problems,
 * and a file with no GPU code gives n_containers == 0. Memory: arena, bounded by the caps. */
void fatbin_scan(struct span file, struct arena *a, const struct fatbin_opts *opts,
		 struct fatbin_file *out);

/* Walk one container at off (must hold the header). Returns true and appends its entries to
 * out when it is well formed; else false with *why set. Used by fatbin_scan; exposed for tests. */
bool fatbin_walk_container(struct span file, uint64_t off, struct arena *a, uint32_t region,
			   struct fatbin_file *out, const char **why);

const char *fatbin_kind_name(uint16_t kind);          /* "SASS", "PTX", "LTO-IR", "old cubin", "unknown" */
const char *fatbin_compression_name(uint8_t comp);     /* "none", "lz4", "zstd", "other" */
/* The target as cuobjdump and nvcc spell it: "sm_90a" (SASS), "compute_120" (PTX), "lto_90". */
char *fatbin_target_name(const struct fatbin_entry *e, char *buf, size_t n);

#endif
