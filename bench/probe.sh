#!/usr/bin/env bash
# Wall time of the live probe (cudx probe) with the real CUDA 13 libraries: cudart 13, cuBLAS 13,
# cuDNN 9.19 from the toolkit, and Debian's driver 535 libcuda when fetched (no GPU here, so the
# driver answers "no device" and the runtime "insufficient driver": every library is still loaded
# and called). Compared with what a user would otherwise run: a Python ctypes script doing the same
# loads and first calls. Target: cudx probe <= 1.5 s median.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
cudx=${CUDX:-$here/../build/cudx}
runs=${RUNS:-7}
cuda13=${CUDX_CUDA13:-/usr/local/cuda-13.0}
cache=${CUDX_PKG_CACHE:-$here/../build/pkgs}
d535=$cache/libcuda1/root/usr/lib/x86_64-linux-gnu/nvidia/current
[ -x "$cudx" ] || { echo "build cudx first (make build)"; exit 1; }
[ -e "$cuda13/lib/libcudart.so.13" ] || { echo "needs the CUDA 13 toolkit at $cuda13"; exit 0; }
lpath=$cuda13/lib
[ -d "$d535" ] && lpath=$d535:$lpath || echo "(Debian libcuda1 not fetched: probing without a driver)"

export LD_LIBRARY_PATH=$lpath
probe_ms=$(median_ms "$runs" "$cudx" probe)
json_ms=$(median_ms "$runs" "$cudx" probe --json)
driver_ms=$(median_ms "$runs" "$cudx" probe --stages driver,runtime)

# The same loads and first calls from Python (ctypes), as a user checking by hand would.
py=$(mktemp /tmp/cudx-bench.XXXXXX.py)
cat >"$py" <<'PY'
import ctypes
def load(n):
    try: return ctypes.CDLL(n)
    except OSError: return None
cu = load("libcuda.so.1")
if cu:
    v = ctypes.c_int(); cu.cuDriverGetVersion(ctypes.byref(v)); cu.cuInit(0)
rt = load("libcudart.so.13")
if rt:
    n = ctypes.c_int(); rt.cudaRuntimeGetVersion(ctypes.byref(n)); rt.cudaGetDeviceCount(ctypes.byref(n))
bl = load("libcublas.so.13")
if bl:
    h = ctypes.c_void_p(); bl.cublasCreate_v2(ctypes.byref(h))
dn = load("libcudnn.so.9")
if dn:
    dn.cudnnGetVersion(); h = ctypes.c_void_p(); dn.cudnnCreate(ctypes.byref(h))
PY
py_ms=$(median_ms "$runs" python3 "$py")
rm -f "$py"

printf 'LD_LIBRARY_PATH=%s\n' "$lpath"
printf '%-52s %10s %10s\n' "command" "median ms" "vs cudx"
printf '%-52s %10s %10s\n' "cudx probe (all stages)" "$probe_ms" "1.0x"
printf '%-52s %10s %10s\n' "cudx probe --json" "$json_ms" "$(ratio "$probe_ms" "$json_ms")"
printf '%-52s %10s %10s\n' "cudx probe --stages driver,runtime" "$driver_ms" "$(ratio "$probe_ms" "$driver_ms")"
printf '%-52s %10s %10s\n' "python3 ctypes: same loads, first calls (no fork)" "$py_ms" "$(ratio "$probe_ms" "$py_ms")"
echo "per stage (one run):"
"$cudx" probe --json | python3 -c '
import json, sys
r = json.load(sys.stdin)["probe"]
for x in r["runs"]:
    print("  %-8s %-44s %8.1f ms  %s" % (x["stage"], x["target"], x["ms"], x["end"]))
print("  total %.1f ms" % r["ms"])'
printf 'peak RSS (the largest of cudx and its probe children): %s MB\n' "$(peak_rss_mb "$cudx" probe)"
awk -v m="$probe_ms" 'BEGIN { exit !(m <= 1500) }' && echo "target <= 1500 ms: met" || echo "target <= 1500 ms: MISSED"
