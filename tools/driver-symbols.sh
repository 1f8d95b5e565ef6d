#!/usr/bin/env bash
# Regenerate data/driver_symbols.tsv: the CUDA driver API entry points that older drivers' libcuda
# does not export, from the dynamic symbol tables of real libcuda.so files (nm -D). A program that
# calls one of them (a binding resolving its whole table, an extension built against a newer
# cuda.h) fails with "undefined symbol: cuX" on such a driver: the driver is too old.
# Usage: tools/driver-symbols.sh [PKG_CACHE] [CUDA13] > data/driver_symbols.tsv
# (defaults: build/pkgs, as tests/fixtures/fetch-nvidia-debs.sh fills it, with Debian bullseye's
# 390, 418, 450 and 460 drivers and bookworm's 470 and 535, and /usr/local/cuda-13.0)
set -euo pipefail
pkgs=${1:-build/pkgs}
cuda13=${2:-/usr/local/cuda-13.0}
# oldest first: package, the glob of its libcuda, the CUDA release of that driver branch
reads="libnvidia-legacy-390xx-cuda1 libcuda.so.390.* 9.1
libnvidia-tesla-418-cuda1 libcuda.so.418.* 10.1
libnvidia-tesla-450-cuda1 libcuda.so.450.* 11.0
libnvidia-tesla-460-cuda1 libcuda.so.460.* 11.2
libnvidia-tesla-470-cuda1 libcuda.so.470.* 11.4
libcuda1 libcuda.so.535.* 12.2"
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
syms() { nm -D --defined-only "$1" | awk '$3 ~ /^cu[A-Z]/ { print $3 }' | sort -u; }
: >"$t/order"
while read -r pkg glob cuda; do
	f=$(find "$pkgs/$pkg/root" -name "$glob" -type f 2>/dev/null | head -n1)
	[ -n "$f" ] || { echo "driver-symbols: no $glob in $pkgs/$pkg (run tests/fixtures/fetch-nvidia-debs.sh)" >&2; exit 1; }
	syms "$f" >"$t/$cuda"
	echo "$cuda" >>"$t/order"
done <<<"$reads"
stub=$cuda13/lib64/stubs/libcuda.so
[ -f "$stub" ] || { echo "driver-symbols: missing $stub" >&2; exit 1; }
syms "$stub" >"$t/13.0"
echo 13.0 >>"$t/order"
cat <<'HEAD'
# CUDA driver API entry points (cu*) that older drivers' libcuda.so does not export, read from
# real binaries by tools/driver-symbols.sh (do not edit by hand): newer_than is the CUDA of the
# newest driver read that lacks the symbol, seen_in the CUDA of the first that exports it (driver
# 390.157 = CUDA 9.1, 418.226.00 = 10.1, 450.248.02 = 11.0, 460.106.00 = 11.2, 470.256.02 = 11.4,
# 535.309.01 = 12.2, the CUDA 13.0 toolkit's stub = 13.0). A program that needs one fails with
# "undefined symbol" on a driver of newer_than or older (explain: the driver is too old, not a
# stub). Symbols the oldest driver read (390) exports already are not listed: one of those missing
# is no real libcuda.
#!struct kb_driver_symbol
#!array kbt_driver_symbol
*symbol:str	newer_than:ver	seen_in:ver	status:mark	source:src
HEAD
# each symbol once, at the first release that exports it; the release read before it is newer_than
prev=""
seen="$t/seen"
: >"$seen"
while read -r cuda; do
	if [ -n "$prev" ]; then
		comm -23 "$t/$cuda" "$seen" | awk -v p="$prev" -v c="$cuda" '{ print $1 "\t" p "\t" c "\t\tS40" }'
	fi
	sort -u "$seen" "$t/$cuda" -o "$seen"
	prev=$cuda
done <"$t/order"
