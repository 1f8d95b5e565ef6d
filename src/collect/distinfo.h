/* Which pip wheel installed a file: *.dist-info directories and their RECORD lists. Used for
 * versions the libraries themselves do not carry (cudart, cuBLAS and cuDNN in wheel layout have
 * only the major in their file names). */
#ifndef CUDX_DISTINFO_H
#define CUDX_DISTINFO_H

#include "sys/context.h"

struct distinfo {
	const char *path;    /* the .dist-info directory */
	const char *name;    /* distribution name as in the directory name: "nvidia_cudnn_cu13" */
	const char *version; /* "9.19.0.56" */
	const char **files;  /* base names of the shared libraries its RECORD lists */
	const char **paths;  /* the same files' paths as installed (RECORD paths taken from the
			      * site-packages dir); NULL for a toolkit assembled from wheels, whose files
			      * moved, where only the base name can match */
	long long *sizes;    /* their sizes as RECORD states them, -1 when not stated */
	size_t n_files;
};

struct distinfo_set {
	struct distinfo *v;
	size_t n, cap;
};

/* Add the dist-info dirs that may own files in dir: dir's ancestors (up to 4 levels) and their
 * "dist-info" subdirectory (the layout of a toolkit assembled from wheels). */
void distinfo_for_dir(struct cudx_ctx *ctx, const char *dir, struct distinfo_set *set);
/* The dist-info whose RECORD lists the file at real_path (in-root path after links), or NULL.
 * In site-packages the whole path must match (torch/lib/libcudnn.so.9 is not nvidia-cudnn's
 * file); in a toolkit's dist-info dir the base name is all there is to go by. */
const struct distinfo *distinfo_owner(const struct distinfo_set *set, const char *real_path);
/* The size RECORD states for a library of d, or -1. */
long long distinfo_recorded_size(const struct distinfo *d, const char *real_path);
/* Split "nvidia_cudnn_cu13-9.19.0.56.dist-info" into name and version. */
bool distinfo_parse_dirname(struct arena *a, const char *dirname, const char **name,
			    const char **version);

#endif
