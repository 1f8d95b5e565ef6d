#!/usr/bin/env bash
# Runs cudx against a real GPU machine and records what it says, for a human to compare with the
# machine's own tools (nvidia-smi, nvcc, PyTorch). CI has no GPU and never runs this; a session
# that is lent a GPU machine runs it there with build/cudx and build/cudx-audit.so carried along:
#   scripts/live-gpu-check.sh [OUTDIR]        (OUTDIR: default $OUT, else /tmp/cudx-live)
# It changes nothing on the machine: it builds two small test programs under a temporary
# directory and sets variables only for the commands it runs.
set -u
out=${1:-${OUT:-/tmp/cudx-live}}
mkdir -p "$out"
cudx=$(readlink -f build/cudx)
work=$(mktemp -d)
log=$out/log.txt
exec >"$log" 2>&1

section() { printf '\n===== %s\n' "$*"; }
# Every command gets a time limit: a hung driver call must not eat the machine's lease.
run() { local t0 t1 rc; t0=$(date +%s%N); timeout 90 "$@"; rc=$?; t1=$(date +%s%N)
        printf -- '--> rc=%d  %d ms\n' "$rc" $(( (t1 - t0) / 1000000 )) >&2; }

section machine
uname -a; head -2 /etc/os-release
nvidia-smi --query-gpu=name,driver_version,compute_cap,memory.total --format=csv
nvidia-smi | head -4
echo "LD_LIBRARY_PATH=${LD_LIBRARY_PATH-}"; echo "PATH=$PATH"
ldconfig -p | grep -E 'libcuda\.|libnvidia-ml|libcudnn\.|libcublas\.' | head -20
cat /etc/ld.so.conf.d/*.conf 2>/dev/null | head -20
# shellcheck disable=SC2012 # a listing for people to read
ls -l /usr/local/ | head -20
command -v nvcc python3; nvcc --version | tail -2
python3 -c 'import torch; print("torch", torch.__version__, torch.version.cuda, torch.backends.cudnn.version(), torch.cuda.get_device_capability())'

section "cudx check"
run "$cudx" check --no-color
run "$cudx" check --json >"$out/check.json"

section "cudx probe -v"
run "$cudx" probe -v --no-color
run "$cudx" probe --json >"$out/probe.json"

py=$(python3 -c 'import sys; print(sys.prefix)')
torchdir=$(python3 -c 'import torch, os; print(os.path.dirname(torch.__file__))')
section "cudx check --python $py"
run "$cudx" check --no-color --python "$py"
run "$cudx" check --json --python "$py" >"$out/check-python.json"

section "cudx why libcuda.so.1 / libcudnn.so.9 / libcublas.so.13"
run "$cudx" why libcuda.so.1 --no-color
run "$cudx" why libcudnn.so.9 --no-color
run "$cudx" why libcublas.so.13 --no-color --from "$torchdir/lib/libtorch_cuda.so"

section "cudx tree libtorch_cuda.so"
run "$cudx" tree "$torchdir/lib/libtorch_cuda.so" --no-color

section "cudx arch libtorch_cuda.so (and cuobjdump for comparison)"
run "$cudx" arch "$torchdir/lib/libtorch_cuda.so" --no-color
run sh -c "cuobjdump --list-elf '$torchdir/lib/libtorch_cuda.so' | sed 's/.*\\.\\(sm_[0-9a-z]*\\)\\..*/\\1/' | sort | uniq -c"

# A kernel built for sm_80 SASS only: an H100 (sm_90) cannot run it, the classic
# 'no kernel image is available'. cudx arch must say so, explain must rank no-kernel-image.
cat >"$work/k.cu" <<'EOF'
#include <cstdio>
__global__ void k(int *p) { *p = 42; }
int main() {
    int *p; cudaMalloc(&p, sizeof *p); k<<<1, 1>>>(p);
    cudaError_t e = cudaDeviceSynchronize(); if (e == cudaSuccess) e = cudaGetLastError();
    printf("%s\n", e == cudaSuccess ? "ok" : cudaGetErrorString(e)); return e != cudaSuccess;
}
EOF
section "sm_80-only kernel on this GPU"
nvcc -gencode arch=compute_80,code=sm_80 -o "$work/k80" "$work/k.cu" && nvcc -arch=native -o "$work/knat" "$work/k.cu"
run "$work/knat"
run sh -c "'$work/k80' >'$work/k80.out' 2>&1"; cat "$work/k80.out"
run "$cudx" arch "$work/k80" --no-color
run "$cudx" explain --no-color --file "$work/k80.out"
section "cudx run -- k80"
run "$cudx" run --no-color -- "$work/k80"

section "cudx run -- python3 (torch on the GPU): every loaded object's GPU code judged"
run "$cudx" run --no-color -- python3 -c 'import torch; x = torch.ones(64, device="cuda"); print("torch ok", float(x.sum()))'

section "PyTorch with the stub libcuda first on LD_LIBRARY_PATH"
stubs=$(dirname "$(readlink -f "$(command -v nvcc)")")/../lib64/stubs
ls "$stubs"/libcuda.so
LD_LIBRARY_PATH=$stubs:${LD_LIBRARY_PATH-} python3 -c 'import torch; torch.zeros(1).cuda()' >"$work/stub.out" 2>&1
tail -3 "$work/stub.out"
LD_LIBRARY_PATH=$stubs:${LD_LIBRARY_PATH-} run "$cudx" check --no-color
LD_LIBRARY_PATH=$stubs:${LD_LIBRARY_PATH-} run "$cudx" why libcuda.so --no-color
LD_LIBRARY_PATH=$stubs:${LD_LIBRARY_PATH-} run "$cudx" explain --no-color --file "$work/stub.out"

section "PyTorch with CUDA_VISIBLE_DEVICES=''"
CUDA_VISIBLE_DEVICES='' python3 -c 'import torch; torch.zeros(1).cuda()' >"$work/cvd.out" 2>&1
tail -3 "$work/cvd.out"
CUDA_VISIBLE_DEVICES='' run "$cudx" explain --no-color --file "$work/cvd.out"

section "cudx check --pid of a process holding a CUDA context"
python3 -c 'import torch, time; torch.zeros(1).cuda(); print("ready", flush=True); time.sleep(30)' >"$work/pid.out" 2>&1 &
pid=$!
for _ in $(seq 60); do grep -q ready "$work/pid.out" && break; sleep 0.5; done
run "$cudx" check --no-color --no-probe --pid "$pid"
kill "$pid" 2>/dev/null

section "speed: cudx check against PyTorch's collect_env"
run sh -c "'$cudx' check --no-probe --json >/dev/null"
run sh -c "'$cudx' check --json >/dev/null"
run sh -c "python3 -m torch.utils.collect_env >'$out/collect_env.txt'"
rm -rf "$work"
