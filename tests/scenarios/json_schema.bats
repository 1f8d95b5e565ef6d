#!/usr/bin/env bats
# Every command's --json output is the envelope (schema, command, tool, system, findings, in this
# order) and valid against docs/cudx.schema.json: real outputs of check, why, tree, arch, probe, kb
# and compare on real fixtures (the CUDA 13 toolkit, sysroots of consistency_lib.bash, the Windows PE
# fixtures) and on this machine.

load consistency_lib

setup_file() {
	export CX_OUT="$BATS_FILE_TMPDIR/out"
	mkdir -p "$CX_OUT"
}

setup() {
	PY=""
	for p in python3 /usr/bin/python3; do
		if "$p" -c 'import jsonschema' 2>/dev/null; then PY=$p; break; fi
	done
	[ -n "$PY" ] || skip_fixture "python3-jsonschema missing (scripts/deps.sh test installs it)"
	SCHEMA="$CUDX_SRC/docs/cudx.schema.json"
}

teardown() {
	cx_cleanup
}

# validate COMMAND FILE...: each file is JSON of COMMAND, valid against the schema, with the
# envelope's keys first and in order.
validate() {
	"$PY" - "$SCHEMA" "$@" <<'EOF'
import json, sys
from jsonschema import Draft202012Validator
schema = json.load(open(sys.argv[1]))
Draft202012Validator.check_schema(schema)
v = Draft202012Validator(schema)
command, files, bad = sys.argv[2], sys.argv[3:], 0
for f in files:
    doc = json.load(open(f))
    for e in v.iter_errors(doc):
        print("%s: %s at /%s" % (f, e.message[:300], "/".join(map(str, e.absolute_path))))
        bad += 1
    first = list(doc)[:5]
    if first != ["schema", "command", "tool", "system", "findings"]:
        print("%s: envelope keys first expected, got %s" % (f, first))
        bad += 1
    if doc.get("command") != command:
        print("%s: command %r, expected %r" % (f, doc.get("command"), command))
        bad += 1
print("%d file(s) of %s checked" % (len(files), command))
sys.exit(1 if bad else 0)
EOF
}

# jsonout [-N] NAME ARGS...: cudx ARGS --json into $CX_OUT/NAME.json; cudx must exit 0 or 1 (or N)
# and, for 0/1, print its JSON (lib/cudx.bash)
jsonout() {
	local want=()
	case $1 in -[0-9]*) want=("$1"); shift ;; esac
	local name=$1
	shift
	run_to_file "${want[@]}" "$CX_OUT/$name.json" "$CUDX" "$@" --json
}

@test "the schema rejects what is not the envelope (the validator can fail)" {
	jsonout kb-driver kb driver 12.4
	validate kb "$CX_OUT/kb-driver.json"
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); del d["findings"]; d["findings"]=[]; json.dump(d, open(sys.argv[2], "w"))' \
		"$CX_OUT/kb-driver.json" "$CX_OUT/reordered.json"
	run validate kb "$CX_OUT/reordered.json"
	[ "$status" -eq 1 ]
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); d["findings"]=[{"id":"x","severity":"fatal"}]; json.dump(d, open(sys.argv[2], "w"))' \
		"$CX_OUT/kb-driver.json" "$CX_OUT/badfinding.json"
	run validate kb "$CX_OUT/badfinding.json"
	[ "$status" -eq 1 ]
}

@test "check, why, tree and arch on the fixture sysroots" {
	local n
	cx_look_all
	for cmd in check why tree arch; do
		local files=()
		for n in "$CX_OUT"/*/*.cmd; do
			[ "$(cut -d' ' -f1 "$n")" = "$cmd" ] && files+=("${n%.cmd}.json")
		done
		[ "${#files[@]}" -gt 0 ] || { echo "no $cmd output"; return 1; }
		validate "$cmd" "${files[@]}"
	done
}

@test "this machine: check (with its probe), why, tree, arch" {
	local lib=/usr/local/cuda/lib64
	jsonout live-check check --probe-timeout 10
	validate check "$CX_OUT/live-check.json"
	jsonout live-why-found why libc.so.6
	jsonout live-why-missing why libcudnn.so.7
	validate why "$CX_OUT"/live-why-*.json
	jsonout live-tree tree /bin/sh
	validate tree "$CX_OUT/live-tree.json"
	[ -e "$lib/libcublas.so.13" ] || skip_fixture "no CUDA 13 toolkit for tree and arch on real libraries"
	jsonout live-tree-cudnn tree "$lib/libcudnn.so.9"
	jsonout live-tree-cudart tree "$lib/libcudart.so.13"
	validate tree "$CX_OUT"/live-tree-cu*.json
	# /nonexistent cannot be read: exit 2, the report still printed
	jsonout -2 live-arch arch "$lib/libcublas.so.13" "$lib/libcudart.so.13" /nonexistent --gpu sm_80 --gpu sm_61 --driver 535.104.05
	validate arch "$CX_OUT/live-arch.json"
}

# Paths are bytes: a directory name that is not UTF-8 must not make a key vanish (jansson refuses
# invalid UTF-8, which once dropped "file" and "path" silently); the bad byte is shown as '?'.
@test "paths that are not UTF-8 keep their keys, with '?' for the bad byte" {
	local dir="$BATS_TEST_TMPDIR/bad"$'\xff'"dir"
	mkdir -p "$dir"
	cp /bin/true "$dir/true"
	jsonout tree-bytes tree "$dir/true"
	validate tree "$CX_OUT/tree-bytes.json"
	run jq -r .file "$CX_OUT/tree-bytes.json"
	[ "$output" = "$BATS_TEST_TMPDIR/bad?dir/true" ] || { echo "file: $output"; return 1; }
	LD_LIBRARY_PATH="$dir" jsonout check-bytes check --no-probe
	validate check "$CX_OUT/check-bytes.json"
	run jq -r .inventory.env.LD_LIBRARY_PATH "$CX_OUT/check-bytes.json"
	[ "$output" = "$BATS_TEST_TMPDIR/bad?dir" ] || { echo "LD_LIBRARY_PATH: $output"; return 1; }
}

# The probe needs a GPU: the TEST DOUBLES of tests/doubles/ simulate one; the real CUDA 13 runtime
# without a driver is the other case.
@test "probe: on the doubles (healthy and failing) and on this machine" {
	local dbl="$BATS_FILE_TMPDIR/doubles"
	"$CUDX_SRC/tests/doubles/build.sh" "$dbl"
	LD_LIBRARY_PATH=$dbl jsonout probe-ok probe --cudart libcudart.so.13
	CUDX_DOUBLE_CUINIT=803 LD_LIBRARY_PATH=$dbl jsonout probe-803 probe --stages driver
	CUDX_DOUBLE_WRONG=1 LD_LIBRARY_PATH=$dbl jsonout probe-wrong probe --cudart libcudart.so.13
	jsonout probe-live probe
	validate probe "$CX_OUT"/probe-*.json
	python3 -c 'import json,sys; assert json.load(open(sys.argv[1]))["findings"]' "$CX_OUT/probe-803.json"
}

@test "kb: every topic, found and not found, and the rule registry" {
	jsonout kb-1 kb driver 12.4
	jsonout kb-2 kb gpu RTX 3090
	jsonout kb-3 kb arch sm_86
	jsonout kb-4 kb lib libcudnn.so.9
	jsonout kb-5 kb error 35
	jsonout kb-6 kb framework torch 2.5.1
	jsonout kb-7 kb findings
	jsonout kb-8 kb findings stub-libcuda
	jsonout kb-9 kb findings no-such-id
	jsonout kb-10 kb gpu "no such gpu"
	jsonout kb-11 kb tables
	validate kb "$CX_OUT"/kb-*.json
}

@test "why, tree and check on a Windows tree" {
	cx_windows_root keep-nvcuda
	jsonout win-check check --root "$root" --env "$root.env" --no-probe
	validate check "$CX_OUT/win-check.json"
	jsonout win-why why cudnn_cnn_infer64_8.dll --root "$root" --env "$root.env"
	jsonout win-why2 why nope.dll --root "$root" --env "$root.env"
	validate why "$CX_OUT"/win-why*.json
	jsonout win-tree tree cudnn_cnn_infer64_8.dll --root "$root" --env "$root.env"
	validate tree "$CX_OUT/win-tree.json"
}

# Real check reports of this machine, one made an outlier (another driver, an extra finding), one
# in the layout of cudx before the envelope (inventory before findings, no "command"), and garbage.
@test "compare: groups, an outlier and an unreadable report" {
	local d="$BATS_TEST_TMPDIR/nodes" i
	mkdir -p "$d"
	for i in 1 2; do "$CUDX" --no-probe --json >"$d/n$i.json" || true; done
	jq '{schema, tool, system, inventory, findings}' "$d/n1.json" >"$d/n3.json"
	jq '.inventory.driver.effective_version = "535.104.05" | .findings += [{"id": "driver-too-old"}]' \
		"$d/n1.json" >"$d/n4.json"
	echo garbage >"$d/bad.json"
	jsonout compare compare "$d"
	validate compare "$CX_OUT/compare.json"
	jq -e '.nodes == 4 and .outlier_count == 1 and ([.findings[].id] | sort) == ["fleet-node-differs", "fleet-report-unreadable"]' \
		"$CX_OUT/compare.json"
}
