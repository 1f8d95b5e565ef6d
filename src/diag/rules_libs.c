/* The library family: copies of the GPU libraries that cannot work together or cannot be loaded. */
#include <ctype.h>
#include <string.h>

#include "collect/search.h"
#include "diag/rule.h"
#include "fmt/version.h"

/* cuDNN's libraries check each other's version at load time (8.x: "cuDNN version mismatch";
 * 9.x: CUDNN_STATUS_SUBLIBRARY_VERSION_MISMATCH). The copies a process would get for each cuDNN
 * SONAME must therefore be one release. */
static void check_cudnn_mixed(struct diag_ctx *d, const struct rule *self)
{
	const struct inventory *inv = d->inv;
	for (int major = 7; major <= 12; major++) {
		const struct lib_file *picked[32];
		size_t n = 0;
		const char *names[32];
		for (size_t i = 0; i < inv->n_libs && n < 32; i++) {
			const struct lib_file *l = &inv->libs[i];
			if (strcmp(l->family, "cudnn") != 0 || l->major != major || !l->soname || l->broken_link)
				continue;
			bool dup = false;
			for (size_t k = 0; k < n; k++)
				dup |= strcmp(names[k], l->soname) == 0;
			if (dup)
				continue;
			const char *how;
			const char *p = search_first(d->ctx, l->soname, &how);
			if (!p)
				continue;
			for (size_t k = 0; k < inv->n_libs; k++) {
				const struct lib_file *c = &inv->libs[k];
				if (c->version && (strcmp(c->path, p) == 0 || (c->real_path && strcmp(c->real_path, p) == 0))) {
					names[n] = l->soname;
					picked[n++] = c;
					break;
				}
			}
		}
		for (size_t a = 1; a < n; a++) {
			if (version_strcmp(picked[0]->version, picked[a]->version) == 0)
				continue;
			struct version va, vb;
			version_parse(picked[0]->version, &va);
			version_parse(picked[a]->version, &vb);
			if (version_cmp_parts(&va, &vb, 3) == 0)
				continue; /* the same release; a build number known for one copy only */
			struct finding *f = rule_emit(d, self, "cuDNN %d libraries of different versions would be loaded together",
						      major);
			finding_cause(f, "The loader would pick cuDNN libraries from different releases. cuDNN's "
					 "libraries check each other's version when they load and fail (\"cuDNN version "
					 "mismatch\", CUDNN_STATUS_VERSION_MISMATCH / SUBLIBRARY_VERSION_MISMATCH), or crash "
					 "later. Usually a partial copy of another release sits earlier on the search path.");
			for (size_t k = 0; k < n; k++) {
				finding_evidence(f, "%s -> %s (version %s, %s)", names[k], picked[k]->path, picked[k]->version,
						 picked[k]->origin);
				finding_path(f, picked[k]->path);
			}
			finding_fix(f, "keep one complete cuDNN %d release on the search path: remove the stray copies "
				       "(or their directory from LD_LIBRARY_PATH) so every libcudnn*.so.%d comes from the same "
				       "directory",
				    major, major);
			finding_ref(f, "https://docs.nvidia.com/deeplearning/cudnn/latest/reference/support-matrix.html");
			break;
		}
	}
}

static void check_broken_symlink(struct diag_ctx *d, const struct rule *self)
{
	for (size_t i = 0; i < d->inv->n_libs; i++) {
		const struct lib_file *l = &d->inv->libs[i];
		if (!l->broken_link)
			continue;
		/* libfoo.so (no version) is the development link: only the linker uses it */
		size_t len = strlen(l->name);
		bool dev_link = len > 3 && strcmp(l->name + len - 3, ".so") == 0;
		struct finding *f = rule_emit(d, self, "broken symlink %s", l->path);
		if (dev_link)
			finding_mild(f);
		finding_subject(f, l->path);
		finding_cause(f, "%s points to a file that does not exist, so %s cannot be loaded from here%s. This "
				 "happens when a library was upgraded or removed by hand, or an archive was copied without "
				 "its real files.",
			      l->path, l->name, dev_link ? " (only the linker uses this unversioned name)" : "");
		char chain[1024] = "";
		size_t off = 0;
		for (size_t k = 0; k < l->n_chain && off < sizeof chain; k++)
			off += (size_t)snprintf(chain + off, sizeof chain - off, "%s%s", k ? " -> " : "", l->chain[k]);
		finding_evidence(f, "%s", chain);
		if (l->problem)
			finding_evidence(f, "%s", l->problem);
		finding_fix(f, "reinstall the package that owns %s, or point the link at the existing file "
			       "(ls -l %s/), then run sudo ldconfig",
			    l->name, l->dir);
	}
}

/* "libcuda.so.515.65.01": a driver library's name with its full version after ".so." (digits and
 * dots, at least one dot), as the driver installs the real file and the container runtime mounts it */
static bool full_version_name(const char *name, size_t stem)
{
	const char *v = name + stem;
	if (v[0] != '.' || !isdigit((unsigned char)v[1]) || !strchr(v + 1, '.'))
		return false;
	return strspn(v + 1, "0123456789.") == strlen(v + 1);
}

/* The real library an empty file stands in front of: a valid library file in the same directory
 * whose name carries a full version ("libcuda.so.515.65.01" for an empty "libcuda.so.1" or
 * "libcuda.so"), the kernel module's version where that is known. NULL when none. */
static const struct lib_file *real_copy_beside(const struct inventory *inv, const char *empty_path)
{
	const char *name = path_basename(empty_path);
	const char *so = strstr(name, ".so");
	if (!so)
		return NULL;
	size_t stem = (size_t)(so - name) + 3, dir_len = (size_t)(name - empty_path);
	const char *module = inv->driver.kernel_version;
	for (size_t i = 0; i < inv->n_libs; i++) {
		const struct lib_file *l = &inv->libs[i];
		const char *real = l->real_path, *rn = real ? path_basename(real) : NULL;
		if (!real || l->size <= 0 || l->problem || strncmp(real, empty_path, dir_len) != 0 ||
		    (size_t)(rn - real) != dir_len || strncmp(rn, name, stem) != 0 || !full_version_name(rn, stem))
			continue;
		if (module && strcmp(rn + stem + 1, module) != 0)
			continue; /* another release than the module: linking it would be a mismatch */
		return l;
	}
	return NULL;
}

/* A name the loader asks for: the development name ("libcuda.so", *dev) or a SONAME ("libcuda.so.1"),
 * not a full version nor a backup ("libcuda.so.1.bak") */
static bool loader_name(const char *name, bool *dev)
{
	const char *so = strstr(name, ".so");
	if (!so)
		return false;
	const char *rest = so + 3;
	*dev = *rest == '\0';
	if (*dev)
		return true;
	return rest[0] == '.' && isdigit((unsigned char)rest[1]) && strspn(rest + 1, "0123456789") == strlen(rest + 1);
}

/* An empty file reached under a name the loader asks for (libcuda.so.1 itself, or the file its link
 * points to) in front of the real library beside it: the loader stops at the empty one ("file too
 * short"), and ldconfig does not replace a regular file under a SONAME ("is not a symbolic link").
 * An image committed from a container that had the NVIDIA runtime's mounts carries such files
 * (docker commit on WSL keeps its empty stand-ins). Not in WSL's driver directory, which Windows
 * manages. */
static void check_empty_in_front(struct diag_ctx *d, const struct rule *self)
{
	for (size_t i = 0; i < d->inv->n_libs; i++) {
		const struct lib_file *l = &d->inv->libs[i];
		if (l->size != 0 || !l->family || strcmp(l->family, "driver") != 0 || !l->real_path ||
		    strncmp(l->real_path, "/usr/lib/wsl/", 13) == 0)
			continue;
		/* the name asked for: the empty file's own when it is one (an entry found through the
		 * development name's link to it stands for the file), else the link's that leads to it */
		bool dev = false, through_link = false;
		const char *asked = l->real_path;
		if (!loader_name(path_basename(l->real_path), &dev)) {
			/* along the links to it (libcuda.so -> libcuda.so.1 -> libcuda.so.470.256.02): a
			 * SONAME before the development name */
			asked = NULL;
			const char *at = NULL; /* the chain's links are stored as written: relative to the last */
			for (size_t k = 0; k < l->n_chain; k++) {
				at = l->chain[k][0] == '/' || !at ? l->chain[k]
								 : path_join(d->ctx->arena, path_dirname(d->ctx->arena, at),
									     l->chain[k]);
				bool kdev = false;
				if (strcmp(at, l->real_path) == 0 || !loader_name(path_basename(at), &kdev))
					continue;
				if (!asked || (dev && !kdev)) {
					asked = at;
					dev = kdev;
				}
			}
			if (!asked && loader_name(l->name, &dev))
				asked = l->path;
			if (!asked) /* one entry per real file (libs.c), so its chain holds every name */
				continue;
			through_link = true;
		}
		const struct lib_file *real = real_copy_beside(d->inv, l->real_path);
		if (!real)
			continue;
		const char *real_name = path_basename(real->real_path);
		struct finding *f = rule_emit(d, self, "%s is an empty file in front of the driver's %s", l->real_path, real_name);
		finding_subject(f, l->real_path);
		finding_path(f, asked); /* the name a loader's search meets (explain_rank.c looks it up) */
		finding_path(f, real->real_path);
		finding_cause(f, "%s is a file of 0 bytes where the driver's library is expected; the loader stops there "
				 "(\"file too short\") although the real %s is beside it%s. %s",
			      through_link ? arena_printf(d->ctx->arena, "%s (which %s points to)", l->real_path, asked)
					   : l->real_path,
			      real->real_path,
			      !through_link && !dev
				      ? arena_printf(d->ctx->arena,
						     ", and ldconfig does not replace a regular file with its link (\"%s is "
						     "not a symbolic link\")",
						     asked)
				      : "",
			      d->inv->system.container ? "A container image committed from a container that had the NVIDIA "
							 "runtime's mounts (docker commit, WSL's empty stand-ins among them) "
							 "carries such files."
						       : "Something wrote an empty file under the name (an interrupted copy or "
							 "install, files taken from a container image).");
		finding_evidence(f, "%s: 0 bytes%s", l->real_path,
				 through_link ? arena_printf(d->ctx->arena, " (reached from %s)", asked) : "");
		finding_evidence(f, "%s: %lld bytes, driver %s", real->real_path, real->size, real->version ? real->version : "?");
		finding_fix(f, "%srm %s && ln -sf %s %s && ldconfig",
			    d->inv->system.container ? "rebuild the image without it; in a running container: " : "",
			    l->real_path, real_name, asked);
		if (dev) /* only the linker and a few programs' dlopen("libcuda.so") use that name */
			finding_mild(f);
	}
}

/* A library whose size differs from what its package's file list (the wheel's RECORD) says was
 * replaced or damaged after installation: copied over by hand, truncated, or written through a
 * hard link. Loading then fails in odd ways ("undefined symbol ... version libcublasLt.so.13"). */
static void check_damaged(struct diag_ctx *d, const struct rule *self)
{
	check_empty_in_front(d, self);
	for (size_t i = 0; i < d->inv->n_libs; i++) {
		const struct lib_file *l = &d->inv->libs[i];
		if (l->recorded_size < 0 || l->size < 0 || l->size == l->recorded_size)
			continue;
		struct finding *f = rule_emit(d, self, "%s is not the file its package installed (%lld bytes, %lld expected)",
					      l->path, l->size, l->recorded_size);
		finding_subject(f, l->path);
		finding_cause(f, "The package that installed %s (%s) lists it with %lld bytes, but the file on disk has "
				 "%lld. It was replaced or damaged after installation (copied over, truncated, or written "
				 "through a hard link). Programs that load it fail with missing symbols or crash.",
			      l->name, l->owner ? l->owner : "its wheel", l->recorded_size, l->size);
		finding_evidence(f, "%s: %lld bytes on disk%s%s", l->real_path, l->size,
				 l->real_path && strcmp(l->real_path, l->path) ? ", reached from " : "",
				 l->real_path && strcmp(l->real_path, l->path) ? l->path : "");
		finding_evidence(f, "%s RECORD: %lld bytes", l->owner ? l->owner : "wheel", l->recorded_size);
		if (l->owner) {
			/* "nvidia_cublas 13.1.0.3" -> pip names use '-' */
			char *pkg = arena_strdup(d->ctx->arena, l->owner);
			char *sp = strchr(pkg, ' ');
			if (sp)
				*sp = '\0';
			for (char *p = pkg; *p; p++)
				if (*p == '_')
					*p = '-';
			finding_fix(f, "reinstall the package: pip install --force-reinstall --no-deps %s==%s", pkg,
				    sp ? sp + 1 : "<version>");
		} else
			finding_fix(f, "reinstall the package that owns %s", l->path);
	}
}

static const struct rule rules[] = {
	{ "cudnn-mixed-versions", SEV_ERROR, check_cudnn_mixed,
	  .cause = "The loader would pick cuDNN libraries from different releases; cuDNN checks its libraries' "
		   "versions against each other and fails (CUDNN_STATUS_VERSION_MISMATCH / "
		   "SUBLIBRARY_VERSION_MISMATCH) or crashes later.",
	  .fix = "keep one complete cuDNN release on the search path: remove the stray copies",
	  .ref = "https://docs.nvidia.com/deeplearning/cudnn/latest/reference/support-matrix.html", .about = "cudnn" },
	{ "lib-broken-symlink", SEV_ERROR, check_broken_symlink,
	  .cause = "A library's symbolic link points to a file that does not exist, so the library cannot be loaded "
		   "by that name.",
	  .fix = "reinstall the package that owns the link, or point it at the existing file, then run sudo ldconfig",
	  .mild = SEV_WARNING, .mild_when = "the link is the unversioned development name (libfoo.so) only the linker uses" },
	{ "lib-damaged", SEV_ERROR, check_damaged,
	  .cause = "The library is not the file its package installed (its size differs from the package's file "
		   "list, or an empty file stands under its name): programs that load it fail with missing symbols, "
		   "\"file too short\", or crash.",
	  .fix = "reinstall the package that owns it, or remove the empty file", .mild = SEV_WARNING,
	  .mild_when = "the empty file is only the unversioned development name (libcuda.so), which the linker and a "
		       "few programs' dlopen use" },
};

RULE_FAMILY(rules_libs, "libs", rules);
