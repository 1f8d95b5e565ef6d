# Fixtures that every command looks at (check, why, tree, arch; probe on the live system), and the
# JSON each printed: sourced by consistency.bats and json_schema.bats. Each fixture is a sysroot
# built in a temp dir from copies (never links) of real files: the CUDA 13 toolkit's cudart and
# stub libcuda, the host's C library, and small ELF libraries compiled on the spot.
#
#   cx_fixture stub_so1          # builds $root and $env_file for one case (see cx_fixtures)
#   cx_look stub_so1             # runs every command of the case with --json into $CX_OUT/stub_so1/*.json
: "${CUDX:?CUDX must point at the cudx binary}"
# shellcheck source=lib/cudx.bash
. "$(dirname "${BASH_SOURCE[0]}")/lib/cudx.bash" # run_to_file, skip_fixture, need_cuda13, CUDA13
MULTIARCH=usr/lib/x86_64-linux-gnu
CX_BASE_LIBS="libc.so.6 libm.so.6 libdl.so.2 libpthread.so.0 librt.so.1 ld-linux-x86-64.so.2 libstdc++.so.6 libgcc_s.so.1 libz.so.1"

# The cases: each has a builder (cx_build_NAME) and the commands that look at it (cx_cmds_NAME, one
# command line a line, arguments as `cudx` takes them after --root/--env).
cx_fixtures="stub_so1 stubs_dir damaged broken_link wrong_arch symbol_version stale_cache dep_missing bundled_rt
bundled_rt_toolkit"

cx_root() {
	local n
	root=$(mktemp -d "${BATS_TMPDIR:-/tmp}/cudx-cx.XXXXXX")
	env_file="$root.env"
	: >"$env_file"
	mkdir -p "$root/etc" "$root/$MULTIARCH" "$root/lib64" "$root/proc" "$root/dev"
	for n in $CX_BASE_LIBS; do
		[ -e "/$MULTIARCH/$n" ] && cp -L "/$MULTIARCH/$n" "$root/$MULTIARCH/$n"
	done
	ln -s "../$MULTIARCH/ld-linux-x86-64.so.2" "$root/lib64/ld-linux-x86-64.so.2"
}

cx_cleanup() {
	if [ -n "${root:-}" ]; then rm -rf "$root" "$root.env"; fi
}

# cx_lib PATH SONAME [--needs LIB]... [--version-script FILE] [--machine aarch64]: a small ELF
# shared object without libc (no NEEDED of its own unless asked), at ROOT/PATH.
cx_lib() {
	local path=$1 soname=$2 src out=$root/$1 machine=""
	shift 2
	local extra=()
	while [ $# -gt 0 ]; do
		case $1 in
		--needs) extra+=("-Wl,--no-as-needed" "$2"); shift 2 ;;
		--version-script) extra+=("-Wl,--version-script,$2"); shift 2 ;;
		--machine) machine=$2; shift 2 ;;
		*) return 1 ;;
		esac
	done
	mkdir -p "$(dirname "$out")"
	src=$(mktemp "${BATS_TMPDIR:-/tmp}/cx.XXXXXX.c")
	echo "int cudnnFoo(void) { return 1; } int cudnnBar(void) { return 2; }" >"$src"
	cc -shared -fPIC -nostdlib -o "$out" "$src" "-Wl,-soname,$soname" "${extra[@]}"
	rm -f "$src"
	if [ "$machine" = aarch64 ]; then
		# e_machine (offset 18, little-endian) = EM_AARCH64 (183): the loader skips it on x86-64
		printf '\xb7\x00' | dd of="$out" bs=1 seek=18 conv=notrunc status=none
	fi
}

cx_need_stubs() {
	need_cuda13
	[ -e "$CUDA13/lib/stubs/libcuda.so" ] || skip_fixture "needs $CUDA13/lib/stubs/libcuda.so"
}

cx_cudart() { # the CUDA 13 runtime at /usr/local/cuda-13.0/lib, lib64 and /usr/local/cuda links
	mkdir -p "$root/usr/local/cuda-13.0/lib"
	ln -s lib "$root/usr/local/cuda-13.0/lib64"
	ln -s /usr/local/cuda-13.0 "$root/usr/local/cuda"
	cp -L "$CUDA13/lib/libcudart.so.13" "$root/usr/local/cuda-13.0/lib/libcudart.so.13"
}

CUDART=/usr/local/cuda/lib64/libcudart.so.13

# A stub copied as libcuda.so.1 is what the loader picks for libcuda.so.1 (and cudart's dlopen).
cx_build_stub_so1() {
	cx_need_stubs
	cx_cudart
	mkdir -p "$root/opt/lib"
	cp "$CUDA13/lib/stubs/libcuda.so" "$root/opt/lib/libcuda.so.1"
	echo "LD_LIBRARY_PATH=/opt/lib:/usr/local/cuda/lib64" >"$env_file"
}
cx_cmds_stub_so1="check
why libcuda.so.1
tree $CUDART
why libcudart.so.13"

# The toolkit's stubs directory first on LD_LIBRARY_PATH (the user's report: why libcuda.so).
cx_build_stubs_dir() {
	cx_need_stubs
	cx_cudart
	mkdir -p "$root/usr/local/cuda-13.0/lib/stubs"
	cp "$CUDA13/lib/stubs/libcuda.so" "$root/usr/local/cuda-13.0/lib/stubs/libcuda.so"
	echo "LD_LIBRARY_PATH=/usr/local/cuda/lib64/stubs:/usr/local/cuda/lib64" >"$env_file"
}
cx_cmds_stubs_dir="check
why libcuda.so
tree /usr/local/cuda/lib64/stubs/libcuda.so
arch /usr/local/cuda/lib64/stubs/libcuda.so --gpu sm_80"

SITE=/opt/venv/lib/python3.11/site-packages
# A wheel's library whose size is not the one its RECORD lists.
cx_build_damaged() {
	local d="$root$SITE" size
	mkdir -p "$d/nvidia_cudnn_cu12-9.1.0.70.dist-info"
	printf 'home = /usr/bin\nversion = 3.11.2\n' >"$root/opt/venv/pyvenv.cfg"
	cx_lib "$SITE/nvidia/cudnn/lib/libcudnn_graph.so.9" libcudnn_graph.so.9
	size=$(stat -c %s "$d/nvidia/cudnn/lib/libcudnn_graph.so.9")
	printf 'Metadata-Version: 2.1\nName: nvidia-cudnn-cu12\nVersion: 9.1.0.70\n' >"$d/nvidia_cudnn_cu12-9.1.0.70.dist-info/METADATA"
	printf 'nvidia/cudnn/lib/libcudnn_graph.so.9,sha256=y,%s\r\n' "$((size + 4096))" \
		>"$d/nvidia_cudnn_cu12-9.1.0.70.dist-info/RECORD"
	printf 'VIRTUAL_ENV=/opt/venv\nLD_LIBRARY_PATH=%s/nvidia/cudnn/lib\n' "$SITE" >"$env_file"
}
cx_cmds_damaged="check
why libcudnn_graph.so.9
tree $SITE/nvidia/cudnn/lib/libcudnn_graph.so.9
arch $SITE/nvidia/cudnn/lib/libcudnn_graph.so.9 --gpu sm_80"

# A versioned link to a file that is not there.
cx_build_broken_link() {
	mkdir -p "$root/opt/cudnn"
	ln -s libcudnn.so.8.9.7 "$root/opt/cudnn/libcudnn.so.8"
	echo "LD_LIBRARY_PATH=/opt/cudnn" >"$env_file"
}
cx_cmds_broken_link="check
why libcudnn.so.8"

# /opt/a/libcudnn_ops_infer.so.8, which needs libcudnn.so.8 (linked against a copy then removed).
cx_ops_infer() {
	cx_lib /opt/x/libcudnn.so.8 libcudnn.so.8
	cx_lib /opt/a/libcudnn_ops_infer.so.8 libcudnn_ops_infer.so.8 --needs "$root/opt/x/libcudnn.so.8"
	rm -r "$root/opt/x"
}

# The only libcudnn.so.8 is built for AArch64; a cuDNN library of the host's machine needs it.
cx_build_wrong_arch() {
	cx_lib /opt/b/libcudnn.so.8 libcudnn.so.8 --machine aarch64
	cx_ops_infer
	echo "LD_LIBRARY_PATH=/opt/a:/opt/b" >"$env_file"
}
cx_cmds_wrong_arch="check
why libcudnn.so.8
tree /opt/a/libcudnn_ops_infer.so.8"

# libcudnn_ops_infer.so.8 was linked against a libcudnn.so.8 with version node CUDNN_8; the one
# on the search path defines CUDNN_7 only.
cx_build_symbol_version() {
	local vs="$root.vs"
	printf 'CUDNN_8 { global: cudnnFoo; cudnnBar; local: *; };\n' >"$vs"
	cx_lib /opt/x/libcudnn.so.8 libcudnn.so.8 --version-script "$vs"
	printf 'int cudnnFoo(void); int cudnn_ops_use(void) { return cudnnFoo(); }\n' >"$root.c"
	mkdir -p "$root/opt/a"
	cc -shared -fPIC -nostdlib -o "$root/opt/a/libcudnn_ops_infer.so.8" "$root.c" -Wl,-soname,libcudnn_ops_infer.so.8 \
		"$root/opt/x/libcudnn.so.8"
	printf 'CUDNN_7 { global: cudnnFoo; cudnnBar; local: *; };\n' >"$vs"
	rm -r "$root/opt/x" "$root.c"
	cx_lib /opt/b/libcudnn.so.8 libcudnn.so.8 --version-script "$vs"
	rm -f "$vs"
	echo "LD_LIBRARY_PATH=/opt/a:/opt/b" >"$env_file"
}
cx_cmds_symbol_version="check
why libcudnn.so.8 --from /opt/a/libcudnn_ops_infer.so.8
tree /opt/a/libcudnn_ops_infer.so.8"

# /opt/cudnn is in ld.so.conf, but the cache was written before libcudnn.so.8 was put there.
cx_build_stale_cache() {
	command -v ldconfig >/dev/null || skip_fixture "needs ldconfig to write a cache into the root"
	[ "$(id -u)" = 0 ] || skip_fixture "ldconfig -r needs root"
	mkdir -p "$root/opt/cudnn" "$root/etc/ld.so.conf.d"
	echo "include /etc/ld.so.conf.d/*.conf" >"$root/etc/ld.so.conf"
	echo "/opt/cudnn" >"$root/etc/ld.so.conf.d/cudnn.conf"
	ldconfig -r "$root" 2>/dev/null || skip_fixture "ldconfig -r failed here"
	cx_lib /opt/cudnn/libcudnn.so.8 libcudnn.so.8
	cx_ops_infer
	echo "LD_LIBRARY_PATH=/opt/a" >"$env_file"
}
cx_cmds_stale_cache="check
why libcudnn.so.8
tree /opt/a/libcudnn_ops_infer.so.8"

# A cuDNN 8 library whose own dependency is nowhere: dlopen of it fails although it is found.
cx_build_dep_missing() {
	cx_lib /opt/x/libcudnn_ops_infer.so.8 libcudnn_ops_infer.so.8
	cx_lib /opt/a/libcudnn_adv_infer.so.8 libcudnn_adv_infer.so.8 --needs "$root/opt/x/libcudnn_ops_infer.so.8"
	# and a library no catalogue knows (check's survey does not judge it; why does)
	cx_lib /opt/a/libapp.so.1 libapp.so.1 --needs "$root/opt/x/libcudnn_ops_infer.so.8"
	rm -r "$root/opt/x"
	echo "LD_LIBRARY_PATH=/opt/a" >"$env_file"
}
cx_cmds_dep_missing="check
why libcudnn_adv_infer.so.8
tree /opt/a/libcudnn_adv_infer.so.8
why libapp.so.1"

# An application bundling the CUDA 13 runtime (/opt/app/bin/app, RUNPATH $ORIGIN/../lib, its copy
# of the toolkit's libcudart.so.13 in /opt/app/lib) on a driver 535 image: copies of Debian's
# libcuda1 (nvidia/current, linked into the multiarch dir as update-alternatives does) and the
# kernel module's /proc line. check alone cannot know the app; check --app and tree APP judge its
# runtime against the driver.
cx_bundled_app() {
	local d535=${CUDX_PKG_CACHE:-$CUDX_SRC/build/pkgs}/libcuda1/root f
	need_cuda13
	[ -d "$d535" ] || skip "needs Debian package libcuda1 in $d535 (tests/fixtures/fetch-nvidia-debs.sh)"
	command -v cc >/dev/null || skip "needs a C compiler"
	(cd "$d535" && find ./usr/lib \( -type f -o -type l \)) | while read -r f; do
		mkdir -p "$root/$(dirname "$f")"
		cp -a "$d535/$f" "$root/$f"
	done
	for f in "$root/$MULTIARCH/nvidia/current"/lib*.so.1; do
		ln -s "/$MULTIARCH/nvidia/current/${f##*/}" "$root/$MULTIARCH/${f##*/}"
	done
	mkdir -p "$root/proc/driver/nvidia" "$root/opt/app/bin" "$root/opt/app/lib"
	echo "NVRM version: NVIDIA UNIX x86_64 Kernel Module  535.309.01  Tue Mar  5 22:23:56 UTC 2024" \
		>"$root/proc/driver/nvidia/version"
	cp "$CUDA13/lib/libcudart.so.13" "$root/opt/app/lib/"
	printf 'int cudaGetDeviceCount(int *);\nint main(void) { int n; return cudaGetDeviceCount(&n); }\n' >"$root.c"
	cc -o "$root/opt/app/bin/app" "$root.c" -L"$CUDA13/lib" -l:libcudart.so.13 -Wl,-rpath,'$ORIGIN/../lib' \
		-Wl,--enable-new-dtags
	rm -f "$root.c"
}
cx_build_bundled_rt() {
	cx_bundled_app
}
cx_cmds_bundled_rt="check
check --app /opt/app/bin/app
tree /opt/app/bin/app
why libcudart.so.13 --from /opt/app/bin/app
explain --app /opt/app/bin/app CUDA driver version is insufficient for CUDA runtime version
explain CUDA driver version is insufficient for CUDA runtime version"

# The same image with the toolkit's own CUDA 13 runtime installed too: check finds that one, and
# tree APP still keeps the finding through the app's copy.
cx_build_bundled_rt_toolkit() {
	cx_bundled_app
	cx_cudart
}
cx_cmds_bundled_rt_toolkit="check
check --app /opt/app/bin/app
tree /opt/app/bin/app"

cx_fixture() {
	cx_root
	"cx_build_$1"
}

# cx_look_all: cx_look of every case this machine has the fixtures for; a case that cannot be built
# here is left out, not the whole test (under CUDX_TEST_STRICT=1 it fails, as skip_fixture does).
cx_look_all() {
	local c
	for c in $cx_fixtures; do
		cx_root
		if (skip() { exit 1; }; skip_fixture() { exit 1; }; "cx_build_$c") 2>/dev/null; then
			cx_look "$c" || return 1
		elif [ "${CUDX_TEST_STRICT:-0}" = 1 ]; then
			echo "CUDX_TEST_STRICT=1: case $c cannot be built here"
			return 1
		fi
		cx_cleanup
	done
}

# cx_run CASE N LINE CMD...: CMD --json LINE (a cudx command line), stdout into $CX_OUT/CASE/N.json
# with N.cmd (LINE), N.rc (its exit status) and N.err; cudx must exit 0 or 1 and print its JSON.
cx_run() {
	local case=$1 n=$2 line=$3
	shift 3
	mkdir -p "$CX_OUT/$case"
	echo "$line" >"$CX_OUT/$case/$n.cmd"
	# shellcheck disable=SC2086
	run_to_file "$CX_OUT/$case/$n.json" "$@" --json $line || return 1
	echo "$status" >"$CX_OUT/$case/$n.rc"
}

# cx_look CASE: every command of the case (cx_run, without the probe).
cx_look() {
	local case=$1 i=0 line var="cx_cmds_$1"
	while IFS= read -r line; do
		i=$((i + 1))
		cx_run "$case" "$i" "$line" "$CUDX" --no-probe --root "$root" --env "$env_file" || return 1
	done <<<"${!var}"
}

# A Windows tree in $root (env $root.env) from the mingw-built PE fixtures: cuDNN 8's
# cudnn_cnn_infer64_8.dll on PATH without its zlibwapi.dll, and no driver (nvcuda.dll) unless
# asked. Skips where the fixtures cannot be built.
cx_windows_root() {
	local keep_nvcuda=${1:-}
	export WINFIX="$CUDX_BUILD/winfix"
	sh "$CUDX_SRC/tests/fixtures/windows/build.sh" "$WINFIX" >/dev/null 2>&1 || skip_fixture "PE fixtures not buildable here"
	[ -f "$WINFIX/x64/cudnn_cnn_infer64_8.dll" ] || skip_fixture "no cuDNN fixture (lld-link missing)"
	. "$CUDX_SRC/tests/fixtures/windows/tree.sh"
	root=$(mktemp -d "${BATS_TMPDIR:-/tmp}/cudx-cx.XXXXXX")
	wintree_init "$root"
	[ -n "$keep_nvcuda" ] || rm "$root/Windows/System32/nvcuda.dll"
	local bin='C:\Program Files\NVIDIA\CUDNN\v8.9\bin'
	wintree_put "$root" "$bin" x64/cudnn_cnn_infer64_8.dll
	wintree_env "$root.env" "Path=C:\\Windows\\system32;$bin"
}

# The registry: every finding id with its severity and milder severity (cudx kb findings).
cx_registry() {
	run_to_file "$CX_OUT/registry.json" "$CUDX" kb findings --json
}
