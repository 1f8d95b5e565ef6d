#!/usr/bin/env bats
# cudx why / tree / check on the loader, on this machine's real CUDA 13 tree and Debian's CUDA 11.8
# packages. Each case asserts the finding id and the key evidence.

load lib/cudx

setup() {
	CUDNN=/usr/local/cuda/lib64/libcudnn.so.9
	CUBLAS11=$CUDX_PKG_CACHE/libcublas11/root/usr/lib/x86_64-linux-gnu
	CUBLASLT11=$CUDX_PKG_CACHE/libcublaslt11/root/usr/lib/x86_64-linux-gnu
}

@test "why libcudnn.so.8: only cuDNN 9 exists, and where" {
	[ -e "$CUDNN" ] || skip_fixture "no cuDNN 9 in /usr/local/cuda"
	run_strict "$CUDX" --json why libcudnn.so.8
	[ "$status" -eq 1 ]
	echo "$output" | jq -e '.resolved == null and .how == null'
	echo "$output" | jq -e '.findings | map(.id) | index("lib-wrong-major") != null'
	echo "$output" | jq -e '[.other_copies[] | select(.relation == "other major") | .soname] | index("libcudnn.so.9") != null'
	echo "$output" | jq -e '.candidates | length > 2 and all(.taken == false)'
	run_strict "$CUDX" why libcudnn.so.8
	[[ "$output" == *"only libcudnn.so.9 (major 9) exists"* ]]
}

@test "why: LD_LIBRARY_PATH wins and is named as the reason" {
	[ -e "$CUDNN" ] || skip_fixture "no cuDNN 9 in /usr/local/cuda"
	LD_LIBRARY_PATH=/nonexistent:/usr/local/cuda/lib64 run_strict "$CUDX" --json why libcudnn.so.9
	[ "$status" -eq 0 ]
	echo "$output" | jq -e '.how == "ld_library_path" and .resolved == "/usr/local/cuda/lib64/libcudnn.so.9"'
	echo "$output" | jq -e '.candidates[0].taken == false and .candidates[-1].taken == true'
}

@test "tree libcudnn.so.9 shows the run-time loaded sub-libraries" {
	[ -e "$CUDNN" ] || skip_fixture "no cuDNN 9 in /usr/local/cuda"
	run_strict "$CUDX" --json tree "$CUDNN"
	echo "$output" | jq -e '[.edges[] | select(.runtime and .to != null) | .name] | index("libcudnn_graph.so.9") != null'
	echo "$output" | jq -e '[.edges[] | select(.runtime and .to != null) | .name] | index("libcudnn_engines_precompiled.so.9") != null'
	run_strict "$CUDX" tree "$CUDNN"
	[[ "$output" == *"libcudnn_ops.so.9 [dlopen, runpath]"* ]]
}

@test "tree --no-dlopen matches the NEEDED closure only" {
	[ -e "$CUDNN" ] || skip_fixture "no cuDNN 9 in /usr/local/cuda"
	run_strict "$CUDX" --json tree --no-dlopen "$CUDNN"
	[ "$status" -eq 0 ]
	echo "$output" | jq -e '[.edges[] | select(.runtime)] | length == 0'
	echo "$output" | jq -e '.missing == 0'
}

@test "check: CUDA 11 cuBLAS without its cuBLASLt is lib-wrong-major (only 13 exists)" {
	[ -e "$CUBLAS11/libcublas.so.11" ] || skip_fixture "package libcublas11 not in CUDX_PKG_CACHE"
	[ -e /usr/local/cuda/lib64/libcublasLt.so.13 ] || skip_fixture "no cuBLASLt 13"
	LD_LIBRARY_PATH=$CUBLAS11 run_strict "$CUDX" --json --no-probe check
	echo "$output" | jq -e '[.findings[] | select(.id == "lib-wrong-major") | .summary] | any(test("libcublasLt.so.11"))'
}

@test "check: with its cuBLASLt on the path there is no loader finding" {
	[ -e "$CUBLAS11/libcublas.so.11" ] || skip_fixture "package libcublas11 not in CUDX_PKG_CACHE"
	[ -e "$CUBLASLT11" ] || skip_fixture "package libcublaslt11 not in CUDX_PKG_CACHE"
	LD_LIBRARY_PATH=$CUBLAS11:$CUBLASLT11 run_strict "$CUDX" --json --no-probe check
	# both were found on the path (so their edges were resolved)
	[ "$(lib_field "$CUBLAS11/libcublas.so.11" origin)" = LD_LIBRARY_PATH ]
	[ "$(lib_field "$CUBLASLT11/libcublasLt.so.11" origin)" = LD_LIBRARY_PATH ]
	# the loader family's ids (the libs family's lib-damaged/lib-broken-symlink are about files)
	echo "$output" | jq -e '[.findings[] | select(.id | test("^lib-(not-found|wrong-major|wrong-arch|symbol-version-missing|shadowed)$|^ldcache-"))] | length == 0'
}

@test "why on a --root tree without a cache searches the root's default dirs" {
	root=$(mktemp -d)
	mkdir -p "$root/usr/lib/x86_64-linux-gnu" "$root/bin"
	cp /bin/sh "$root/bin/sh"
	# libz and what it needs: why judges the file's own dependencies too (issue 12)
	cp /lib/x86_64-linux-gnu/libz.so.1 /lib/x86_64-linux-gnu/libc.so.6 "$root/usr/lib/x86_64-linux-gnu/"
	run_strict "$CUDX" --json --root "$root" why libz.so.1
	rm -rf "$root"
	[ "$status" -eq 0 ]
	echo "$output" | jq -e '.how == "default" and .resolved == "/usr/lib/x86_64-linux-gnu/libz.so.1"'
}

@test "why: a file found whose own dependency is missing fails to load: lib-not-found, exit 1" {
	root=$(mktemp -d)
	mkdir -p "$root/usr/lib/x86_64-linux-gnu" "$root/lib64"
	# the interpreter without libc.so.6: a C library with a hole (a tree with no C library at all
	# gives one no-libc note instead, loader_interp.bats)
	cp /lib/x86_64-linux-gnu/libz.so.1 "$root/usr/lib/x86_64-linux-gnu/"
	cp -L /lib64/ld-linux-x86-64.so.2 "$root/lib64/"
	run_strict "$CUDX" --json --root "$root" why libz.so.1
	rm -rf "$root"
	[ "$status" -eq 1 ]
	echo "$output" | jq -e '.resolved == "/usr/lib/x86_64-linux-gnu/libz.so.1"'
	echo "$output" | jq -e '.findings[] | select(.id == "lib-not-found") | .summary | test("libc.so.6.*needed by /usr/lib/x86_64-linux-gnu/libz.so.1")'
}

# musl's linker (Alpine) keeps no ld.so.cache and searches /etc/ld-musl-ARCH.path's directories, else
# /lib:/usr/local/lib:/usr/lib: a library in /usr/lib64 is off its path, which glibc's rules for the
# same tree would search; a glibc interpreter beside musl's keeps glibc's rules
@test "why on a musl tree: musl's directories, /etc/ld-musl-x86_64.path, no cache; glibc's rules where glibc is" {
	root=$(mktemp -d)
	mkdir -p "$root/lib" "$root/usr/lib64" "$root/bin" "$root/etc"
	cp /bin/sh "$root/bin/sh"
	: >"$root/lib/ld-musl-x86_64.so.1"
	echo 'int foo(void) { return 1; }' >"$root/foo.c"
	cc -shared -fPIC -nostdlib -o "$root/usr/lib64/libfoo.so.1" "$root/foo.c" -Wl,-soname,libfoo.so.1
	run "$CUDX" --json --root "$root" why libfoo.so.1
	[ "$status" -eq 1 ]
	echo "$output" | jq -e '.resolved == null'
	echo "$output" | jq -e '[.findings[] | select(.id == "lib-not-found") | .summary | test("musl")] | any'
	# an ld.so.conf naming the directory changes nothing: musl reads no cache (no "sudo ldconfig")
	echo /usr/lib64 >"$root/etc/ld.so.conf"
	run "$CUDX" --json --root "$root" why libfoo.so.1
	[ "$status" -eq 1 ]
	echo "$output" | jq -e '[.findings[] | select(.id == "lib-not-found") | .fix | join(" ") | test("ldconfig")] | any | not'
	echo "$output" | jq -e '[.findings[] | select(.id == "lib-not-found") | .fix | join(" ") | test("/etc/ld-musl-x86_64.path")] | any'
	printf '/lib\n/usr/lib64\n' >"$root/etc/ld-musl-x86_64.path"
	run_strict "$CUDX" --json --root "$root" why libfoo.so.1
	[ "$status" -eq 0 ]
	echo "$output" | jq -e '.how == "default" and .resolved == "/usr/lib64/libfoo.so.1"'
	# a path file that names no directory: musl searches none, not its defaults
	mkdir -p "$root/usr/lib"
	cp "$root/usr/lib64/libfoo.so.1" "$root/usr/lib/"
	: >"$root/etc/ld-musl-x86_64.path"
	run "$CUDX" --json --root "$root" why libfoo.so.1
	[ "$status" -eq 1 ]
	rm "$root/etc/ld-musl-x86_64.path" "$root/usr/lib/libfoo.so.1"
	mkdir -p "$root/lib64"
	cp -L /lib64/ld-linux-x86-64.so.2 "$root/lib64/"
	run "$CUDX" --json --root "$root" why libfoo.so.1
	rm -rf "$root"
	echo "$output" | jq -e '.resolved == "/usr/lib64/libfoo.so.1"'
}
