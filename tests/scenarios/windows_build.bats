#!/usr/bin/env bats
# The native Windows build: scripts/build-windows.sh cross-compiles cudx.exe with mingw-w64.

setup_file() {
	export WINOUT="$CUDX_BUILD/windows-cross"
	rc=0
	sh "$CUDX_SRC/scripts/build-windows.sh" "$WINOUT" >"$BATS_FILE_TMPDIR/build.log" 2>&1 || rc=$?
	echo "$rc" >"$BATS_FILE_TMPDIR/rc"
}

setup() {
	export WINOUT="$CUDX_BUILD/windows-cross"
	rc=$(cat "$BATS_FILE_TMPDIR/rc")
	[ "$rc" = 77 ] && skip "gcc-mingw-w64-x86-64 missing"
	if [ "$rc" != 0 ]; then
		cat "$BATS_FILE_TMPDIR/build.log"
		return 1
	fi
}

@test "build-windows.sh produces a PE32+ x86-64 console executable" {
	[ -f "$WINOUT/cudx.exe" ]
	run file "$WINOUT/cudx.exe"
	[[ "$output" == *"PE32+ executable (console) x86-64"* ]]
}

@test "cudx.exe needs only DLLs every Windows has (read with cudx's own PE reader)" {
	R="$BATS_TEST_TMPDIR/c"
	mkdir -p "$R/Windows/System32" "$R/tools"
	cp "$WINOUT/cudx.exe" "$R/tools/cudx.exe"
	printf 'SystemRoot=C:\\Windows\r\nPath=C:\\Windows\\system32\r\n' >"$BATS_TEST_TMPDIR/env"
	run "$CUDX" tree 'C:\tools\cudx.exe' --root "$R" --env "$BATS_TEST_TMPDIR/env" --json
	[[ "$output" == *"not available in this build"* ]] && skip "cudx tree not routed to win_tree_run yet"
	[ "$status" -eq 0 ]
	echo "$output" | jq -e '.nodes[0].pe_machine == "x64"'
	# every import is a KnownDLL (kernel32, msvcrt): provided by Windows, nothing to ship
	echo "$output" | jq -e '[.nodes[1:][] | .name | ascii_downcase] | sort == ["kernel32.dll", "msvcrt.dll"]'
	echo "$output" | jq -e '.findings == []'
}

@test "cudx.exe runs under wine when wine is installed" {
	command -v wine >/dev/null 2>&1 || skip "wine not installed"
	run timeout 120 wine "$WINOUT/cudx.exe" --version
	[ "$status" -eq 0 ]
	[[ "$output" == *"native Windows build"* ]]
	run timeout 120 wine "$WINOUT/cudx.exe" --json --no-probe
	[[ "$output" == *'"os": "windows"'* ]]
}
