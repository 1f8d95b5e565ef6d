#!/usr/bin/env bash
# What watching the real loader costs. A Python program (ctypes loads of a few standard extension
# modules and the CUDA 13 runtime, about 40 objects and 200 loader events) runs plainly, under
# cudx's audit library alone (LD_AUDIT, writing its record), under `cudx run` (the whole command:
# run, then judge), and with what a user would otherwise run to see the loads, glibc's own
# LD_DEBUG=libs (which prints every search to stderr). Target: the audit library adds <= 15% to the
# program's own wall time (median).
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
cudx=${CUDX:-$here/../build/cudx}
lib=$(dirname "$cudx")/cudx-audit.so
runs=${RUNS:-15}
[ -x "$cudx" ] && [ -e "$lib" ] || { echo "build cudx first (make build)"; exit 1; }
# the interpreter itself, not a launcher script (pyenv shims run bash first)
py=$(python3 -c "import sys; print(sys.executable)" 2>/dev/null) || { echo "needs python3"; exit 0; }
rec=$(mktemp /tmp/cudx-bench-audit.XXXXXX)
code='import json, ssl, sqlite3, decimal, hashlib, ctypes
for n in ("libcudart.so.13", "libcudart.so.12", "libcudnn.so.9"):
    try: ctypes.CDLL(n)
    except OSError: pass'

audited() { : >"$rec"; CUDX_AUDIT_OUT=$rec LD_AUDIT=$lib "$@"; }
# The four are timed in turn, round after round, so load from elsewhere on the machine falls on
# all of them alike; the medians are compared.
declare -a t_plain t_audit t_run t_debug
ms() { local t0 t1; t0=$(date +%s%N); "$@" >/dev/null 2>&1; t1=$(date +%s%N); echo $(((t1 - t0) / 1000)); }
for ((i = 0; i < runs; i++)); do
	t_plain+=("$(ms "$py" -c "$code")")
	t_audit+=("$(ms audited "$py" -c "$code")")
	t_run+=("$(ms "$cudx" run -- "$py" -c "$code")")
	t_debug+=("$(ms env LD_DEBUG=libs "$py" -c "$code")")
done
med() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END {m=(NR%2)?a[(NR+1)/2]:(a[NR/2]+a[NR/2+1])/2; printf "%.2f\n", m/1000}'; }
plain_ms=$(med "${t_plain[@]}")
audit_ms=$(med "${t_audit[@]}")
run_ms=$(med "${t_run[@]}")
debug_ms=$(med "${t_debug[@]}")
audited "$py" -c "$code"
events=$(wc -l <"$rec")
bytes=$(wc -c <"$rec")
rm -f "$rec"

printf '%-58s %10s %10s\n' "command" "median ms" "vs plain"
printf '%-58s %10s %10s\n' "python3 (plain)" "$plain_ms" "1.0x"
printf '%-58s %10s %10s\n' "python3 under cudx-audit.so ($events events, $bytes bytes)" "$audit_ms" "$(ratio "$plain_ms" "$audit_ms")"
printf '%-58s %10s %10s\n' "cudx run -- python3 (run, then judge)" "$run_ms" "$(ratio "$plain_ms" "$run_ms")"
printf '%-58s %10s %10s\n' "LD_DEBUG=libs python3 (glibc's own trace)" "$debug_ms" "$(ratio "$plain_ms" "$debug_ms")"
awk -v a="$audit_ms" -v p="$plain_ms" 'BEGIN { exit !(a <= p * 1.15) }' && echo "target audit <= 1.15x plain: met" ||
	echo "target audit <= 1.15x plain: MISSED (a loaded machine makes this noisy: RUNS=30)"
