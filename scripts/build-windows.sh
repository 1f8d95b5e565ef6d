#!/bin/sh
# Cross-compile the native Windows build: build/windows/cudx.exe (x64), with mingw-w64.
#   scripts/build-windows.sh [BUILD_DIR]     (default build/windows)
# Needs gcc-mingw-w64-x86-64 and cmake (scripts/deps.sh test installs them).
set -eu
src=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$src/build/windows}
command -v x86_64-w64-mingw32-gcc >/dev/null 2>&1 || {
	echo "build-windows.sh: x86_64-w64-mingw32-gcc missing; apt-get install gcc-mingw-w64-x86-64" >&2
	exit 77
}
cmake -S "$src/src/win" -B "$out" -DCMAKE_TOOLCHAIN_FILE="$src/cmake/toolchains/mingw-w64.cmake" \
	-DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$out" -j2
echo "$out/cudx.exe"
