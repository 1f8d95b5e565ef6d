#!/usr/bin/env bats
# Windows DLL resolution on fake C: drives built from mingw-w64 PE fixtures
# (tests/fixtures/windows): what error 126 / 193 really mean, Python >= 3.8's search, CUDA layouts.

load lib/cudx

setup_file() {
	export WINFIX="$CUDX_BUILD/winfix"
	rc=0
	sh "$CUDX_SRC/tests/fixtures/windows/build.sh" "$WINFIX" || rc=$?
	echo "$rc" >"$BATS_FILE_TMPDIR/fixtures_rc"
}

setup() {
	export WINFIX="$CUDX_BUILD/winfix"
	rc=$(cat "$BATS_FILE_TMPDIR/fixtures_rc")
	[ "$rc" = 77 ] && skip_fixture "gcc-mingw-w64-x86-64 missing: cannot build the PE fixtures"
	[ "$rc" = 0 ]
	[ -f "$WINFIX/x64/cudnn_cnn_infer64_8.dll" ] || skip_fixture "lld-link/llvm-dlltool missing: no cuDNN fixture"
	. "$CUDX_SRC/tests/fixtures/windows/tree.sh"
	R="$BATS_TEST_TMPDIR/c"
	E="$BATS_TEST_TMPDIR/env.txt"
	wintree_init "$R"
}

# cudx on the Windows tree; skips while `cudx why` is not yet routed to win_why_run.
cudx_win() {
	run_strict "$CUDX" "$@" --root "$R" --env "$E"
	if [[ "$output" == *"not available in this build"* ]]; then
		skip_fixture "cudx why/tree does not call win_why_run/win_tree_run yet (hook in cmd_why.c/cmd_tree.c)"
	fi
}

CUDNN_BIN='C:\Program Files\NVIDIA\CUDNN\v8.9\bin'
CUDA11='C:\Program Files\NVIDIA GPU Computing Toolkit\CUDA\v11.8'
CUDA12='C:\Program Files\NVIDIA GPU Computing Toolkit\CUDA\v12.4'

@test "error 126 for cudnn_cnn_infer64_8.dll: the missing DLL is zlibwapi.dll" {
	wintree_put "$R" "$CUDNN_BIN" x64/cudnn_cnn_infer64_8.dll
	wintree_put "$R" "$CUDA11\\bin" x64/cublasLt64_11.dll
	wintree_env "$E" "CUDA_PATH=$CUDA11" "Path=C:\\Windows\\system32;C:\\Windows;$CUDA11\\bin;$CUDNN_BIN"
	cudx_win why cudnn_cnn_infer64_8.dll
	[ "$status" -eq 1 ]
	[[ "$output" == *"cudnn-zlibwapi-missing"* ]]
	[[ "$output" == *"cudnn_cnn_infer64_8.dll needs zlibwapi.dll"* ]]
	[[ "$output" == *"cudnn_cnn_infer64_8.dll -> zlibwapi.dll"* ]]
	# the fix names the directory the cuDNN DLL is in
	[[ "$output" == *"copy dll_x64\\zlibwapi.dll into C:\\Program Files\\NVIDIA\\CUDNN\\v8.9\\bin"* ]]
	# cublasLt was found, so it is not blamed
	[[ "$output" != *"cublasLt64_11.dll, which"* ]]
	# the version resource of the fixture is read
	[[ "$output" == *"[8.9.7.29]"* ]]
}

@test "a DLL found whose own import is not: dll-dependency-missing names the missing one (a program's own import is dll-not-found)" {
	wintree_put "$R" "$CUDNN_BIN" x64/cudnn_cnn_infer64_8.dll
	wintree_put "$R" "$CUDNN_BIN" x64/zlibwapi.dll
	wintree_env "$E" "Path=C:\\Windows\\system32;C:\\Windows;$CUDNN_BIN"
	cudx_win why cudnn_cnn_infer64_8.dll --json
	[ "$status" -eq 1 ]
	echo "$output" | jq -e '[.findings[] | select(.id == "dll-dependency-missing") | .summary | test("cudnn_cnn_infer64_8.dll is found, but cublasLt64_11.dll")] | any'
	echo "$output" | jq -e '[.findings[] | select(.id == "dll-not-found")] | length == 0'
}

@test "the same tree with zlibwapi.dll added loads (exit 0), case of names ignored" {
	wintree_put "$R" "$CUDNN_BIN" x64/cudnn_cnn_infer64_8.dll
	wintree_put "$R" "$CUDNN_BIN" x64/zlibwapi.dll ZLIBWAPI.DLL
	wintree_put "$R" "$CUDA11\\bin" x64/cublasLt64_11.dll
	wintree_env "$E" "Path=c:\\windows\\system32;c:\\program files\\nvidia gpu computing toolkit\\cuda\\v11.8\\BIN;c:\\program files\\nvidia\\cudnn\\v8.9\\bin"
	cudx_win why CUDNN_CNN_INFER64_8.DLL
	[ "$status" -eq 0 ]
	[[ "$output" == *"ZLIBWAPI.DLL"* ]]
	[[ "$output" == *"load from this environment"* ]]
}

# cuDNN 8 with zlibwapi, a cublasLt64_11.dll lacking cublasLtCreate in C:\Tools\bin and a good
# one in CUDA 11.8's bin; PATH has the two directories in the order given.
tree_127() {
	[ -f "$WINFIX/x64/old/cublasLt64_11.dll" ] || skip_fixture "fixture x64/old/cublasLt64_11.dll not built"
	wintree_put "$R" "$CUDNN_BIN" x64/cudnn_cnn_infer64_8.dll
	wintree_put "$R" "$CUDNN_BIN" x64/zlibwapi.dll
	wintree_put "$R" 'C:\Tools\bin' x64/old/cublasLt64_11.dll
	wintree_put "$R" "$CUDA11\\bin" x64/cublasLt64_11.dll
	wintree_env "$E" "CUDA_PATH=$CUDA11" "Path=C:\\Windows\\system32;$1;$2;$CUDNN_BIN"
}

@test "error 127: an older cublasLt64_11.dll first on PATH lacks what cuDNN imports" {
	tree_127 'C:\Tools\bin' "$CUDA11\\bin"
	cudx_win why cudnn_cnn_infer64_8.dll
	[ "$status" -eq 1 ]
	[[ "$output" == *"dll-proc-not-found"* ]]
	[[ "$output" == *'cublasLt64_11.dll at C:\Tools\bin\cublasLt64_11.dll does not export cublasLtCreate, which cudnn_cnn_infer64_8.dll imports: error 127'* ]]
	[[ "$output" == *"dependency chain: cudnn_cnn_infer64_8.dll -> cublasLt64_11.dll"* ]]
	# the copy of the CUDA 11 toolkit exports it: the fix puts its directory first
	[[ "$output" == *"v11.8\\bin\\cublasLt64_11.dll exports all of them"* ]]
	[[ "$output" == *"set \"PATH=$CUDA11\\bin;%PATH%\""* ]]
	# the delay-loaded nvcuda.dll is not checked, and nothing else is blamed
	[[ "$output" != *"nvcuda.dll at"* ]]
	[[ "$output" != *"dll-dependency-missing"* ]]
	# JSON: the same finding, an error
	run_strict "$CUDX" why cudnn_cnn_infer64_8.dll --root "$R" --env "$E" --json
	[ "$status" -eq 1 ]
	[ "$(jq -r '[.findings[] | select(.id == "dll-proc-not-found")][0].severity' <<<"$output")" = error ]
	# check on the same tree reports it too
	run_strict "$CUDX" check --root "$R" --env "$E" --json
	[ "$status" -eq 1 ]
	[ "$(jq -r '[.findings[] | select(.id == "dll-proc-not-found")] | length' <<<"$output")" -ge 1 ]
}

@test "error 127 is not reported when the copy first on PATH exports what is imported" {
	tree_127 "$CUDA11\\bin" 'C:\Tools\bin'
	cudx_win why cudnn_cnn_infer64_8.dll --json
	[ "$status" -eq 0 ]
	# the load reaches CUDA 11.8's copy, which exports what cuDNN imports: nothing missing
	dep=$(jq -c '.dependencies[] | select(.name == "cublasLt64_11.dll")' <<<"$output")
	[[ "$(jq -r .found <<<"$dep")" == *'CUDA\v11.8\bin\cublasLt64_11.dll' ]]
	[ "$(jq -r '.n_missing_procs // 0' <<<"$dep")" = 0 ]
	[ "$(jq -r '[.findings[] | select(.id == "dll-proc-not-found")] | length' <<<"$output")" = 0 ]
}

@test "a 32-bit zlibwapi.dll first on PATH: error 193, named with its machine" {
	wintree_put "$R" "$CUDNN_BIN" x64/cudnn_cnn_infer64_8.dll
	wintree_put "$R" "$CUDA11\\bin" x64/cublasLt64_11.dll
	[ -f "$WINFIX/x86/zlibwapi.dll" ] || skip_fixture "gcc-mingw-w64-i686 missing: no 32-bit fixture"
	wintree_put "$R" 'C:\tools\zlib' x86/zlibwapi.dll
	wintree_put "$R" 'C:\zlib64' x64/zlibwapi.dll
	wintree_env "$E" "Path=C:\\Windows\\system32;C:\\tools\\zlib;$CUDA11\\bin;$CUDNN_BIN;C:\\zlib64"
	cudx_win why cudnn_cnn_infer64_8.dll --json
	[ "$status" -eq 1 ]
	ids=$(echo "$output" | jq -r '.findings[].id')
	[[ "$ids" == *"dll-wrong-arch"* ]]
	echo "$output" | jq -e '.findings[] | select(.id=="dll-wrong-arch") | .summary | test("x86, not x64: error 193")'
	# the search stopped at the x86 copy: the x64 one later on PATH was never reached
	echo "$output" | jq -e '.dependencies[] | select(.name=="zlibwapi.dll") | .error == 193'
}

@test "CUDA 12 installed but cublas64_11.dll wanted: dll-wrong-major" {
	wintree_put "$R" "$CUDA12\\bin" x64/cublas64_12.dll
	wintree_put "$R" "$CUDA12\\bin" x64/cudart64_12.dll
	wintree_put "$R" 'C:\app' x64/app.exe
	wintree_env "$E" "CUDA_PATH=$CUDA12" "CUDA_PATH_V12_4=$CUDA12" "Path=C:\\Windows\\system32;$CUDA12\\bin"
	cudx_win why cublas64_11.dll
	[ "$status" -eq 1 ]
	[[ "$output" == *"dll-wrong-major"* ]]
	[[ "$output" == *"cublas64_11.dll is not installed; only cublas64_12.dll is"* ]]
	# the app that links it: the same finding through its dependency tree, cudart found
	cudx_win tree 'C:\app\app.exe' --json
	[ "$status" -eq 1 ]
	echo "$output" | jq -e '[.findings[].id] == ["dll-wrong-major"]'
	echo "$output" | jq -e '.nodes[] | select(.name=="cudart64_12.dll") | .found | test("v12.4")'
}

@test "a program's own copies of its DLLs load from its folder: check --app and tree without --exe" {
	# Started, C:\app\app.exe is its own process: the application's folder is the first place the
	# loader searches, before Path (which here has no CUDA at all)
	wintree_put "$R" 'C:\app' x64/app.exe
	wintree_put "$R" 'C:\app' x64/cublas64_11.dll
	wintree_put "$R" 'C:\app' x64/cudart64_12.dll
	wintree_env "$E" "Path=C:\\Windows\\system32;C:\\Windows"
	cudx_win tree 'C:\app\app.exe' --json
	echo "$output" | jq -e '.nodes[] | select(.name=="cudart64_12.dll") | .found | test("app")'
	echo "$output" | jq -e '.nodes[] | select(.name=="cublas64_11.dll") | .found | test("app")'
	echo "$output" | jq -e '[.findings[].id] | index("dll-not-found") | not'
	cudx_win check --no-probe --app 'C:\app\app.exe' --json
	echo "$output" | jq -e '[.findings[] | select(.id == "dll-dependency-missing" or .id == "dll-wrong-major")] | length == 0'
	# the same program without its cudart copy: the DLL it imports itself is not found (what the
	# program's 0xC0000135 names), not a dependency of some other DLL
	rm "$R/app/cudart64_12.dll"
	cudx_win check --no-probe --app 'C:\app\app.exe' --json
	echo "$output" | jq -e '.findings[] | select(.id == "dll-not-found") | .summary | test("cudart64_12.dll")'
	echo "$output" | jq -e '.findings[] | select(.id == "dll-not-found") | .cause | test("app.exe imports cudart64_12.dll directly.*0xC0000135")'
	echo "$output" | jq -e '[.findings[] | select(.id == "dll-dependency-missing")] | length == 0'
}

@test "explain on a Windows tree searches for the DLL a message names as Windows would" {
	wintree_put "$R" "$CUDA12\\bin" x64/cudart64_12.dll
	wintree_env "$E" "CUDA_PATH=$CUDA12" "Path=C:\\Windows\\system32;C:\\Windows"
	# not on the search path: dll-not-found, confirmed by every place tried
	cudx_win explain --no-probe --json "Could not load dynamic library 'cublas64_12.dll'; dlerror: cublas64_12.dll not found"
	[ "$(jq -r '.causes[0].id + " " + .causes[0].confidence' <<<"$output")" = "dll-not-found high" ]
	jq -e '.causes[0].evidence | map(test("Windows would not find cublas64_12.dll")) | any' <<<"$output"
	jq -e '.causes[0].evidence | map(test("PATH entry 1")) | any' <<<"$output"
	# on PATH here: the message came from another environment, said so, and not confirmed
	wintree_env "$E" "CUDA_PATH=$CUDA12" "Path=C:\\Windows\\system32;$CUDA12\\bin"
	cudx_win explain --no-probe --json "Could not load dynamic library 'cudart64_12.dll'; dlerror: cudart64_12.dll not found"
	jq -e '.elsewhere | test("resolves here")' <<<"$output"
	jq -e '[.causes[] | select(.id == "dll-not-found") | .confidence][0] == "ruled-out"' <<<"$output"
	# named with its folder, it was loaded by that path: no search is simulated
	cudx_win explain --no-probe --json "Could not find module 'C:\\app\\cudart64_12.dll' (or one of its dependencies)."
	jq -e '[.causes[].evidence[]?] | map(test("Windows would not find")) | any | not' <<<"$output"
}

@test "a DLL a .NET or ctypes message names by a path relative to the program (x64\\name.dll): found there, its import of another CUDA major is the cause" {
	wintree_put "$R" 'C:\app' x64/app.exe
	wintree_put "$R" 'C:\app\x64' x64/cudnn_cnn_infer64_8.dll
	wintree_put "$R" 'C:\app' x64/zlibwapi.dll
	wintree_put "$R" "$CUDA12\\bin" x64/cublas64_12.dll cublasLt64_12.dll
	wintree_env "$E" "CUDA_PATH=$CUDA12" "Path=C:\\Windows\\system32;$CUDA12\\bin"
	cudx_win explain --no-probe --app 'C:\app\app.exe' --json "System.DllNotFoundException: Unable to load DLL 'x64\\cudnn_cnn_infer64_8.dll': The specified module could not be found."
	[ "$(jq -r '.causes[0].id + " " + .causes[0].confidence' <<<"$output")" = "dll-wrong-major high" ]
	jq -e '.causes[0].evidence | map(test("imports cublasLt64_11.dll, which is not installed here; another major is: cublasLt64_12.dll")) | any' <<<"$output"
	[ "$(jq -r '[.causes[] | select(.id == "dll-not-found") | .confidence][0]' <<<"$output")" = ruled-out ]
	jq -e '.elsewhere == null' <<<"$output"
	# CUDA 9.2's DLL where only 9.1's is installed: before CUDA 11 each minor release has its own
	# DLLs, so cudart64_91.dll is no copy of cudart64_92.dll
	cudx_win why cudart64_92.dll
	[[ "$output" != *"cudart64_91.dll is"* ]]
	wintree_put "$R" 'C:\CUDA\v9.1\bin' x64/cudart64_12.dll cudart64_91.dll
	wintree_env "$E" "Path=C:\\Windows\\system32;C:\\CUDA\\v9.1\\bin"
	cudx_win why cudart64_92.dll
	[[ "$output" == *"dll-wrong-major"* ]]
	[[ "$output" == *"cudart64_91.dll"* ]]
}

@test "CTranslate2's 'Library cublas64_12.dll is not found or cannot be loaded': not found first from the text; CUDA 11's cuBLAS on PATH confirms another major" {
	msg="RuntimeError: Library cublas64_12.dll is not found or cannot be loaded"
	run_strict "$CUDX" explain --no-probe --root "$BATS_TEST_TMPDIR" --json "$msg"
	[ "$(jq -r '.causes[0].id' <<<"$output")" = dll-not-found ]
	[ "$(jq -r '.causes[1].id' <<<"$output")" = dll-wrong-major ]
	wintree_put "$R" "$CUDA11\\bin" x64/cublas64_11.dll
	wintree_env "$E" "CUDA_PATH=$CUDA11" "Path=C:\\Windows\\system32;$CUDA11\\bin"
	cudx_win explain --no-probe --json "$msg"
	[ "$(jq -r '.causes[0].id + " " + .causes[0].confidence' <<<"$output")" = "dll-wrong-major high" ]
}

@test "PATH of the host process lacks CUDA's bin: dll-not-found points at %CUDA_PATH%\\bin" {
	wintree_put "$R" "$CUDA12\\bin" x64/cudart64_12.dll
	wintree_env "$E" "CUDA_PATH=$CUDA12" "CUDA_PATH_V12_4=$CUDA12" "Path=C:\\Windows\\system32;C:\\Windows"
	cudx_win why cudart64_12.dll
	[ "$status" -eq 1 ]
	[[ "$output" == *"dll-not-found"* ]]
	[[ "$output" == *"cudart64_12.dll is installed at $CUDA12\\bin\\cudart64_12.dll, but not where Windows looks"* ]]
	[[ "$output" == *"%CUDA_PATH"*"\\bin"* ]]
	[[ "$output" == *"set \"PATH=$CUDA12\\bin;%PATH%\""* ]]
}

@test "CUDA 13 layout: DLLs in bin\\x64 while only bin is on PATH" {
	CUDA13='C:\Program Files\NVIDIA GPU Computing Toolkit\CUDA\v13.0'
	wintree_put "$R" "$CUDA13\\bin\\x64" x64/cudart64_12.dll cudart64_13.dll
	mkdir -p "$(wintree_dir "$R" "$CUDA13\\bin")"
	wintree_env "$E" "CUDA_PATH=$CUDA13" "Path=C:\\Windows\\system32;$CUDA13\\bin"
	cudx_win why cudart64_13.dll --json
	[ "$status" -eq 1 ]
	echo "$output" | jq -e '.findings[0].id == "dll-not-found"'
	echo "$output" | jq -e '.resolution.elsewhere[0].origin | test("CUDA 13 layout")'
}

@test "Python 3.11 with the CUDA DLL only on PATH: python-dll-directory, fixed by --dll-dir" {
	wintree_put "$R" 'C:\Python311' x64/app.exe python.exe
	wintree_put "$R" 'C:\Python311' x64/zlibwapi.dll python311.dll
	wintree_put "$R" "$CUDA12\\bin" x64/cudart64_12.dll
	wintree_env "$E" "CUDA_PATH=$CUDA12" "Path=C:\\Windows\\system32;$CUDA12\\bin;C:\\Python311"
	cudx_win why cudart64_12.dll --exe 'C:\Python311\python.exe'
	[ "$status" -eq 1 ]
	[[ "$output" == *"python-dll-directory"* ]]
	[[ "$output" == *"LOAD_LIBRARY_SEARCH_DEFAULT_DIRS (Python 3.11"* ]]
	[[ "$output" == *"os.add_dll_directory(r\"$CUDA12\\bin\")"* ]]
	# the same load for a plain program (standard order) finds it on PATH
	wintree_put "$R" 'C:\app' x64/app.exe
	cudx_win why cudart64_12.dll --exe 'C:\app\app.exe'
	[ "$status" -eq 0 ]
	# and with os.add_dll_directory it loads
	cudx_win why cudart64_12.dll --exe 'C:\Python311\python.exe' --dll-dir "$CUDA12\\bin"
	[ "$status" -eq 0 ]
}

# PyTorch in the host's environment adds its DLL directories and retries its DLLs with a PATH
# search: a CUDA DLL only on PATH fails only a module that imports it directly, a warning
@test "Python environment with a CUDA build of PyTorch: python-dll-directory is a warning that says why; without it an error" {
	wintree_put "$R" 'C:\Python311' x64/app.exe python.exe
	wintree_put "$R" 'C:\Python311' x64/zlibwapi.dll python311.dll
	wintree_put "$R" "$CUDA12\\bin" x64/cudart64_12.dll
	# a conda-style environment: python.exe and python311.dll in its prefix
	wintree_put "$R" 'C:\venv' x64/app.exe python.exe
	wintree_put "$R" 'C:\venv' x64/zlibwapi.dll python311.dll
	mkdir -p "$R/venv/Lib/site-packages" "$R/venv/conda-meta"
	wintree_env "$E" "CUDA_PATH=$CUDA12" "Path=C:\\Windows\\system32;$CUDA12\\bin;C:\\venv" 'CONDA_PREFIX=C:\venv'
	cudx_win check --no-probe --python 'C:\venv' --json
	[ "$(echo "$output" | jq -r '[.findings[] | select(.id == "python-dll-directory")][0].severity')" = error ]
	site="$R/venv/Lib/site-packages"
	mkdir -p "$site/torch" "$site/torch-2.5.1+cu124.dist-info"
	printf 'Metadata-Version: 2.1\nName: torch\nVersion: 2.5.1+cu124\n' >"$site/torch-2.5.1+cu124.dist-info/METADATA"
	printf "__version__ = '2.5.1+cu124'\ncuda = '12.4'\n" >"$site/torch/version.py"
	cudx_win check --no-probe --python 'C:\venv' --json
	[ "$(echo "$output" | jq -r '[.findings[] | select(.id == "python-dll-directory")][0].severity')" = warning ]
	echo "$output" | jq -e '[.findings[] | select(.id == "python-dll-directory")][0].evidence | map(test("PyTorch in this environment")) | any'
}

# A venv's Scripts\python.exe starts its base interpreter (pyvenv.cfg's home): that is the process
@test "a Python venv: the host is pyvenv.cfg's base interpreter, and PyTorch in the venv makes python-dll-directory a warning" {
	wintree_put "$R" 'C:\Python311' x64/app.exe python.exe
	wintree_put "$R" 'C:\Python311' x64/zlibwapi.dll python311.dll
	wintree_put "$R" "$CUDA12\\bin" x64/cudart64_12.dll
	wintree_put "$R" 'C:\venv\Scripts' x64/app.exe python.exe
	printf 'home = C:\\Python311\r\nversion = 3.11.9\r\n' >"$R/venv/pyvenv.cfg"
	mkdir -p "$R/venv/Lib/site-packages"
	wintree_env "$E" "CUDA_PATH=$CUDA12" "Path=C:\\Windows\\system32;$CUDA12\\bin;C:\\Python311" 'VIRTUAL_ENV=C:\venv'
	cudx_win check --no-probe --python 'C:\venv' --json
	[ "$(echo "$output" | jq -r '[.findings[] | select(.id == "python-dll-directory")][0].severity')" = error ]
	echo "$output" | jq -e '[.findings[] | select(.id == "python-dll-directory")][0].evidence | map(test("host: C:\\\\Python311\\\\python.exe")) | any'
	site="$R/venv/Lib/site-packages"
	mkdir -p "$site/torch" "$site/torch-2.5.1+cu124.dist-info"
	printf 'Metadata-Version: 2.1\nName: torch\nVersion: 2.5.1+cu124\n' >"$site/torch-2.5.1+cu124.dist-info/METADATA"
	printf "__version__ = '2.5.1+cu124'\ncuda = '12.4'\n" >"$site/torch/version.py"
	cudx_win check --no-probe --python 'C:\venv' --json
	[ "$(echo "$output" | jq -r '[.findings[] | select(.id == "python-dll-directory")][0].severity')" = warning ]
}

@test "PowerShell Get-ChildItem env: table (UTF-16 with BOM) as --env" {
	wintree_put "$R" "$CUDA12\\bin" x64/cudart64_12.dll
	{
		printf '\r\nName                           Value\r\n'
		printf -- '----                           -----\r\n'
		printf 'CUDA_PATH                      %s\r\n' "$CUDA12"
		printf 'Path                           C:\\Windows\\system32;%s\\bin\r\n' "$CUDA12"
		printf 'SystemRoot                     C:\\Windows\r\n'
	} | iconv -f UTF-8 -t UTF-16LE | { printf '\xff\xfe'; cat; } >"$E"
	cudx_win why cudart64_12.dll
	[ "$status" -eq 0 ]
	[[ "$output" == *"found"*"PATH entry 2"* ]]
}

@test "malformed DLL first on PATH: clear error 193 message, no crash" {
	d=$(wintree_dir "$R" 'C:\broken')
	mkdir -p "$d"
	head -c 300 "$WINFIX/x64/cudart64_12.dll" >"$d/cudart64_12.dll"
	printf 'MZ garbage' >"$d/cublas64_12.dll"
	wintree_env "$E" "Path=C:\\Windows\\system32;C:\\broken"
	cudx_win why cudart64_12.dll
	[ "$status" -eq 1 ]
	[[ "$output" == *"dll-wrong-arch"* ]]
	[[ "$output" == *"not a valid PE file"* ]]
	cudx_win tree cublas64_12.dll
	[ "$status" -eq 1 ]
	[[ "$output" != *"AddressSanitizer"* ]]
}

@test "check on a Windows tree reports the cuDNN 8 zlibwapi problem and a missing nvcuda.dll" {
	rm "$R/Windows/System32/nvcuda.dll"
	wintree_put "$R" "$CUDNN_BIN" x64/cudnn_cnn_infer64_8.dll
	wintree_put "$R" "$CUDA11\\bin" x64/cublasLt64_11.dll
	wintree_env "$E" "CUDA_PATH=$CUDA11" "Path=C:\\Windows\\system32;$CUDA11\\bin;$CUDNN_BIN"
	run_strict "$CUDX" check --root "$R" --env "$E" --json --no-probe
	ids=$(echo "$output" | jq -r '.findings[].id')
	[[ "$ids" == *"cudnn-zlibwapi-missing"* ]] || skip_fixture "check does not run the windows rule family on this build"
	echo "$output" | jq -e '.findings[] | select(.id=="dll-not-found") | .subject == "nvcuda.dll"'
}

# A Windows tree that also carries Linux driver files (a dual-boot disk, a copied home with a
# Linux toolkit): check judges it as Windows, so nothing of ld.so, /proc or ELF libraries runs.
# The same tree with --os linux is the control: there the Linux rules do fire.
@test "check on a Windows tree runs no Linux collector or rule (the same tree with --os linux does)" {
	stub=/usr/local/cuda/lib64/stubs/libcuda.so
	[ -f "$stub" ] || skip_fixture "no CUDA toolkit stub libcuda.so at $stub"
	mkdir -p "$R/opt/lib" "$R/usr/local/cuda/lib64/stubs" "$R/proc/driver/nvidia/gpus/0000:01:00.0"
	cp "$stub" "$R/opt/lib/libcuda.so.1"
	cp "$stub" "$R/usr/local/cuda/lib64/stubs/libcuda.so"
	printf 'NVRM version: NVIDIA UNIX x86_64 Kernel Module  535.309.01  Tue Mar  5 22:23:56 UTC 2024\n' \
		>"$R/proc/driver/nvidia/version"
	printf 'Model: \t\t NVIDIA A100-SXM4-80GB\nBus Location: \t 0000:01:00.0\n' \
		>"$R/proc/driver/nvidia/gpus/0000:01:00.0/information"
	wintree_put "$R" "$CUDNN_BIN" x64/cudnn_cnn_infer64_8.dll
	wintree_env "$E" "Path=C:\\Windows\\system32;$CUDNN_BIN" \
		"LD_LIBRARY_PATH=/opt/lib:/usr/local/cuda/lib64/stubs:/gone" "CUDA_VISIBLE_DEVICES=-1"
	run_strict "$CUDX" check --root "$R" --env "$E" --json --no-probe
	[ "$status" -eq 1 ]
	echo "$output" | jq -e '.system.os == "windows"'
	# the Windows finding, and the one environment rule that holds on both systems
	echo "$output" | jq -e '[.findings[].id] | index("cudnn-zlibwapi-missing") != null'
	echo "$output" | jq -e '[.findings[].id] | index("cuda-visible-devices-hides") != null'
	# every finding is a Windows or an OS-neutral one
	echo "$output" | jq -e '[.findings[].id | select(test("^(dll-|python-dll-directory$|cudnn-zlibwapi-missing$|cuda-visible-devices-hides$)") | not)] == []'
	# the Linux collectors did not look: no ELF libraries, toolkits, /proc GPUs or kernel module, no probe
	echo "$output" | jq -e '.inventory.libraries == [] and .inventory.toolkits == [] and .inventory.gpus == []'
	echo "$output" | jq -e '.inventory.driver.kernel_version == null and .inventory.driver.libcuda == null'
	echo "$output" | jq -e '.inventory | has("probe") | not'
	# control: read as Linux, the same files give the Linux findings
	run_strict "$CUDX" check --root "$R" --env "$E" --json --no-probe --os linux
	ids=$(echo "$output" | jq -r '.findings[].id')
	[[ "$ids" == *"stub-libcuda"* ]]
	[[ "$ids" == *"ld-library-path-stubs"* ]]
	[[ "$ids" == *"ld-library-path-missing-dir"* ]]
	[[ "$ids" != *"cudnn-zlibwapi-missing"* ]]
}

@test "--driver on a Windows tree: the CUDA it supports comes from the Windows column of the driver table" {
	wintree_env "$E" "Path=C:\\Windows\\system32;C:\\Windows"
	run_strict "$CUDX" check --root "$R" --env "$E" --json --no-probe --driver 551.61
	echo "$output" | jq -e '.inventory.driver.effective_version == "551.61"'
	# 551.61 is CUDA 12.4's Windows minimum (550.54.14 on Linux): the Windows column decides
	echo "$output" | jq -e '.inventory.driver.max_cuda == "12.4"'
	run_strict "$CUDX" check --root "$R" --env "$E" --no-probe --driver 551.61
	[[ "$output" == *"up to 12.4"* ]]
	[[ "$output" != *"older than every known CUDA release"* ]]
}

# The driver against the CUDA runtime DLLs the simulated loads reach: cudart64_12.dll needs CUDA
# 12's Windows floor (527.41, minor-version compatibility), cudart64_110.dll CUDA 11's (452.39).
@test "a Windows tree's cudart64_12.dll on a driver below 527.41: driver-too-old; cudart64_110.dll on it is fine" {
	wintree_put "$R" "$CUDA12\\bin" x64/cudart64_12.dll
	wintree_put "$R" "$CUDA11\\bin" x64/cudart64_110.dll
	wintree_env "$E" "Path=$CUDA12\\bin;$CUDA11\\bin;C:\\Windows\\system32" "CUDA_PATH=$CUDA12"
	run_strict -1 "$CUDX" check --root "$R" --env "$E" --no-probe --driver 452.39
	[[ "$output" == *"error   driver-too-old: driver 452.39 is too old for the CUDA 12 runtime cudart64_12.dll (needs >= 527.41)"* ]]
	[[ "$output" != *"CUDA 11 runtime"* ]]
	run_strict "$CUDX" check --root "$R" --env "$E" --no-probe --driver 551.61 --json
	lacks_finding driver-too-old
}
