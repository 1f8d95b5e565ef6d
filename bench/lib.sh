# Shared bench helpers: median wall time of a command over N runs, in milliseconds.
# usage: median_ms N cmd args...
median_ms() {
	local n=$1 i t0 t1
	shift
	local times=()
	for ((i = 0; i < n; i++)); do
		t0=$(date +%s%N)
		"$@" >/dev/null 2>&1
		t1=$(date +%s%N)
		times+=($(((t1 - t0) / 1000)))
	done
	printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END {m=(NR%2)?a[(NR+1)/2]:(a[NR/2]+a[NR/2+1])/2; printf "%.2f\n", m/1000}'
}

# peak RSS in MB of one run (GNU time)
peak_rss_mb() {
	/usr/bin/time -f '%M' "$@" 2>&1 >/dev/null | tail -n1 | awk '{printf "%.1f\n", $1/1024}'
}

ratio() {
	awk -v a="$1" -v b="$2" 'BEGIN { if (a > 0) printf "%.1fx\n", b / a; else print "n/a" }'
}
