#!/usr/bin/env bats
# cudx run: a program runs under cudx's LD_AUDIT library; cudx judges what the real loader did.
# These cases use only the C library and programs compiled here; run_nvidia.bats loads NVIDIA's.

load run_lib

setup_file() {
	build_dl
}

@test "a GPU library the program dlopens and never gets is lib-not-found, with the places the loader tried" {
	run_json -- "$BATS_FILE_TMPDIR/dl" libz.so.1 libcudnn.so.8
	[ "$status" -eq 1 ]
	# the envelope every command prints, then run's own keys
	[ "$(py 'print(",".join(list(r)[:5]))')" = "schema,command,tool,system,findings" ]
	[ "$(py 'print(r["command"])')" = run ]
	has_finding lib-not-found
	[ "$(py 'print(next(f["severity"] for f in r["findings"] if f["id"]=="lib-not-found"))')" = error ]
	evidence lib-not-found | grep -q '^tried /.*/libcudnn.so.8 (default dirs)$'
	# the command's own exit status and output (passed through to stderr with --json, and kept)
	[ "$(py 'print(r["exit"]["status"])')" = 1 ]
	[[ "$cmd_err" == *"libcudnn.so.8: libcudnn.so.8: cannot open shared object file"* ]]
	py 'print(r["output"]["stdout"]["tail"])' | grep -q 'libz.so.1: loaded'
	# what it did load, in order, with who asked and how the loader found it
	py 'p=[p for p in r["processes"] if p["judged"]][0]
z=[o for o in p["objects"] if o["requested_as"]=="libz.so.1"][0]
assert z["at_runtime"] and z["how"] in ("ld.so.cache","default dirs"), z
assert p["objects"][z["requested_by"]-1]["main"]
nf=p["not_found"][0]; assert nf["name"]=="libcudnn.so.8" and nf["gpu_library"] and len(nf["tried"])>3, nf'
	# explain read the output and the finding confirms the message's cause
	py 'm=r["messages"][0]; assert m["stream"]=="stdout" and any(c["finding"]=="lib-not-found" and c["confirmed"] for c in m["causes"]), m'
}

@test "text: the command's output comes first, then how it ended and what it loaded" {
	run env NO_COLOR=1 "$CUDX" run -- "$BATS_FILE_TMPDIR/dl" libz.so.1 libcudnn.so.8
	[ "$status" -eq 1 ]
	[[ "${lines[0]}" == *"libz.so.1: loaded"* ]]
	[[ "$output" == *"exited with status 1"* ]]
	[[ "$output" == *"Searched for and never found"*"libcudnn.so.8"*"dlopen by dl"* ]]
	[[ "$output" == *"error   lib-not-found: libcudnn.so.8 was searched for and never found"* ]]
	[[ "$output" == *"Messages in its output"*"confirmed: lib-not-found"* ]]
}

@test "a library needed at start-up that is gone: lib-not-found at start-up, the program exits 127" {
	mkdir -p "$BATS_TEST_TMPDIR/lib"
	echo 'int gone(void) { return 1; }' >"$BATS_TEST_TMPDIR/gone.c"
	echo 'int gone(void); int main(void) { return gone(); }' >"$BATS_TEST_TMPDIR/main.c"
	cc -shared -fPIC -o "$BATS_TEST_TMPDIR/lib/libgone.so.1" "$BATS_TEST_TMPDIR/gone.c" -Wl,-soname,libgone.so.1
	cc -o "$BATS_TEST_TMPDIR/prog" "$BATS_TEST_TMPDIR/main.c" -L"$BATS_TEST_TMPDIR/lib" -l:libgone.so.1 \
		-Wl,-rpath,"$BATS_TEST_TMPDIR/lib"
	rm "$BATS_TEST_TMPDIR/lib/libgone.so.1"
	run_json -- "$BATS_TEST_TMPDIR/prog"
	[ "$status" -eq 1 ]
	[ "$(py 'print(r["exit"]["status"])')" = 127 ]
	py 'f=next(f for f in r["findings"] if f["id"]=="lib-not-found"); assert "needed at start-up" in f["summary"] and f["severity"]=="error", f'
	evidence lib-not-found | grep -qx "tried $BATS_TEST_TMPDIR/lib/libgone.so.1 (RPATH/RUNPATH)"
	[[ "$cmd_err" == *"error while loading shared libraries: libgone.so.1"* ]]
}

@test "a program that loads nothing wrong: exit 0, no findings about it" {
	run_json -- "$BATS_FILE_TMPDIR/dl" libz.so.1
	[ "$status" -eq 0 ]
	[ "$(py 'print(len(r["findings"]))')" = 0 ]
	[ "$(py 'print(r["exit"]["status"])')" = 0 ]
	# this machine's own findings are not dropped, only set apart
	py 'assert isinstance(r["other_findings"], list)'
}

@test "a command that cannot be run, no command, and options that do not apply are usage errors" {
	run "$CUDX" run -- "$BATS_TEST_TMPDIR/no-such-program"
	[ "$status" -eq 2 ]
	[[ "$output" == *"cannot run"*"No such file or directory"* ]]
	run "$CUDX" run
	[ "$status" -eq 2 ]
	[[ "$output" == *"the command to run is missing"* ]]
	run "$CUDX" --root / run -- true
	[ "$status" -eq 2 ]
	run "$CUDX" run --timeout 0 -- true
	[ "$status" -eq 2 ]
	run "$CUDX" run --bogus -- true
	[ "$status" -eq 2 ]
}

@test "a statically linked program cannot be watched: run-not-audited says so" {
	echo 'int main(void) { return 3; }' >"$BATS_TEST_TMPDIR/s.c"
	cc -static -o "$BATS_TEST_TMPDIR/static" "$BATS_TEST_TMPDIR/s.c" 2>/dev/null || skip "no static C library"
	run_json -- "$BATS_TEST_TMPDIR/static"
	[ "$status" -eq 0 ]
	has_finding run-not-audited
	[ "$(py 'print(r["findings"][0]["severity"])')" = warning ]
	evidence run-not-audited | grep -q 'statically linked'
	[ "$(py 'print(r["exit"]["status"])')" = 3 ]
	[ "$(py 'print(r["audit"]["not_audited"] is not None)')" = True ]
}

@test "a set-group-ID program runs in secure mode, where the loader drops LD_AUDIT: run-not-audited" {
	[ "$(id -u)" = 0 ] || skip "needs root to give a program another group"
	getent group nogroup >/dev/null || skip "needs the group nogroup"
	cp "$BATS_FILE_TMPDIR/dl" "$BATS_TEST_TMPDIR/sgid"
	chgrp nogroup "$BATS_TEST_TMPDIR/sgid"
	chmod g+s "$BATS_TEST_TMPDIR/sgid"
	run_json -- "$BATS_TEST_TMPDIR/sgid" libz.so.1
	[ "$(py 'print(r["exit"]["status"])')" = 0 ]
	[ "$(py 'print(len(r["processes"]))')" = 0 ] || { echo "the loader audited a secure-mode program?"; return 1; }
	has_finding run-not-audited
	evidence run-not-audited | grep -q 'set-group-ID'
}

@test "--timeout ends the whole process group, and the report says it timed out" {
	start=$(date +%s)
	run_json --timeout 1 -- sh -c 'sleep 300 & echo $! >"$0"; wait' "$BATS_TEST_TMPDIR/bgpid"
	[ $(($(date +%s) - start)) -lt 10 ]
	[ "$(py 'print(r["exit"]["timed_out"])')" = True ]
	[ "$(py 'print(r["exit"]["signal_name"])')" = SIGTERM ]
	bg=$(cat "$BATS_TEST_TMPDIR/bgpid")
	# Killed, the child is a zombie until whoever adopted it (PID 1 or a subreaper) reaps it, and
	# kill -0 succeeds on a zombie: wait up to 3 s for it to be gone or a zombie.
	local state=
	for _ in $(seq 30); do
		state=$(sed 's/.*) //' "/proc/$bg/stat" 2>/dev/null | cut -d' ' -f1)
		[ -z "$state" ] || [ "$state" = Z ] && break
		sleep 0.1
	done
	[ -z "$state" ] || [ "$state" = Z ] || { kill "$bg"; echo "background child $bg survived the timeout (state $state)"; return 1; }
}

@test "a program killed by a signal: the report names the signal" {
	run_json -- sh -c 'kill -SEGV $$'
	[ "$(py 'print(r["exit"]["signal_name"], r["exit"]["status"])')" = "SIGSEGV None" ]
	run env NO_COLOR=1 "$CUDX" run -- sh -c 'kill -SEGV $$'
	[[ "$output" == *"was killed by signal 11 (SIGSEGV"* ]]
}

@test "an LD_AUDIT the user set is kept: cudx's library is appended" {
	run_json -- sh -c 'echo "LD_AUDIT=$LD_AUDIT"'
	lib=$(py 'print(r["audit"]["library"])')
	[[ "$cmd_err" == *"LD_AUDIT=$lib"* ]]
	# one that is no audit library: ld.so says so on stderr and goes on with cudx's
	guard_prefix=(env LD_AUDIT=/nonexistent/audit.so)
	run_json -- sh -c 'echo "LD_AUDIT=$LD_AUDIT"'
	[[ "$cmd_err" == *"LD_AUDIT=/nonexistent/audit.so:$lib"* ]]
	[ "$(py 'print(len(r["processes"]) > 0)')" = True ]
}

@test "output is passed through whole and the last 1 MiB of each stream is kept" {
	run_json -- python3 -c 'import sys; sys.stdout.write("x" * (3 << 20) + "\nlast line\n"); sys.stderr.write("to stderr\n")'
	[ "$(py 'print(r["output"]["stdout"]["bytes"])')" = $(((3 << 20) + 11)) ]
	[ "$(py 'print(r["output"]["stdout"]["kept"])')" = $((1 << 20)) ]
	py 'assert r["output"]["stdout"]["tail"].endswith("last line\n")'
	[ "$(py 'print(r["output"]["stderr"]["tail"])')" = "to stderr" ]
	# everything reached cudx's stderr (the command's stdout goes there with --json)
	[ "$(printf %s "$cmd_err" | wc -c)" -ge $((3 << 20)) ]
}

@test "a fork-and-exec tree: every program is its own process, the failure is pinned on the one that failed" {
	run_json -- sh -c '"$0" libcudnn.so.8; true' "$BATS_FILE_TMPDIR/dl"
	[ "$status" -eq 1 ]
	[ "$(py 'print(r["exit"]["status"])')" = 0 ]
	py 'ps=r["processes"]; dl=[p for p in ps if p["exe"] and p["exe"].endswith("/dl")]
assert len(ps) >= 2 and len(dl) == 1 and dl[0]["judged"], ps
assert dl[0]["not_found"][0]["name"] == "libcudnn.so.8"
assert all(not p["not_found"] for p in ps if p is not dl[0])'
}

@test "where the real loader and cudx's simulator differ, the report says so" {
	# the program puts a library on its search path, loads it, and removes it before cudx looks:
	# the loader opened a file the simulator (replaying afterwards) cannot find
	mkdir -p "$BATS_TEST_TMPDIR/d"
	echo 'int eph(void) { return 1; }' >"$BATS_TEST_TMPDIR/e.c"
	cc -shared -fPIC -o "$BATS_TEST_TMPDIR/libephemeral.so.1" "$BATS_TEST_TMPDIR/e.c"
	run_json -- sh -c 'cp "$0/libephemeral.so.1" "$0/d/" && LD_LIBRARY_PATH="$0/d" "$1" libephemeral.so.1 libz.so.1; rm "$0/d/libephemeral.so.1"' \
		"$BATS_TEST_TMPDIR" "$BATS_FILE_TMPDIR/dl"
	py 'd=r["prediction"]["differences"]; assert len(d)==1, d
d=d[0]; assert d["name"]=="libephemeral.so.1" and d["loaded"].endswith("/d/libephemeral.so.1") and d["loaded_how"]=="LD_LIBRARY_PATH" and d["predicted"] is None, d
assert r["prediction"]["agreed"] >= 2'
	run env NO_COLOR=1 "$CUDX" run -- true
	[[ "$output" == *"Loader prediction: cudx's simulator picks the same file for"* ]]
}

@test "--sandbox: no new privileges, no device nodes, /dev read-only; the report says what applied" {
	[ "$(id -u)" = 0 ] || skip "the /dev and capability parts apply to root"
	run_json --sandbox -- sh -c 'mknod "$0/node" c 1 3; touch /dev/cudx-run-test; echo done' "$BATS_TEST_TMPDIR"
	[ ! -e "$BATS_TEST_TMPDIR/node" ]
	[ ! -e /dev/cudx-run-test ] || { rm -f /dev/cudx-run-test; return 1; }
	[ "$(py 'print(r["sandbox"]["no_new_privs"], r["sandbox"]["caps_dropped"], r["sandbox"]["dev_readonly"])')" = "True True True" ]
	[[ "$cmd_err" == *"Operation not permitted"* && "$cmd_err" == *"Read-only file system"* ]]
	run_json -- true
	[ "$(py 'print(r["sandbox"])')" = None ]
}

@test "the audit library leaves the program alone: the same output, descriptors and environment" {
	cat >"$BATS_TEST_TMPDIR/fds.c" <<'C'
#include <dirent.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
static int count_fds(void)
{
	int n = 0;
	DIR *d = opendir("/proc/self/fd");
	while (d && readdir(d))
		n++;
	if (d)
		closedir(d);
	return n;
}
int main(void)
{
	int before = count_fds();
	void *h = dlopen("libz.so.1", RTLD_NOW);
	int fd = open("/dev/null", O_RDONLY);
	printf("fds %d %d, new fd %d, dlopen %s, CUDX_AUDIT_OUT %s\n", before, count_fds(), fd, h ? "ok" : "failed",
	       getenv("CUDX_AUDIT_OUT") ? "set" : "unset");
	return 0;
}
C
	cc -o "$BATS_TEST_TMPDIR/fds" "$BATS_TEST_TMPDIR/fds.c" -ldl
	direct=$("$BATS_TEST_TMPDIR/fds")
	run_json -- "$BATS_TEST_TMPDIR/fds"
	# the record file's variable is the one trace cudx leaves in the environment
	[ "$cmd_err" = "${direct/unset/set}" ]
	[ "$(py 'print(r["processes"][0]["objects"][-1]["requested_as"])')" = libz.so.1 ]
}

@test "run --json is the envelope of every command, valid against docs/cudx.schema.json" {
	run_json -- "$BATS_FILE_TMPDIR/dl" libz.so.1 libcudnn.so.8
	echo "$output" >"$BATS_TEST_TMPDIR/failing.json"
	run_json -- "$BATS_FILE_TMPDIR/dl" libz.so.1
	echo "$output" >"$BATS_TEST_TMPDIR/clean.json"
	run_json --timeout 1 -- sleep 5
	echo "$output" >"$BATS_TEST_TMPDIR/timeout.json"
	schema_valid "$BATS_TEST_TMPDIR"/{failing,clean,timeout}.json
	# the validator can fail: a finding with a severity no rule has is rejected
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); d["findings"][0]["severity"]="fatal"; json.dump(d, open(sys.argv[2], "w"))' \
		"$BATS_TEST_TMPDIR/failing.json" "$BATS_TEST_TMPDIR/bad.json"
	run schema_valid "$BATS_TEST_TMPDIR/bad.json"
	[ "$status" -eq 1 ]
}
