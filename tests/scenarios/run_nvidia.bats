#!/usr/bin/env bats
# cudx run against genuine NVIDIA libraries on a machine without a GPU: Debian's driver 535
# libcuda, CUDA 11.8 cudart and cuBLAS (tests/fixtures/fetch-nvidia-debs.sh), the CUDA 13 toolkit's
# cudart, cuDNN 9.19 and stub libcuda. The codes asserted (35, 100, 34) are what these libraries
# return here, as probe_real.bats records. Programs that call into libcuda run guarded (run_lib.bash):
# a private mount namespace with a read-only /dev, cudx run --sandbox inside it, and a check that no
# /dev/nvidia* node appeared.

load run_lib

CUBLAS11=$CUDX_PKG_CACHE/libcublas11/root/usr/lib/x86_64-linux-gnu
CUBLASLT11=$CUDX_PKG_CACHE/libcublaslt11/root/usr/lib/x86_64-linux-gnu

setup_file() {
	build_dl
}

# An application that bundles the CUDA 13 runtime next to itself, as vendors ship them:
# app/bin/app with RUNPATH $ORIGIN/../lib and NEEDED libcudart.so.13, app/lib/libcudart.so.13 a copy
# of the toolkit's. It calls cudaGetDeviceCount and prints the result.
build_bundled_app() {
	need_cuda13
	local app=$BATS_TEST_TMPDIR/app
	mkdir -p "$app/bin" "$app/lib"
	cp "$CUDA13/lib/libcudart.so.13" "$app/lib/"
	cat >"$BATS_TEST_TMPDIR/app.c" <<'C'
#include <stdio.h>
int cudaGetDeviceCount(int *n);
const char *cudaGetErrorString(int err);
int main(void)
{
	int n = -1, rc = cudaGetDeviceCount(&n);
	printf("cudaGetDeviceCount returned %d: %s\n", rc, cudaGetErrorString(rc));
	return rc != 0;
}
C
	cc -o "$app/bin/app" "$BATS_TEST_TMPDIR/app.c" -L"$CUDA13/lib" -l:libcudart.so.13 \
		-Wl,-rpath,'$ORIGIN/../lib' -Wl,--enable-new-dtags
}

@test "an app bundling cudart 13 (RUNPATH \$ORIGIN/../lib) on driver 535: driver-too-old for the copy it loaded" {
	need_dir "$D535" "Debian package libcuda1"
	build_bundled_app
	guard
	# the driver is only on the app's own search path: cudx learns it from what the app loaded
	run_json --sandbox -- env LD_LIBRARY_PATH="$D535" "$BATS_TEST_TMPDIR/app/bin/app"
	check_dev_unchanged
	[ "$status" -eq 1 ]
	[[ "$cmd_err" == *"cudaGetDeviceCount returned 35: CUDA driver version is insufficient"* ]]
	[ "$(py 'print(r["sandbox"]["no_new_privs"], r["sandbox"]["caps_dropped"])')" = "True True" ]
	has_finding driver-too-old
	echo "$output" >"$BATS_TEST_TMPDIR/run.json"
	schema_valid "$BATS_TEST_TMPDIR/run.json"
	evidence driver-too-old | grep -q '^driver: 535.309.01 (.*libcuda.so.1)$'
	evidence driver-too-old | grep -q "^CUDA runtime: $BATS_TEST_TMPDIR/app/bin/../lib/libcudart.so.13 (CUDA 13.0)$"
	evidence driver-too-old | grep -q "^cudx run: pid [0-9]* (.*app/bin/app) loaded $BATS_TEST_TMPDIR/app/bin/../lib/libcudart.so.13 (asked for libcudart.so.13 by $BATS_TEST_TMPDIR/app/bin/app, found through RPATH/RUNPATH)$"
	# the app's output says the same, and explain's reading agrees
	py 'assert any(c["finding"]=="driver-too-old" and c["confirmed"] for m in r["messages"] for c in m["causes"]), r["messages"]'
	# the real load order: the program, then its cudart, and libcuda dlopen'ed by that cudart
	py 'p=next(p for p in r["processes"] if p["judged"])
cu=next(o for o in p["objects"] if o["component"]=="libcuda")
rt=next(o for o in p["objects"] if o["component"]=="cudart")
assert not rt["at_runtime"] and rt["how"]=="RPATH/RUNPATH" and rt["order"] < cu["order"], (rt, cu)
assert cu["at_runtime"] and cu["requested_as"]=="libcuda.so.1" and cu["requested_by"]==rt["order"] and cu["how"]=="LD_LIBRARY_PATH", cu'
}

@test "the same app's runtime replaced by CUDA 11.8 on driver 535: no driver-too-old about it" {
	need_dir "$D535" "Debian package libcuda1"
	need_dir "$RT11" "Debian package libcudart11.0"
	guard
	run_json --sandbox -- env LD_LIBRARY_PATH="$D535:$RT11" "$BATS_FILE_TMPDIR/dl" libcudart.so.11.0 call:cudaGetDeviceCount
	check_dev_unchanged
	# 100: cudaErrorNoDevice, the driver is new enough for 11.8
	[[ "$cmd_err" == *"cudaGetDeviceCount returned 100"* ]]
	lacks_finding driver-too-old
	# the machine's own driver-too-old (the toolkit's cudart 13 against the driver the program
	# used) is reported apart: it is not about what this program loaded
	if [ -e "$CUDA13/lib/libcudart.so.13" ]; then
		other_ids | grep -qx driver-too-old
	fi
	py 'p=next(p for p in r["processes"] if p["judged"])
assert any(o["real_path"].endswith("libcudart.so.11.8.89") for o in p["objects"] if o["component"]=="cudart")'
}

@test "CUDA 11.8 and CUDA 13 runtimes in one process: process-mixed-libs, an error" {
	need_dir "$RT11" "Debian package libcudart11.0"
	need_cuda13
	guard
	run_json --sandbox -- "$BATS_FILE_TMPDIR/dl" "$RT11/libcudart.so.11.0" "$CUDA13/lib/libcudart.so.13"
	check_dev_unchanged
	[ "$status" -eq 1 ]
	has_finding process-mixed-libs
	[ "$(finding_severity process-mixed-libs)" = error ]
	evidence process-mixed-libs | grep -q "libcudart.so.11.0 (cudart 11.8.89)"
	evidence process-mixed-libs | grep -q "$CUDA13/lib/libcudart.so.13 (cudart 13.0.96)"
}

@test "two copies of cuDNN 9.19 in one process (the toolkit's and a copy of it): process-mixed-libs" {
	need_cuda13
	[ -e "$CUDA13/lib/libcudnn.so.9" ] || skip_fixture "needs cuDNN 9 in $CUDA13/lib"
	# the second copy is a byte-for-byte copy of the same release in another directory, as a
	# framework that bundles cuDNN brings one
	mkdir -p "$BATS_TEST_TMPDIR/bundled"
	cp "$CUDA13/lib/libcudnn.so.9" "$BATS_TEST_TMPDIR/bundled/"
	guard
	run_json --sandbox -- "$BATS_FILE_TMPDIR/dl" "$CUDA13/lib/libcudnn.so.9" "$BATS_TEST_TMPDIR/bundled/libcudnn.so.9"
	check_dev_unchanged
	has_finding process-mixed-libs
	# one release twice: a warning (two releases would be an error, the next test)
	[ "$(finding_severity process-mixed-libs)" = warning ]
	evidence process-mixed-libs | grep -q "$BATS_TEST_TMPDIR/bundled/libcudnn.so.9"
	evidence process-mixed-libs | grep -q "$CUDA13/lib/libcudnn.so.9"
}

@test "cuDNN 9.19 and a cuDNN 8.9.7 stand-in in one process: two releases, an error" {
	need_cuda13
	[ -e "$CUDA13/lib/libcudnn.so.9" ] || skip_fixture "needs cuDNN 9 in $CUDA13/lib"
	# No cuDNN 8 is available here: the second release is a small synthetic library that carries
	# cuDNN 8's file name and SONAME (what the knowledge base and the loader go by), as in
	# process.bats. The first is NVIDIA's real cuDNN 9.19.
	mkdir -p "$BATS_TEST_TMPDIR/old"
	echo 'int cudnnGetVersion(void) { return 8907; }' >"$BATS_TEST_TMPDIR/c8.c"
	cc -shared -fPIC -o "$BATS_TEST_TMPDIR/old/libcudnn.so.8.9.7" "$BATS_TEST_TMPDIR/c8.c" -Wl,-soname,libcudnn.so.8
	guard
	run_json --sandbox -- "$BATS_FILE_TMPDIR/dl" "$CUDA13/lib/libcudnn.so.9" "$BATS_TEST_TMPDIR/old/libcudnn.so.8.9.7"
	check_dev_unchanged
	[ "$status" -eq 1 ]
	has_finding process-mixed-libs
	[ "$(finding_severity process-mixed-libs)" = error ]
	py 'f=next(f for f in r["findings"] if f["id"]=="process-mixed-libs"); assert "releases" in f["summary"] and "8.9.7" in f["summary"], f'
}

@test "the toolkit's stub libcuda loaded by a program: stub-libcuda, and the calls returned 34" {
	need_cuda13
	[ -e "$CUDA13/lib/stubs/libcuda.so" ] || skip_fixture "needs $CUDA13/lib/stubs/libcuda.so"
	mkdir -p "$BATS_TEST_TMPDIR/stub"
	ln -s "$CUDA13/lib/stubs/libcuda.so" "$BATS_TEST_TMPDIR/stub/libcuda.so.1"
	guard
	run_json --sandbox -- env LD_LIBRARY_PATH="$BATS_TEST_TMPDIR/stub" "$BATS_FILE_TMPDIR/dl" libcuda.so.1 call:cuDriverGetVersion
	check_dev_unchanged
	[[ "$cmd_err" == *"cuDriverGetVersion returned 34"* ]]
	has_finding stub-libcuda
	evidence stub-libcuda | grep -q "cudx run: pid .* loaded $BATS_TEST_TMPDIR/stub/libcuda.so.1 (asked for libcuda.so.1"
}

@test "CUDA 11.8 cuBLAS with its runtime: loaded in order with versions, nothing mixed or missing" {
	need_dir "$RT11" "Debian package libcudart11.0"
	need_dir "$CUBLAS11" "Debian package libcublas11"
	need_dir "$CUBLASLT11" "Debian package libcublaslt11"
	guard
	run_json --sandbox -- env LD_LIBRARY_PATH="$RT11:$CUBLAS11:$CUBLASLT11" "$BATS_FILE_TMPDIR/dl" libcudart.so.11.0 libcublas.so.11
	check_dev_unchanged
	[[ "$cmd_err" == *"libcublas.so.11: loaded"* ]]
	lacks_finding process-mixed-libs
	lacks_finding lib-not-found
	# cuBLASLt 11 looks for the driver when it loads; with none here, that search joins no-driver
	if ! /sbin/ldconfig -p | grep -q 'libcuda\.so\.1 '; then
		evidence no-driver | grep -q "^cudx run: pid .* looked for libcuda.so.1, asked by $CUBLASLT11/libcublasLt.so.11 and found none"
	fi
	py 'p=next(p for p in r["processes"] if p["judged"])
lt=next(o for o in p["objects"] if o["component"]=="cublasLt"); bl=next(o for o in p["objects"] if o["component"]=="cublas")
assert not lt["at_runtime"] or lt["requested_by"]==bl["order"], (lt, bl)
assert lt["requested_as"]=="libcublasLt.so.11" and lt["how"]=="LD_LIBRARY_PATH" and bl["order"] < lt["order"], lt
assert r["prediction"]["differences"]==[], r["prediction"]'
	run env NO_COLOR=1 LD_LIBRARY_PATH="$RT11:$CUBLAS11:$CUBLASLT11" "${guard_prefix[@]}" "$CUDX" run --sandbox -- "$BATS_FILE_TMPDIR/dl" libcublas.so.11
	[[ "$output" == *"libcublas.so.11.11.3.6"*"cublas 11.11.3.6"* || "$output" == *"libcublas.so.11 "*"cublas 11.11.3.6"* ]]
}

@test "python ctypes: cudart 13 on driver 535 (driver-too-old) and a cuDNN 8 that is not there" {
	need_dir "$D535" "Debian package libcuda1"
	need_cuda13
	command -v python3 >/dev/null || skip "needs python3"
	cat >"$BATS_TEST_TMPDIR/train.py" <<'PY'
import ctypes, sys
rt = ctypes.CDLL(sys.argv[1])
n = ctypes.c_int(-1)
rc = rt.cudaGetDeviceCount(ctypes.byref(n))
rt.cudaGetErrorString.restype = ctypes.c_char_p
print("cudaGetDeviceCount:", rc, rt.cudaGetErrorString(rc).decode())
try:
    ctypes.CDLL("libcudnn.so.8")
except OSError as e:
    print("OSError:", e, file=sys.stderr)
    sys.exit(1)
PY
	guard
	run_json --sandbox -- env LD_LIBRARY_PATH="$D535" python3 "$BATS_TEST_TMPDIR/train.py" "$CUDA13/lib/libcudart.so.13"
	check_dev_unchanged
	[ "$status" -eq 1 ]
	[[ "$cmd_err" == *"cudaGetDeviceCount: 35 CUDA driver version is insufficient"* ]]
	has_finding driver-too-old
	has_finding lib-not-found
	py 'f=next(f for f in r["findings"] if f["id"]=="lib-not-found"); assert f["summary"].startswith("libcudnn.so.8 was searched"), f'
	# the interpreter is the judged process (through any launcher scripts), and ctypes asked
	py 'p=next(p for p in r["processes"] if p["judged"]); assert "python" in p["exe"], p["exe"]
rt=next(o for o in p["objects"] if o["component"]=="cudart")
by=p["objects"][rt["requested_by"]-1]["path"]; assert "_ctypes" in by and rt["how"]=="path", (by, rt)'
	py 'ms={m["pattern"] for m in r["messages"]}; assert len(ms) >= 2, ms'
	[ "$(py 'print(r["exit"]["status"])')" = 1 ]
}

# Seen on an H100: a program with sm_80 machine code only printed "no kernel image is available for
# execution on the device", and cudx run found nothing about it, though `cudx arch` on the same file
# names the cause. Here the GPU is simulated (--gpu); the program runs without one and fails
# earlier, which does not matter: its GPU code is judged whatever it printed.
@test "a program built for sm_80 only, run against an sm_90 GPU: no-kernel-image about the program itself" {
	[ -x /usr/local/cuda/bin/nvcc ] || skip_fixture "needs nvcc 13 at /usr/local/cuda/bin/nvcc"
	cat >"$BATS_TEST_TMPDIR/k.cu" <<'CU'
#include <cstdio>
__global__ void k(int *p) { *p = 42; }
int main() {
	int *p = nullptr;
	cudaError_t e = cudaMalloc(&p, sizeof *p);
	if (e == cudaSuccess) { k<<<1, 1>>>(p); e = cudaDeviceSynchronize(); }
	printf("%s\n", e == cudaSuccess ? "ok" : cudaGetErrorString(e));
	return e != cudaSuccess;
}
CU
	/usr/local/cuda/bin/nvcc -gencode arch=compute_80,code=sm_80 -o "$BATS_TEST_TMPDIR/k80" "$BATS_TEST_TMPDIR/k.cu" \
		>"$BATS_TEST_TMPDIR/nvcc.log" 2>&1 || skip_fixture "nvcc cannot build here: $(tail -1 "$BATS_TEST_TMPDIR/nvcc.log")"
	guard
	run_json --gpu sm_90 --sandbox -- "$BATS_TEST_TMPDIR/k80"
	check_dev_unchanged
	[ "$status" -eq 1 ]
	has_finding no-kernel-image
	[ "$(py 'print(next(f["subject"] for f in r["findings"] if f["id"]=="no-kernel-image"))')" = "$BATS_TEST_TMPDIR/k80" ]
	evidence no-kernel-image | grep -qx "SASS (machine code) for: sm_80"
	# the GPU it was built for runs it: nothing about its code
	run_json --gpu sm_80 --sandbox -- "$BATS_TEST_TMPDIR/k80"
	check_dev_unchanged
	! has_finding no-kernel-image
	# PTX only: it runs through the JIT, which is no finding of a run (on an H100 PyTorch loads
	# NVIDIA's cuFile, PTX-only for sm_90: a warning about it on every healthy run was noise)
	/usr/local/cuda/bin/nvcc -gencode arch=compute_80,code=compute_80 -o "$BATS_TEST_TMPDIR/kptx" "$BATS_TEST_TMPDIR/k.cu" \
		>"$BATS_TEST_TMPDIR/nvcc.log" 2>&1 || skip_fixture "nvcc cannot build here: $(tail -1 "$BATS_TEST_TMPDIR/nvcc.log")"
	run_json --gpu sm_90 --sandbox -- "$BATS_TEST_TMPDIR/kptx"
	check_dev_unchanged
	! has_finding no-kernel-image
	! has_finding ptx-jit-only
}
