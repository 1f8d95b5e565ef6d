#!/usr/bin/env bats
# The program interpreter and trees without a C library. glibc's ld.so is in every process before
# anything else, so a NEEDED ld-linux-x86-64.so.2 is "already loaded", never searched. An image
# layer (or a copied lib directory) that holds only CUDA libraries has no C library at all: that
# is one note for the tree, not a lib-not-found for libc.so.6, libm.so.6, ... of every library,
# while a missing library of the tree's own is still an error.

load lib/sysroot

setup() {
	need_cuda13
	root=$(mktemp -d "${BATS_TMPDIR:-/tmp}/cudx-nolibc.XXXXXX")
	mkdir -p "$root/etc"
	env_file="$root.env"
	: >"$env_file"
}

teardown() {
	teardown_root
}

ids_count() { # ID -> how many findings have it
	finding_ids | grep -cx -- "$1" || true
}

@test "check, CUDA 13 libraries without a C library: one no-libc note, the missing cuBLASLt still an error" {
	add_cuda13 "$root" libcudart.so.13 libcublas.so.13
	run_cudx --root "$root" --env "$env_file" --json
	[ "$status" -eq 1 ]
	[ "$(ids_count no-libc)" -eq 1 ]
	[ "$(finding_severity no-libc)" = info ]
	py 'f = next(f for f in r["findings"] if f["id"] == "no-libc"); print(f["summary"])' |
		grep -q 'no C library: the program interpreter /lib64/ld-linux-x86-64.so.2 is not in the tree'
	py 'f = next(f for f in r["findings"] if f["id"] == "no-libc"); print("\n".join(f["evidence"]))' |
		grep -qx '/usr/local/cuda/lib64/libcu[a-zA-Z]*\.so\.13 needs libc\.so\.6'
	# the one real gap of the tree: libcublas.so.13 needs libcublasLt.so.13
	[ "$(ids_count lib-not-found)" -eq 1 ]
	py 'print(next(f["summary"] for f in r["findings"] if f["id"] == "lib-not-found"))' | grep -q '^libcublasLt.so.13: '
}

@test "check, the same tree with its cuBLASLt: no error at all, exit 0" {
	add_cuda13 "$root" libcudart.so.13 libcublas.so.13 libcublasLt.so.13
	run_cudx --root "$root" --env "$env_file" --json
	[ "$status" -eq 0 ]
	[ "$(ids_count no-libc)" -eq 1 ]
	no_error_findings
}

@test "tree without a C library: base libraries marked, one no-libc finding, exit 0" {
	add_cuda13 "$root" libcudart.so.13
	run_strict "$CUDX" --root "$root" --json tree --no-dlopen /usr/local/cuda-13.0/lib/libcudart.so.13
	[ "$status" -eq 0 ]
	[ "$(finding_ids)" = no-libc ]
	[ "$(json_get '["missing"]')" = 0 ]
	# every NEEDED of cudart is glibc's: libc, ld-linux, libdl, libpthread, librt
	[ "$(py 'print(sum(e["to"] is None for e in r["edges"]))')" -eq 5 ]
	run_strict "$CUDX" --root "$root" --no-color tree --no-dlopen /usr/local/cuda-13.0/lib/libcudart.so.13
	[[ "$output" == *"libc.so.6 not found (no C library in the tree)"* ]]
	[[ "$output" == *"info    no-libc: no C library"* ]]
}

# A musl system (Alpine) has a C library, musl's, but not glibc's interpreter: the NVIDIA runtime's
# glibc-built nvidia-smi and libcuda cannot run there, an error (glibc-on-musl), not a layer's note
@test "check, CUDA 13 libraries on a musl system: glibc-on-musl, an error naming musl's linker, and no no-libc note" {
	add_cuda13 "$root" libcudart.so.13 libcublas.so.13 libcublasLt.so.13
	mkdir -p "$root/lib"
	: >"$root/lib/ld-musl-x86_64.so.1"
	run_cudx --root "$root" --env "$env_file" --json
	[ "$status" -eq 1 ]
	[ "$(ids_count glibc-on-musl)" -eq 1 ]
	[ "$(finding_severity glibc-on-musl)" = error ]
	lacks_finding no-libc
	py 'f = next(f for f in r["findings"] if f["id"] == "glibc-on-musl"); print("\n".join(f["evidence"]))' |
		grep -qx '/lib/ld-musl-x86_64.so.1 is musl.s dynamic linker'
	py 'f = next(f for f in r["findings"] if f["id"] == "glibc-on-musl"); print("\n".join(f["evidence"]))' |
		grep -qx '/usr/local/cuda/lib64/libcu[a-zA-Z]*\.so\.13 needs libc\.so\.6'
	# bash's word for a program that cannot start: on this tree, the glibc program on musl first
	run_strict "$CUDX" --root "$root" --env "$env_file" explain --no-probe --json '/usr/bin/nvidia-smi: No such file or directory'
	[ "$(py 'print(r["causes"][0]["id"])')" = glibc-on-musl ]
	# glibc's interpreter beside musl's (gcompat, a glibc layer): glibc's rules, neither finding
	mkdir -p "$root/lib64"
	cp -L /lib64/ld-linux-x86-64.so.2 "$root/lib64/"
	run_cudx --root "$root" --env "$env_file" --json
	lacks_finding glibc-on-musl
	lacks_finding no-libc
	# and explain rules the glibc program on musl out
	run_strict "$CUDX" --root "$root" --env "$env_file" explain --no-probe --json '/usr/bin/nvidia-smi: No such file or directory'
	[ "$(py 'print(next(c["confidence"] for c in r["causes"] if c["id"] == "glibc-on-musl"))')" = ruled-out ]
}

@test "with the C library, ld-linux-x86-64.so.2 is already loaded (the interpreter) and there is no note" {
	rm -rf "$root"
	root=$(mkroot)
	add_cuda13 "$root" libcudart.so.13
	run_strict "$CUDX" --root "$root" --json tree --no-dlopen /usr/local/cuda-13.0/lib/libcudart.so.13
	[ "$status" -eq 0 ]
	[ -z "$(finding_ids)" ]
	[ "$(py 'print(" ".join(sorted({e["how"] for e in r["edges"] if e["name"] == "ld-linux-x86-64.so.2"})))')" = already_loaded ]
	# the interpreter is object 1, right after the library taken as the program
	[ "$(py 'print(r["objects"][1]["path"])')" = /lib64/ld-linux-x86-64.so.2 ]
	run_cudx --root "$root" --env "$env_file" --json
	lacks_finding no-libc
	has_finding no-driver
}

# A program with its own glibc (Nix's /nix/store/...-glibc/lib/ld-linux-x86-64.so.2, Guix, /opt):
# that ld.so reads its own prefix's etc/ld.so.cache and searches its own lib, never the system's
@test "why, a program whose interpreter is another glibc's: the system's directories are not searched, and the finding says so" {
	root=$(mkroot)
	env_file="$root.env"
	: >"$env_file"
	local g=/opt/glibc-2.39
	mkdir -p "$root$g/lib" "$root/opt/app/bin"
	hostfile "/$MULTIARCH/ld-linux-x86-64.so.2" "$root$g/lib/ld-linux-x86-64.so.2"
	hostfile "/$MULTIARCH/libc.so.6" "$root$g/lib/libc.so.6"
	fake_lib "$root" "$MULTIARCH/libcudx_probe_dep.so.1" libcudx_probe_dep.so.1
	src="$BATS_TEST_TMPDIR/app.c"
	echo 'int main(void) { return 0; }' >"$src"
	cc -o "$root/opt/app/bin/sysapp" "$src"
	cc -o "$root/opt/app/bin/ownapp" "$src" -Wl,--dynamic-linker=$g/lib/ld-linux-x86-64.so.2 \
		-Wl,--enable-new-dtags,-rpath,$g/lib
	# the system's program finds the library in a default directory
	run_strict "$CUDX" why --root "$root" --env "$env_file" --json libcudx_probe_dep.so.1 --from /opt/app/bin/sysapp
	[ "$(jq -r '.resolved' <<<"$output")" = "/$MULTIARCH/libcudx_probe_dep.so.1" ]
	# the one under its own glibc does not, and is told why
	run_strict -1 "$CUDX" why --root "$root" --env "$env_file" --json libcudx_probe_dep.so.1 --from /opt/app/bin/ownapp
	[ "$(jq -r '.resolved' <<<"$output")" = null ]
	[[ "$(jq -r '.findings[] | select(.id == "lib-not-found") | .summary' <<<"$output")" == *"outside the search of a program with its own glibc ($g)"* ]]
	[[ "$(jq -r '.findings[] | select(.id == "lib-not-found") | .fix | join("\n")' <<<"$output")" == *"LD_LIBRARY_PATH=/$MULTIARCH"* ]]
	rm -rf "$root" "$env_file"
}
