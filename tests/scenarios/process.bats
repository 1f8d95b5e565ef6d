#!/usr/bin/env bats
# --pid: the libraries a running process really has mapped, and its environment.

load lib/sysroot

setup() {
	dir=$(mktemp -d "${BATS_TMPDIR:-/tmp}/cudx-pid.XXXXXX")
	command -v cc >/dev/null || skip_fixture "needs a C compiler"
	# two cuDNN 8 sub-libraries from different releases, as a framework's bundled copy and a
	# system copy would be
	echo 'int cudnn_fake_a(void) { return 1; }' >"$dir/a.c"
	echo 'int cudnn_fake_b(void) { return 2; }' >"$dir/b.c"
	mkdir -p "$dir/bundled" "$dir/system"
	cc -shared -fPIC -o "$dir/bundled/libcudnn_ops_infer.so.8.9.7" "$dir/a.c" -Wl,-soname,libcudnn_ops_infer.so.8
	cc -shared -fPIC -o "$dir/system/libcudnn_cnn_infer.so.8.6.0" "$dir/b.c" -Wl,-soname,libcudnn_cnn_infer.so.8
	cat >"$dir/host.c" <<'C'
#include <dlfcn.h>
#include <stdio.h>
#include <unistd.h>
int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++)
		if (!dlopen(argv[i], RTLD_NOW)) { fprintf(stderr, "%s\n", dlerror()); return 1; }
	puts("ready");
	fflush(stdout);
	sleep(60);
	return 0;
}
C
	cc -o "$dir/host" "$dir/host.c" -ldl
}

teardown() {
	[ -n "${pid:-}" ] && kill "$pid" 2>/dev/null
	rm -rf "$dir"
}

start_host() {
	CUDA_VISIBLE_DEVICES=-1 "$dir/host" "$@" >"$dir/out" 2>&1 &
	pid=$!
	for _ in $(seq 50); do grep -q ready "$dir/out" 2>/dev/null && return 0; sleep 0.1; done
	cat "$dir/out"
	return 1
}

@test "--pid: two cuDNN 8 releases mapped into one process is process-mixed-libs" {
	start_host "$dir/bundled/libcudnn_ops_infer.so.8.9.7" "$dir/system/libcudnn_cnn_infer.so.8.6.0"
	run_cudx --pid "$pid" --json
	has_finding process-mixed-libs
	[ "$(finding_severity process-mixed-libs)" = error ]
	[[ "$output" == *"libcudnn_ops_infer.so.8.9.7"* && "$output" == *"8.6.0"* ]]
	# the process's own environment is the one judged
	has_finding cuda-visible-devices-hides
	[[ "$output" == *"\"env_origin\": \"pid $pid\""* ]]
}

@test "--pid: one release mapped: no process-mixed-libs" {
	start_host "$dir/bundled/libcudnn_ops_infer.so.8.9.7"
	run_cudx --pid "$pid" --json
	lacks_finding process-mixed-libs
	[[ "$output" == *"loaded_by_process"*"libcudnn_ops_infer.so.8.9.7"* ]]
	# the text report lists what the process mapped too, with the version its file name carries
	run_cudx --pid "$pid"
	[[ "$output" == *"Mapped by pid $pid (/proc/$pid/maps)"* ]]
	echo "$output" | grep -Eq "^  cudnn_ops_infer +8\.9\.7 +$dir/bundled/libcudnn_ops_infer\.so\.8\.9\.7\$"
}

@test "--pid of a process that does not exist is a usage error" {
	run_strict -2 "$CUDX" --no-probe --pid 999999999
	[ "$status" -eq 2 ]
	[[ "$output" == *"--pid"* ]]
}

# Seen on an H100 under PyTorch cu130: libnvrtc.so.13 (13.0.88) with its libnvrtc-builtins.so.13.0
# ("13.0" from the name) is one release, not two; 13.1 builtins beside 13.0.88 is two
@test "--pid: nvrtc 13.0.88 with its builtins 13.0 is one release; with builtins 13.1, process-mixed-libs" {
	echo 'int nvrtc_fake_a(void) { return 1; }' >"$dir/n.c"
	cc -shared -fPIC -o "$dir/bundled/libnvrtc.so.13.0.88" "$dir/n.c" -Wl,-soname,libnvrtc.so.13
	cc -shared -fPIC -o "$dir/bundled/libnvrtc-builtins.so.13.0" "$dir/n.c" -Wl,-soname,libnvrtc-builtins.so.13.0
	cc -shared -fPIC -o "$dir/system/libnvrtc-builtins.so.13.1" "$dir/n.c" -Wl,-soname,libnvrtc-builtins.so.13.1
	start_host "$dir/bundled/libnvrtc.so.13.0.88" "$dir/bundled/libnvrtc-builtins.so.13.0"
	run_cudx --pid "$pid" --json
	lacks_finding process-mixed-libs
	kill "$pid"
	start_host "$dir/bundled/libnvrtc.so.13.0.88" "$dir/system/libnvrtc-builtins.so.13.1"
	run_cudx --pid "$pid" --json
	has_finding process-mixed-libs
}

# A wheel's library mapped by the process: its version is the one the wheel's dist-info gives
# (on an H100 the mapped nvidia/cu13 libraries showed "12.x": the process was read before the
# Python environments)
@test "--pid: a mapped pip-wheel library shows the wheel's version" {
	# shellcheck source=../fixtures/python/mkpy.sh
	source "${CUDX_SRC:-$BATS_TEST_DIRNAME/../..}/tests/fixtures/python/mkpy.sh"
	site=$(mkpy_venv "$dir" /venv 3.11)
	echo 'int cusolver_fake(void) { return 1; }' >"$dir/s.c"
	cc -shared -fPIC -o "$dir/libcusolver.so.12" "$dir/s.c" -Wl,-soname,libcusolver.so.12
	mkpy_nvidia "$site" nvidia_cusolver 12.0.4.66 nvidia/cu13/lib "$dir/libcusolver.so.12"
	start_host "$site/nvidia/cu13/lib/libcusolver.so.12"
	run_cudx --pid "$pid" --python "$dir/venv"
	echo "$output" | grep -Eq "^  cusolver +12\.0\.4\.66 +$site/nvidia/cu13/lib/libcusolver\.so\.12\$"
}
