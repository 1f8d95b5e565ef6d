#!/usr/bin/env bash
# Regenerate data/driver_symbols.tsv: the CUDA driver API entry points that older drivers' libcuda
# does not export, from the dynamic symbol tables of real libcuda.so files (nm -D). A program that
# calls one of them (a binding resolving its whole table, an extension built against a newer
# cuda.h) fails with "undefined symbol: cuX" on such a driver: the driver is too old.
# Usage: tools/driver-symbols.sh [PKG_CACHE] [CUDA13] > data/driver_symbols.tsv
# (defaults: build/pkgs, as tests/fixtures/fetch-nvidia-debs.sh fills it, and /usr/local/cuda-13.0)
set -euo pipefail
pkgs=${1:-build/pkgs}
cuda13=${2:-/usr/local/cuda-13.0}
d470=$(find "$pkgs/libnvidia-tesla-470-cuda1/root" -name 'libcuda.so.470.*' -type f | head -n1)
d535=$(find "$pkgs/libcuda1/root" -name 'libcuda.so.535.*' -type f | head -n1)
stub=$cuda13/lib64/stubs/libcuda.so
for f in "$d470" "$d535" "$stub"; do
	[ -n "$f" ] && [ -f "$f" ] || { echo "driver-symbols: missing $f (run tests/fixtures/fetch-nvidia-debs.sh)" >&2; exit 1; }
done
syms() { nm -D --defined-only "$1" | awk '$3 ~ /^cu[A-Z]/ { print $3 }' | sort -u; }
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
syms "$d470" >"$t/470"
syms "$d535" >"$t/535"
syms "$stub" >"$t/13"
cat <<'HEAD'
# CUDA driver API entry points (cu*) that older drivers' libcuda.so does not export, read from
# real binaries by tools/driver-symbols.sh (do not edit by hand): newer_than is the CUDA of the
# newest driver read that lacks the symbol, seen_in the CUDA of the first that exports it (driver
# 470.256.02 = CUDA 11.4, 535.309.01 = CUDA 12.2, the CUDA 13.0 toolkit's stub = 13.0). A program
# that needs one fails with "undefined symbol" on a driver of newer_than or older (explain: the
# driver is too old, not a stub). Symbols every one of them exports are not listed.
#!struct kb_driver_symbol
#!array kbt_driver_symbol
*symbol:str	newer_than:ver	seen_in:ver	status:mark	source:src
HEAD
comm -13 "$t/470" "$t/535" | awk '{ print $1 "\t11.4\t12.2\t\tS40" }'
comm -13 "$t/535" "$t/13" | comm -23 - "$t/470" | awk '{ print $1 "\t12.2\t13.0\t\tS40" }'
