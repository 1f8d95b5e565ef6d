#!/usr/bin/env bats
# The probe's GPU paths (devices, memory round trip, pinned memory, SGEMM, convolution, PTX JIT and
# launch) need a GPU, which CI does not have. These tests use TEST DOUBLES of libcuda, cudart,
# NVML, cuBLAS and cuDNN (tests/doubles/, built here) that simulate devices and failure codes.
# They prove cudx's side: the steps it takes, how it checks results, how codes become findings.

load probe_lib

setup_file() {
	export DBL="$BATS_FILE_TMPDIR/doubles"
	"$CUDX_SRC/tests/doubles/build.sh" "$DBL"
}

# Only the doubles: the runtime stage told to use the cudart on the search path (the double).
probe_doubles() {
	probe_json "$DBL" --cudart libcudart.so.13 "$@"
}

@test "doubles: a healthy simulated GPU passes every stage with verified results" {
	probe_doubles
	[ "$status" -eq 0 ]
	[ "$(fact driver device_count)" = 1 ]
	[ "$(fact driver device.0.name)" = "Double GPU 0" ]
	[ "$(fact driver device.0.cc)" = 9.0 ]
	[ "$(fact driver device.0.pci_bus_id)" = "00000000:17:00.0" ]
	[ "$(fact nvml driver_version)" = 580.65.06 ]
	[ "$(step_outcome runtime 'memory round trip verified')" = ok ]
	[ "$(step_outcome runtime cudaMallocHost)" = ok ]
	[ "$(step_outcome ptx 'kernel result verified')" = ok ]
	[ "$(step_outcome cublas 'SGEMM result verified')" = ok ]
	[ "$(step_outcome cudnn 'convolution result verified')" = ok ]
	[ -z "$(finding_ids)" ]
}

@test "doubles: wrong results from every compute path are wrong-result errors" {
	CUDX_DOUBLE_WRONG=1 probe_doubles
	[ "$status" -eq 1 ]
	has_finding wrong-result
	[ "$(step_outcome runtime 'memory round trip verified')" = wrong-result ]
	[ "$(step_outcome ptx 'kernel result verified')" = wrong-result ]
	[ "$(step_outcome cublas 'SGEMM result verified')" = wrong-result ]
	[ "$(step_outcome cudnn 'convolution result verified')" = wrong-result ]
}

@test "doubles: cuInit 803 is driver-userspace-mismatch" {
	CUDX_DOUBLE_CUINIT=803 probe_doubles --stages driver
	has_code driver 803
	has_finding driver-userspace-mismatch
}

@test "doubles: cuInit 804 is forward-compat-unsupported" {
	CUDX_DOUBLE_CUINIT=804 probe_doubles --stages driver
	has_finding forward-compat-unsupported
}

@test "doubles: cuInit 999 with /dev/nvidia-uvm missing is nvidia-uvm-missing" {
	[ ! -e /dev/nvidia-uvm ] || skip "this machine has /dev/nvidia-uvm"
	CUDX_DOUBLE_CUINIT=999 probe_doubles --stages driver
	has_finding nvidia-uvm-missing
}

@test "doubles: PTX JIT 222 is ptx-too-new, 209 is no-kernel-image" {
	CUDX_DOUBLE_PTX=222 probe_doubles --stages driver,ptx
	has_code ptx 222
	has_finding ptx-too-new
	CUDX_DOUBLE_PTX=209 probe_doubles --stages driver,ptx
	has_finding no-kernel-image
}

@test "doubles: NVML 18 (LIB_RM_VERSION_MISMATCH) is driver-userspace-mismatch" {
	CUDX_DOUBLE_NVML_INIT=18 probe_doubles --stages nvml
	has_code nvml 18
	has_finding driver-userspace-mismatch
}

@test "doubles: a runtime newer than the simulated driver: 35, and cuBLAS/cuDNN NOT_INITIALIZED take that cause" {
	CUDX_DOUBLE_DRIVER_VERSION=12020 probe_doubles --stages driver,runtime,cublas,cudnn
	has_code runtime 35
	has_code cublas 1
	has_code cudnn 1001
	has_finding driver-too-old
	lacks_finding probe-step-failed
	evidence driver-too-old | grep -q 'cublasCreate returned 1'
	evidence driver-too-old | grep -q 'cudnnCreate returned 1001'
}

@test "doubles: cuDNN built for CUDA 12 next to a CUDA 13 runtime is cudnn-cuda-mismatch" {
	CUDX_DOUBLE_CUDNN_CUDART=12080 probe_doubles --stages runtime,cudnn
	[ "$(fact cudnn cudart_version)" = 12080 ]
	has_finding cudnn-cuda-mismatch
}

@test "doubles: no devices is no-device" {
	CUDX_DOUBLE_DEVICES=0 probe_doubles --stages driver,runtime
	has_code runtime 100
	has_finding no-device
}

@test "a library found but not loadable (a dependency missing) is probe-load-failed, not 'not installed'" {
	local d="$BATS_TEST_TMPDIR/broken"
	mkdir -p "$d"
	echo 'int cudx_gone(void) { return 1; }' >"$d/gone.c"
	cc -shared -fPIC -o "$d/libcudx_gone.so.1" "$d/gone.c" -Wl,-soname,libcudx_gone.so.1
	echo 'int cudnnGetVersion(void) { return 0; }' >"$d/dnn.c"
	cc -shared -fPIC -o "$d/libcudnn.so.9" "$d/dnn.c" -Wl,-soname,libcudnn.so.9 -Wl,--no-as-needed -L"$d" -l:libcudx_gone.so.1
	rm "$d/libcudx_gone.so.1"
	probe_json "$d" --stages cudnn
	has_finding probe-load-failed
	evidence probe-load-failed | grep -q 'libcudx_gone.so.1: cannot open shared object file'
	# the versions that are simply absent are not findings
	[ "$(finding_ids | grep -c probe-load-failed)" -eq 1 ]
}

@test "doubles: 46 (busy or unavailable) from libcuda and cudart is gpu-busy" {
	CUDX_DOUBLE_CUINIT=46 probe_doubles --stages driver,runtime
	has_code driver 46
	has_code runtime 46
	has_finding gpu-busy
	lacks_finding probe-step-failed
}

@test "doubles: 3 (initialization error) with no GPU device nodes is no-device" {
	[ ! -e /dev/nvidia0 ] || skip "this machine has GPU device nodes"
	CUDX_DOUBLE_CUINIT=3 probe_doubles --stages driver,nvml,runtime
	has_code driver 3
	has_code runtime 3
	has_finding no-device
	lacks_finding gpu-out-of-memory
	evidence no-device | grep -q 'no /dev/nvidia0'
}

@test "doubles: 3 with NVML showing the GPU's memory used up is gpu-out-of-memory" {
	CUDX_DOUBLE_CUINIT=3 CUDX_DOUBLE_NVML_FREE=100 probe_doubles --stages driver,nvml,runtime
	[ "$(fact nvml device.0.memory_free)" = $((100 << 20)) ]
	has_finding gpu-out-of-memory
	lacks_finding no-device
	lacks_finding probe-step-failed
	evidence gpu-out-of-memory | grep -q 'NVML: GPU 0 has 100 MiB free of 81920 MiB'
}

# The doubles without their stand-in JIT compiler (copied: never hard links to fixtures).
doubles_without_jit() {
	cp -a "$DBL" "$1"
	rm "$1/libnvidia-ptxjitcompiler.so.1"
}

@test "doubles: no PTX JIT compiler on the search path: 221 is ptxjit-missing, and the loader finds none" {
	if /sbin/ldconfig -p 2>/dev/null | grep -q 'libnvidia-ptxjitcompiler\.so\.1 '; then
		skip "this machine has a system libnvidia-ptxjitcompiler.so.1"
	fi
	doubles_without_jit "$BATS_TEST_TMPDIR/nojit"
	probe_json "$BATS_TEST_TMPDIR/nojit" --stages driver,ptx
	has_code ptx 221
	has_finding ptxjit-missing
	lacks_finding probe-step-failed
	lacks_finding probe-load-failed
	[ "$(step_outcome ptx 'load libnvidia-ptxjitcompiler.so.1')" = missing ]
	evidence ptxjit-missing | grep -q 'the loader finds no libnvidia-ptxjitcompiler.so.1: .*cannot open shared object file'
}

@test "doubles: with Debian's libnvidia-ptxjitcompiler1 (535) the JIT works; a 221 anyway names that file and its driver version" {
	local jit=$CUDX_PKG_CACHE/libnvidia-ptxjitcompiler1/root/usr/lib/x86_64-linux-gnu/nvidia/current
	need_dir "$jit" "Debian package libnvidia-ptxjitcompiler1"
	local d="$BATS_TEST_TMPDIR/jit535"
	doubles_without_jit "$d"
	probe_json "$d:$jit" --stages driver,ptx
	[ "$(step_outcome ptx 'kernel result verified')" = ok ]
	lacks_finding ptxjit-missing
	# a libcuda of another driver version than the JIT compiler's
	mv "$d/libcuda.so.1" "$d/libcuda.so.550.54.15"
	ln -s libcuda.so.550.54.15 "$d/libcuda.so.1"
	CUDX_DOUBLE_PTX=221 probe_json "$d:$jit" --stages driver,ptx
	has_finding ptxjit-missing
	evidence ptxjit-missing | grep -q 'the loader finds libnvidia-ptxjitcompiler.so.1: .*/libnvidia-ptxjitcompiler.so.535.309.01'
	py 'print(next(f["cause"] for f in r["findings"] if f["id"]=="ptxjit-missing"))' | grep -q 'of driver 535.309.01, but libcuda is of driver 550.54.15'
	py 'print(" ".join(next(f["fix"] for f in r["findings"] if f["id"]=="ptxjit-missing")))' | grep -q 'same version as the driver 550.54.15'
}
