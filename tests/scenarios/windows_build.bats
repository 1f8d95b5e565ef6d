#!/usr/bin/env bats
# The native Windows build: scripts/build-windows.sh cross-compiles cudx.exe with mingw-w64.

load lib/cudx

setup_file() {
	export WINOUT="$CUDX_BUILD/windows-cross"
	rc=0
	sh "$CUDX_SRC/scripts/build-windows.sh" "$WINOUT" >"$BATS_FILE_TMPDIR/build.log" 2>&1 || rc=$?
	echo "$rc" >"$BATS_FILE_TMPDIR/rc"
}

setup() {
	export WINOUT="$CUDX_BUILD/windows-cross"
	rc=$(cat "$BATS_FILE_TMPDIR/rc")
	[ "$rc" = 77 ] && skip_fixture "gcc-mingw-w64-x86-64 missing"
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
	run_strict "$CUDX" tree 'C:\tools\cudx.exe' --root "$R" --env "$BATS_TEST_TMPDIR/env" --json
	[[ "$output" == *"not available in this build"* ]] && skip_fixture "cudx tree not routed to win_tree_run yet"
	[ "$status" -eq 0 ]
	echo "$output" | jq -e '.nodes[0].pe_machine == "x64"'
	# every import is a KnownDLL (kernel32, msvcrt): provided by Windows, nothing to ship
	echo "$output" | jq -e '[.nodes[1:][] | .name | ascii_downcase] | sort == ["kernel32.dll", "msvcrt.dll"]'
	echo "$output" | jq -e '.findings == []'
}

wine_cmd() {
	if command -v wine >/dev/null 2>&1; then echo wine
	elif [ -x /usr/lib/wine/wine64 ]; then echo /usr/lib/wine/wine64
	fi
}

@test "cudx.exe runs under wine when wine is installed" {
	W=$(wine_cmd)
	[ -n "$W" ] || skip "wine not installed (apt-get install wine64)"
	export WINEPREFIX="$CUDX_BUILD/wineprefix" WINEDEBUG=-all
	run timeout 300 "$W" "$WINOUT/cudx.exe" --version
	[ "$status" -eq 0 ]
	[[ "$output" == *"native Windows build"* ]]
	run timeout 120 "$W" "$WINOUT/cudx.exe" --json --no-probe
	[[ "$output" == *'"os": "windows"'* ]]
	[[ "$output" == *'"native": true'* ]]
}

# The simulation against a real loader: wine's LoadLibraryExW in cudx.exe's probe child gives 126
# exactly when `why` finds the missing dependency, and loads the file `why` picks otherwise.
@test "under wine: the simulated verdict matches the loader's (cuDNN 8 without zlibwapi.dll)" {
	W=$(wine_cmd)
	[ -n "$W" ] || skip "wine not installed (apt-get install wine64)"
	WINFIX="$CUDX_BUILD/winfix"
	sh "$CUDX_SRC/tests/fixtures/windows/build.sh" "$WINFIX" || skip_fixture "PE fixtures not buildable"
	[ -f "$WINFIX/x64/cudnn_cnn_infer64_8.dll" ] || skip_fixture "no cuDNN fixture (lld-link missing)"
	export WINEPREFIX="$CUDX_BUILD/wineprefix" WINEDEBUG=-all
	timeout 300 "$W" "$WINOUT/cudx.exe" --version >/dev/null
	C="$WINEPREFIX/drive_c"
	rm -rf "$C/cudx-test" && mkdir -p "$C/cudx-test/cudnn" "$C/cudx-test/cuda"
	cp "$WINFIX/x64/cudnn_cnn_infer64_8.dll" "$C/cudx-test/cudnn/"
	cp "$WINFIX/x64/cublasLt64_11.dll" "$C/cudx-test/cuda/"
	cd "$C/cudx-test"
	export WINEPATH='C:\cudx-test\cuda;C:\cudx-test\cudnn'
	run timeout 120 "$W" "$WINOUT/cudx.exe" probe cudnn_cnn_infer64_8.dll
	[ "$status" -eq 1 ]
	[[ "$output" == *"error 126"* ]]
	run timeout 120 "$W" "$WINOUT/cudx.exe" why cudnn_cnn_infer64_8.dll --json
	[ "$status" -eq 1 ]
	[[ "$output" == *'"id": "cudnn-zlibwapi-missing"'* ]]
	cp "$WINFIX/x64/zlibwapi.dll" "$C/cudx-test/cudnn/"
	run timeout 120 "$W" "$WINOUT/cudx.exe" probe cudnn_cnn_infer64_8.dll
	[ "$status" -eq 0 ]
	[[ "$output" == *'loaded from C:\cudx-test\cudnn\cudnn_cnn_infer64_8.dll'* ]]
	run timeout 120 "$W" "$WINOUT/cudx.exe" why cudnn_cnn_infer64_8.dll
	[ "$status" -eq 0 ]
	[[ "$output" == *'=> C:\cudx-test\cudnn\cudnn_cnn_infer64_8.dll'* ]]
}
