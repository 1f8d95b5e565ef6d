#!/usr/bin/env bats
# tools/kbgen.awk: turns data/*.tsv into C and stops the build with file:line on a bad row.

setup() {
	work=$(mktemp -d)
	mkdir -p "$work/data"
	cp "$CUDX_SRC/data/sources.tsv" "$work/data/"
	cd "$work"
}

teardown() {
	rm -rf "$work"
}

table() {
	printf '#!struct kb_minor_compat\n#!array kbt_minor_compat\n'
	printf '*cuda_major:int\t*os:os\tfloor:ver\tbranch_min:int\tbranch_max:int?\tnote:str?\tstatus:mark\tsource:src\n'
	printf '%s\n' "$@"
}

gen() {
	run "${AWK:-awk}" -f "$CUDX_SRC/tools/kbgen.awk" -v out_c=out.c -v out_h=out.h data/sources.tsv data/t.tsv
}

@test "the real tables generate with every awk available (mawk, gawk, busybox)" {
	local tried=0
	for awk in awk mawk gawk original-awk "busybox awk"; do
		command -v ${awk%% *} >/dev/null || continue
		[ "$awk" != "busybox awk" ] || busybox awk 'BEGIN{}' 2>/dev/null || continue
		rm -f "$work/out.c" "$work/out.h"
		run sh -c 'cd "$1" && shift && "$@" $(ls data/sources.tsv; ls data/*.tsv | grep -v -e sources.tsv -e /explain_)' \
			sh "$CUDX_SRC" $awk -f "$CUDX_SRC/tools/kbgen.awk" -v out_c="$work/out.c" -v out_h="$work/out.h"
		[ "$status" -eq 0 ] || { echo "$awk: $output"; false; }
		grep -q 'const struct kb_cuda_release kbt_cuda_release\[\]' "$work/out.c"
		tried=$((tried + 1))
	done
	[ "$tried" -ge 1 ]
}

@test "a good table becomes a C array with designated initializers" {
	table $'12\tlinux\t525.60.13\t525\t580\t-\t\tS1,S3' >data/t.tsv
	gen
	[ "$status" -eq 0 ]
	grep -q 'const struct kb_minor_compat kbt_minor_compat\[\] = {' out.c
	grep -q '.cuda_major = 12, .os = OS_LINUX, .floor = "525.60.13", .branch_min = 525, .branch_max = 580, .fact.source = "S1,S3", }' out.c
	grep -q 'extern const struct kb_minor_compat kbt_minor_compat\[\];' out.h
}

@test "wrong column count: file and line" {
	table $'12\tlinux\t525.60.13\t525\t580\t-\t\tS1' $'13\tlinux\t580.65.06' >data/t.tsv
	gen
	[ "$status" -eq 1 ]
	[[ "$output" == *"data/t.tsv:5: expected 8 columns, found 3"* ]]
}

@test "malformed version, bad os, bad integer" {
	table $'12\tlinux\t525.x.13\t525\t580\t-\t\tS1' $'12\tmacos\t525.60.13\t525\t580\t-\t\tS1' \
		$'1x\tlinux\t525.60.13\t525\t580\t-\t\tS1' >data/t.tsv
	gen
	[ "$status" -eq 1 ]
	[[ "$output" == *"data/t.tsv:4: column 3 (floor) '525.x.13' is not a version"* ]]
	[[ "$output" == *"data/t.tsv:5: column 2 (os) 'macos' is not linux, windows or any"* ]]
	[[ "$output" == *"data/t.tsv:6: column 1 (cuda_major) '1x' is not an integer"* ]]
}

@test "duplicate key" {
	table $'12\tlinux\t525.60.13\t525\t580\t-\t\tS1' $'12\tlinux\t525.60.14\t525\t580\t-\t\tS1' >data/t.tsv
	gen
	[ "$status" -eq 1 ]
	[[ "$output" == *"data/t.tsv:5: duplicate key"*"(first at line 4)"* ]]
}

@test "unknown source key, missing source, bad mark" {
	table $'12\tlinux\t525.60.13\t525\t580\t-\t\tS99' $'13\tlinux\t580.65.06\t580\t-\t-\t\t-' \
		$'11\tlinux\t450.80.02\t450\t525\t-\tmaybe\tS1' >data/t.tsv
	gen
	[ "$status" -eq 1 ]
	[[ "$output" == *"data/t.tsv:4: column 8 (source): unknown source 'S99'"* ]]
	[[ "$output" == *"data/t.tsv:5: column 8 (source) is required"* ]]
	[[ "$output" == *"data/t.tsv:6: column 7 (status) 'maybe' must be empty, '-' or UNCONFIRMED"* ]]
}

@test "a table without a source column is refused" {
	printf '#!struct kb_x\n#!array kbt_x\n*a:int\n1\n' >data/t.tsv
	gen
	[ "$status" -eq 1 ]
	[[ "$output" == *"data/t.tsv:3: table has no source column"* ]]
}

@test "UNCONFIRMED marks the row, quotes and backslashes are escaped" {
	table $'12\tlinux\t525.60.13\t525\t580\tsays "hi" \\\\ there\tUNCONFIRMED\tS1' >data/t.tsv
	gen
	[ "$status" -eq 0 ]
	grep -qF '.note = "says \"hi\" \\\\ there", .fact.unconfirmed = true,' out.c
}

@test "rows of a #!contiguous group must be adjacent" {
	{
		printf '#!struct kb_lib_edge\n#!array kbt_lib_edge\n#!contiguous from,os\n'
		printf '*from:str\t*to:str\t*os:os\tsource:src\n'
		printf 'a\tb\tlinux\tS1\nc\tb\tlinux\tS1\na\td\tlinux\tS1\n'
	} >data/t.tsv
	gen
	[ "$status" -eq 1 ]
	[[ "$output" == *"data/t.tsv:7: rows with"*"must be adjacent (see line 5)"* ]]
}

@test "data/errors.tsv is what tools/errors-enums.py reads from the real CUDA 13 headers (every code of the math libraries too)" {
	# It calls the string functions of the toolkit's libcudart, libcublas and libcusparse (table
	# lookups, no device); the CUresult and NVML rows need the driver's strings and are kept as they are.
	for f in include/cufft.h include/curand.h include/cusolver_common.h include/cusparse.h lib64/libcusparse.so lib64/libcublas.so; do
		[ -e /usr/local/cuda/$f ] || skip "no CUDA 13 toolkit at /usr/local/cuda ($f missing)"
	done
	run python3 "$CUDX_SRC/tools/errors-enums.py" --table "$CUDX_SRC/data/errors.tsv" --cuda /usr/local/cuda
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" > regenerated.tsv
	diff "$CUDX_SRC/data/errors.tsv" regenerated.tsv
	grep -q "^cufft	5	CUFFT_INTERNAL_ERROR	" regenerated.tsv
	grep -q "^cusparse	4	CUSPARSE_STATUS_ARCH_MISMATCH	architecture mismatch	yes	" regenerated.tsv
	[ "$(grep -c '^cusolver	' regenerated.tsv)" -ge 25 ]
}

@test "data/driver_symbols.tsv is what tools/driver-symbols.sh reads from the real drivers' libcuda (390 to 535) and the CUDA 13 stub" {
	pkgs=${CUDX_PKG_CACHE:-$CUDX_SRC/build/pkgs}
	for p in libnvidia-legacy-390xx-cuda1 libnvidia-tesla-418-cuda1 libnvidia-tesla-450-cuda1 libnvidia-tesla-460-cuda1 \
		libnvidia-tesla-470-cuda1 libcuda1; do
		[ -d "$pkgs/$p/root" ] || skip_fixture "needs Debian package $p (tests/fixtures/fetch-nvidia-debs.sh)"
	done
	[ -e /usr/local/cuda-13.0/lib64/stubs/libcuda.so ] || skip_fixture "no CUDA 13 toolkit stub at /usr/local/cuda-13.0"
	run "$CUDX_SRC/tools/driver-symbols.sh" "$pkgs" /usr/local/cuda-13.0
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" >"$BATS_TEST_TMPDIR/regenerated.tsv"
	diff "$CUDX_SRC/data/driver_symbols.tsv" "$BATS_TEST_TMPDIR/regenerated.tsv"
	# CUDA 12.5's cuCtxCreate_v4 is not in driver 535's libcuda; CUDA 11.0's cuIpcOpenMemHandle_v2
	# not in 418's; cuInit and cuEventDestroy_v2 are in every one
	grep -q "^cuCtxCreate_v4	12.2	13.0	" "$BATS_TEST_TMPDIR/regenerated.tsv"
	grep -q "^cuIpcOpenMemHandle_v2	10.1	11.0	" "$BATS_TEST_TMPDIR/regenerated.tsv"
	! grep -q "^cuInit	" "$BATS_TEST_TMPDIR/regenerated.tsv"
	! grep -q "^cuEventDestroy_v2	" "$BATS_TEST_TMPDIR/regenerated.tsv"
}
