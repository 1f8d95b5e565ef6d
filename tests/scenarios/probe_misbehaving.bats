#!/usr/bin/env bats
# Vendor code that crashes, hangs or calls exit() must never take cudx down: each becomes
# probe-crashed / probe-timeout with the step it was in, and the rest is still reported. The
# misbehaving library is a TEST DOUBLE of libcuda.so.1 built here (tests/doubles/).

load probe_lib

setup_file() {
	export DBL="$BATS_FILE_TMPDIR/doubles"
	"$CUDX_SRC/tests/doubles/build.sh" "$DBL"
}

@test "a libcuda that segfaults in cuInit: probe-crashed (SIGSEGV, in cuInit); NVML still probed" {
	CUDX_DOUBLE_CRASH=segv probe_json "$DBL" --stages driver,nvml
	[ "$status" -eq 1 ]
	has_finding probe-crashed
	[ "$(run_end driver)" = crashed ]
	[ "$(run_last_step driver)" = cuInit ]
	py 'print(next(f["summary"] for f in r["findings"] if f["id"]=="probe-crashed"))' | grep -q 'crashed with signal 11 (SIGSEGV) in cuInit'
	[ "$(run_end nvml)" = done ]
	[ "$(fact nvml driver_version)" = 580.65.06 ]
}

@test "a libcuda that aborts: probe-crashed (SIGABRT)" {
	CUDX_DOUBLE_CRASH=abort probe_json "$DBL" --stages driver
	has_finding probe-crashed
	py 'print(next(x["signal"] for x in r["probe"]["runs"] if x["stage"]=="driver"))' | grep -qx 6
}

@test "a libcuda that calls exit() in its constructor: probe-crashed at its load" {
	CUDX_DOUBLE_CTOR_EXIT=1 probe_json "$DBL" --stages driver,nvml
	has_finding probe-crashed
	[ "$(run_end driver)" = exited ]
	[ "$(run_last_step driver)" = "load libcuda.so.1" ]
	py 'print(next(x["exit_status"] for x in r["probe"]["runs"] if x["stage"]=="driver"))' | grep -qx 3
	[ "$(run_end nvml)" = done ]
}

@test "a libcuda that calls exit(0)-like exit in cuInit: probe-crashed, not a silent success" {
	CUDX_DOUBLE_CRASH=exit probe_json "$DBL" --stages driver
	has_finding probe-crashed
	[ "$(run_last_step driver)" = cuInit ]
}

@test "a libcuda that hangs in cuInit: probe-timeout within the limit; cudx check reports everything else" {
	local t0=$SECONDS
	run_strict env CUDX_DOUBLE_CRASH=hang LD_LIBRARY_PATH="$DBL" "$CUDX" check --json --probe-timeout 2
	[ "$status" -eq 1 ]
	[ $((SECONDS - t0)) -lt 15 ]
	has_finding probe-timeout
	py 'print(next(f["summary"] for f in r["findings"] if f["id"]=="probe-timeout"))' | grep -q 'stuck in cuInit'
	# the rest of the report is there
	py 'print("inventory" in r and bool(r["inventory"]))' | grep -qx True
}

@test "vendor output on stdout/stderr does not reach the report" {
	CUDX_DOUBLE_CHATTER=1 CUDX_DOUBLE_CRASH=abort probe_json "$DBL" --stages driver
	[[ "$output" != *chatter* ]]
	# --json output is still one JSON document (run_strict parsed it whole), with the crash in it
	has_finding probe-crashed
	run_strict env CUDX_DOUBLE_CHATTER=1 LD_LIBRARY_PATH="$DBL" "$CUDX" probe --stages driver
	[[ "$output" != *chatter* ]]
	[[ "$output" == *"driver libcuda.so.1"*"cuInit"* ]]
}
