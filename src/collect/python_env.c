/* Finding Python environments from files only, through the sysroot and the env snapshot. Bounded:
 * only the places Python itself would use (the interpreters on PATH, VIRTUAL_ENV, CONDA_PREFIX,
 * conda's environment list and envs/ dirs, the user site, the distribution's dist-packages) and
 * --python PREFIX; never a walk of the disk. */
#include <errno.h>
#include <string.h>
#include <strings.h>

#include "collect/python.h"
#include "fmt/pymeta.h"
#include "fmt/version.h"

#define PY_MAX_TEXT (1u << 20) /* pyvenv.cfg, environments.txt: far smaller in practice */

static void py_note(struct cudx_ctx *ctx, struct python_inventory *py, const char *fmt, const char *arg)
{
	*ARENA_PUSH(ctx->arena, py->notes, py->n_notes, py->cap_notes) = arena_printf(ctx->arena, fmt, arg);
}

/* The canonical path inside the root (links followed), or the normalised path when it does not
 * resolve: environments are told apart by where they really are. */
static const char *canon(struct cudx_ctx *ctx, const char *path)
{
	struct sysroot_resolved r;
	if (sysroot_resolve(&ctx->root, ctx->arena, path, &r) == 0 && r.path)
		return r.path;
	return path_normalize(ctx->arena, path);
}

/* A Windows path from the environment ("C:\\Users\\u\\venv") as a path inside a root that is a
 * copied C: drive ("/Users/u/venv"); other paths unchanged. */
/* A Windows path in the tree (the root is the C: drive, docs/windows.md); NULL for another drive,
 * which the tree does not hold. */
static const char *root_path(struct cudx_ctx *ctx, const char *p)
{
	if (ctx->os != OS_WINDOWS || !p || !p[0] || p[1] != ':')
		return p;
	if (p[0] != 'C' && p[0] != 'c')
		return NULL;
	char *q = arena_strdup(ctx->arena, p + 2);
	for (char *c = q; *c; c++)
		if (*c == '\\')
			*c = '/';
	return *q ? q : "/";
}

static struct py_env *find_env(struct python_inventory *py, const char *prefix)
{
	for (size_t i = 0; i < py->n_envs; i++)
		if (strcmp(py->envs[i].prefix, prefix) == 0)
			return &py->envs[i];
	return NULL;
}

static void add_site(struct cudx_ctx *ctx, struct py_env *env, const char *dir)
{
	if (!sysroot_is_dir(&ctx->root, dir))
		return;
	const char *c = canon(ctx, dir);
	for (size_t i = 0; i < env->n_site_dirs; i++)
		if (strcmp(env->site_dirs[i], c) == 0)
			return;
	*ARENA_PUSH(ctx->arena, env->site_dirs, env->n_site_dirs, env->cap_site) = c;
}

/* lib/pythonX.Y/{site,dist}-packages and lib/python3/dist-packages (Debian) under a prefix. */
/* The site directories under prefix's lib/pythonX.Y: site-packages, and dist-packages, which only
 * Debian's patched system python3 reads (its own under /usr, pip's under /usr/local). */
static void add_prefix_sites(struct cudx_ctx *ctx, struct py_env *env, const char *prefix, bool site, bool dist)
{
	if (ctx->os == OS_WINDOWS) {
		add_site(ctx, env, path_join(ctx->arena, prefix, "Lib/site-packages"));
		return;
	}
	static const char *const libdirs[] = { "lib", "lib64" };
	for (size_t l = 0; l < sizeof libdirs / sizeof libdirs[0]; l++) {
		const char *lib = path_join(ctx->arena, prefix, libdirs[l]);
		struct sysroot_dirent *ents;
		size_t n;
		if (sysroot_list_dir(&ctx->root, ctx->arena, lib, &ents, &n, 4096) != 0)
			continue;
		for (size_t i = 0; i < n; i++) {
			if (strncmp(ents[i].name, "python", 6) != 0)
				continue;
			const char *pydir = path_join(ctx->arena, lib, ents[i].name);
			size_t before = env->n_site_dirs;
			if (site)
				add_site(ctx, env, path_join(ctx->arena, pydir, "site-packages"));
			if (dist)
				add_site(ctx, env, path_join(ctx->arena, pydir, "dist-packages"));
			/* "python3.11" names the version; "python3" (Debian's shared dir) does not */
			if (env->n_site_dirs > before && !env->python && strchr(ents[i].name, '.'))
				env->python = arena_strdup(ctx->arena, ents[i].name + 6);
		}
	}
}

static struct py_env *add_env(struct cudx_ctx *ctx, struct python_inventory *py, const char *prefix,
			      const char *kind, const char *origin, bool active)
{
	const char *in_root = root_path(ctx, prefix);
	const char *c = in_root ? canon(ctx, in_root) : prefix;
	struct py_env *env = find_env(py, c);
	if (env) {
		env->active |= active;
		return env;
	}
	if (py->n_envs >= PY_MAX_ENVS) {
		py_note(ctx, py, "more than %s Python environments: the rest were not read", "64");
		return NULL;
	}
	env = ARENA_PUSH(ctx->arena, py->envs, py->n_envs, py->cap_envs);
	env->prefix = c;
	env->kind = kind;
	env->origin = origin;
	env->active = active;
	if (!in_root) {
		env->problem = arena_printf(ctx->arena, "%s is on drive %c:, which the analysed tree (the C: drive) does not hold",
					    prefix, prefix[0]);
		return env;
	}
	struct stat st;
	int err = sysroot_stat(&ctx->root, c, &st);
	if (err) {
		env->problem = arena_printf(ctx->arena, "cannot read %s: %s", c, strerror(err));
		return env;
	}
	if (!S_ISDIR(st.st_mode)) {
		env->problem = arena_printf(ctx->arena, "%s is not a directory", c);
		return env;
	}
	const char *cfg_path = path_join(ctx->arena, c, "pyvenv.cfg");
	size_t len;
	int rerr;
	char *cfg = sysroot_read_text(&ctx->root, ctx->arena, cfg_path, PY_MAX_TEXT, &len, &rerr);
	if (cfg) {
		struct span s = span_make(cfg, len);
		env->kind = strcmp(kind, "conda") == 0 ? kind : "venv";
		env->base = pymeta_cfg_value(s, ctx->arena, "home");
		const char *v = pymeta_cfg_value(s, ctx->arena, "version_info");
		if (!v)
			v = pymeta_cfg_value(s, ctx->arena, "version");
		if (v) {
			struct version pv;
			char buf[32];
			if (version_parse(v, &pv) && pv.n >= 2) {
				pv.n = 2;
				env->python = arena_strdup(ctx->arena, version_format(&pv, buf, sizeof buf));
			}
		}
		const char *inc = pymeta_cfg_value(s, ctx->arena, "include-system-site-packages");
		if (inc && strcasecmp(inc, "true") == 0 && env->base) {
			/* the base interpreter's site dirs are visible too: home = <base prefix>/bin */
			const char *base_prefix = path_dirname(ctx->arena, env->base);
			add_prefix_sites(ctx, env, base_prefix, true, strcmp(base_prefix, "/usr") == 0);
		}
	} else if (sysroot_is_dir(&ctx->root, path_join(ctx->arena, c, "conda-meta"))) {
		env->kind = "conda";
	}
	if (strcmp(c, "/usr") == 0) {
		/* Debian's python3 also reads /usr/local/lib/python3.X/dist-packages (pip installs),
		 * Fedora's /usr/local/lib/python3.X/site-packages; where /usr/local has an interpreter of
		 * its own (the python:3.X images), that site-packages is its environment, not this one */
		bool own = sysroot_exists(&ctx->root, "/usr/local/bin/python3");
		add_prefix_sites(ctx, env, "/usr/local", !own, true);
	}
	add_prefix_sites(ctx, env, c, true, strcmp(c, "/usr") == 0);
	return env;
}

static void from_conda_base(struct cudx_ctx *ctx, struct python_inventory *py, const char *base,
			    const char *origin);

/* PATH: an interpreter in DIR means the prefix DIR/.. (DIR itself on Windows). */
static void from_path(struct cudx_ctx *ctx, struct python_inventory *py)
{
	bool win = ctx->os == OS_WINDOWS;
	const char *path = envsnap_get(&ctx->env, win ? "Path" : "PATH");
	if (!path && win)
		path = envsnap_get(&ctx->env, "PATH");
	if (!path)
		return;
	const char **dirs;
	size_t n = env_split_path(ctx->arena, path, win ? ';' : ':', &dirs);
	static const char *const names[] = { "python3", "python", "python.exe" };
	bool first = true;
	for (size_t i = 0; i < n && i < 256; i++) {
		dirs[i] = root_path(ctx, dirs[i]);
		if (!dirs[i] || !dirs[i][0] || dirs[i][0] != '/')
			continue; /* another drive; "" and relative entries depend on the cwd of the process */
		for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
			const char *exe = path_join(ctx->arena, dirs[i], names[k]);
			if (!sysroot_exists(&ctx->root, exe))
				continue;
			/* /bin -> /usr/bin on merged-/usr systems: the prefix is that of the real dir */
			const char *bindir = canon(ctx, dirs[i]);
			const char *base = path_basename(bindir);
			const char *prefix = win && strcasecmp(base, "Scripts") != 0
						     ? bindir
						     : path_dirname(ctx->arena, bindir);
			/* pyenv's shims are scripts: the environments are its versions/ */
			if (strcmp(base, "shims") == 0) {
				from_conda_base(ctx, py, path_join(ctx->arena, prefix, "versions"),
						arena_printf(ctx->arena, "PATH (%s)", exe));
				break;
			}
			add_env(ctx, py, prefix, strcmp(prefix, "/usr") == 0 ? "system" : "interpreter",
				arena_printf(ctx->arena, "PATH (%s)", exe), first);
			first = false;
			break;
		}
	}
}

static void from_conda_base(struct cudx_ctx *ctx, struct python_inventory *py, const char *base,
			    const char *origin)
{
	if (!sysroot_is_dir(&ctx->root, base))
		return;
	/* pyenv: <root>/versions/<v> are interpreters, each an environment */
	bool pyenv = strcmp(path_basename(base), "versions") == 0;
	if (!pyenv)
		add_env(ctx, py, base, "conda", origin, false);
	const char *envs = pyenv ? base : path_join(ctx->arena, base, "envs");
	struct sysroot_dirent *ents;
	size_t n;
	if (sysroot_list_dir(&ctx->root, ctx->arena, envs, &ents, &n, PY_MAX_CONDA_ENVS) != 0)
		return;
	for (size_t i = 0; i < n; i++)
		if (ents[i].name[0] != '.')
			add_env(ctx, py, path_join(ctx->arena, envs, ents[i].name), pyenv ? "interpreter" : "conda",
				origin, false);
}

static void from_conda(struct cudx_ctx *ctx, struct python_inventory *py)
{
	const char *home = envsnap_get(&ctx->env, "HOME");
	if (home && home[0] == '/') {
		const char *list = path_join(ctx->arena, home, ".conda/environments.txt");
		size_t len;
		int err;
		char *text = sysroot_read_text(&ctx->root, ctx->arena, list, PY_MAX_TEXT, &len, &err);
		if (text) {
			const char **lines;
			size_t n = pymeta_lines(span_make(text, len), ctx->arena, &lines, PY_MAX_CONDA_ENVS);
			for (size_t i = 0; i < n; i++)
				if (lines[i][0] == '/')
					add_env(ctx, py, lines[i], "conda", "~/.conda/environments.txt", false);
		}
		static const char *const bases[] = { "miniconda3", "anaconda3", "miniforge3", "mambaforge" };
		for (size_t i = 0; i < sizeof bases / sizeof bases[0]; i++)
			from_conda_base(ctx, py, path_join(ctx->arena, home, bases[i]),
					arena_printf(ctx->arena, "~/%s", bases[i]));
	}
	from_conda_base(ctx, py, "/opt/conda", "/opt/conda");
}

/* ~/.local/lib/pythonX.Y/site-packages: a pip --user install, seen by the system interpreter */
static void from_user_site(struct cudx_ctx *ctx, struct python_inventory *py)
{
	const char *home = envsnap_get(&ctx->env, "HOME");
	if (!home || home[0] != '/')
		return;
	const char *local = path_join(ctx->arena, home, ".local");
	if (!sysroot_is_dir(&ctx->root, path_join(ctx->arena, local, "lib")))
		return;
	add_env(ctx, py, local, "user", "user site (~/.local)", false);
}

void py_find_envs(struct cudx_ctx *ctx, struct python_inventory *py)
{
	for (size_t i = 0; i < ctx->opt->n_python; i++)
		add_env(ctx, py, ctx->opt->python[i], "explicit", "--python", true);
	const char *venv = envsnap_get(&ctx->env, "VIRTUAL_ENV");
	if (venv && *venv)
		add_env(ctx, py, venv, "venv", "VIRTUAL_ENV", true);
	const char *conda = envsnap_get(&ctx->env, "CONDA_PREFIX");
	if (conda && *conda)
		add_env(ctx, py, conda, "conda", "CONDA_PREFIX", true);
	from_path(ctx, py);
	from_conda(ctx, py);
	from_user_site(ctx, py);
	if (ctx->os != OS_WINDOWS) {
		/* a Python built for /usr/local (the python:3.X images) owns its site-packages whether
		 * PATH was given or not (add_env keeps one entry per prefix) */
		if (sysroot_exists(&ctx->root, "/usr/local/bin/python3"))
			add_env(ctx, py, "/usr/local", "interpreter", "/usr/local/bin/python3", false);
		add_env(ctx, py, "/usr", "system", "distribution (/usr/lib/python3*)", false);
	}
	/* drop the implicit places that hold nothing; keep what the user named or activated */
	size_t o = 0;
	for (size_t i = 0; i < py->n_envs; i++) {
		struct py_env *e = &py->envs[i];
		/* an empty prefix is worth a word only when the user named it (--python, VIRTUAL_ENV,
		 * CONDA_PREFIX); interpreters on PATH without site dirs are wrappers */
		bool named = e->active && strncmp(e->origin, "PATH", 4) != 0;
		if (e->n_site_dirs == 0 && !named)
			continue;
		if (e->n_site_dirs == 0 && !e->problem)
			e->problem = "no site-packages directory under this prefix";
		py->envs[o++] = *e;
	}
	py->n_envs = o;
}
