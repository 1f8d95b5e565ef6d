/* The NVIDIA driver: kernel module (both /proc flavours and /sys/module), device nodes, the
 * user-space libcuda and NVML a process would load, WSL, forward-compat dirs; on a Jetson, the L4T
 * release that stands for the driver. */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "collect/inventory.h"
#include "collect/search.h"
#include "fmt/dpkg.h"
#include "fmt/nvproc.h"
#include "fmt/version.h"
#include "kb/kb.h"

#define PROC_VERSION "/proc/driver/nvidia/version"
#define NVIDIA_MODPROBE "/usr/bin/nvidia-modprobe"

static void read_proc_version(struct cudx_ctx *ctx, struct inventory *inv)
{
	struct driver_info *d = &inv->driver;
	size_t len;
	int err;
	char *text = sysroot_read_text(&ctx->root, ctx->arena, PROC_VERSION, 8192, &len, &err);
	if (!text) {
		if (err != ENOENT && err != ENOTDIR)
			inventory_note(ctx, inv, PROC_VERSION, "cannot read: %s", strerror(err));
		return;
	}
	struct nvproc_version pv;
	const char *why;
	bool ok = nvproc_parse_version(span_make(text, len), ctx->arena, &pv, &why);
	d->kernel_line = pv.line;
	if (!ok) {
		inventory_note(ctx, inv, PROC_VERSION, "%s, ignored; first line: \"%.120s\"", why, pv.line);
		return;
	}
	d->kernel_flavour = pv.flavour;
	d->kernel_version = pv.version;
}

static void read_sys_module(struct cudx_ctx *ctx, struct inventory *inv)
{
	size_t len;
	char *text = sysroot_read_text(&ctx->root, ctx->arena, "/sys/module/nvidia/version", 256, &len, NULL);
	if (!text)
		return;
	struct version v;
	while (len && (text[len - 1] == '\n' || text[len - 1] == ' '))
		text[--len] = '\0';
	if (version_parse_n(text, len, &v) && v.n >= 2)
		inv->driver.module_version = text;
	else
		inventory_note(ctx, inv, "/sys/module/nvidia/version", "unrecognised content \"%.60s\"", text);
}

/* nvidia-uvm is loaded at boot on some installs and by nvidia-modprobe on the first CUDA call on
 * others (enroot#106, its maintainer): record both, for the host's missing /dev/nvidia-uvm. libcuda
 * runs nvidia-modprobe by one fixed path, /usr/bin/nvidia-modprobe (the only one in driver 470's and
 * 535's libcuda.so), so a copy elsewhere is none that CUDA uses. */
static void read_uvm(struct cudx_ctx *ctx, struct inventory *inv)
{
	struct driver_info *d = &inv->driver;
	d->uvm_loaded = sysroot_is_dir(&ctx->root, "/sys/module/nvidia_uvm");
	struct stat st;
	if (sysroot_stat(&ctx->root, NVIDIA_MODPROBE, &st) == 0 && S_ISREG(st.st_mode)) {
		d->nvidia_modprobe = NVIDIA_MODPROBE;
		d->nvidia_modprobe_setuid = st.st_uid == 0 && (st.st_mode & S_ISUID);
	}
}

static void add_node(struct cudx_ctx *ctx, struct driver_info *d, size_t *cap, const char *path)
{
	struct device_node *n = ARENA_PUSH(ctx->arena, d->nodes, d->n_nodes, *cap);
	n->path = path;
	struct stat st;
	if (sysroot_stat(&ctx->root, path, &st) != 0)
		return;
	n->exists = true;
	n->is_char_device = S_ISCHR(st.st_mode);
	n->mode = st.st_mode & 07777;
	n->uid = st.st_uid;
	n->gid = st.st_gid;
	if (ctx->root.live) {
		n->readable = sysroot_access(&ctx->root, path, R_OK) == 0;
		n->writable = sysroot_access(&ctx->root, path, W_OK) == 0;
	}
}

/* A driver version of L4T's own build: Jetson Thor's unified driver reports "580.00"; no desktop
 * release of NVIDIA's ends in ".00" (they are NNN.NN or NNN.NN.NN with other numbers). */
static bool l4t_build_version(const char *v)
{
	size_t n = v ? strspn(v, "0123456789") : 0;
	return n >= 3 && strcmp(v + n, ".00") == 0;
}

/* A desktop driver's version: NNN.NN or NNN.NN.NN from R300 on, not L4T's "580.00" nor a Jetson
 * libcuda's "1.1". */
static bool desktop_version(const char *v)
{
	return v && atoi(v) >= 300 && strchr(v, '.') && !l4t_build_version(v);
}

/* Jetson: the L4T release, and whether the nvgpu driver shows (module or device nodes). */
static void read_tegra(struct cudx_ctx *ctx, struct inventory *inv, size_t *cap)
{
	struct driver_info *d = &inv->driver;
	size_t len;
	int err;
	char *text = sysroot_read_text(&ctx->root, ctx->arena, "/etc/nv_tegra_release", 4096, &len, &err);
	/* JetPack 6 loads an OpenRM nvidia.ko for the display ("540.4.0") while the GPU's driver is
	 * still nvgpu: with nvgpu there, the module is the display's, and this is a Jetson */
	bool nvgpu = sysroot_is_dir(&ctx->root, "/sys/module/nvgpu") ||
		     sysroot_exists(&ctx->root, "/dev/nvhost-ctrl-gpu") ||
		     sysroot_exists(&ctx->root, "/dev/nvgpu/igpu0/ctrl");
	if ((d->kernel_version || d->module_version) && text && nvgpu) {
		d->display_module_version = d->kernel_version ? d->kernel_version : d->module_version;
		d->kernel_version = d->module_version = NULL;
		d->kernel_flavour = NULL;
	}
	/* nvidia.ko loaded: an L4T system with a discrete GPU (IGX), the desktop model; or Jetson Thor,
	 * whose unified OpenRM driver is nvidia.ko too, with a version of L4T's own build: on Thor
	 * itself its release row says what CUDA it runs; in a container (the release file is the
	 * image's) or a release the table lacks the version alone shows it, and what it runs is not
	 * known here */
	if (d->kernel_version || d->module_version) {
		struct tegra_release tr;
		const char *why;
		const struct kb_l4t *row = NULL;
		if (text && !inv->system.container &&
		    nvproc_parse_tegra_release(span_make(text, len), ctx->arena, &tr, &why))
			row = kb_l4t_lookup(tr.release);
		if (!l4t_build_version(d->kernel_version ? d->kernel_version : d->module_version))
			return;
		d->l4t_openrm = true; /* in a container, or a release the table lacks: no scale known */
		if (row && row->openrm) {
			d->l4t_release = tr.release;
			d->l4t = row;
		}
		return;
	}
	if (text) {
		struct tegra_release tr;
		const char *why;
		d->tegra = true;
		if (nvproc_parse_tegra_release(span_make(text, len), ctx->arena, &tr, &why)) {
			d->l4t_release = tr.release;
			d->l4t = kb_l4t_lookup(tr.release);
			/* Thor with its nvidia.ko not loaded: the driver is still the release's own */
			d->l4t_openrm = d->l4t && d->l4t->openrm && !inv->system.container;
		} else
			inventory_note(ctx, inv, "/etc/nv_tegra_release", "%s, ignored; first line: \"%.120s\"", why,
				       tr.line);
	} else if (err != ENOENT && err != ENOTDIR)
		inventory_note(ctx, inv, "/etc/nv_tegra_release", "cannot read: %s", strerror(err));
	/* JetPack 4 and 5 create /dev/nvhost-ctrl-gpu, later releases /dev/nvgpu/igpu0/ctrl */
	static const char *const nodes[] = { "/dev/nvhost-ctrl-gpu", "/dev/nvgpu/igpu0/ctrl" };
	for (size_t i = 0; i < sizeof nodes / sizeof nodes[0]; i++)
		if (sysroot_exists(&ctx->root, nodes[i])) {
			add_node(ctx, d, cap, nodes[i]);
			d->tegra_gpu = true;
		}
	if (sysroot_is_dir(&ctx->root, "/sys/module/nvgpu"))
		d->tegra_gpu = true;
	d->tegra |= d->tegra_gpu;
}

static void read_nodes(struct cudx_ctx *ctx, struct inventory *inv)
{
	struct driver_info *d = &inv->driver;
	size_t cap = 0;
	struct sysroot_dirent *ents;
	size_t n;
	/* the control node and UVM are needed by every CUDA process: list them even when absent */
	add_node(ctx, d, &cap, "/dev/nvidiactl");
	add_node(ctx, d, &cap, "/dev/nvidia-uvm");
	read_tegra(ctx, inv, &cap);
	if (sysroot_list_dir(&ctx->root, ctx->arena, "/dev", &ents, &n, 20000) != 0)
		return;
	for (size_t i = 0; i < n; i++) {
		const char *nm = ents[i].name;
		if (strcmp(nm, "nvidiactl") == 0 || strcmp(nm, "nvidia-uvm") == 0)
			continue;
		if (strncmp(nm, "nvidia", 6) == 0 && strcmp(nm, "nvidia-caps") != 0)
			add_node(ctx, d, &cap, path_join(ctx->arena, "/dev", nm));
		else if (strcmp(nm, "dxg") == 0) {
			add_node(ctx, d, &cap, "/dev/dxg");
			d->wsl = true;
		}
	}
}

static void pick_userspace(struct cudx_ctx *ctx, struct inventory *inv)
{
	struct driver_info *d = &inv->driver;
	const char *how;
	const char *p = search_first(ctx, "libcuda.so.1", &how);
	for (size_t i = 0; p && i < inv->n_libs; i++) {
		const struct lib_file *l = &inv->libs[i];
		if (strcmp(l->path, p) != 0 && !(l->real_path && strcmp(l->real_path, p) == 0))
			continue;
		d->libcuda_path = l->path;
		d->libcuda_version = l->version;
		d->libcuda_is_stub = l->is_stub;
		if (!d->kernel_version && !d->module_version)
			d->tegra |= strstr(l->path, "/tegra/") || (l->real_path && strstr(l->real_path, "/tegra/"));
		break;
	}
	if (p && !d->libcuda_path)
		d->libcuda_path = p;
	/* none on the search path: is the driver's copy where the system keeps it off the path? */
	const struct kb_driver_dir *dd;
	for (size_t r = 0, n = kb_driver_dirs(&dd); !p && r < n && !d->libcuda_off_path; r++) {
		const char *want = path_join(ctx->arena, dd[r].dir, "libcuda.so.1");
		for (size_t i = 0; i < inv->n_libs; i++) {
			const struct lib_file *l = &inv->libs[i];
			if (strcmp(l->path, want) == 0 && !l->is_stub && !l->broken_link) {
				d->libcuda_off_path = l->path;
				d->off_path_dir = &dd[r];
				break;
			}
		}
	}
	p = search_first(ctx, "libnvidia-ml.so.1", &how);
	for (size_t i = 0; p && i < inv->n_libs; i++) {
		const struct lib_file *l = &inv->libs[i];
		if (strcmp(l->path, p) == 0 || (l->real_path && strcmp(l->real_path, p) == 0)) {
			d->nvml_path = l->path;
			d->nvml_version = l->version;
			break;
		}
	}
}

static void find_compat_dirs(struct cudx_ctx *ctx, struct inventory *inv)
{
	size_t cap = 0;
	/* the cuda-compat package's compat/; NVIDIA's NGC images keep the libraries in compat/lib.real
	 * behind a compat/lib link */
	static const char *const subs[] = { "compat", "compat/lib", "compat/lib.real" };
	/* the toolkits found, and every /usr/local/cuda* (the cuda-compat-X-Y package installs
	 * /usr/local/cuda-X.Y/compat without a toolkit beside it) */
	const char **roots = NULL;
	size_t n_roots = 0, cap_roots = 0;
	for (size_t t = 0; t < inv->n_toolkits; t++)
		*ARENA_PUSH(ctx->arena, roots, n_roots, cap_roots) = inv->toolkits[t].path;
	struct sysroot_dirent *ents;
	size_t n_ents;
	if (sysroot_list_dir(&ctx->root, ctx->arena, "/usr/local", &ents, &n_ents, 4096) == 0)
		for (size_t i = 0; i < n_ents; i++)
			if (strncmp(ents[i].name, "cuda", 4) == 0)
				*ARENA_PUSH(ctx->arena, roots, n_roots, cap_roots) = path_join(ctx->arena, "/usr/local",
											       ents[i].name);
	/* one directory once, whatever link reaches it (/usr/local/cuda -> cuda-12.4) */
	const char **real = arena_calloc(ctx->arena, n_roots * 3 + 1, sizeof *real);
	for (size_t t = 0; t < n_roots * 3; t++) {
		const char *dir = path_join(ctx->arena, roots[t / 3], subs[t % 3]);
		if (!sysroot_exists(&ctx->root, path_join(ctx->arena, dir, "libcuda.so.1")))
			continue;
		struct sysroot_resolved r;
		const char *rp = sysroot_resolve(&ctx->root, ctx->arena, dir, &r) == 0 && r.path ? r.path : dir;
		bool dup = false;
		for (size_t i = 0; i < inv->driver.n_compat_dirs; i++)
			dup |= strcmp(inv->driver.compat_dirs[i], dir) == 0 || strcmp(real[i], rp) == 0;
		if (!dup) {
			real[inv->driver.n_compat_dirs] = rp;
			*ARENA_PUSH(ctx->arena, inv->driver.compat_dirs, inv->driver.n_compat_dirs, cap) = dir;
		}
	}
}

/* The fabric manager and the NVSwitch driver's traces (formats: the nvidia-fabricmanager packages
 * install /usr/bin/nv-fabricmanager and nvidia-fabricmanager.service; `systemctl enable` links the
 * unit into multi-user.target.wants). */
static void read_fabric(struct cudx_ctx *ctx, struct inventory *inv)
{
	struct driver_info *d = &inv->driver;
	static const char *const daemons[] = { "/usr/bin/nv-fabricmanager", "/usr/sbin/nv-fabricmanager" };
	/* nvidia.ko creates /proc/driver/nvidia-nvswitch/devices whether or not there is a switch:
	 * only an entry in it (one per NVSwitch) or a switch's own device node shows one */
	struct sysroot_dirent *ents;
	size_t n = 0;
	if (sysroot_exists(&ctx->root, "/dev/nvidia-nvswitch0"))
		d->nvswitch = "/dev/nvidia-nvswitch0";
	else if (sysroot_list_dir(&ctx->root, ctx->arena, "/proc/driver/nvidia-nvswitch/devices", &ents, &n, 1) == 0 &&
		 n)
		d->nvswitch = arena_printf(ctx->arena, "/proc/driver/nvidia-nvswitch/devices/%s", ents[0].name);
	for (size_t i = 0; i < sizeof daemons / sizeof daemons[0] && !d->fabricmanager; i++)
		if (sysroot_exists(&ctx->root, daemons[i]))
			d->fabricmanager = daemons[i];
	d->fabricmanager_enabled = sysroot_exists(
		&ctx->root, "/etc/systemd/system/multi-user.target.wants/nvidia-fabricmanager.service");
}

/* The driver branch a module package names: "nvidia-dkms-535-open", "linux-modules-nvidia-570-...",
 * "nvidia-580xx-dkms", else its version ("580.82.09-1"); 0 when neither does. */
static int package_branch(const char *name, const char *version)
{
	/* the first dash-separated word that starts with a branch number */
	for (const char *p = strchr(name, '-'); p; p = strchr(p + 1, '-'))
		if (isdigit((unsigned char)p[1]) && atoi(p + 1) >= 100)
			return atoi(p + 1);
	/* a prebuilt module's version is the kernel's (linux-modules-*), not the driver's */
	return version && strncmp(name, "linux-modules-", 14) != 0 && atoi(version) >= 100 ? atoi(version) : 0;
}

/* One installed package that provides the module. Packages of both flavours (an old one left
 * installed, two kernels' prebuilt modules): which one loads is not known, so none is kept. */
static void add_module_package(struct cudx_ctx *ctx, struct inventory *inv, const struct kb_module_package *k,
			       const char *name, const char *version, const char *from)
{
	struct driver_info *d = &inv->driver;
	if (d->module_package && strcmp(d->module_package_flavour, k->flavour) != 0) {
		inventory_note(ctx, inv, from,
			       "packages of both kernel-module flavours are installed (%s: %s, %s: %s): which one "
			       "loads is not known",
			       d->module_package, d->module_package_flavour, name, k->flavour);
		d->module_package = NULL;
		d->module_package_flavour = NULL;
		d->module_package_conflict = true;
		return;
	}
	if (d->module_package || d->module_package_conflict)
		return;
	d->module_package = arena_strdup(ctx->arena, name);
	d->module_package_version = version;
	d->module_package_flavour = k->flavour;
	d->module_package_from = from;
	d->module_package_branch = package_branch(name, version);
}

/* Ubuntu's prebuilt modules are one package per kernel (linux-modules-nvidia-570-open-6.8.0-45-generic):
 * only the running kernel's counts, where that kernel is known */
static bool other_kernels(const char *name, const char *kernel)
{
	size_t n = strlen(name), k = kernel ? strlen(kernel) : 0;
	if (!kernel || strncmp(name, "linux-modules-nvidia-", 21) != 0)
		return false;
	return n <= k || strcmp(name + n - k, kernel) != 0 || name[n - k - 1] != '-';
}

/* Arch: /var/lib/pacman/local/NAME-VERSION-REL, one directory per installed package */
static bool read_pacman_module(struct cudx_ctx *ctx, struct inventory *inv)
{
	static const char dir[] = "/var/lib/pacman/local";
	struct sysroot_dirent *ents;
	size_t n;
	if (sysroot_list_dir(&ctx->root, ctx->arena, dir, &ents, &n, 20000) != 0)
		return false;
	for (size_t i = 0; i < n; i++) {
		const char *e = ents[i].name;
		const char *rel = strrchr(e, '-');
		const char *ver = rel && rel > e ? rel - 1 : NULL;
		while (ver && ver > e && *ver != '-')
			ver--;
		if (!ver || ver == e || ver == rel)
			continue;
		char name[128];
		size_t len = (size_t)(ver - e);
		if (len >= sizeof name)
			continue;
		memcpy(name, e, len);
		name[len] = '\0';
		const struct kb_module_package *k = kb_module_package("pacman", name);
		if (k)
			add_module_package(ctx, inv, k, name, arena_strdup(ctx->arena, ver + 1), dir);
	}
	return inv->driver.module_package || inv->driver.module_package_conflict;
}

/* The running kernel's release: the system's (uname), else a tree's /proc/sys/kernel/osrelease, else
 * the third word of its /proc/version ("Linux version 4.4.0-17763-Microsoft (...)"); NULL when none. */
static const char *running_kernel(struct cudx_ctx *ctx, const struct inventory *inv)
{
	if (inv->system.kernel)
		return inv->system.kernel;
	size_t kl;
	char *k = sysroot_read_text(&ctx->root, ctx->arena, "/proc/sys/kernel/osrelease", 256, &kl, NULL);
	while (k && kl && (k[kl - 1] == '\n' || k[kl - 1] == '\r' || k[kl - 1] == ' '))
		k[--kl] = '\0';
	if (k && kl)
		return k;
	char *v = sysroot_read_text(&ctx->root, ctx->arena, "/proc/version", 4096, &kl, NULL);
	if (!v || strncmp(v, "Linux version ", 14) != 0)
		return NULL;
	const char *r = v + 14;
	size_t n = strcspn(r, " \t\r\n");
	return n ? arena_strndup(ctx->arena, r, n) : NULL;
}

/* WSL 1 runs Linux programs on the Windows kernel, which gives them no GPU: its kernel release ends
 * in "-Microsoft" (4.4.0-17763-Microsoft), where WSL 2's own Linux kernel says
 * "-microsoft-standard-WSL2" (lower case: the case tells the two apart). */
static bool wsl1_kernel(const char *release)
{
	static const char tail[] = "-Microsoft";
	size_t n = release ? strlen(release) : 0;
	return n > sizeof tail - 1 && strcmp(release + n - (sizeof tail - 1), tail) == 0;
}

/* WSL 2 runs Microsoft's own Linux kernel, whose release says so ("5.15.90.1-microsoft-standard-WSL2",
 * "4.19.104-microsoft-standard"): WSL 2 even where /usr/lib/wsl/lib and /dev/dxg are missing (a
 * Windows driver without WSL support, a tree that copied neither). */
static bool wsl2_kernel(const char *release)
{
	return release && strstr(release, "-microsoft-standard");
}

/* Debian, Ubuntu: the installed packages of /var/lib/dpkg/status; kernel: the running kernel's
 * release (Ubuntu's per-kernel module packages count only for it), or NULL */
static void read_dpkg_module(struct cudx_ctx *ctx, struct inventory *inv, const char *kernel)
{
	static const char path[] = "/var/lib/dpkg/status";
	size_t len;
	int err;
	char *text = sysroot_read_text(&ctx->root, ctx->arena, path, 64u << 20, &len, &err);
	if (!text) {
		if (err != ENOENT && err != ENOTDIR)
			inventory_note(ctx, inv, path, "cannot read: %s", strerror(err));
		return;
	}
	struct span t = span_make(text, len);
	size_t pos = 0;
	struct dpkg_package p;
	while (dpkg_next(t, &pos, &p)) {
		char name[128];
		if (!p.installed || !p.name.n || p.name.n >= sizeof name)
			continue;
		memcpy(name, p.name.p, p.name.n);
		name[p.name.n] = '\0';
		const struct kb_module_package *k = kb_module_package("dpkg", name);
		if (!k || other_kernels(name, kernel))
			continue;
		const char *version = p.version.n ? arena_strndup(ctx->arena, (const char *)p.version.p, p.version.n)
						  : NULL;
		add_module_package(ctx, inv, k, name, version, path);
	}
}
/* The Kubernetes node driver (data/node_drivers.tsv) whose root holds a libcuda.so.1, or NULL. */
static const struct kb_node_driver *node_driver(struct cudx_ctx *ctx)
{
	static const char *const libdirs[] = { "lib64", "usr/lib64", "usr/lib/x86_64-linux-gnu",
					       "usr/lib/aarch64-linux-gnu" };
	const struct kb_node_driver *nd;
	for (size_t r = 0, n = kb_node_drivers(&nd); r < n; r++)
		for (size_t k = 0; k < sizeof libdirs / sizeof libdirs[0]; k++) {
			const char *dir = path_join(ctx->arena, nd[r].root, libdirs[k]);
			if (sysroot_exists(&ctx->root, path_join(ctx->arena, dir, "libcuda.so.1")))
				return &nd[r];
		}
	return NULL;
}

const char *driver_max_cuda(const struct driver_info *d, enum target_os os)
{
	if (!d->effective_version)
		return NULL;
	if (!driver_on_desktop_scale(d))
		return d->l4t ? d->l4t->cuda : NULL; /* Thor: its L4T release's, unknown in a container */
	return kb_driver_max_cuda(d->effective_version, os);
}

void collect_driver(struct cudx_ctx *ctx, struct inventory *inv)
{
	struct driver_info *d = &inv->driver;
	if (ctx->os != OS_LINUX) {
		d->simulated = ctx->opt->driver;
		d->effective_version = ctx->opt->driver;
		if (d->effective_version) /* Windows: what --driver says the driver supports */
			d->max_cuda = kb_driver_max_cuda(d->effective_version, ctx->os);
		return;
	}
	read_proc_version(ctx, inv);
	read_sys_module(ctx, inv);
	read_uvm(ctx, inv);
	read_nodes(ctx, inv);
	pick_userspace(ctx, inv);
	/* no module loaded: Thor's reading rests on the release file; a desktop-numbered libcuda
	 * ("575.57.08") says the driver installed is a desktop one */
	if (d->l4t_openrm && !d->kernel_version && !d->module_version && desktop_version(d->libcuda_version))
		d->l4t_openrm = false;
	find_compat_dirs(ctx, inv);
	read_fabric(ctx, inv);
	const char *release = running_kernel(ctx, inv);
	/* no module loaded: which flavour its package would load */
	if (!d->kernel_version && !d->module_version && !read_pacman_module(ctx, inv))
		read_dpkg_module(ctx, inv, release);
	if (sysroot_is_dir(&ctx->root, "/usr/lib/wsl/lib"))
		d->wsl = true;
	if (wsl1_kernel(release)) {
		d->wsl = d->wsl1 = true;
		d->wsl1_release = release;
	} else if (wsl2_kernel(release) && !inv->system.container)
		d->wsl = true; /* not a container on WSL 2 (Docker Desktop): its GPU comes only with --gpus */
	if (!d->libcuda_path)
		d->operator_driver = node_driver(ctx);
	d->simulated = ctx->opt->driver;
	if (d->simulated)
		d->effective_version = d->simulated;
	else if (d->libcuda_version && !d->libcuda_is_stub)
		d->effective_version = d->libcuda_version;
	else if (d->kernel_version)
		d->effective_version = d->kernel_version;
	else if (d->module_version)
		d->effective_version = d->module_version;
	if (d->effective_version)
		d->max_cuda = driver_max_cuda(d, ctx->os);
	else if (d->tegra && d->l4t && !inv->system.container)
		d->max_cuda = d->l4t->cuda; /* a container's nv_tegra_release is the image's, not the host's */
}
