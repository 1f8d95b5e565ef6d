#!/usr/bin/env bats
# `cudx kb`: the answers to the issue's example queries, as text and as JSON, and the usage errors.

load lib/cudx

# Read a value out of the JSON answer: jpath '["kb"]["release"]["linux_driver"]'
jpath() {
	python3 -c 'import json,sys; v=eval("json.load(sys.stdin)"+sys.argv[1]); print(json.dumps(v) if isinstance(v,(dict,list)) or v is None else v)' "$1"
}

@test "driver 12.4: minimum drivers and the minor-compat floor (text)" {
	run_strict "$CUDX" kb driver 12.4
	[ "$status" -eq 0 ]
	[[ "$output" == *"CUDA 12.4 (12.4 GA)"* ]]
	[[ "$output" == *"minimum driver Linux:   550.54.14"* ]]
	[[ "$output" == *"minimum driver Windows: 551.61"* ]]
	[[ "$output" == *"Linux >= 525.60.13, Windows >= 527.41"* ]]
	[[ "$output" == *"12.4 Update 1"*"550.54.15"* ]]
	[[ "$output" == *"12040"* ]]
	[[ "$output" == *"S1 "*"Release Notes"* ]]
}

@test "driver 12.4 --json" {
	run_strict "$CUDX" kb driver 12.4 --json
	[ "$status" -eq 0 ]
	[ "$(jpath '["schema"]' <<<"$output")" = "cudx/1" ]
	[ "$(jpath '["kb"]["release"]["linux_driver"]' <<<"$output")" = "550.54.14" ]
	[ "$(jpath '["kb"]["release"]["windows_driver"]' <<<"$output")" = "551.61" ]
	[ "$(jpath '["kb"]["minor_compat"]["linux"]["floor"]' <<<"$output")" = "525.60.13" ]
	[ "$(jpath '["kb"]["reported_as"]' <<<"$output")" = "12040" ]
	[ "$(jpath '["kb"]["sources"]["S1"]["url"]' <<<"$output")" = "https://docs.nvidia.com/cuda/cuda-toolkit-release-notes/index.html" ]
}

@test "driver 535.104.05: newest CUDA is 12.2, runs 11.x and 12.x through minor compat" {
	run_strict "$CUDX" kb driver 535.104.05
	[ "$status" -eq 0 ]
	[[ "$output" == *"newest CUDA it supports natively: 12.2"* ]]
	[[ "$output" == *"runs CUDA 12.x applications"* ]]
	run_strict "$CUDX" --json kb driver 535.104.05
	[ "$(jpath '["kb"]["max_cuda"]' <<<"$output")" = "12.2" ]
}

@test "gpu \"RTX 3090\" and the same GPU by SM, quoted or not" {
	run_strict "$CUDX" kb gpu "RTX 3090"
	[ "$status" -eq 0 ]
	[[ "$output" == "NVIDIA GeForce RTX 3090: compute capability 8.6 (sm_86), Ampere, geforce"* ]]
	[[ "$output" == *"nvcc: sm_86 from CUDA 11.1"* ]]
	[[ "$output" == *"forward compatibility (cuda-compat): not supported"* ]]
	run_strict "$CUDX" kb gpu RTX 3090
	[[ "$output" == "NVIDIA GeForce RTX 3090: "* ]]
	run_strict "$CUDX" --json kb gpu sm_86
	[ "$(jpath '["kb"]["gpu"]["compute_capability"]' <<<"$output")" = "8.6" ]
	[[ "$(jpath '["kb"]["same_cc"]' <<<"$output")" == *"NVIDIA GeForce RTX 3090"* ]]
	run_strict "$CUDX" --json kb gpu "NVIDIA H100 80GB HBM3"
	[ "$(jpath '["kb"]["gpu"]["name"]' <<<"$output")" = "NVIDIA H100" ]
	[ "$(jpath '["kb"]["forward_compat"]' <<<"$output")" = "True" ]
	# a Ti / SUPER variant is its own row, not the base model a word prefix would give
	run_strict "$CUDX" --json kb gpu "GeForce GTX 1050 Ti"
	[ "$(jpath '["kb"]["gpu"]["name"]' <<<"$output")" = "NVIDIA GeForce GTX 1050 Ti" ]
	run_strict "$CUDX" --json kb gpu "NVIDIA GeForce RTX 4070 Ti SUPER"
	[ "$(jpath '["kb"]["gpu"]["name"]' <<<"$output")" = "NVIDIA GeForce RTX 4070 Ti SUPER" ]
	# a Jetson's integrated GPU names itself by its chip alone (deviceQuery, torch's device name)
	run_strict "$CUDX" --json kb gpu Orin
	[ "$(jpath '["kb"]["gpu"]["compute_capability"]' <<<"$output")" = "8.7" ]
	run_strict "$CUDX" --json kb gpu Xavier
	[ "$(jpath '["kb"]["gpu"]["compute_capability"]' <<<"$output")" = "7.2" ]
}

@test "arch 13.0: Maxwell, Pascal and Volta removed, sm_75 the oldest target" {
	run_strict "$CUDX" kb arch 13.0
	[ "$status" -eq 0 ]
	[[ "$output" == *"targets:               sm_75, sm_80, sm_86"* ]]
	[[ "$output" == *"removed in this release: sm_50, sm_52, sm_53, sm_60, sm_61, sm_62, sm_70, sm_72"* ]]
	run_strict "$CUDX" kb --json arch 12.0
	[[ "$(jpath '["kb"]["removed"]' <<<"$output")" == '["sm_35", "sm_37"]' ]]
}

@test "lib cublas --cuda 11 --os windows -> cublas64_11.dll" {
	run_strict "$CUDX" kb lib cublas --cuda 11 --os windows
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" == "cublas64_11.dll  windows, cublas (cublas 11, CUDA 11)"* ]]
	[[ "$output" == *"pip: nvidia-cublas-cu11 in site-packages/nvidia/cublas/bin"* ]]
	run_strict "$CUDX" --json kb lib cublas --cuda 11 --os windows
	[ "$(jpath '["kb"]["libraries"][0]["name"]' <<<"$output")" = "cublas64_11.dll" ]
	[ "$(jpath '["kb"]["libraries"].__len__()' <<<"$output")" = "1" ]
}

@test "lib with a file name classifies it and lists its dlopen edges" {
	run_strict "$CUDX" kb lib libcudnn.so.9.19.0
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" == "libcudnn.so.9  linux, cudnn (cudnn 9)"* ]]
	[[ "$output" == *"loads at run time:"*"libcudnn_cnn.so.9"* ]]
	run_strict "$CUDX" kb lib cudnn_cnn_infer64_8.dll
	[[ "${lines[0]}" == "cudnn_cnn_infer64_8.dll  windows, cudnn_cnn_infer (cudnn 8)"* ]]
}

@test "cudnn 8.9.7: UNCONFIRMED CUDA list, zlibwapi on Windows, all split libraries" {
	run_strict "$CUDX" kb cudnn 8.9.7
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" == "cuDNN 8.9.7 [UNCONFIRMED]"* ]]
	[[ "$output" == *"Windows also needs:     zlibwapi.dll"* ]]
	[[ "$output" == *"CUDNN_VERSION:          8907"* ]]
	[[ "$output" == *"cudnn_cnn_infer64_8.dll"* ]]
	run_strict "$CUDX" --json kb cudnn 8.9.7
	[ "$(jpath '["kb"]["release"]["unconfirmed"]' <<<"$output")" = "True" ]
	[ "$(jpath '["kb"]["libraries"]["windows"].__len__()' <<<"$output")" = "7" ]
}

@test "framework torch 2.5.1: three CUDA variants with cuDNN 9.1.0.70" {
	run_strict "$CUDX" kb framework torch 2.5.1
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" == "torch 2.5 cu118  CUDA 11.8, cuDNN 9.1.0.70"* ]]
	[[ "$output" == *"torch 2.5 cu124  CUDA 12.4, cuDNN 9.1.0.70"* ]]
	run_strict "$CUDX" --json kb framework torch 2.5.1
	[ "$(jpath '["kb"]["rows"].__len__()' <<<"$output")" = "3" ]
	run_strict "$CUDX" kb framework tensorflow 2.11.0
	[[ "$output" == *"tensorflow 2.11.0 (linux)  CUDA 11.2, cuDNN 8.1"* ]]
	[[ "$output" != *"(windows)"* ]]
	[[ "$output" == *"TensorFlow 2.10.0 is the last release with native Windows GPU support."* ]]
}

@test "error 35, by name, and --api cu" {
	run_strict "$CUDX" kb error 35
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" == "cudart 35: cudaErrorInsufficientDriver"* ]]
	[[ "$output" == *'message: "CUDA driver version is insufficient for CUDA runtime version"'* ]]
	[[ "$output" == *"finding: driver-too-old"* ]]
	run_strict "$CUDX" kb error cudaErrorInsufficientDriver
	[[ "${lines[0]}" == "cudart 35: cudaErrorInsufficientDriver"* ]]
	run_strict "$CUDX" kb error 34 --api cu
	[[ "${lines[0]}" == "cu 34: CUDA_ERROR_STUB_LIBRARY"* ]]
	[[ "$output" == *"finding: stub-libcuda"* ]]
	run_strict "$CUDX" --json kb error 804 --api cudart
	[ "$(jpath '["kb"]["errors"][0]["finding"]' <<<"$output")" = "forward-compat-unsupported" ]
}

@test "unknown topic, missing argument, bad option: message and exit 2" {
	run_strict -2 "$CUDX" kb weather
	[ "$status" -eq 2 ]
	[[ "$output" == *"unknown topic 'weather'"* ]]
	run_strict -2 "$CUDX" kb driver
	[ "$status" -eq 2 ]
	run_strict -2 "$CUDX" kb lib cublas --cuda eleven
	[ "$status" -eq 2 ]
	run_strict -2 "$CUDX" kb framework caffe 1.0
	[ "$status" -eq 2 ]
	run_strict -2 "$CUDX" kb
	[ "$status" -eq 2 ]
}

@test "a query the tables cannot answer: message and exit 1, also as JSON" {
	run_strict "$CUDX" kb driver 12.7
	[ "$status" -eq 1 ]
	[[ "$output" == *"no CUDA release 12.7"* ]]
	run_strict "$CUDX" --json kb gpu "RTX 9999"
	[ "$status" -eq 1 ]
	[ "$(jpath '["kb"]["found"]' <<<"$output")" = "False" ]
}
