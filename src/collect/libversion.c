#include <ctype.h>
#include <string.h>

#include "collect/libversion.h"
#include "fmt/elf.h"
#include "fmt/version.h"

/* The toolkit's stub is about 100 KB; the real libcuda is tens of MB. WSL's libcuda shim is small
 * too, so size alone is not enough: the stub also lacks a driver version string and carries its
 * source name "stub.c" (formats.md §5.2). */
#define STUB_MAX_SIZE (1u << 20)

void libversion_from_name(struct cudx_ctx *ctx, struct lib_file *l)
{
	if (l->version || !l->real_path)
		return;
	const char *base = path_basename(l->real_path);
	const char *so = strstr(base, ".so.");
	if (!so)
		return;
	struct version v;
	const char *tail = so + 4;
	/* at least major.minor: "libcudnn.so.9" alone says only the major, which we know already */
	if (!version_parse(tail, &v) || v.n < 2)
		return;
	/* a driver library's name carries the driver release (libcuda.so.535.104.05); Jetson's
	 * libcuda.so.1.1 names only a revision of the soname (formats.md §5.2) */
	if (l->component && (strcmp(l->component, "libcuda") == 0 || strcmp(l->component, "nvml") == 0) &&
	    v.part[0] < 100)
		return;
	size_t len = 0;
	while (tail[len] && (isdigit((unsigned char)tail[len]) || tail[len] == '.'))
		len++;
	l->version = arena_strndup(ctx->arena, tail, len);
	l->version_source = "file name";
}

static const char *find_after(struct span s, const char *needle, size_t max, struct arena *a,
			      const char *stop)
{
	long long off = span_find(s, 0, needle, strlen(needle));
	if (off < 0)
		return NULL;
	size_t start = (size_t)off + strlen(needle), end = start;
	while (end < s.n && end - start < max && !strchr(stop, s.p[end]))
		end++;
	return end > start ? arena_strndup(a, (const char *)s.p + start, end - start) : NULL;
}

void libversion_from_content(struct cudx_ctx *ctx, struct lib_file *l, struct span file)
{
	struct span ro;
	bool have_ro = elf_section(file, ".rodata", &ro);
	if (strcmp(l->component, "libcuda") == 0) {
		bool in_stubs = strstr(l->real_path, "/stubs/") != NULL;
		bool small = file.n < STUB_MAX_SIZE;
		bool stub_src = small && span_find(file, 0, "stub.c", 6) >= 0;
		if (in_stubs || stub_src) {
			l->is_stub = true;
			return;
		}
		if (!l->version && have_ro && !small) {
			size_t len;
			const char *v = version_find_driver((const char *)ro.p, ro.n, &len);
			if (v) {
				l->version = arena_strndup(ctx->arena, v, len);
				l->version_source = "embedded string";
			}
		}
		return;
	}
	if (l->version || !have_ro)
		return;
	if (strcmp(l->family, "nccl") == 0) {
		/* "NCCL version 2.28.9+cuda13.0" */
		const char *v = find_after(ro, "NCCL version ", 32, ctx->arena, "+ \n");
		if (v) {
			l->version = v;
			l->version_source = "embedded string";
		}
	} else if (strcmp(l->component, "cudnn_graph") == 0) {
		/* "cudnn_version_9_19_0_56_" */
		const char *v = find_after(ro, "cudnn_version_", 24, ctx->arena, "\n ");
		if (v) {
			char *d = arena_strdup(ctx->arena, v);
			size_t n = strlen(d);
			if (n && d[n - 1] == '_')
				d[--n] = '\0';
			for (char *p = d; *p; p++)
				if (*p == '_')
					*p = '.';
			struct version ver;
			if (version_parse(d, &ver) && ver.n >= 3) {
				l->version = d;
				l->version_source = "embedded string";
			}
		}
	}
}
