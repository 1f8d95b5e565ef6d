/* sysroot.h on Windows itself (native build): src/sys/sysroot.c uses lstat/readlink/mmap. The
 * live root "/" is the system drive (%SystemDrive%, normally C:), matching how the Windows loader
 * rules map "C:\..." to in-root paths; --root DIR works as on Linux. Wide-character APIs
 * throughout, names converted to and from UTF-8. Symlinks and junctions are followed by Windows
 * itself (no in-root containment is needed on the live system). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <windows.h>

#include "sys/sysroot.h"

#ifndef DT_UNKNOWN
#define DT_UNKNOWN 0
#define DT_DIR 4
#define DT_REG 8
#define DT_LNK 10
#endif

#define WIN_MAX_WPATH 32768

static wchar_t *to_wide(struct arena *a, const char *s)
{
	int n = MultiByteToWideChar(CP_UTF8, 0, s, -1, NULL, 0);
	if (n <= 0 || n > WIN_MAX_WPATH)
		return NULL;
	wchar_t *w = arena_alloc(a, (size_t)n * sizeof *w);
	MultiByteToWideChar(CP_UTF8, 0, s, -1, w, n);
	return w;
}

static char *from_wide(struct arena *a, const wchar_t *w)
{
	int n = WideCharToMultiByte(CP_UTF8, 0, w, -1, NULL, 0, NULL, NULL);
	if (n <= 0)
		return arena_strdup(a, "");
	char *s = arena_alloc(a, (size_t)n);
	WideCharToMultiByte(CP_UTF8, 0, w, -1, s, n, NULL, NULL);
	return s;
}

static int errno_of(DWORD e)
{
	switch (e) {
	case ERROR_FILE_NOT_FOUND:
	case ERROR_PATH_NOT_FOUND:
	case ERROR_INVALID_NAME:
		return ENOENT;
	case ERROR_ACCESS_DENIED:
	case ERROR_SHARING_VIOLATION:
		return EACCES;
	case ERROR_DIRECTORY:
		return ENOTDIR;
	case ERROR_FILENAME_EXCED_RANGE:
		return ENAMETOOLONG;
	default:
		return EIO;
	}
}

int sysroot_init(struct sysroot *sr, struct arena *a, const char *root)
{
	if (!root || !*root || strcmp(root, "/") == 0) {
		const char *drive = getenv("SystemDrive");
		sr->root = arena_strdup(a, drive && *drive ? drive : "C:");
		sr->live = true;
		return 0;
	}
	size_t n = strlen(root);
	while (n > 1 && (root[n - 1] == '/' || root[n - 1] == '\\'))
		n--;
	sr->root = arena_strndup(a, root, n);
	sr->live = false;
	DWORD attr = GetFileAttributesW(to_wide(a, sr->root));
	if (attr == INVALID_FILE_ATTRIBUTES)
		return errno_of(GetLastError());
	return attr & FILE_ATTRIBUTE_DIRECTORY ? 0 : ENOTDIR;
}

char *sysroot_host_path(const struct sysroot *sr, struct arena *a, const char *path)
{
	char *s = arena_printf(a, "%s%s%s", sr->root, path[0] == '/' ? "" : "\\", path);
	for (char *p = s; *p; p++)
		if (*p == '/')
			*p = '\\';
	return s;
}

static int cmp_ents(const void *x, const void *y)
{
	return strcmp(((const struct sysroot_dirent *)x)->name, ((const struct sysroot_dirent *)y)->name);
}

int sysroot_list_dir(const struct sysroot *sr, struct arena *a, const char *path, struct sysroot_dirent **ents,
		     size_t *n, size_t max)
{
	*ents = NULL;
	*n = 0;
	if (!max)
		max = 100000;
	char *pat = arena_printf(a, "%s\\*", sysroot_host_path(sr, a, path));
	wchar_t *w = to_wide(a, pat);
	if (!w)
		return ENAMETOOLONG;
	WIN32_FIND_DATAW fd;
	HANDLE h = FindFirstFileW(w, &fd);
	if (h == INVALID_HANDLE_VALUE)
		return errno_of(GetLastError());
	size_t cap = 0;
	do {
		if (wcscmp(fd.cFileName, L".") == 0 || wcscmp(fd.cFileName, L"..") == 0)
			continue;
		if (*n >= max)
			break;
		struct sysroot_dirent *e = ARENA_PUSH(a, *ents, *n, cap);
		e->name = from_wide(a, fd.cFileName);
		e->type = fd.dwFileAttributes & FILE_ATTRIBUTE_REPARSE_POINT ? DT_LNK
			  : fd.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY   ? DT_DIR
									     : DT_REG;
		/* a junction or symlink to a directory is still a directory to the loader */
		if (e->type == DT_LNK && fd.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY)
			e->type = DT_DIR;
	} while (FindNextFileW(h, &fd));
	FindClose(h);
	if (*n > 1)
		qsort(*ents, *n, sizeof **ents, cmp_ents);
	return 0;
}

int sysroot_map(const struct sysroot *sr, const char *path, struct mapped_file *m)
{
	struct arena tmp;
	arena_init(&tmp);
	memset(m, 0, sizeof *m);
	wchar_t *w = to_wide(&tmp, sysroot_host_path(sr, &tmp, path));
	if (!w) {
		arena_free(&tmp);
		return ENAMETOOLONG;
	}
	HANDLE f = CreateFileW(w, GENERIC_READ, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, NULL,
			       OPEN_EXISTING, FILE_ATTRIBUTE_NORMAL, NULL);
	arena_free(&tmp);
	if (f == INVALID_HANDLE_VALUE)
		return errno_of(GetLastError());
	LARGE_INTEGER size;
	BY_HANDLE_FILE_INFORMATION info;
	if (!GetFileInformationByHandle(f, &info) || (info.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY)) {
		CloseHandle(f);
		return EISDIR;
	}
	if (!GetFileSizeEx(f, &size)) {
		CloseHandle(f);
		return EIO;
	}
	if (size.QuadPart == 0) {
		CloseHandle(f);
		m->data = span_make("", 0);
		return 0;
	}
	HANDLE map = CreateFileMappingW(f, NULL, PAGE_READONLY, 0, 0, NULL);
	CloseHandle(f);
	if (!map)
		return errno_of(GetLastError());
	void *base = MapViewOfFile(map, FILE_MAP_READ, 0, 0, 0);
	CloseHandle(map); /* the view keeps the mapping alive */
	if (!base)
		return errno_of(GetLastError());
	m->base = base;
	m->map_len = (size_t)size.QuadPart;
	m->data = span_make(base, (size_t)size.QuadPart);
	return 0;
}

void sysroot_unmap(struct mapped_file *m)
{
	if (m->base)
		UnmapViewOfFile(m->base);
	memset(m, 0, sizeof *m);
}

bool sysroot_exists(const struct sysroot *sr, const char *path)
{
	struct arena tmp;
	arena_init(&tmp);
	wchar_t *w = to_wide(&tmp, sysroot_host_path(sr, &tmp, path));
	bool ok = w && GetFileAttributesW(w) != INVALID_FILE_ATTRIBUTES;
	arena_free(&tmp);
	return ok;
}

bool sysroot_is_dir(const struct sysroot *sr, const char *path)
{
	struct arena tmp;
	arena_init(&tmp);
	wchar_t *w = to_wide(&tmp, sysroot_host_path(sr, &tmp, path));
	DWORD attr = w ? GetFileAttributesW(w) : INVALID_FILE_ATTRIBUTES;
	arena_free(&tmp);
	return attr != INVALID_FILE_ATTRIBUTES && (attr & FILE_ATTRIBUTE_DIRECTORY);
}
