#!/usr/bin/env bats
# The live probe against genuine NVIDIA libraries on a machine without a GPU (as CI is): Debian's
# driver 535 and 470 libcuda, the CUDA 13 toolkit's cudart and stub, Debian's cudart 11.8. The codes
# asserted here were first observed by hand on this machine (see docs/probe.md).

load probe_lib

@test "driver 535 libcuda + cudart 13: cudart returns 35 and the probe says driver-too-old" {
	need_dir "$D535" "Debian package libcuda1"
	need_cuda13
	probe_json "$D535:$CUDA13/lib" --stages driver,runtime --cudart libcudart.so.13
	[ "$(fact driver driver_cuda_version)" = 12020 ]
	has_code runtime 35
	has_finding driver-too-old
	evidence driver-too-old | grep -q 'cuDriverGetVersion = 12020 (CUDA 12.2)'
	evidence driver-too-old | grep -q 'cudaRuntimeGetVersion = 13000 (CUDA 13.0)'
	# the exact file loaded, from the link map, not the name asked for
	py 'print(next(s["library"] for s in r["probe"]["steps"] if s["step"]=="load libcuda.so.1"))' | grep -q 'libcuda.so.535.309.01$'
}

@test "CUDA 13 stub libcuda: every call returns 34 and the probe says stub-libcuda" {
	need_cuda13
	[ -e "$CUDA13/lib/stubs/libcuda.so" ] || skip_fixture "needs $CUDA13/lib/stubs/libcuda.so"
	mkdir -p "$BATS_TEST_TMPDIR/stub"
	ln -s "$CUDA13/lib/stubs/libcuda.so" "$BATS_TEST_TMPDIR/stub/libcuda.so.1"
	probe_json "$BATS_TEST_TMPDIR/stub:$CUDA13/lib" --stages driver,runtime --cudart libcudart.so.13
	has_code driver 34
	has_code runtime 34
	has_finding stub-libcuda
	lacks_finding driver-too-old
	evidence stub-libcuda | grep -q 'stubs/libcuda.so'
}

@test "driver 535 libcuda + cudart 11.8: 100 and no-device (not driver-too-old)" {
	need_dir "$D535" "Debian package libcuda1"
	need_dir "$RT11" "Debian package libcudart11.0"
	probe_json "$D535:$RT11" --stages driver,runtime --cudart libcudart.so.11.0
	has_code runtime 100
	has_finding no-device
	lacks_finding driver-too-old
	py 'print(next(s["library"] for s in r["probe"]["steps"] if s["stage"]=="runtime" and s["step"].startswith("load")))' | grep -q 'libcudart.so.11.8.89$'
}

@test "driver 470 libcuda + cudart 11.8 (minor-version compatibility): not driver-too-old" {
	need_dir "$D470" "Debian package libnvidia-tesla-470-cuda1"
	need_dir "$RT11" "Debian package libcudart11.0"
	probe_json "$D470:$RT11" --stages driver,runtime --cudart libcudart.so.11.0
	[ "$(fact driver driver_cuda_version)" = 11040 ]
	has_code runtime 100
	lacks_finding driver-too-old
	has_finding no-device
}

@test "no libcuda anywhere + cudart 13: 35 with driver version 0 is no-driver, not driver-too-old" {
	need_cuda13
	need_no_system_libcuda
	probe_json "$CUDA13/lib" --stages driver,runtime --cudart libcudart.so.13
	has_code runtime 35
	[ "$(fact runtime driver_cuda_version)" = 0 ]
	has_finding no-driver
	lacks_finding driver-too-old
	[ "$(step_outcome driver 'load libcuda.so.1')" = missing ]
}

@test "no-device names its reason: CUDA_VISIBLE_DEVICES from the environment" {
	need_dir "$D535" "Debian package libcuda1"
	run_strict env CUDA_VISIBLE_DEVICES=-1 LD_LIBRARY_PATH="$D535" "$CUDX" probe --json --stages driver
	has_finding no-device
	evidence no-device | grep -q 'CUDA_VISIBLE_DEVICES=-1'
}

@test "cudx check runs the probe (its evidence joins the findings); --no-probe and --root do not" {
	need_dir "$D535" "Debian package libcuda1"
	need_cuda13
	run_strict env LD_LIBRARY_PATH="$D535:$CUDA13/lib" "$CUDX" check --json --probe-timeout 10
	[ "$status" -eq 1 ]
	evidence driver-too-old | grep -q '^probe: '
	run_strict env LD_LIBRARY_PATH="$D535:$CUDA13/lib" "$CUDX" check --json --no-probe
	[ -z "$(evidence driver-too-old | grep '^probe: ')" ]
	mkdir -p "$BATS_TEST_TMPDIR/root/etc"
	run_strict -2 "$CUDX" --root "$BATS_TEST_TMPDIR/root" probe
	[ "$status" -eq 2 ]
	[[ "$output" == *"only on the live system"* ]]
}

@test "text output names each step, its code and the file loaded" {
	need_dir "$D535" "Debian package libcuda1"
	need_cuda13
	run_strict env LD_LIBRARY_PATH="$D535:$CUDA13/lib" NO_COLOR=1 "$CUDX" probe --stages driver,runtime --cudart libcudart.so.13
	[ "$status" -eq 1 ]
	[[ "$output" == *"cudaGetDeviceCount"*"35 cudaErrorInsufficientDriver"* ]]
	[[ "$output" == *"libcuda.so.535.309.01"* ]]
	[[ "$output" == *"driver-too-old"* ]]
}
