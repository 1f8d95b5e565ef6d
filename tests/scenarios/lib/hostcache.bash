# Host files reach a test's tree only through a cache inside the build tree.
#
# A hard link shares the original's bytes: a test that writes to a file it hard-linked from
# /usr/local/cuda rewrites the host's library (a 540 MB libcublasLt.so.13 was destroyed that way).
# So a host file (the CUDA 13 toolkit, Debian's packages in the package cache, this machine's base
# libraries) is first copied once into $CUDX_HOSTCACHE, a directory of the build tree, and test
# trees link only to that copy. Every use checks the copy against the original (size and mtime of
# both, so a copy a test wrote through is noticed too) and copies again when they differ. The only
# hard links in the test helpers are made by hostcache_link and hostcache_link_tree, which refuse
# any source outside the cache and any destination outside the temp and build directories
# (resolved, so an absolute symlink inside a test tree cannot lead back to the host): linking to a
# host file is impossible by construction.
#
#   hostfile SRC DST           SRC: any host file (a symlink is recreated as a link); DST in a test tree
#   hostfile_copy SRC DST      a private copy the test may write to
#   hostcache_files NAME SRC...  a cached directory with a copy of each SRC (dereferenced), by name
#   hostcache_tree SRCDIR      a cached mirror of a host directory (links kept as links)
#   hostcache_link_tree CACHEDIR DSTDIR   hard-link a cached directory's contents into a test tree
# Each prints nothing but the cached path (the first two print nothing).
#
# The package cache (tests/fixtures/fetch-nvidia-debs.sh: Debian's packages unpacked into the build
# tree) is itself a copy made for the tests, so its files are linked as they are instead of being
# copied a second time (libcublasLt.so.11 alone is 574 MB; the second copy filled a CI machine's
# disk). The first use of a package records a stamp of its files; a use that finds them changed (a
# test wrote through a link) fails and names the package to unpack again.

: "${CUDX:?CUDX must point at the cudx binary}"
# build/test/cudx -> build/test/hostcache: the build tree the binary belongs to
CUDX_HOSTCACHE=${CUDX_HOSTCACHE:-${CUDX_BUILD:-$(dirname "$(realpath "$CUDX")")}/hostcache}

# Where a test may create files: bats' and the system's temp dirs and the build tree (resolved
# once: every placed file is checked against them).
HOSTCACHE_WRITABLE=()
for _d in "${BATS_RUN_TMPDIR:-}" "${BATS_TMPDIR:-}" "${TMPDIR:-/tmp}" /tmp "${CUDX_BUILD:-}" "$(dirname "$CUDX_HOSTCACHE")"; do
	[ -n "$_d" ] && HOSTCACHE_WRITABLE+=("$(realpath -m -- "$_d")")
done
unset _d
mkdir -p "$CUDX_HOSTCACHE"
HOSTCACHE_REAL=$(realpath -m -- "$CUDX_HOSTCACHE")
: "${CUDX_PKG_CACHE:=${CUDX_SRC:-.}/build/pkgs}"
HOSTCACHE_PKGS=$(realpath -m -- "$CUDX_PKG_CACHE")

# Whether (resolved) path $1 lies inside one of the (resolved) directories that follow.
hostcache_under() {
	local p=$1 d
	shift
	for d in "$@"; do
		[ -n "$d" ] && [ "$d" != / ] && case $p/ in "$d"/*) return 0 ;; esac
	done
	return 1
}

hostcache_check_dst() { # DST: refuses a destination outside the temp and build directories
	local p
	p=$(realpath -m -- "$1") && hostcache_under "$p" "${HOSTCACHE_WRITABLE[@]}" && return 0
	echo "hostcache: refusing to write $1 (resolves to ${p:-?}): not inside a temp or build directory" >&2
	return 1
}

hostcache_check_src() { # SRC: refuses a link source outside the build cache and the package cache
	local p
	p=$(realpath -m -- "$1") && hostcache_under "$p" "$HOSTCACHE_REAL" "$HOSTCACHE_PKGS" && return 0
	echo "hostcache: refusing to link $1: not inside the build cache $CUDX_HOSTCACHE" >&2
	return 1
}

# Run "$@" holding the cache's lock (test jobs run in parallel and share the cache).
hostcache_locked() {
	(
		flock 9
		"$@"
	) 9>"$CUDX_HOSTCACHE/.lock"
}

# --- single files ---------------------------------------------------------------------------

hostcache_copy_file() { # REAL ENTRY: copy, read-only, renamed into place whole
	mkdir -p "${2%/*}" &&
		cp --preserve=timestamps -- "$1" "$2.tmp.$$" && chmod a-w -- "$2.tmp.$$" && mv -f -- "$2.tmp.$$" "$2"
}

hostcache_file_fresh() { # REAL ENTRY
	[ -f "$2" ] && [ "$(stat -L -c '%s %Y' -- "$1" "$2" 2>/dev/null | uniq | wc -l)" = 1 ]
}

hostcache_file_refresh() { # REAL ENTRY (under the lock): another job may have done it meanwhile
	hostcache_file_fresh "$1" "$2" || hostcache_copy_file "$1" "$2"
}

# --- the package cache -----------------------------------------------------------------------

# hostcache_package REAL: prints the package directory of the package cache that (resolved) path
# REAL lies in; fails for any other path.
hostcache_package() {
	local rest=${1#"$HOSTCACHE_PKGS"/}
	[ "$rest" != "$1" ] && [ "${rest%%/*}" != "$rest" ] && [ -n "${rest%%/*}" ] || return 1
	[ "$(hostcache_package_links)" = yes ] || return 1
	echo "$HOSTCACHE_PKGS/${rest%%/*}"
}

# Whether a test tree can hard-link the package cache's files. Not where the cache lies on another
# mount (the machine sets' tree recipes run in a mount namespace with the rest read-only) or
# belongs to another user (fs.protected_hardlinks): the files are then copied into this cache, as a
# host's are.
hostcache_try_package_link() {
	local probe
	probe=$(find "$HOSTCACHE_PKGS" -mindepth 2 -maxdepth 2 -name DEB -type f -print -quit 2>/dev/null)
	[ -n "$probe" ] || return 2 # nothing fetched yet: try again next time
	ln -- "$probe" "$1" 2>/dev/null
}

hostcache_package_links() { hostcache_probe package-links hostcache_try_package_link; }

hostcache_package_check() { # PKGDIR (under the lock): stamps the package at its first use
	local pkg=$1 deb stamp
	IFS= read -r deb <"$pkg/DEB" 2>/dev/null || deb=unknown
	stamp=$CUDX_HOSTCACHE/packages/${pkg##*/}/$deb.stamp
	if [ ! -r "$stamp" ]; then
		mkdir -p "${stamp%/*}" && hostcache_stamp "$pkg/root" >"$stamp.tmp.$$" && mv -f -- "$stamp.tmp.$$" "$stamp"
		return
	fi
	hostcache_stamp_fresh "$pkg/root" "$stamp" && return 0
	echo "hostcache: the package cache's $pkg changed since its first use (a test wrote through a link): remove it and run tests/fixtures/fetch-nvidia-debs.sh again" >&2
	return 1
}

# hostcache_entry SRC: prints the path of the cached copy of host file SRC, copying it first when
# it is missing or differs from SRC. A file of the package cache is its own cached copy.
hostcache_entry() {
	local real entry pkg
	real=$(realpath -e -- "$1") || { echo "hostcache: no such file: $1" >&2; return 1; }
	[ -f "$real" ] || { echo "hostcache: not a regular file: $1" >&2; return 1; }
	if pkg=$(hostcache_package "$real"); then
		hostcache_locked hostcache_package_check "$pkg" && echo "$real"
		return
	fi
	entry=$CUDX_HOSTCACHE/files$real
	hostcache_file_fresh "$real" "$entry" || hostcache_locked hostcache_file_refresh "$real" "$entry" ||
		{ echo "hostcache: cannot cache $1" >&2; return 1; }
	echo "$entry"
}

# hostcache_link ENTRY DST: a file of the cache into a test tree.
hostcache_link() {
	local entry=$1 dst=$2
	hostcache_check_src "$entry" && hostcache_check_dst "$dst" || return 1
	[ -d "${dst%/*}" ] || mkdir -p "${dst%/*}"
	rm -f -- "$dst"
	# a reflink (btrfs, xfs) is a private copy; else a hard link to the cached copy; else a copy.
	# A failed clone leaves an empty file behind: remove it before the next way.
	if [ "$(hostcache_reflink)" = yes ]; then
		cp --reflink=always -- "$entry" "$dst" 2>/dev/null && return
		rm -f -- "$dst"
	fi
	ln -- "$entry" "$dst" 2>/dev/null && return
	cp -- "$entry" "$dst"
}

# hostcache_probe NAME TRY: whether TRY succeeds (yes/no), tried once and remembered in the cache as
# .NAME. TRY gets a scratch path to create; exit status 2 says it cannot tell yet (nothing to try
# it on), which is not remembered.
hostcache_probe() {
	local f=$CUDX_HOSTCACHE/.$1 v= rc=0
	[ -r "$f" ] && read -r v <"$f"
	if [ -z "$v" ]; then
		"$2" "$f.probe.$$" || rc=$?
		rm -f "$f.probe.$$" "$f.probe.$$.clone"
		[ "$rc" = 2 ] && { echo no; return; }
		v=no
		[ "$rc" = 0 ] && v=yes
		echo "$v" >"$f"
	fi
	echo "$v"
}

hostcache_try_reflink() { echo x >"$1" && cp --reflink=always "$1" "$1.clone" 2>/dev/null; }

# Whether the cache's file system clones files.
hostcache_reflink() { hostcache_probe reflink hostcache_try_reflink; }

hostfile() {
	local src=$1 dst=$2 entry
	if [ -L "$src" ]; then # the link itself, as the package has it
		hostcache_check_dst "$dst" || return 1
		[ -d "${dst%/*}" ] || mkdir -p "${dst%/*}"
		rm -f -- "$dst"
		ln -s -- "$(readlink "$src")" "$dst"
		return
	fi
	entry=$(hostcache_entry "$src") && hostcache_link "$entry" "$dst"
}

hostfile_copy() {
	local src=$1 dst=$2 entry
	hostcache_check_dst "$dst" || return 1
	[ -d "${dst%/*}" ] || mkdir -p "${dst%/*}"
	rm -f -- "$dst"
	entry=$(hostcache_entry "$src") && cp -- "$entry" "$dst" && chmod u+w -- "$dst"
}

# --- whole directories: one check and one link command for many files ------------------------

# The stamp of a cached directory: its sources' and its own files' sizes and mtimes. Writing
# through a link changes the copy's mtime, an update of the host file the source's: either way the
# stamp no longer matches and the directory is built again.
hostcache_stamp() { # DIR SRC...
	local dir=$1
	shift
	find -L "$@" "$dir" -maxdepth 64 \( -type f -o -type l \) -printf '%P|%y|%s|%T@\n' 2>/dev/null
}

hostcache_stamp_fresh() { # DIR STAMPFILE SRC...
	local dir=$1 file=$2 old now
	shift 2
	[ -d "$dir" ] && [ -r "$file" ] || return 1
	IFS= read -r -d '' old <"$file"
	now=$(hostcache_stamp "$dir" "$@")
	[ "$old" = "$now"$'\n' ] || [ "$old" = "$now" ]
}

hostcache_build_files() { # DIR SRC... (under the lock)
	local dir=$1 s
	shift
	hostcache_stamp_fresh "$dir" "$dir.stamp" "$@" && return 0
	rm -rf -- "$dir.tmp.$$" && mkdir -p "$dir.tmp.$$" || return 1
	for s in "$@"; do
		cp -L --preserve=timestamps -- "$s" "$dir.tmp.$$/${s##*/}" || return 1
	done
	find "$dir.tmp.$$" -type f -exec chmod a-w {} + && rm -rf -- "$dir" && mv -- "$dir.tmp.$$" "$dir" &&
		hostcache_stamp "$dir" "$@" >"$dir.stamp"
}

# hostcache_files NAME SRC...: prints a cached directory holding a copy of each host file SRC
# (symlinks followed) under SRC's own name.
hostcache_files() {
	local dir=$CUDX_HOSTCACHE/sets/$1
	shift
	hostcache_stamp_fresh "$dir" "$dir.stamp" "$@" || hostcache_locked hostcache_build_files "$dir" "$@" ||
		{ echo "hostcache: cannot cache $*" >&2; return 1; }
	echo "$dir"
}

hostcache_build_tree() { # DIR SRCDIR (under the lock)
	local dir=$1 src=$2
	hostcache_stamp_fresh "$dir" "$dir.stamp" "$src" && return 0
	rm -rf -- "$dir.tmp.$$" && mkdir -p "${dir%/*}" &&
		cp -a -- "$src" "$dir.tmp.$$" && find "$dir.tmp.$$" -type f -exec chmod a-w {} + && rm -rf -- "$dir" &&
		mv -- "$dir.tmp.$$" "$dir" && hostcache_stamp "$dir" "$src" >"$dir.stamp"
}

# hostcache_tree SRCDIR: prints a cached mirror of host directory SRCDIR (symlinks kept). A
# directory of the package cache is its own mirror.
hostcache_tree() {
	local real dir pkg
	real=$(realpath -e -- "$1") && [ -d "$real" ] || { echo "hostcache: no such directory: $1" >&2; return 1; }
	if pkg=$(hostcache_package "$real"); then
		hostcache_locked hostcache_package_check "$pkg" && echo "$real"
		return
	fi
	dir=$CUDX_HOSTCACHE/trees$real
	hostcache_stamp_fresh "$dir" "$dir.stamp" "$real" || hostcache_locked hostcache_build_tree "$dir" "$real" ||
		{ echo "hostcache: cannot cache $1" >&2; return 1; }
	echo "$dir"
}

# hostcache_link_tree CACHEDIR DSTDIR: the contents of a cached directory into a test tree, hard
# links for files, symlinks as they are.
hostcache_link_tree() {
	hostcache_check_src "$1" && hostcache_check_dst "$2" || return 1
	mkdir -p "$2" && cp -al -- "$1/." "$2/"
}
