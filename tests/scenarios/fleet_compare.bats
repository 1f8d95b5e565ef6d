#!/usr/bin/env bats
# cudx compare over real `cudx check --json` reports: cudx run on --root trees of real NVIDIA files
# (tests/fixtures/fleet/make-reports.sh: driver 535 and 470, CUDA 11.8 and 13 runtimes, cuDNN 9,
# GPUs listed in /proc), copied under node names the way the Slurm recipe collects them.

load lib/cudx

setup_file() {
	export BASE="$BATS_FILE_TMPDIR/base"
	CUDX_PKG_CACHE=${CUDX_PKG_CACHE:-$CUDX_SRC/build/pkgs} "$CUDX_SRC/tests/fixtures/fleet/make-reports.sh" "$BASE" \
		healthy_535 old_470 cuda13_535 mismatch_550 ||
		true
}

setup() {
	[ -s "$BASE/healthy_535.json" ] && [ -s "$BASE/old_470.json" ] && [ -s "$BASE/cuda13_535.json" ] ||
		skip_fixture "the base reports need the driver 535/470 packages and the CUDA 13 toolkit (tests/fixtures/fleet/make-reports.sh)"
	dir=$(mktemp -d "$BATS_TEST_TMPDIR/fleet.XXXXXX")
}

# node NAME CONFIG: NAME.json is the CONFIG report with NAME as host name
node() {
	jq --arg h "$1" '.system.hostname = $h' "$BASE/$2.json" >"$dir/$1.json"
}

@test "an old driver and a CUDA 13 node among healthy ones: named, with how they differ" {
	for i in 1 2 3 4 5 6 10; do node "node$i" healthy_535; done
	node node17 old_470
	node node18 cuda13_535
	run_strict "$CUDX" compare "$dir"
	[ "$status" -eq 1 ]
	major=$(jq -r .inventory.driver.effective_version "$BASE/healthy_535.json")
	old=$(jq -r .inventory.driver.effective_version "$BASE/old_470.json")
	cuda13=$(jq -r '[.inventory.libraries[] | select(.family == "cuda-runtime") | .version][0]' "$BASE/cuda13_535.json")
	cuda11=$(jq -r '[.inventory.libraries[] | select(.family == "cuda-runtime") | .version][0]' "$BASE/healthy_535.json")
	[[ "$output" == *"cudx compare: 9 nodes, 2 differ from the majority"* ]]
	[[ "$output" == *"node17: driver $old (majority $major, 8 of 9 nodes); extra finding driver-minor-compat"* ]]
	[[ "$output" == *"node18: CUDA runtime $cuda13 (majority $cuda11, 8 of 9 nodes); extra finding driver-too-old"* ]]
	# the groups list the minority's names, node2 before node10 in the majority's order
	[[ "$output" == *"$old  1 node: node17"* ]]
	! grep -q '^  node1:' <<<"$output"
}

@test "--json: the envelope, the groups and the outliers as data; findings for programs" {
	for i in 1 2 3; do node "n$i" healthy_535; done
	node n4 mismatch_550
	# the finding's severity is its rule entry's (src/diag/rules_fleet.c), as `cudx kb findings` lists it
	sev=$("$CUDX" kb findings fleet-node-differs --json | jq -r '.kb.findings[0].severity')
	run_strict "$CUDX" compare --json "$dir"
	[ "$status" -eq 1 ]
	python3 - "$output" "$sev" <<'EOF'
import json, sys
o = json.loads(sys.argv[1])
assert list(o)[:5] == ["schema", "command", "tool", "system", "findings"], list(o)[:5]
assert o["schema"] == "cudx/1" and o["command"] == "compare"
assert o["nodes"] == 4 and o["outlier_count"] == 1
assert [f["id"] for f in o["findings"]] == ["fleet-node-differs"]
assert o["findings"][0]["subject"] == "n4"
assert o["findings"][0]["severity"] == sys.argv[2], (o["findings"][0]["severity"], sys.argv[2])
out = o["outliers"][0]
assert out["node"] == "n4" and out["hostname"] == "n4"
assert "driver-userspace-mismatch" in out["extra_findings"], out
assert [d["dimension"] for d in out["differences"]] == ["gpus"], out  # 7 GPUs instead of 8
g = o["dimensions"]["gpus"]["groups"]
assert g[0]["count"] == 3 and g[0]["nodes"] == ["n1", "n2", "n3"], g
EOF
}

@test "all nodes alike: exit 0" {
	for i in 1 2 3; do node "n$i" healthy_535; done
	run_strict "$CUDX" compare "$dir/n1.json" "$dir/n2.json" "$dir/n3.json"
	[ "$status" -eq 0 ]
	[[ "$output" == *"3 nodes, all alike"* ]]
	! grep -q "differ" <<<"$output"
}

@test "reports of an older cudx (no \"command\", inventory before findings) are read like today's" {
	# today's check --json: the envelope first, "command": "check", findings before inventory
	[ "$(jq -c '[keys_unsorted[] | select(. == "command" or . == "findings" or . == "inventory")]' "$BASE/healthy_535.json")" = '["command","findings","inventory"]' ]
	[ "$(jq -r .command "$BASE/healthy_535.json")" = check ]
	node a healthy_535
	node b healthy_535
	# the layout before the envelope (cudx 0.1.0 before the rule registry)
	jq '.system.hostname = "c" | {schema, tool, system, inventory, findings}' "$BASE/healthy_535.json" >"$dir/c.json"
	jq '.system.hostname = "d" | {schema, tool, system, inventory, findings}' "$BASE/old_470.json" >"$dir/d.json"
	run_strict "$CUDX" compare "$dir"
	[ "$status" -eq 1 ]
	[[ "$output" == *"4 nodes, 1 differs from the majority"* ]]
	# the old layout's driver and findings (read after the inventory) both count
	old=$(jq -r .inventory.driver.effective_version "$BASE/old_470.json")
	[[ "$output" == *"  d: driver $old (majority "*"3 of 4 nodes); extra finding driver-minor-compat"* ]]
	! grep -q '^  c:' <<<"$output"
}

@test "garbage, truncated, other schemas and other commands' reports: a message each, the rest compared" {
	for i in 1 2 3; do node "n$i" healthy_535; done
	head -c 1000 "$BASE/healthy_535.json" >"$dir/truncated.json"
	jq '.schema = "cudx/2"' "$BASE/healthy_535.json" >"$dir/v2.json"
	run_to_file "$dir/arch.json" "$CUDX" arch --json "$CUDX"
	run_to_file "$dir/kb.json" "$CUDX" kb driver 12.4 --json
	# random bytes after one that starts no JSON value: a random first byte that happens to be a digit
	# or '-' reads as a number and gives "not a JSON object" instead (now and then)
	{ printf '\x89'; head -c 4096 /dev/urandom; } >"$dir/random.json"
	: >"$dir/empty.json"
	printf '%s' '{"schema":"cudx/1","inventory":{"gpus":{}}}' >"$dir/wrongtype.json"
	printf '%s' '{"schema":"cudx/1","findings":[]}' >"$dir/noinventory.json"
	mkfifo "$dir/fifo.json"
	run_strict timeout 20 "$CUDX" compare "$dir"
	[ "$status" -eq 1 ]
	[[ "$output" == *"3 nodes, all alike, 9 reports unreadable"* ]]
	[[ "$output" == *"truncated.json: not JSON: "*" at byte "* ]]
	[[ "$output" == *"v2.json: schema 'cudx/2' is not supported: this cudx reads cudx/1"* ]]
	[[ "$output" == *"arch.json: a \`cudx arch\` report: compare reads \`cudx check --json\` reports"* ]]
	[[ "$output" == *"kb.json: a \`cudx kb\` report: compare reads \`cudx check --json\` reports"* ]]
	[[ "$output" == *"noinventory.json: no \"inventory\" object"* ]]
	[[ "$output" == *"random.json: not JSON: "* ]]
	[[ "$output" == *"empty.json: empty file"* ]]
	[[ "$output" == *"wrongtype.json: inventory.gpus has the wrong type at byte 39"* ]]
	[[ "$output" == *"fifo.json: not a regular file"* ]]
}

@test "usage: no argument, nothing readable, --prom" {
	run_strict -2 "$CUDX" compare
	[ "$status" -eq 2 ]
	[[ "$output" == *"usage: cudx compare"* ]]
	run_strict -2 "$CUDX" compare "$dir/missing.json"
	[ "$status" -eq 2 ]
	[[ "$output" == *"missing.json: No such file or directory"* ]]
	[[ "$output" == *"no report could be read"* ]]
	run_strict -2 "$CUDX" compare "$dir"
	[ "$status" -eq 2 ]
	[[ "$output" == *"no *.json reports in this directory"* ]]
	node a healthy_535
	run_strict -2 "$CUDX" compare --prom "$dir"
	[ "$status" -eq 2 ]
}
