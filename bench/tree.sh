#!/bin/sh
# cudx tree vs ldd, libtree and lddtree on the same files: median wall time of N runs each and the
# ratio to libtree (target: cudx no slower than libtree). Usage: bench/tree.sh [CUDX] [N]
# Needs the Debian packages libtree and pax-utils (lddtree); missing tools are skipped.
set -eu
CUDX=${1:-build/cudx}
N=${2:-11}
FILES=${FILES:-"/usr/local/cuda/lib64/libcudnn.so.9 /usr/local/cuda/lib64/libcublas.so.13 /usr/local/cuda/lib64/libcusolver.so.12 /bin/ls"}

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
time_one() { # prints seconds for one run of "$@"
	s=$(date +%s.%N); "$@" >/dev/null 2>&1 || true; e=$(date +%s.%N)
	echo "$e - $s" | bc -l
}
bench() { # bench NAME cmd...
	name=$1; shift
	command -v "$1" >/dev/null 2>&1 || [ -x "$1" ] || { printf '%-22s (not installed)\n' "$name"; return; }
	"$@" >/dev/null 2>&1 || true # warm the page cache
	m=$(for i in $(seq "$N"); do time_one "$@"; done | median)
	printf '%-22s %8.2f ms\n' "$name" "$(echo "$m * 1000" | bc -l)"
	echo "$m" > "$TMPD/$name"
}
TMPD=$(mktemp -d)
for f in $FILES; do
	[ -e "$f" ] || continue
	echo "== $f (median of $N)"
	bench "cudx tree" "$CUDX" tree "$f"
	bench "cudx tree --no-dlopen" "$CUDX" tree --no-dlopen "$f"
	bench "libtree" libtree "$f"
	bench "lddtree" lddtree "$f"
	bench "ldd" ldd "$f"
	if [ -s "$TMPD/libtree" ]; then
		for t in "cudx tree" "cudx tree --no-dlopen" lddtree ldd; do
			[ -s "$TMPD/$t" ] && printf '  ratio %-22s %6.2f x libtree\n' "$t" "$(echo "$(cat "$TMPD/$t") / $(cat "$TMPD/libtree")" | bc -l)"
		done
	fi
	rm -f "$TMPD"/*
done
rmdir "$TMPD"
