#!/bin/bash
# Every scenario test that runs cudx must fail when cudx is broken. Runs the scenario suite with
# stand-ins for cudx:
#   false     /bin/false: no output, exit 1 (1 is also cudx's "found problems")
#   object    prints {} and exits 0
#   envelope  prints a valid but empty envelope {"schema":"cudx/1","findings":[]} and exits 0
# and fails when a test passes that is not listed, with its reason, in broken-binary.exceptions
# (tests that do not run cudx). A skipped test is reported, not counted: under CUDX_TEST_STRICT=1 a
# missing fixture already fails; what is left are conditions of the machine (wine absent, a real GPU).
#
# usage: tests/scenarios/broken-binary.sh BUILD_DIR [BINARY...]     (BUILD_DIR: build/test)
# env:   JOBS (parallel bats files, default nproc), CUDX_PKG_CACHE, FILES (a subset of the .bats
#        files, for development)
set -u
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
build=$(cd "${1:?usage: broken-binary.sh BUILD_DIR [false|object|envelope...]}" && pwd)
shift
kinds=("$@")
[ ${#kinds[@]} -gt 0 ] || kinds=(false object envelope)
jobs=${JOBS:-$(nproc 2>/dev/null || echo 2)}
out=$build/broken-binary
rm -rf "$out"
mkdir -p "$out/bin" "$build/tmp"

printf '#!/bin/sh\nexit 1\n' >"$out/bin/false"
printf '#!/bin/sh\necho "{}"\n' >"$out/bin/object"
printf '#!/bin/sh\necho %s\n' "'{\"schema\":\"cudx/1\",\"findings\":[]}'" >"$out/bin/envelope"
chmod +x "$out/bin/"*

export CUDX_SRC=$src CUDX_BUILD=$build CUDX_TEST_STRICT=1 TMPDIR=$build/tmp
export CUDX_PKG_CACHE=${CUDX_PKG_CACHE:-$src/build/pkgs}

# The exceptions: "FILE.bats | test name | reason" lines.
exceptions=$(grep -v '^#' "$here/broken-binary.exceptions" | grep -v '^[[:space:]]*$' |
	awk -F' [|] ' '{print $1 " | " $2}')

status=0
for kind in "${kinds[@]}"; do
	[ -x "$out/bin/$kind" ] || { echo "unknown stand-in: $kind"; exit 2; }
	mkdir -p "$out/$kind"
	start=$(date +%s)
	# one bats per file, $jobs at a time
	# shellcheck disable=SC2086 # FILES is a list
	ls ${FILES:-"$here"/*.bats} | CUDX=$out/bin/$kind xargs -P "$jobs" -I{} sh -c \
		'b=$(basename "$1" .bats); t=$(date +%s); bats --tap "$1" >"$2/$b.tap" 2>&1; echo "$b $(($(date +%s) - t))s" >"$2/$b.time"' \
		sh {} "$out/$kind"
	total=0 failed=0 skipped=0 passed=()
	for tap in "$out/$kind"/*.tap; do
		file=$(basename "$tap" .tap).bats
		while IFS= read -r line; do
			case $line in
			"not ok "*) total=$((total + 1)) failed=$((failed + 1)) ;;
			"ok "*"# skip"*) total=$((total + 1)) skipped=$((skipped + 1)) ;;
			"ok "*)
				total=$((total + 1))
				name=$(sed -E 's/^ok [0-9]+ //' <<<"$line")
				passed+=("$file | $name")
				;;
			esac
		done <"$tap"
	done
	unexpected=()
	for p in "${passed[@]+"${passed[@]}"}"; do
		grep -qxF -- "$p" <<<"$exceptions" || unexpected+=("$p")
	done
	printf 'CUDX=%-9s %3d tests: %3d failed, %2d passed as listed exceptions, %2d skipped, %d passed unexpectedly (%ds)\n' \
		"$kind" "$total" "$failed" "$((${#passed[@]} - ${#unexpected[@]}))" "$skipped" "${#unexpected[@]}" \
		"$(($(date +%s) - start))"
	for p in "${unexpected[@]+"${unexpected[@]}"}"; do
		echo "  PASSES WITH A BROKEN BINARY: $p"
		status=1
	done
	grep -h '^ok .*# skip' "$out/$kind"/*.tap | sed 's/^/  skipped: /'
done
exit $status
