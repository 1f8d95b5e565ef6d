/* Test helper: map a file read-only and run the fat-binary scan over it (asserting both work).
 * The mapping stays until scanned_file_unmap(): fatbin entries point into it. */
#ifndef CUDX_TEST_FATBIN_SCAN_FILE_H
#define CUDX_TEST_FATBIN_SCAN_FILE_H

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fmt/fatbin.h"

struct scanned_file {
	void *map;
	size_t size;
};

static inline struct scanned_file scan_file(const char *path, struct arena *a, struct fatbin_file *f)
{
	int fd = open(path, O_RDONLY);
	assert_true(fd >= 0);
	struct stat st;
	assert_int_equal(fstat(fd, &st), 0);
	void *m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	assert_true(m != MAP_FAILED);
	fatbin_scan(span_make(m, (size_t)st.st_size), a, NULL, f);
	return (struct scanned_file){ m, (size_t)st.st_size };
}

static inline void scanned_file_unmap(struct scanned_file s)
{
	munmap(s.map, s.size);
}

#endif
