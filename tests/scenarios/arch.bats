#!/usr/bin/env bats
# cudx arch FILE... and the arch findings of check, on real NVIDIA libraries and on objects built
# with nvcc 13 during the test.

load lib/sysroot

CUBLAS13=/usr/local/cuda/lib64/libcublas.so.13

setup() {
	work=$(mktemp -d)
}

teardown() {
	rm -rf "$work"
	[ -z "${root:-}" ] || rm -rf "$root" "$root.env"
}

need_file() {
	[ -r "$1" ] || skip_fixture "needs $1"
}

nvcc_build() { # OUT GENCODE...
	local out=$1
	shift
	[ -x /usr/local/cuda/bin/nvcc ] || skip_fixture "needs nvcc 13 at /usr/local/cuda/bin/nvcc"
	/usr/local/cuda/bin/nvcc -c "$@" "$CUDX_SRC/tests/fixtures/arch/kernel.cu" -o "$out" >"$work/nvcc.log" 2>&1 ||
		skip_fixture "nvcc cannot compile here: $(tail -1 "$work/nvcc.log")"
}

@test "arch lists cuBLAS 13's SASS and PTX targets like cuobjdump would" {
	need_file "$CUBLAS13"
	run_cudx arch "$CUBLAS13" --json
	[ "$status" -eq 0 ]
	[ "$(json_get '["files"][0]["fatbins"]')" = 193 ]
	[ "$(json_get '["files"][0]["sass"]' | python3 -c 'import json,sys; print(" ".join(t["target"] for t in json.load(sys.stdin)))')" = "sm_75 sm_80 sm_86 sm_90 sm_100 sm_120" ]
	[ "$(json_get '["files"][0]["ptx"][0]["target"]')" = compute_120 ]
	[ "$(json_get '["files"][0]["ptx"][0]["ptx_isa"]')" = 9.0 ]
	[ "$(json_get '["files"][0]["compression"]["zstd"]')" = 1257 ]
}

@test "arch: Pascal with CUDA 13 cuBLAS has no kernel image; Ampere and Ada run it natively" {
	need_file "$CUBLAS13"
	run_cudx arch "$CUBLAS13" --gpu sm_61 --gpu sm_86 --gpu "RTX 4090" --json
	[ "$status" -eq 1 ]
	has_finding no-kernel-image
	[ "$(json_get '["files"][0]["verdicts"][0]["verdict"]')" = no-kernel-image ]
	[ "$(json_get '["files"][0]["verdicts"][1]["verdict"]')" = native ]
	[ "$(json_get '["files"][0]["verdicts"][2]["gpu"]')" = sm_89 ]
	[ "$(json_get '["files"][0]["verdicts"][2]["sass"]')" = sm_86 ]
	[[ "$(json_get '["findings"][0]["evidence"]')" == *"$CUBLAS13: 193 fat binaries"* ]]
}

@test "arch text output names the verdict per GPU" {
	need_file "$CUBLAS13"
	run_cudx arch "$CUBLAS13" --gpu sm_90
	[ "$status" -eq 0 ]
	[[ "$output" == *"SASS   sm_75 x190  sm_80 x191  sm_86 x114  sm_90 x191  sm_100 x191  sm_120 x192"* ]]
	[[ "$output" == *"on sm_90: native (SASS sm_90"* ]]
}

@test "arch: sm_90a code runs on sm_90 but not on sm_100" {
	nvcc_build "$work/a.o" -gencode arch=compute_90a,code=sm_90a
	run_cudx arch "$work/a.o" --gpu sm_90 --gpu sm_100 --json
	[ "$status" -eq 1 ]
	[ "$(json_get '["files"][0]["sass"][0]["target"]')" = sm_90a ]
	[ "$(json_get '["files"][0]["verdicts"][0]["verdict"]')" = native ]
	[ "$(json_get '["files"][0]["verdicts"][1]["verdict"]')" = no-kernel-image ]
}

@test "arch: PTX-only compute_80 runs on sm_120 through JIT; a 12.2 driver cannot read PTX ISA 9.0" {
	nvcc_build "$work/p.o" -gencode arch=compute_80,code=compute_80
	run_cudx arch "$work/p.o" --gpu sm_120 --json
	[ "$status" -eq 0 ]
	has_finding ptx-jit-only
	[ "$(json_get '["files"][0]["verdicts"][0]["verdict"]')" = ptx-jit ]
	[ "$(json_get '["files"][0]["verdicts"][0]["jit_needs_cuda"]')" = 13.0 ]
	run_cudx arch "$work/p.o" --gpu sm_120 --driver 535.104.05 --json
	[ "$status" -eq 1 ]
	has_finding no-kernel-image
	[ "$(json_get '["files"][0]["verdicts"][0]["driver_ok"]')" = False ]
	run_cudx arch "$work/p.o" --gpu sm_120 --driver 580.65.06 --json
	[ "$status" -eq 0 ]
	[ "$(json_get '["files"][0]["verdicts"][0]["driver_ok"]')" = True ]
}

@test "arch: a PTX file from nvcc -ptx is judged like PTX in a fat binary (target, ISA, driver)" {
	[ -x /usr/local/cuda/bin/nvcc ] || skip_fixture "needs nvcc 13 at /usr/local/cuda/bin/nvcc"
	/usr/local/cuda/bin/nvcc -ptx -arch=compute_80 "$CUDX_SRC/tests/fixtures/arch/kernel.cu" -o "$work/k.ptx" >"$work/nvcc.log" 2>&1 ||
		skip_fixture "nvcc cannot compile here: $(tail -1 "$work/nvcc.log")"
	run_cudx arch "$work/k.ptx" --gpu sm_90 --driver 580.65.06 --json
	[ "$status" -eq 0 ]
	[ "$(json_get '["files"][0]["ptx"][0]["target"]')" = compute_80 ]
	[ "$(json_get '["files"][0]["ptx"][0]["ptx_isa"]')" = 9.0 ]
	[ "$(json_get '["files"][0]["verdicts"][0]["verdict"]')" = ptx-jit ]
	# a driver for CUDA 12.2 cannot read PTX ISA 9.0; a GPU older than the target cannot run it
	run_cudx arch "$work/k.ptx" --gpu sm_90 --driver 535.104.05 --json
	[ "$status" -eq 1 ]
	has_finding no-kernel-image
	[ "$(json_get '["files"][0]["verdicts"][0]["driver_ok"]')" = False ]
	run_cudx arch "$work/k.ptx" --gpu sm_75 --driver 580.65.06 --json
	[ "$status" -eq 1 ]
	[ "$(json_get '["files"][0]["verdicts"][0]["verdict"]')" = no-kernel-image ]
	run_cudx arch "$work/k.ptx" --gpu sm_90 --driver 580.65.06
	[[ "$output" == *"one GPU image (PTX text)"* ]]
	[[ "$output" == *"compute_80: PTX ISA 9.0, JIT needs a driver for CUDA >= 13.0"* ]]
}

@test "arch: a host-only library has no GPU code; a missing file is an error (exit 2)" {
	need_file /usr/local/cuda/lib64/libcudart.so.13
	run_cudx arch /usr/local/cuda/lib64/libcudart.so.13 --gpu sm_86 --json
	[ "$status" -eq 0 ]
	[ "$(json_get '["files"][0]["fatbins"]')" = 0 ]
	run_cudx -2 arch "$work/nope.so"
	[ "$status" -eq 2 ]
	[[ "$output" == *"cannot open"* ]]
}

@test "arch: usage errors" {
	run_cudx -2 arch
	[ "$status" -eq 2 ]
	run_cudx -2 arch "$work/x" --gpu "no such gpu"
	[ "$status" -eq 2 ]
	[[ "$output" == *"unknown GPU"* ]]
}

@test "arch: malformed fat binaries give a warning and the rest of the report" {
	python3 - "$work/bad.bin" <<-'EOF'
	import struct, sys
	def cont(sm, lie=False):
	    ent = struct.pack('<HHIQIIHHIIIQQQ', 2, 0x0101, 64, 8, 0, 0, 8, 1, sm, 0, 0, 0x11, 0, 0) + b'\0' * 8
	    return struct.pack('<IHHQ', 0xBA55ED50, 1, 16, (1 << 40) if lie else len(ent)) + ent
	open(sys.argv[1], 'wb').write(cont(75, lie=True) + cont(86) + b'\0' * 64)
	EOF
	run_cudx arch "$work/bad.bin" --gpu sm_86 --json
	[ "$status" -eq 0 ]
	[ "$(json_get '["files"][0]["fatbins"]')" = 1 ]
	[ "$(json_get '["files"][0]["problems_total"]')" = 1 ]
	[[ "$(json_get '["files"][0]["problems"][0]')" == *"size runs past the end of the file"* ]]
}

@test "check: CUDA 13 cuBLAS on a Pascal GPU gives no-kernel-image and gpu-unsupported-by-toolkit" {
	need_cuda13
	root=$(mkroot)
	: >"$root.env"
	add_cuda13 "$root" libcudart.so.13 libcublas.so.13 libcublasLt.so.13
	run_cudx --root "$root" --env "$root.env" --gpu sm_61 --json
	[ "$status" -eq 1 ]
	has_finding no-kernel-image
	has_finding gpu-unsupported-by-toolkit
	[ "$(finding_severity no-kernel-image)" = error ]
}

@test "check: no GPU and no --gpu: the libraries are not scanned, no arch finding" {
	need_cuda13
	root=$(mkroot)
	: >"$root.env"
	add_cuda13 "$root" libcudart.so.13 libcublas.so.13
	run_cudx --root "$root" --env "$root.env" --json
	# check saw the libraries, and no GPU to judge them against
	[ "$(lib_field libcublas.so.13 component)" = cublas ]
	[ "$(json_get '["inventory"]["gpus"]')" = "[]" ]
	lacks_finding no-kernel-image
	lacks_finding ptx-jit-only
}
