#!/bin/sh
# One target of the fuzz campaign (docs/fuzzing.md): run fuzz_NAME from its committed corpus plus
# SEEDS (make-seeds.sh output) for RUNS executions, then minimise what it found into the committed
# corpus with libFuzzer's -merge=1 (a file is added only for coverage the corpus lacks; smaller
# inputs are preferred). Seeds that were added keep their descriptive names.
#
#   tests/fuzz/campaign.sh FUZZ_BIN_DIR NAME [RUNS [SEEDS]]
#
# FUZZ_BIN_DIR holds fuzz_* built with the readers instrumented (-fsanitize=fuzzer-no-link on the
# core library, as tests/tests.cmake does). Work files and the log go to $CUDX_FUZZ_WORK/NAME
# (default /tmp/cudx-fuzz/NAME); a crash stops the run and leaves crash-* there.
set -eu
bin=$1/fuzz_$2
name=fuzz_$2
runs=${3:-10000000}
seeds=${4:-}
here=$(cd "$(dirname "$0")" && pwd)
corpus=$here/corpus/$name
work=${CUDX_FUZZ_WORK:-/tmp/cudx-fuzz}/$2
opts="-rss_limit_mb=512 -max_len=65536 -timeout=10"
# A smaller ASan quarantine: the readers allocate arena blocks of 64 KB per input, and with the
# default 256 MB quarantine every execution faults in fresh pages (measured on fuzz_probe_records:
# 40 % less CPU per execution). Use-after-free within an input is still caught.
export ASAN_OPTIONS="${ASAN_OPTIONS:-quarantine_size_mb=16}"
mkdir -p "$work/found" "$corpus"
dirs="$work/found $corpus"
[ -n "$seeds" ] && [ -d "$seeds/$name" ] && dirs="$dirs $seeds/$name"
start=$(date +%s)
# shellcheck disable=SC2086
nice -n 19 "$bin" $opts -runs="$runs" -print_final_stats=1 -artifact_prefix="$work/" $dirs \
	>"$work/run.log" 2>&1 || { echo "$name: stopped, see $work/run.log" >&2; tail -40 "$work/run.log" >&2; exit 1; }
end=$(date +%s)
before=$(ls "$corpus" | wc -l)
# shellcheck disable=SC2086
nice -n 19 "$bin" $opts -merge=1 "$corpus" $(echo "$dirs" | sed "s| $corpus||") >"$work/merge.log" 2>&1
# a seed that made it in is stored under its SHA-1: give it back its name
if [ -n "$seeds" ] && [ -d "$seeds/$name" ]; then
	for s in "$seeds/$name"/*; do
		h=$(sha1sum "$s" | cut -d' ' -f1)
		[ -f "$corpus/$h" ] && mv "$corpus/$h" "$corpus/$(basename "$s")"
	done
fi
# the figures docs/fuzzing.md lists
cov=$(grep -E '^#[0-9]+[[:space:]]+DONE' "$work/run.log" | tail -1)
echo "$name execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/run.log")" \
	"exec_per_s=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$work/run.log")" \
	"cov=$(echo "$cov" | sed -n 's/.*cov: \([0-9]*\).*/\1/p')" \
	"ft=$(echo "$cov" | sed -n 's/.*ft: \([0-9]*\).*/\1/p')" \
	"secs=$((end - start))" "corpus_files=$before->$(ls "$corpus" | wc -l)" \
	"corpus_bytes=$(cat "$corpus"/* | wc -c)" "peak_rss_mb=$(sed -n 's/^stat::peak_rss_mb: *//p' "$work/run.log")"
