# Helpers for the probe scenarios: run `cudx probe --json` with a chosen LD_LIBRARY_PATH and query
# the probe's steps and findings in the JSON it printed ($output).
# shellcheck source=lib/cudx.bash
. "$(dirname "${BASH_SOURCE[0]}")/lib/cudx.bash"
: "${CUDX_PKG_CACHE:=${CUDX_SRC:-.}/build/pkgs}"
D535=$CUDX_PKG_CACHE/libcuda1/root/usr/lib/x86_64-linux-gnu/nvidia/current
D470=$CUDX_PKG_CACHE/libnvidia-tesla-470-cuda1/root/usr/lib/x86_64-linux-gnu/nvidia/tesla-470
RT11=$CUDX_PKG_CACHE/libcudart11.0/root/usr/lib/x86_64-linux-gnu

need_dir() {
	[ -d "$1" ] || skip_fixture "needs $2 (missing $1; run tests/fixtures/fetch-nvidia-debs.sh)"
}
# A system-wide libcuda would answer instead of the one a test puts on LD_LIBRARY_PATH only where
# the test expects none at all.
need_no_system_libcuda() {
	if /sbin/ldconfig -p 2>/dev/null | grep -q 'libcuda\.so\.1 '; then
		skip "this machine has a system libcuda.so.1"
	fi
}

# probe_json LD_LIBRARY_PATH ARGS...: cudx probe --json with that search path, nothing else leaking in.
probe_json() {
	local lpath=$1
	shift
	run_strict env -u CUDA_VISIBLE_DEVICES LD_LIBRARY_PATH="$lpath" "$CUDX" probe --json "$@"
}

# The codes a stage's steps returned, one per line: "STEP CODE"
step_codes() {
	py 'print("\n".join("%s %s" % (s["step"], s["code"]) for s in r["probe"]["steps"] if s["stage"]==sys.argv[1] and "code" in s))' "$1"
}
# Whether a stage has a step that returned CODE.
has_code() {
	step_codes "$1" | awk -v c="$2" '$NF==c {found=1} END {exit !found}' ||
		{ echo "no $1 step returned $2; got:"; step_codes "$1"; return 1; }
}
# Evidence lines of a finding, one per line.
evidence() {
	py 'print("\n".join(e for f in r["findings"] if f["id"]==sys.argv[1] for e in f.get("evidence",[])))' "$1"
}
run_end() { # STAGE -> how its (first) child ended
	py 'print(next(x["end"] for x in r["probe"]["runs"] if x["stage"]==sys.argv[1]))' "$1"
}
run_last_step() {
	py 'print(next(x.get("last_step","") for x in r["probe"]["runs"] if x["stage"]==sys.argv[1]))' "$1"
}
fact() { # STAGE KEY
	py 'print(next(f["value"] for f in r["probe"]["facts"] if f["stage"]==sys.argv[1] and f["key"]==sys.argv[2]))' "$1" "$2"
}
step_outcome() { # STAGE STEP
	py 'print(next(s["outcome"] for s in r["probe"]["steps"] if s["stage"]==sys.argv[1] and s["step"]==sys.argv[2]))' "$1" "$2"
}
