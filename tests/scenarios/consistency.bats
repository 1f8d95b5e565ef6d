#!/usr/bin/env bats
# One diagnosis behind every command (issue 12): the same fixture seen through check, why, tree,
# arch (and, live, probe) gives each finding id the same severity, and why/tree report what check
# reports about the file they resolve: a stub libcuda, a damaged or broken file, the wrong
# architecture, a missing symbol version, a stale cache. The severities are checked against the
# registry (`cudx kb findings`), id by id, for every finding any command printed.

load consistency_lib

setup_file() {
	export CX_OUT="$BATS_FILE_TMPDIR/out"
	mkdir -p "$CX_OUT"
}

teardown() {
	cx_cleanup
}

# Every finding printed in $CX_OUT/CASE: its id's severity is one the registry gives that id, and
# one (id, subject) has one severity whichever command printed it. Prints what it compared.
cx_consistent() {
	python3 - "$CX_OUT" "$@" <<'EOF'
import json, os, sys
out, cases = sys.argv[1], sys.argv[2:]
reg = {r["id"]: r for r in json.load(open(os.path.join(out, "registry.json")))["kb"]["findings"]}
bad = []
for case in cases:
    seen = {}  # (id, subject) -> {severity: [commands]}
    d = os.path.join(out, case)
    for f in sorted(os.listdir(d)):
        if not f.endswith(".json"):
            continue
        cmd = open(os.path.join(d, f[:-5] + ".cmd")).read().strip()
        doc = json.load(open(os.path.join(d, f)))
        for x in doc["findings"]:
            r = reg.get(x["id"])
            if r is None:
                bad.append("%s: %s printed %s, which no rule entry owns" % (case, cmd, x["id"]))
                continue
            allowed = {r["severity"], r["mild_severity"]} - {None}
            if x["severity"] not in allowed:
                bad.append("%s: %s gives %s %s; its entry allows %s" % (case, cmd, x["id"], x["severity"], sorted(allowed)))
            seen.setdefault((x["id"], x.get("subject", "")), {}).setdefault(x["severity"], []).append(cmd)
    for (i, subj), sev in sorted(seen.items()):
        cmds = sum(len(v) for v in sev.values())
        print("%-14s %-28s %-8s seen by %d command(s)" % (case, i, "/".join(sorted(sev)), cmds))
        if len(sev) > 1:
            bad.append("%s: %s about %s has severities %s" % (case, i, subj, sev))
for b in bad:
    print("INCONSISTENT:", b)
sys.exit(1 if bad else 0)
EOF
}

# The findings CASE's command N printed: "id:severity" lines.
cx_ids() {
	python3 -c 'import json,sys; [print("%s:%s" % (f["id"], f["severity"])) for f in json.load(open(sys.argv[1]))["findings"]]' \
		"$CX_OUT/$1/$2.json"
}
cx_rc() { cat "$CX_OUT/$1/$2.rc"; }

# has CASE N ID SEVERITY: command N of CASE printed ID with SEVERITY.
has() {
	cx_ids "$1" "$2" | grep -qx "$3:$4" || {
		echo "$(cat "$CX_OUT/$1/$2.cmd"): expected $3 ($4); got: $(cx_ids "$1" "$2" | tr '\n' ' ')"
		return 1
	}
}

look() {
	cx_fixture "$1"
	cx_look "$1"
	cx_registry
}

@test "a stub copied as libcuda.so.1: check, why libcuda.so.1 and tree of cudart say stub-libcuda, error" {
	look stub_so1
	has stub_so1 1 stub-libcuda error
	has stub_so1 2 stub-libcuda error
	[ "$(cx_rc stub_so1 2)" = 1 ]
	# cudart loads libcuda.so.1 at run time: the stub is in its tree
	has stub_so1 3 stub-libcuda error
	[ "$(cx_rc stub_so1 3)" = 1 ]
	# cudart itself loads nothing wrong when dlopened: found and healthy
	[ "$(cx_rc stub_so1 4)" = 0 ]
	cx_consistent stub_so1
}

@test "the stubs directory on LD_LIBRARY_PATH: why libcuda.so picks the stub and says what check says" {
	look stubs_dir
	for n in 1 2 3; do
		has stubs_dir $n stub-libcuda error
		has stubs_dir $n ld-library-path-stubs error
	done
	[ "$(cx_rc stubs_dir 2)" = 1 ]
	# arch keeps only what is about the file: the stub, not the environment
	has stubs_dir 4 stub-libcuda error
	! cx_ids stubs_dir 4 | grep -q ld-library-path
	cx_consistent stubs_dir
}

@test "a damaged wheel library: lib-damaged in check, why, tree and arch" {
	look damaged
	for n in 1 2 3 4; do has damaged $n lib-damaged error; done
	[ "$(cx_rc damaged 2)" = 1 ]
	cx_consistent damaged
}

@test "a broken link where the loader looks: why reports lib-broken-symlink as check does, and exits 1" {
	look broken_link
	has broken_link 1 lib-broken-symlink error
	has broken_link 2 lib-broken-symlink error
	has broken_link 2 lib-not-found error
	[ "$(cx_rc broken_link 2)" = 1 ]
	cx_consistent broken_link
}

@test "only an AArch64 libcudnn.so.8: lib-wrong-arch in check, why and tree" {
	look wrong_arch
	for n in 1 2 3; do has wrong_arch $n lib-wrong-arch error; done
	[ "$(cx_rc wrong_arch 2)" = 1 ] && [ "$(cx_rc wrong_arch 3)" = 1 ]
	cx_consistent wrong_arch
}

@test "a missing symbol version node: lib-symbol-version-missing in check, why --from and tree" {
	look symbol_version
	for n in 1 2 3; do has symbol_version $n lib-symbol-version-missing error; done
	# one finding for the one edge, though check's survey and why's --from both met it
	[ "$(cx_ids symbol_version 2 | grep -c lib-symbol-version-missing)" = 1 ]
	[ "$(cx_rc symbol_version 2)" = 1 ]
	cx_consistent symbol_version
}

@test "a stale cache: ldcache-stale is a warning everywhere, the failed load an error everywhere" {
	look stale_cache
	for n in 1 2 3; do
		has stale_cache $n ldcache-stale warning
		has stale_cache $n lib-not-found error
	done
	[ "$(cx_rc stale_cache 2)" = 1 ]
	cx_consistent stale_cache
}

@test "found but its dependency is missing: why judges the closure as check and tree do, and exits 1" {
	look dep_missing
	for n in 1 2 3; do has dep_missing $n lib-not-found error; done
	[ "$(cx_rc dep_missing 2)" = 1 ] && [ "$(cx_rc dep_missing 3)" = 1 ]
	has dep_missing 4 lib-not-found error
	[ "$(cx_rc dep_missing 4)" = 1 ]
	cx_consistent dep_missing
}

@test "an app bundling cudart 13 on a driver 535 image: check --app, tree APP, why --from APP and explain --app say driver-too-old" {
	look bundled_rt
	# check alone does not know the app: its runtime is in no place check surveys
	! cx_ids bundled_rt 1 | grep -q driver-too-old
	[ "$(cx_rc bundled_rt 1)" = 0 ]
	for n in 2 3 4 5; do
		has bundled_rt $n driver-too-old error
		[ "$(cx_rc bundled_rt $n)" = 1 ]
	done
	# the finding is about the app's own copy, found through its RUNPATH, judged against driver 535
	python3 - "$CX_OUT/bundled_rt" <<'EOF'
import json, sys
for n in (2, 3):
    d = json.load(open("%s/%d.json" % (sys.argv[1], n)))
    f = next(f for f in d["findings"] if f["id"] == "driver-too-old")
    assert f["subject"] == "/opt/app/bin/../lib/libcudart.so.13", f
    assert "driver: 535.309.01 (/usr/lib/x86_64-linux-gnu/libcuda.so.1)" in f["evidence"], f["evidence"]
d = json.load(open(sys.argv[1] + "/2.json"))
assert any(l["origin"] == "needed by /opt/app/bin/app" and l["component"] == "cudart" for l in d["inventory"]["libraries"]), d["inventory"]["libraries"]
# explain --app: the message's cause confirmed by the app's runtime (high); without --app the
# image shows no runtime that needs a newer driver, so nothing confirms it
d = json.load(open(sys.argv[1] + "/5.json"))
assert d["causes"][0]["id"] == "driver-too-old" and d["causes"][0]["confidence"] == "high", d["causes"][:2]
assert d["causes"][0]["confirmed_by"] == "driver-too-old", d["causes"][0]
d = json.load(open(sys.argv[1] + "/6.json"))
assert all(c["confidence"] != "high" for c in d["causes"]), d["causes"]
assert not any(f["id"] == "driver-too-old" for f in d["findings"]), d["findings"]
EOF
	cx_consistent bundled_rt
	# text: the app's copy is listed with where it came from; an app that is not there is a usage error
	run "$CUDX" --no-probe --root "$root" check --app /opt/app/bin/app
	[ "$status" -eq 1 ]
	[[ "$output" == *"/opt/app/bin/../lib/libcudart.so.13  [needed by /opt/app/bin/app]"* ]]
	run "$CUDX" --no-probe --root "$root" check --app /opt/app/bin/gone
	[ "$status" -eq 2 ]
	[[ "$output" == *"--app /opt/app/bin/gone: "* ]]
}

@test "the same image with the toolkit's CUDA 13 runtime: tree APP keeps driver-too-old through the app's copy" {
	look bundled_rt_toolkit
	for n in 1 2 3; do has bundled_rt_toolkit $n driver-too-old error; done
	cx_consistent bundled_rt_toolkit
}

@test "every id the registry has keeps one severity per subject across all fixtures' commands" {
	cx_look_all
	cx_registry
	run cx_consistent $(cd "$CX_OUT" && ls -d */ | tr -d /)
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$(echo "$output" | grep -c 'seen by [2-9]')" -ge 8 ] # ids compared across commands
}

@test "live: LD_LIBRARY_PATH=.../stubs cudx why libcuda.so reports stub-libcuda as check does, exit 1" {
	local stubs=/usr/local/cuda/lib64/stubs
	[ -e "$stubs/libcuda.so" ] || skip_fixture "no $stubs/libcuda.so on this machine"
	if /sbin/ldconfig -p 2>/dev/null | grep -q 'libcuda\.so\.1 '; then
		skip "this machine has a real libcuda.so.1 (the stub finding is then a warning)"
	fi
	cx_run live 1 check env LD_LIBRARY_PATH=$stubs "$CUDX" --no-probe
	cx_run live 2 "why libcuda.so" env LD_LIBRARY_PATH=$stubs "$CUDX"
	[ "$(cx_rc live 2)" = 1 ]
	has live 1 stub-libcuda error
	has live 2 stub-libcuda error
	cx_registry
	cx_consistent live
}

# The probe needs a GPU: these use the TEST DOUBLES of libcuda, cudart, NVML, cuBLAS and cuDNN
# (tests/doubles/), which simulate one and its failure codes. check runs the same probe.
@test "probe and check on the same simulated failures give the same findings the same severity" {
	local dbl="$BATS_FILE_TMPDIR/doubles" v n=0
	"$CUDX_SRC/tests/doubles/build.sh" "$dbl"
	mkdir -p "$CX_OUT/probe"
	for v in CUDX_DOUBLE_CUINIT=803 CUDX_DOUBLE_PTX=209 CUDX_DOUBLE_DEVICES=0 CUDX_DOUBLE_DRIVER_VERSION=12020 \
		CUDX_DOUBLE_CUDNN_CUDART=12080; do
		cx_run "probe-$v" 1 "probe --cudart libcudart.so.13" env -u CUDA_VISIBLE_DEVICES "$v" LD_LIBRARY_PATH="$dbl" "$CUDX"
		cx_run "probe-$v" 2 check env -u CUDA_VISIBLE_DEVICES "$v" LD_LIBRARY_PATH="$dbl" "$CUDX"
		# what the probe reports, check reports too
		python3 - "$CX_OUT/probe-$v" <<'EOF'
import json, sys
p = json.load(open(sys.argv[1] + "/1.json"))["findings"]
c = {(f["id"], f["severity"]) for f in json.load(open(sys.argv[1] + "/2.json"))["findings"]}
assert p, "the probe found nothing"
missing = [(f["id"], f["severity"]) for f in p if (f["id"], f["severity"]) not in c]
assert not missing, "probe findings check lacks: %s" % missing
EOF
	done
	cx_registry
	cx_consistent $(cd "$CX_OUT" && ls -d probe-*/ | tr -d /)
}

# Windows trees: the same DLL problems through check's scan of what is installed and through
# why/tree of one DLL (PE fixtures built with mingw-w64).
@test "windows: cudnn-zlibwapi-missing and a missing nvcuda.dll are errors in check, why and tree" {
	cx_windows_root
	local i=0 line
	for line in "check" "why cudnn_cnn_infer64_8.dll" "tree cudnn_cnn_infer64_8.dll" "why nvcuda.dll"; do
		i=$((i + 1))
		cx_run windows "$i" "$line" "$CUDX" --no-probe --root "$root" --env "$root.env"
	done
	for n in 1 2 3; do has windows $n cudnn-zlibwapi-missing error; done
	has windows 1 dll-not-found error
	has windows 4 dll-not-found error
	[ "$(cx_rc windows 2)" = 1 ]
	# why keeps what is about its DLL: not the missing nvcuda.dll
	! cx_ids windows 2 | grep -q dll-not-found
	cx_registry
	cx_consistent windows
}
