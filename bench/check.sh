#!/usr/bin/env bash
# cudx check (no live probe) against what a user would otherwise run to survey the stack:
# `ldconfig -p` (the library cache only) and PyTorch's collect_env.py (imports torch when present,
# runs nvidia-smi, reads versions). Target: cudx check <= 20 ms median on this machine.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
cudx=${CUDX:-$here/../build/cudx}
runs=${RUNS:-21}
[ -x "$cudx" ] || { echo "build cudx first (make build)"; exit 1; }

cudx_ms=$(median_ms "$runs" "$cudx" check --no-probe)
cudx_json_ms=$(median_ms "$runs" "$cudx" check --no-probe --json)
ldconfig_ms=$(median_ms "$runs" ldconfig -p)
printf '%-44s %10s %10s\n' "command" "median ms" "vs cudx"
printf '%-44s %10s %10s\n' "cudx check --no-probe" "$cudx_ms" "1.0x"
printf '%-44s %10s %10s\n' "cudx check --no-probe --json" "$cudx_json_ms" "$(ratio "$cudx_ms" "$cudx_json_ms")"
printf '%-44s %10s %10s\n' "ldconfig -p" "$ldconfig_ms" "$(ratio "$cudx_ms" "$ldconfig_ms")"
# collect_env.py is not part of cudx: point COLLECT_ENV at a copy of PyTorch's
# torch/utils/collect_env.py to include it.
ce=${COLLECT_ENV:-$here/../build/bench/collect_env.py}
if [ -f "$ce" ] && command -v python3 >/dev/null; then
	ce_ms=$(median_ms 5 python3 "$ce")
	printf '%-44s %10s %10s\n' "python3 collect_env.py (PyTorch)" "$ce_ms" "$(ratio "$cudx_ms" "$ce_ms")"
else
	echo "(collect_env.py not found at $ce: set COLLECT_ENV to include PyTorch's reporter)"
fi
printf 'peak RSS of cudx check: %s MB\n' "$(peak_rss_mb "$cudx" check --no-probe)"
awk -v m="$cudx_ms" 'BEGIN { exit !(m <= 20) }' && echo "target <= 20 ms: met" || echo "target <= 20 ms: MISSED"
