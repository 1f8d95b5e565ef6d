#!/usr/bin/env bats
# cudx explain: round trips (a scenario root that reproduces a real failure, the message that
# failure prints, and explain in that root must rank the right cause first, confirmed), input
# modes, and hostile input.
load lib/sysroot

setup() {
	setup_root
}

teardown() {
	teardown_root
}

# explain MESSAGE in the scenario root, JSON out
explain_here() {
	run_strict "$CUDX" explain --no-probe --root "$root" --env "$env_file" --json "$@"
}

# first cause: id and confidence
first_cause() {
	jq -r '.causes[0].id + " " + .causes[0].confidence' <<<"$output"
}

cause_conf() {
	jq -r --arg id "$1" '[.causes[] | select(.id == $id) | .confidence][0]' <<<"$output"
}

# The CUDA runtime's text for cudaErrorInsufficientDriver (35), from cudx's own knowledge base
# when this build has `cudx kb error`, else as cudaGetErrorString prints it.
msg_35() {
	local m
	m=$("$CUDX" kb error cudart 35 --json 2>/dev/null | jq -r '.. | .text? // empty' 2>/dev/null | head -1)
	[ -n "$m" ] || m="CUDA driver version is insufficient for CUDA runtime version"
	printf '%s' "$m"
}

@test "driver 470 with the CUDA 13 runtime: error 35 is driver-too-old, confirmed" {
	need_cuda13
	install_driver_470
	add_cuda13 "$root" libcudart.so.13
	explain_here "RuntimeError: CUDA error: $(msg_35)"
	[ "$status" -eq 1 ]
	[ "$(first_cause)" = "driver-too-old high" ]
	jq -e '.category == "DRIVER_TOO_OLD"' <<<"$output"
	# the evidence is the machine's, not the catalogue's
	jq -e '.causes[0].evidence | map(test("470")) | any' <<<"$output"
}

@test "driver 535 with CUDA 11.8: error 35 cannot be this machine's, driver-too-old not confirmed" {
	install_driver_535
	need_pkg libcudart11.0
	add_pkg "$root" libcudart11.0
	explain_here "$(msg_35)"
	[ "$(jq -r '.messages[0].pattern' <<<"$output")" = insufficient-driver ]
	# a cause still, but not confirmed by this tree
	conf=$(cause_conf driver-too-old)
	[ "$conf" = low ] || [ "$conf" = medium ]
}

@test "the stubs first on LD_LIBRARY_PATH: 'CUDA driver is a stub library' is stub-libcuda" {
	need_cuda13
	install_driver_535
	add_cuda13 "$root" libcudart.so.13 stubs
	echo "LD_LIBRARY_PATH=/usr/local/cuda/lib64/stubs:/usr/local/cuda/lib64" >"$env_file"
	explain_here "Cuda Runtime (CUDA driver is a stub library)"
	[ "$(first_cause)" = "stub-libcuda high" ] || [ "$(first_cause)" = "ld-library-path-stubs high" ]
	[ "$(cause_conf stub-libcuda)" = high ]
	[ "$(cause_conf ld-library-path-stubs)" = high ]
}

@test "kernel module 550 with user-space 535: the NVML mismatch message is driver-userspace-mismatch" {
	install_driver_535
	proc_version "$root" 550.54.15
	explain_here '$ nvidia-smi
Failed to initialize NVML: Driver/library version mismatch'
	[ "$(first_cause)" = "driver-userspace-mismatch high" ]
	jq -e '.causes[0].evidence | map(test("550.54.15")) | any' <<<"$output"
}

@test "an image without a driver: nvidia-smi's message is no-driver, confirmed" {
	need_cuda13
	add_cuda13 "$root" libcudart.so.13
	explain_here "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make sure that the latest NVIDIA driver is installed and running."
	[ "$(first_cause)" = "no-driver high" ]
}

@test "a driver is loaded here: no-driver is ruled out, with the reason" {
	install_driver_535
	explain_here "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver."
	[ "$(cause_conf no-driver)" = ruled-out ]
	jq -e '.causes[] | select(.id == "no-driver") | .ruled_out_because | test("535.309.01")' <<<"$output"
	# ruled-out causes come last
	[ "$(jq -r '.causes[-1].id' <<<"$output")" = no-driver ]
}

@test "two cuDNN 8 releases: the link-time-reference error is cudnn-mixed-versions" {
	fake_lib "$root" /opt/cudnn/libcudnn.so.8.9.7 libcudnn.so.8
	ln -s libcudnn.so.8.9.7 "$root/opt/cudnn/libcudnn.so.8"
	fake_lib "$root" /opt/cudnn/libcudnn_ops_infer.so.8.9.7 libcudnn_ops_infer.so.8
	ln -s libcudnn_ops_infer.so.8.9.7 "$root/opt/cudnn/libcudnn_ops_infer.so.8"
	fake_lib "$root" /opt/cudnn/libcudnn_cnn_infer.so.8.2.4 libcudnn_cnn_infer.so.8
	ln -s libcudnn_cnn_infer.so.8.2.4 "$root/opt/cudnn/libcudnn_cnn_infer.so.8"
	echo "LD_LIBRARY_PATH=/opt/cudnn" >"$env_file"
	run_cudx check --root "$root" --env "$env_file" --json
	finding_ids | grep -qx cudnn-mixed-versions || skip_fixture "check does not report cudnn-mixed-versions in this build"
	explain_here "Could not load library libcudnn_cnn_infer.so.8. Error: /opt/cudnn/libcudnn_cnn_infer.so.8: symbol cudnnFoo, version libcudnn_ops_infer.so.8 not defined in file libcudnn_ops_infer.so.8 with link time reference"
	[ "$(first_cause)" = "cudnn-mixed-versions high" ]
}

@test "CUDA_VISIBLE_DEVICES=-1: 'no CUDA-capable device is detected' is cuda-visible-devices-hides" {
	echo "CUDA_VISIBLE_DEVICES=-1" >"$env_file"
	explain_here "THCudaCheck FAIL file=torch/csrc/cuda/Module.cpp line=109 error=38 : no CUDA-capable device is detected"
	[ "$(first_cause)" = "cuda-visible-devices-hides high" ]
}

@test "LD_LIBRARY_PATH names a removed toolkit: libcublas.so.11 not found, confirmed here" {
	echo "LD_LIBRARY_PATH=/usr/local/cuda-11.8/lib64" >"$env_file"
	explain_here "ImportError: libcublas.so.11: cannot open shared object file: No such file or directory"
	[ "$(cause_conf ld-library-path-missing-dir)" = high ]
	[[ "$(first_cause)" == *" high" ]]
}

@test "the library is on the search path here: the message came from elsewhere, inspect the process" {
	fake_lib "$root" /opt/cudnn/libcudnn.so.8.9.7 libcudnn.so.8
	ln -s libcudnn.so.8.9.7 "$root/opt/cudnn/libcudnn.so.8"
	echo "LD_LIBRARY_PATH=/opt/cudnn" >"$env_file"
	explain_here "ImportError: libcudnn.so.8: cannot open shared object file: No such file or directory"
	[ "$(cause_conf lib-not-found)" = ruled-out ]
	jq -e '.elsewhere | test("--pid")' <<<"$output"
	jq -e '.facts.library == "libcudnn.so.8" and .facts.libmajor == "8"' <<<"$output"
	run_strict "$CUDX" explain --no-probe --root "$root" --env "$env_file" "ImportError: libcudnn.so.8: cannot open shared object file"
	[[ "$output" == *"probably came from another environment"* ]]
}

@test "Windows tree missing zlibwapi.dll: error 126 for cudnn_cnn_infer64_8.dll is cudnn-zlibwapi-missing" {
	[ -f "$CUDX_SRC/tests/fixtures/windows/tree.sh" ] || skip_fixture "Windows fixtures not in this build"
	export WINFIX="$CUDX_BUILD/winfix"
	[ -f "$WINFIX/x64/cudnn_cnn_infer64_8.dll" ] || sh "$CUDX_SRC/tests/fixtures/windows/build.sh" "$WINFIX" >/dev/null 2>&1 || true
	[ -f "$WINFIX/x64/cudnn_cnn_infer64_8.dll" ] || skip_fixture "mingw-w64/lld missing: no PE fixtures"
	. "$CUDX_SRC/tests/fixtures/windows/tree.sh"
	R="$root/c"
	wintree_init "$R"
	cudnn_bin='C:\Program Files\NVIDIA\CUDNN\v8.9\bin'
	cuda11='C:\Program Files\NVIDIA GPU Computing Toolkit\CUDA\v11.8'
	wintree_put "$R" "$cudnn_bin" x64/cudnn_cnn_infer64_8.dll
	wintree_put "$R" "$cuda11\\bin" x64/cublasLt64_11.dll
	wintree_env "$env_file" "CUDA_PATH=$cuda11" "Path=C:\\Windows\\system32;C:\\Windows;$cuda11\\bin;$cudnn_bin"
	run_strict "$CUDX" check --no-probe --root "$R" --env "$env_file" --json
	finding_ids | grep -qx cudnn-zlibwapi-missing || skip_fixture "the Windows rules are not in this build"
	run_strict "$CUDX" explain --no-probe --root "$R" --env "$env_file" --json "Could not load library cudnn_cnn_infer64_8.dll. Error code 126"
	[ "$status" -eq 1 ]
	[ "$(first_cause)" = "cudnn-zlibwapi-missing high" ]
	jq -e '.category == "WIN_ZLIBWAPI"' <<<"$output"
	jq -e '.causes[0].fix | map(test("zlibwapi")) | any' <<<"$output"
	# with zlibwapi.dll added the cause is no longer confirmed
	wintree_put "$R" "$cudnn_bin" x64/zlibwapi.dll
	run_strict "$CUDX" explain --no-probe --root "$R" --env "$env_file" --json "Could not load library cudnn_cnn_infer64_8.dll. Error code 126"
	[ "$(cause_conf cudnn-zlibwapi-missing)" != high ]
}

@test "input: stdin, '-', --file, a whole log with several messages (most relevant first)" {
	log="$root.log"
	printf '%s\n' \
		"2024-01-01 I cpu_feature_guard.cc:182] This TensorFlow binary is optimized to use available CPU instructions" \
		"W dso_loader.cc:64] Could not load dynamic library 'libcudnn.so.8'; dlerror: libcudnn.so.8: cannot open shared object file" \
		"RuntimeError: CUDA error: CUDA driver version is insufficient for CUDA runtime version" >"$log"
	run_strict bash -c "'$CUDX' explain --no-probe --root '$root' --env '$env_file' --json <'$log'"
	jq -e '(.messages | length) == 3' <<<"$output"
	jq -e '.messages[0].pattern == "insufficient-driver" and .messages[2].category == "BENIGN_WARNING"' <<<"$output"
	run_strict bash -c "'$CUDX' explain --no-probe --root '$root' --env '$env_file' --json - <'$log'"
	jq -e '(.messages | length) == 3' <<<"$output"
	run_strict "$CUDX" explain --no-probe --root "$root" --env "$env_file" --file "$log"
	[[ "$output" == *"3 distinct messages recognised"* ]]
	run_strict -2 "$CUDX" explain --file /nonexistent/log
	[ "$status" -eq 2 ]
	[[ "$output" == *"cannot open /nonexistent/log"* ]]
	run_strict -2 "$CUDX" explain --bogus
	[ "$status" -eq 2 ]
}

@test "unrecognised text says so and runs check" {
	run_strict "$CUDX" explain --no-probe --root "$root" --env "$env_file" "the printer is on fire"
	[[ "$output" == *"No known GPU-stack error message recognised"* ]]
	[[ "$output" == *"Checking the tree"* ]]
	run_strict "$CUDX" explain --no-probe --root "$root" --env "$env_file" --json "the printer is on fire"
	jq -e '.recognised == false and (.causes | length) == 0 and (.findings | type) == "array"' <<<"$output"
}

@test "a harmless warning alone: exit 0" {
	run_strict "$CUDX" explain --no-probe --root "$root" --env "$env_file" "2022-06-22 W tensorflow/core/common_runtime/gpu/gpu_device.cc] TF-TRT Warning: Could not find TensorRT"
	[ "$status" -eq 0 ]
	[[ "$output" == *"harmless-warning"* ]]
}

# Hostile input: bounded time and memory, clear output. The limits here are generous for the
# sanitizer build; docs/explain.md has the numbers of a release build.
measure() { # measure FILE -> sets output, status, secs, kb
	local t="$root.time"
	run_strict /usr/bin/time -f '%e %M' -o "$t" "$CUDX" explain --no-probe --root "$root" --env "$env_file" --file "$1"
	read -r secs kb < <(tail -n 1 "$t")
	echo "explain on $(stat -c %s "$1") bytes: ${secs}s, max RSS ${kb} KiB" >&3
}

@test "hostile: a 100 MB log is read up to 16 MiB, in bounded time and memory" {
	[ -x /usr/bin/time ] || skip_fixture "needs /usr/bin/time"
	big="$root.big"
	yes "I tensorflow/core/common_runtime/gpu/gpu_device.cc:1616] Created device /job:localhost/replica:0/task:0/device:GPU:0 with 22000 MB memory: ImportError: libcudnn.so.8: cannot open shared object file" | head -c 104857600 >"$big"
	measure "$big"
	[[ "$output" == *"only the first 16 MiB were read"* ]]
	[[ "$output" == *"libcudnn.so.8"* ]]
	[[ "$output" == *"seen "*" times"* ]]
	(( ${secs%.*} < 120 ))
	(( kb < 600000 ))
	rm -f "$big"
}

@test "hostile: binary garbage and one 10 MB line give a clear answer, bounded" {
	[ -x /usr/bin/time ] || skip_fixture "needs /usr/bin/time"
	g="$root.garbage"
	head -c 8388608 /dev/urandom >"$g"
	measure "$g"
	[[ "$output" == *"look like binary data"* ]]
	(( kb < 600000 ))
	l="$root.line"
	{ head -c 10485760 /dev/zero | tr '\0' 'a'; echo; echo "no CUDA GPUs are available"; } >"$l"
	measure "$l"
	[[ "$output" == *"were cut"* ]]
	[[ "$output" == *"cuda-visible-devices-hides"* ]]
	(( ${secs%.*} < 120 ))
	(( kb < 600000 ))
	rm -f "$g" "$l"
}
