# Helpers that build a sysroot for a scenario: a temp dir holding exactly the files the case
# needs, real NVIDIA libraries from the CUDA 13 toolkit and Debian's packages (through the build
# tree's host-file cache, lib/hostcache.bash: never a link to a host file), and synthetic
# libraries compiled on the spot.
#
#   root=$(mkroot)
#   need_pkg libcuda1                      # skips the test when the package was not fetched
#   add_pkg "$root" libcuda1               # unpack Debian's driver 535 libcuda into the root
#   add_cuda13 "$root" libcudart.so.13     # CUDA 13 files, with the dist-info that owns them
#   fake_lib "$root" /usr/lib/libfoo.so.1.2 libfoo.so.1   # a tiny ELF with that SONAME
#   run_cudx --root "$root" --env "$root.env" --json
#   has_finding driver-too-old

# shellcheck source=cudx.bash
. "$(dirname "${BASH_SOURCE[0]}")/cudx.bash"
# shellcheck source=hostcache.bash
. "$(dirname "${BASH_SOURCE[0]}")/hostcache.bash"
: "${CUDX_PKG_CACHE:=${CUDX_SRC:-.}/build/pkgs}"
MULTIARCH=usr/lib/x86_64-linux-gnu

# The base system every real image has: the C library and the runtime libraries the NVIDIA
# libraries link against, this machine's own, through the host-file cache.
BASE_LIBS="libc.so.6 libm.so.6 libdl.so.2 libpthread.so.0 librt.so.1 ld-linux-x86-64.so.2 libstdc++.so.6 libgcc_s.so.1 libz.so.1"

mkroot() {
	local d n base srcs=()
	d=$(mktemp -d "${BATS_TMPDIR:-/tmp}/cudx-root.XXXXXX")
	mkdir -p "$d/etc" "$d/usr/lib" "$d/$MULTIARCH" "$d/proc" "$d/dev" "$d/lib64"
	for n in $BASE_LIBS; do
		[ -e "/$MULTIARCH/$n" ] && srcs+=("/$MULTIARCH/$n")
	done
	base=$(hostcache_files base-libs "${srcs[@]}") && hostcache_link_tree "$base" "$d/$MULTIARCH" || return 1
	ln -s "../$MULTIARCH/ld-linux-x86-64.so.2" "$d/lib64/ld-linux-x86-64.so.2"
	echo "$d"
}

# The usual scenario: a fresh root in $root and an empty environment file in $env_file.
setup_root() {
	# a test writes "$root/usr/...", "$root/etc/...": an empty $root would be the host's
	root=$(mkroot) && [ -n "$root" ] && [ -d "$root" ] && [ "$root" != / ] || {
		echo "setup_root: no tree was made (mkroot failed)" >&2
		return 1
	}
	env_file="$root.env"
	: >"$env_file"
}

teardown_root() {
	rm -rf "$root" "$env_file"
}

need_pkg() {
	local p
	for p in "$@"; do
		[ -d "$CUDX_PKG_CACHE/$p/root" ] || skip_fixture "needs Debian package $p (not fetched into $CUDX_PKG_CACHE: run tests/fixtures/fetch-nvidia-debs.sh)"
	done
}


add_pkg() {
	local root=$1 p=$2 lib
	[ -d "$CUDX_PKG_CACHE/$p/root/usr/lib" ] || return 0
	lib=$(hostcache_tree "$CUDX_PKG_CACHE/$p/root/usr/lib") && hostcache_link_tree "$lib" "$root/usr/lib"
}

# Debian installs the driver libraries under nvidia/current and links them into the multiarch dir
# through update-alternatives; recreate the links the alternatives system would make.
link_driver_libs() {
	local root=$1 dir=$2 f
	for f in "$root/$dir"/lib*.so.1; do
		[ -e "$f" ] || continue
		ln -sf "/$dir/$(basename "$f")" "$root/$MULTIARCH/$(basename "$f")"
	done
}

# add_cuda13 ROOT NAME... : CUDA 13 files from lib/ (with their .so links) into
# ROOT/usr/local/cuda-13.0/lib, lib64 -> lib, the dist-info dir, and /usr/local/cuda -> cuda-13.0.
add_cuda13() {
	local root=$1 n
	shift
	mkdir -p "$root/usr/local/cuda-13.0/lib" "$root/usr/local/cuda-13.0/include"
	ln -sfn lib "$root/usr/local/cuda-13.0/lib64"
	ln -sfn /usr/local/cuda-13.0 "$root/usr/local/cuda"
	if [ ! -d "$root/usr/local/cuda-13.0/dist-info" ]; then
		local di
		di=$(hostcache_tree "$CUDA13/dist-info") && hostcache_link_tree "$di" "$root/usr/local/cuda-13.0/dist-info" || return 1
	fi
	for n in "$@"; do
		if [ "$n" = stubs ]; then
			mkdir -p "$root/usr/local/cuda-13.0/lib/stubs"
			hostfile "$CUDA13/lib/stubs/libcuda.so" "$root/usr/local/cuda-13.0/lib/stubs/libcuda.so"
			continue
		fi
		hostfile "$CUDA13/lib/$n" "$root/usr/local/cuda-13.0/lib/$n"
	done
	touch "$root/usr/local/cuda-13.0/include/cuda.h"
}

# fake_lib ROOT PATH SONAME [NEEDED...]: a small real ELF shared object.
fake_lib() {
	local root=$1 path=$2 soname=$3 src
	shift 3
	mkdir -p "$root/$(dirname "$path")"
	src=$(mktemp "${BATS_TMPDIR:-/tmp}/fake.XXXXXX.c")
	echo "int cudx_fake_$RANDOM(void) { return 1; }" >"$src"
	local libs=()
	local n
	for n in "$@"; do libs+=("-Wl,--no-as-needed" "-l:$n"); done
	cc -shared -fPIC -o "$root/$path" "$src" "-Wl,-soname,$soname" -Wl,--allow-shlib-undefined \
		-L"$root/usr/lib" "${libs[@]}" 2>/dev/null || cc -shared -fPIC -o "$root/$path" "$src" "-Wl,-soname,$soname"
	rm -f "$src"
}

# ldconf_root ROOT DIR: DIR configured in ROOT's /etc/ld.so.conf (through ld.so.conf.d) and ROOT's
# ld.so.cache written now, by this machine's ldconfig -r (which needs root); what is put into DIR
# afterwards is what ldconfig has not seen. Skips the test without ldconfig or root.
ldconf_root() {
	command -v ldconfig >/dev/null || skip_fixture "needs ldconfig to write a cache into the root"
	[ "$(id -u)" = 0 ] || skip_fixture "ldconfig -r needs root"
	mkdir -p "$1$2" "$1/etc/ld.so.conf.d"
	echo "include /etc/ld.so.conf.d/*.conf" >"$1/etc/ld.so.conf"
	echo "$2" >"$1/etc/ld.so.conf.d/$(basename "$2").conf"
	ldconfig -r "$1" 2>/dev/null || skip_fixture "ldconfig -r failed here"
}

# The NVRM line of a given driver version, as the proprietary module prints it.
proc_version() {
	local root=$1 ver=$2
	mkdir -p "$root/proc/driver/nvidia"
	printf 'NVRM version: NVIDIA UNIX x86_64 Kernel Module  %s  Tue Mar  5 22:23:56 UTC 2024\nGCC version:  gcc version 12.2.0 (Debian 12.2.0-14)\n' "$ver" >"$root/proc/driver/nvidia/version"
	mkdir -p "$root/sys/module/nvidia"
	echo "$ver" >"$root/sys/module/nvidia/version"
}

# A real driver in $root, installed the way Debian links it: 535 (libcuda1 + libnvidia-ml1) or the
# 470 Tesla branch, with the kernel module's /proc and /sys entries of the same version.
install_driver_535() {
	need_pkg libcuda1 libnvidia-ml1
	add_pkg "$root" libcuda1
	add_pkg "$root" libnvidia-ml1
	link_driver_libs "$root" "$MULTIARCH/nvidia/current"
	proc_version "$root" 535.309.01
}

install_driver_470() {
	need_pkg libnvidia-tesla-470-cuda1
	add_pkg "$root" libnvidia-tesla-470-cuda1
	link_driver_libs "$root" "$MULTIARCH/nvidia/tesla-470"
	proc_version "$root" 470.256.02
}

# run_cudx [-N] ARGS...: cudx without the live probe, with run_strict's checks (lib/cudx.bash).
run_cudx() {
	local want=()
	case ${1:-} in -[0-9]*) want=("$1"); shift ;; esac
	run_strict "${want[@]}" "$CUDX" --no-probe "$@"
}
