#!/usr/bin/env bash
# cudx compare over a fleet of 10,000 node reports, against what a user would otherwise write: jq
# pulling the same fields out of every report, awk finding each column's majority and the nodes
# that differ. Target: cudx compare <= 2 s for 10,000 reports.
#
# The reports are real `cudx check --json` outputs (tests/fixtures/fleet/make-reports.sh runs cudx
# on --root trees built from real NVIDIA files: driver 535/470, CUDA 11.8 and 13 runtimes, cuDNN 9,
# 8 A100s or 4 H100s), multiplied into a fleet by bench/fleet_gen.py (most nodes alike, a few
# percent odd, small drifts). NODES=N for another size; the fleet is kept in build/bench/.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
cudx=${CUDX:-$here/../build/cudx}
nodes=${NODES:-10000}
runs=${RUNS:-5}
work=${BENCH_DIR:-$here/../build/bench}
[ -x "$cudx" ] || { echo "build cudx first (make build)"; exit 1; }
command -v jq >/dev/null || { echo "jq missing: apt-get install jq"; exit 1; }
export CUDX_PKG_CACHE=${CUDX_PKG_CACHE:-$here/../build/pkgs}

base=$work/fleet-base
fleet=$work/fleet-$nodes
# base reports of an older cudx (before the envelope: no "command") are made again, and the fleet with them
if [ -s "$base/healthy_535.json" ] && ! jq -e '.command == "check"' "$base/healthy_535.json" >/dev/null; then
	rm -rf "$base" "$fleet"
fi
if [ ! -s "$base/healthy_535.json" ]; then
	CUDX=$cudx "$here/../tests/fixtures/fleet/make-reports.sh" "$base" ||
		{ echo "cannot build the base reports (fixtures missing?)"; exit 1; }
fi
if [ "$(find "$fleet" -name '*.json' 2>/dev/null | wc -l)" -ne "$nodes" ]; then
	rm -rf "$fleet"
	python3 "$here/fleet_gen.py" "$base" "$fleet" "$nodes"
fi
bytes=$(cat "$fleet"/*.json | wc -c)
echo "fleet: $nodes reports, $((bytes / 1024 / 1024)) MiB ($((bytes / nodes)) bytes each on average), page cache warm"
cat "$fleet"/*.json >/dev/null

# What a user would do without cudx: one jq over every report, awk for majorities and outliers.
jq_compare() {
	jq -r '[(input_filename | split("/") | last | rtrimstr(".json")),
		(.inventory.driver.effective_version // "none"),
		([.inventory.libraries[] | select(.family == "cuda-runtime") | .version] | unique | join(", ") | if . == "" then "none" else . end),
		([.inventory.libraries[] | select(.family == "cudnn") | .version] | unique | join(", ") | if . == "" then "none" else . end),
		([.inventory.gpus[] | select(.source != "--gpu") | .name] | group_by(.) | map("\(length)x \(.[0])") | join(", ") | if . == "" then "none" else . end),
		([.findings[].id] | unique | join(" ") | if . == "" then "none" else . end)] | @tsv' "$fleet"/*.json |
		awk -F'\t' '{ row[NR] = $0; for (c = 2; c <= 6; c++) if (++n[c, $c] > best[c]) { best[c] = n[c, $c]; maj[c] = $c } }
			END { for (r = 1; r <= NR; r++) { split(row[r], f, "\t"); d = "";
				for (c = 2; c <= 6; c++) if (f[c] != maj[c]) d = d " " f[c];
				if (d != "") print f[1] ":" d } }'
}

cudx_ms=$(median_ms "$runs" "$cudx" compare "$fleet")
cudx_json_ms=$(median_ms "$runs" "$cudx" compare --json "$fleet")
jq_ms=$(median_ms 1 jq_compare)
outliers=$("$cudx" compare --json "$fleet" | jq .outlier_count)
jq_outliers=$(jq_compare | wc -l)
printf '%-52s %10s %10s\n' "command ($nodes reports)" "median ms" "vs cudx"
printf '%-52s %10s %10s\n' "cudx compare DIR" "$cudx_ms" "1.0x"
printf '%-52s %10s %10s\n' "cudx compare --json DIR" "$cudx_json_ms" "$(ratio "$cudx_ms" "$cudx_json_ms")"
printf '%-52s %10s %10s\n' "jq (same fields) | awk (majorities, outliers)" "$jq_ms" "$(ratio "$cudx_ms" "$jq_ms")"
echo "outliers: cudx $outliers, jq+awk $jq_outliers"
printf 'peak RSS of cudx compare: %s MB\n' "$(peak_rss_mb "$cudx" compare "$fleet")"
awk -v m="$cudx_ms" 'BEGIN { exit !(m <= 2000) }' && echo "target <= 2 s: met" || echo "target <= 2 s: MISSED"
