/* The values ld.so has compiled in or takes from the kernel, worked out for a root: the default
 * directories and $LIB (multiarch on Debian/Ubuntu, lib64 on Fedora/RHEL), $PLATFORM and the
 * supported glibc-hwcaps levels (from this CPU, only when the root's machine is this machine's),
 * and the ld.so.cache. formats.md §2.2, §2.3. */
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/auxv.h>

#include "loader/loader_internal.h"

/* Per machine: the multiarch triple (Debian's library directories) and glibc's program
 * interpreter (the PT_INTERP every program of that machine carries; glibc's sysdeps/ *\/ldconfig.h
 * and shlib-versions). */
static const struct {
	uint16_t machine;
	int elf_class;
	const char *triple;
	const char *interp;
} triples[] = {
	{ ELF_EM_X86_64, 64, "x86_64-linux-gnu", "/lib64/ld-linux-x86-64.so.2" },
	{ ELF_EM_AARCH64, 64, "aarch64-linux-gnu", "/lib/ld-linux-aarch64.so.1" },
	{ ELF_EM_386, 32, "i386-linux-gnu", "/lib/ld-linux.so.2" },
	{ ELF_EM_PPC64, 64, "powerpc64le-linux-gnu", "/lib64/ld64.so.2" },
	{ ELF_EM_S390, 64, "s390x-linux-gnu", "/lib/ld64.so.1" },
	{ ELF_EM_ARM, 32, "arm-linux-gnueabihf", "/lib/ld-linux-armhf.so.3" },
	{ ELF_EM_RISCV, 64, "riscv64-linux-gnu", "/lib/ld-linux-riscv64-lp64d.so.1" },
	{ ELF_EM_X86_64, 32, "x86_64-linux-gnux32", "/libx32/ld-linux-x32.so.2" },
};

/* The libraries of the base system every dynamically linked program stands on: glibc's own
 * (shlib-versions of glibc 2.3x; the interpreter's name is matched separately) and GCC's runtime
 * libraries, which every image that has a C library ships with it. Only used to tell "this tree
 * has no C library at all" from one missing library. */
static const char *const base_sonames[] = {
	"libc.so.6",       "libm.so.6",        "libmvec.so.1",   "libdl.so.2",
	"libpthread.so.0", "librt.so.1",       "libutil.so.1",   "libresolv.so.2",
	"libanl.so.1",     "libnsl.so.1",      "libBrokenLocale.so.1", "libthread_db.so.1",
	"libc_malloc_debug.so.0", "libcrypt.so.1", "libgcc_s.so.1", "libstdc++.so.6",
};

const char *loader_default_interp(int elf_class, uint16_t machine)
{
	for (size_t i = 0; i < sizeof triples / sizeof triples[0]; i++)
		if (triples[i].machine == machine && triples[i].elf_class == elf_class)
			return triples[i].interp;
	return NULL;
}

bool loader_is_base_lib(const char *name)
{
	for (size_t i = 0; i < sizeof base_sonames / sizeof base_sonames[0]; i++)
		if (strcmp(name, base_sonames[i]) == 0)
			return true;
	if (strncmp(name, "libnss_", 7) == 0 && strstr(name, ".so.2"))
		return true;
	for (size_t i = 0; i < sizeof triples / sizeof triples[0]; i++)
		if (strcmp(name, path_basename(triples[i].interp)) == 0)
			return true;
	return false;
}

static const char *triple_of(int elf_class, uint16_t machine)
{
	for (size_t i = 0; i < sizeof triples / sizeof triples[0]; i++)
		if (triples[i].machine == machine && triples[i].elf_class == elf_class)
			return triples[i].triple;
	return NULL;
}

static bool host_is(int elf_class, uint16_t machine)
{
#if defined(__x86_64__)
	return elf_class == 64 && machine == ELF_EM_X86_64;
#elif defined(__aarch64__)
	return elf_class == 64 && machine == ELF_EM_AARCH64;
#else
	(void)elf_class, (void)machine;
	return false;
#endif
}

/* The class and machine of the root's programs (its /bin/sh), for a bare name with no requester. */
static void root_machine(struct loader *L)
{
	static const char *const probes[] = { "/bin/sh", "/usr/bin/env", "/bin/ls" };
	for (size_t i = 0; i < sizeof probes / sizeof probes[0]; i++) {
		struct mapped_file m;
		if (sysroot_map(L->cfg.root, probes[i], &m) != 0)
			continue;
		int cls;
		uint16_t mach;
		bool ok = elf_ident(m.data, &cls, &mach);
		sysroot_unmap(&m);
		if (ok) {
			L->elf_class = cls;
			L->machine = mach;
			return;
		}
	}
#if defined(__x86_64__)
	L->elf_class = 64, L->machine = ELF_EM_X86_64;
#elif defined(__aarch64__)
	L->elf_class = 64, L->machine = ELF_EM_AARCH64;
#else
	L->elf_class = 64, L->machine = ELF_EM_X86_64;
#endif
}

#if defined(__x86_64__)
/* glibc's x86-64 ISA levels (sysdeps/x86/get-isa-level.h), from the CPU cudx runs on. */
static int x86_isa_level(void)
{
	__builtin_cpu_init();
	bool v2 = __builtin_cpu_supports("popcnt") && __builtin_cpu_supports("sse3") &&
		  __builtin_cpu_supports("sse4.1") && __builtin_cpu_supports("sse4.2") &&
		  __builtin_cpu_supports("ssse3");
	bool v3 = v2 && __builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi") &&
		  __builtin_cpu_supports("bmi2") && __builtin_cpu_supports("fma") &&
		  __builtin_cpu_supports("avx");
	bool v4 = v3 && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
		  __builtin_cpu_supports("avx512cd") && __builtin_cpu_supports("avx512dq") &&
		  __builtin_cpu_supports("avx512vl");
	return v4 ? 4 : v3 ? 3 : v2 ? 2 : 1;
}
#endif

static void parse_cache(struct loader *L)
{
	struct loader_config *c = &L->cfg;
	struct mapped_file mf;
	int e = sysroot_map(c->root, c->cache_path, &mf);
	if (e != 0) {
		L->cache_problem = arena_printf(L->a, "%s: %s", c->cache_path, strerror(e));
		return;
	}
	const char *err = NULL;
	/* a mapping the sysroot keeps for the run can be pointed into instead of copied */
	L->have_cache = mf.shared ? ldcache_parse_borrowed(mf.data, L->a, &L->cache, &err)
				  : ldcache_parse(mf.data, L->a, &L->cache, &err);
	if (!L->have_cache)
		L->cache_problem = arena_printf(L->a, "%s: %s", c->cache_path, err);
	else if (L->cache.problem)
		L->cache_problem = arena_printf(L->a, "%s: %s", c->cache_path, L->cache.problem);
	sysroot_unmap(&mf);
}

/* Rules build a loader for every library they check: with cfg->memo the cache file is parsed
 * once per run and shared (the memo lives in the run's arena, like the cache it holds). */
static void load_cache(struct loader *L)
{
	struct loader_config *c = &L->cfg;
	struct loader_cache_memo *m = c->memo ? *c->memo : NULL;
	if (m && strcmp(m->path, c->cache_path) == 0) {
		L->have_cache = m->ok;
		L->cache = m->cache;
		L->cache_problem = m->problem;
		return;
	}
	parse_cache(L);
	if (!c->memo)
		return;
	m = arena_alloc(L->a, sizeof *m);
	m->path = arena_strdup(L->a, c->cache_path);
	m->cache = L->cache;
	m->ok = L->have_cache;
	m->problem = L->cache_problem;
	*c->memo = m;
}

/* Whether a file name is musl's interpreter's, ld-musl-ARCH.so.1 (ARCH at least one character). */
static bool musl_interp_name(const char *name)
{
	size_t len = strlen(name);
	return len > 13 && strncmp(name, "ld-musl-", 8) == 0 && strcmp(name + len - 5, ".so.1") == 0;
}

/* musl's interpreter in the tree: /lib/ld-musl-ARCH.so.1, ARCH musl's name for the machine (x86_64,
 * aarch64, i386, armhf ...); NULL when there is none. */
static const char *musl_interp(struct loader *L)
{
	struct sysroot_dirent *ents;
	size_t n;
	if (sysroot_list_dir(L->cfg.root, L->a, "/lib", &ents, &n, 20000) != 0)
		return NULL;
	for (size_t i = 0; i < n; i++)
		if (musl_interp_name(ents[i].name))
			return path_join(L->a, "/lib", ents[i].name);
	return NULL;
}

/* Set L to musl's search (ldso/dynlink.c): no ld.so.cache; the system path is the directories of
 * /etc/ld-musl-ARCH.path (separated by ':' or new lines) when that file exists, even when it names
 * none, else /lib:/usr/local/lib:/usr/lib. interp: musl's /lib/ld-musl-ARCH.so.1. */
static void use_musl(struct loader *L, const char *interp)
{
	struct loader_config *c = &L->cfg;
	const char *base = strrchr(interp, '/') + 1;          /* ld-musl-ARCH.so.1 */
	size_t arch_len = strlen(base) - strlen("ld-musl-") - strlen(".so.1");
	L->musl_path_file = arena_printf(L->a, "/etc/ld-musl-%.*s.path", (int)arch_len, base + 8);
	size_t len;
	int err = 0;
	char *text = sysroot_read_text(c->root, L->a, L->musl_path_file, 1u << 20, &len, &err);
	size_t cap = 4, n = 0;
	const char **d = arena_calloc(L->a, cap, sizeof *d);
	if (!text && err == ENOENT) {
		static const char *const fallback[] = { "/lib", "/usr/local/lib", "/usr/lib" };
		for (size_t i = 0; i < sizeof fallback / sizeof fallback[0]; i++)
			d[n++] = fallback[i];
	}
	for (char *save = NULL, *t = text ? strtok_r(text, ":\n", &save) : NULL; t; t = strtok_r(NULL, ":\n", &save)) {
		if (*t != '/') /* relative to the working directory in musl: not a system directory */
			continue;
		if (n == cap) {
			const char **g = arena_calloc(L->a, cap * 2, sizeof *g);
			memcpy(g, d, n * sizeof *d);
			d = g, cap *= 2;
		}
		d[n++] = t;
	}
	c->default_dirs = d;
	c->n_default_dirs = n;
	c->n_hwcaps = 0;
	c->hwcaps_set = true;
	L->musl = true;
	L->have_cache = false;
	memset(&L->cache, 0, sizeof L->cache);
	/* where glibc's rules would look and musl's do not: copies there are reported as off the path */
	const char *triple = triple_of(L->elf_class, L->machine);
	const char **g = arena_calloc(L->a, 4, sizeof *g);
	size_t ng = 0;
	g[ng++] = "/lib64";
	g[ng++] = "/usr/lib64";
	if (triple) {
		g[ng++] = arena_printf(L->a, "/lib/%s", triple);
		g[ng++] = arena_printf(L->a, "/usr/lib/%s", triple);
	}
	L->system_dirs = g;
	L->n_system_dirs = ng;
}

/* A program whose PT_INTERP is not the system's (/lib64/ld-linux-x86-64.so.2, /lib/<triple>/...)
 * runs under another glibc: Nix's and Guix's store, a glibc built into /opt. That ld.so reads the
 * cache and searches the default directories of its own prefix (${prefix}/etc/ld.so.cache,
 * ${prefix}/lib), never /etc/ld.so.cache or /usr/lib: a host driver in /usr/lib64/nvidia is out
 * of its reach (formats.md 2.6; Nix's "Can't open cache file /nix/store/...-glibc-2.33/etc/
 * ld.so.cache"). Returns the prefix, or NULL for a system interpreter. */
static const char *interp_prefix(struct arena *a, const char *interp)
{
	static const char *const system_dirs[] = { "/lib", "/lib64", "/lib32", "/libx32", "/usr/lib", "/usr/lib64" };
	const char *slash = strrchr(interp, '/');
	if (!slash || slash == interp)
		return NULL;
	size_t dir_len = (size_t)(slash - interp);
	for (size_t i = 0; i < sizeof system_dirs / sizeof system_dirs[0]; i++) {
		size_t n = strlen(system_dirs[i]);
		if (strncmp(interp, system_dirs[i], n) != 0)
			continue;
		/* the directory itself, or one multiarch directory below it (/lib/x86_64-linux-gnu) */
		if (dir_len == n || (interp[n] == '/' && !memchr(interp + n + 1, '/', dir_len - n - 1)))
			return NULL;
	}
	/* ${prefix}/lib/ld-linux-x86-64.so.2 (or lib64, lib/<triple>): the last "/lib" of the path */
	const char *lib = NULL;
	for (const char *p = interp; (p = strstr(p, "/lib")) && p < slash; p++)
		lib = p;
	if (!lib || lib == interp)
		return NULL;
	return arena_strndup(a, interp, (size_t)(lib - interp));
}

void loader_use_interp(struct loader *L, const char *interp)
{
	struct loader_config *c = &L->cfg;
	const char *base = interp ? strrchr(interp, '/') : NULL;
	if (base && musl_interp_name(base + 1) && !L->musl) {
		use_musl(L, interp); /* a musl program on a glibc system runs under musl's rules */
		return;
	}
	const char *prefix = interp ? interp_prefix(L->a, interp) : NULL;
	if (!prefix)
		return;
	L->musl = false; /* a program with its own glibc on a musl system: that glibc's rules */
	L->system_dirs = c->default_dirs;
	L->n_system_dirs = c->n_default_dirs;
	const char **d = arena_calloc(L->a, 2, sizeof *d);
	d[0] = arena_printf(L->a, "%s/lib", prefix);
	c->default_dirs = d;
	c->n_default_dirs = 1;
	c->cache_path = arena_printf(L->a, "%s/etc/ld.so.cache", prefix);
	L->have_cache = false;
	L->cache_problem = NULL;
	memset(&L->cache, 0, sizeof L->cache);
	L->own_glibc = prefix;
	if (!c->inhibit_cache)
		load_cache(L);
}

void loader_defaults(struct loader *L)
{
	struct loader_config *c = &L->cfg;
	if (!L->elf_class)
		root_machine(L);
	const char *triple = triple_of(L->elf_class, L->machine);
	bool multiarch = triple && sysroot_is_dir(c->root, arena_printf(L->a, "/usr/lib/%s", triple));
	bool lib64 = !multiarch && L->elf_class == 64 && sysroot_is_dir(c->root, "/usr/lib64");
	if (!c->lib)
		c->lib = multiarch ? arena_printf(L->a, "lib/%s", triple) : lib64 ? "lib64" : "lib";
	/* a musl system (Alpine): musl's interpreter and not glibc's (an image with a glibc
	 * compatibility layer keeps glibc's rules) */
	const char *glibc = loader_default_interp(L->elf_class, L->machine);
	const char *musl = c->default_dirs || (glibc && sysroot_exists(c->root, glibc)) ? NULL : musl_interp(L);
	if (musl) {
		use_musl(L, musl);
		L->musl_system = musl;
	}
	if (!c->default_dirs) {
		const char **d = arena_calloc(L->a, 4, sizeof *d);
		size_t n = 0;
		if (multiarch) {
			d[n++] = arena_printf(L->a, "/lib/%s", triple);
			d[n++] = arena_printf(L->a, "/usr/lib/%s", triple);
			d[n++] = "/lib";
			d[n++] = "/usr/lib";
		} else if (lib64) {
			d[n++] = "/lib64";
			d[n++] = "/usr/lib64";
		} else {
			d[n++] = "/lib";
			d[n++] = "/usr/lib";
		}
		c->default_dirs = d;
		c->n_default_dirs = n;
	}
	bool host = c->root->live && host_is(L->elf_class, L->machine);
	if (!c->platform) {
		const char *p = NULL;
#if defined(__x86_64__)
		/* glibc overrides the kernel's AT_PLATFORM with "haswell" on CPUs with the Haswell
		 * feature set (sysdeps/x86/cpu-features.c); formats.md §2.3 saw "haswell" here */
		if (host && x86_isa_level() >= 3)
			p = "haswell";
#endif
		if (!p && host)
			p = (const char *)getauxval(AT_PLATFORM);
		if (!p)
			p = L->machine == ELF_EM_X86_64 ? "x86_64" : L->machine == ELF_EM_AARCH64 ? "aarch64" : "";
		c->platform = arena_strdup(L->a, p);
	}
	if (!c->hwcaps_set) {
		c->n_hwcaps = 0;
#if defined(__x86_64__)
		if (host) {
			static const char *const lv[] = { "x86-64-v4", "x86-64-v3", "x86-64-v2" };
			int level = x86_isa_level();
			for (int k = 4; k >= 2; k--)
				if (level >= k)
					c->hwcaps[c->n_hwcaps++] = lv[4 - k];
		}
#endif
		c->hwcaps_set = true;
	}
	if (!c->cwd)
		c->cwd = "/";
	if (!c->cache_path)
		c->cache_path = "/etc/ld.so.cache";
	if (!c->inhibit_cache && !L->musl)
		load_cache(L);
}
