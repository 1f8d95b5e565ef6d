#!/usr/bin/env bash
# cudx arch against `cuobjdump --list-elf --list-ptx` (CUDA 11.8, Debian nvidia-cuda-toolkit) on the
# same CUDA 11.8 library, and cudx's peak RSS on the 540 MB libcublasLt.so.13.
# Targets: cudx >= 10x faster than cuobjdump; peak RSS <= 32 MB (the file is mapped, and the pages
# the scan has passed are dropped, so a big library is never resident as a whole).
# Use a release build (make build): the sanitizer build is several times slower.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
cudx=${CUDX:-$here/../build/cudx}
runs=${RUNS:-11}
pkgs=${CUDX_PKG_CACHE:-$here/../build/pkgs}
[ -x "$cudx" ] || { echo "build cudx first (make build)"; exit 1; }

cuobjdump=$pkgs/nvidia-cuda-toolkit/root/usr/bin/cuobjdump
lib11=$pkgs/libcublas11/root/usr/lib/x86_64-linux-gnu/libcublas.so.11
lt11=$pkgs/libcublaslt11/root/usr/lib/x86_64-linux-gnu/libcublasLt.so.11
lt13=${CUBLASLT13:-/usr/local/cuda/lib64/libcublasLt.so.13}

printf '%-58s %10s %10s\n' "command" "median ms" "vs cudx"
for lib in "$lib11" "$lt11"; do
	[ -r "$lib" ] || { echo "(missing $lib: run tests/fixtures/fetch-nvidia-debs.sh)"; continue; }
	name=$(basename "$lib")
	# warm the page cache for both tools alike
	cat "$lib" >/dev/null
	cudx_ms=$(median_ms "$runs" "$cudx" arch "$lib")
	printf '%-58s %10s %10s\n' "cudx arch $name" "$cudx_ms" "1.0x"
	if [ -x "$cuobjdump" ] && "$cuobjdump" --version >/dev/null 2>&1; then
		cu_ms=$(median_ms "$runs" "$cuobjdump" --list-elf --list-ptx "$lib")
		printf '%-58s %10s %10s\n' "cuobjdump 11.8 --list-elf --list-ptx $name" "$cu_ms" "$(ratio "$cudx_ms" "$cu_ms")"
		awk -v a="$cudx_ms" -v b="$cu_ms" 'BEGIN { exit !(a * 10 <= b) }' && echo "  target >= 10x faster: met" ||
			echo "  target >= 10x faster: MISSED"
	else
		echo "(cuobjdump 11.8 not runnable at $cuobjdump)"
	fi
done
if [ -r "$lt13" ] && [ "$(stat -L -c %s "$lt13")" -lt 104857600 ]; then
	echo "($lt13 is $(stat -L -c %s "$lt13") bytes, not the real 540 MB cuBLASLt: RSS not measured)"
elif [ -r "$lt13" ]; then
	cat "$lt13" >/dev/null
	printf '%-58s %10s\n' "cudx arch $(basename "$lt13")" "$(median_ms "$runs" "$cudx" arch "$lt13")"
	rss=$(peak_rss_mb "$cudx" arch "$lt13" --gpu sm_90)
	printf 'peak RSS of cudx arch %s (%s MB file): %s MB\n' "$(basename "$lt13")" \
		"$(($(stat -L -c %s "$lt13") / 1048576))" "$rss"
	awk -v m="$rss" 'BEGIN { exit !(m <= 32) }' && echo "  target <= 32 MB: met" || echo "  target <= 32 MB: MISSED"
	# what cuobjdump 11.8 makes of a CUDA 13 library
	[ -x "$cuobjdump" ] && echo "cuobjdump 11.8 on it: $("$cuobjdump" --list-elf "$lt13" 2>&1 | head -n1)"
fi
