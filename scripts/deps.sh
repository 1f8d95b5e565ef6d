#!/bin/sh
# Install the Debian packages a make target needs, when they are missing.
# As root: installs them. Otherwise: prints the one apt-get line to run, and fails.
set -u
what=${1:-run}
run_pkgs="gcc make cmake libjansson-dev pkg-config"
lint_pkgs="$run_pkgs git cppcheck clang-tidy clang-format"
# CI runs `make lint` after `make test`: the test set carries the lint tools too
test_pkgs="$run_pkgs clang libclang-rt-dev libcmocka-dev bats gcc-mingw-w64-x86-64 gcc-mingw-w64-i686 lld llvm file python3 python3-jsonschema util-linux jq binutils libtree pax-utils time cppcheck clang-tidy clang-format"
# the fleet tests (tests/scenarios/fleet_*.bats): packaging and shells; Prometheus, node_exporter,
# Slurm and munge are unpacked by tests/fixtures/fetch-fleet-debs.sh, never installed (services)
test_pkgs="$test_pkgs dpkg-dev debhelper lintian mandoc bash-completion zsh fish python3-yaml curl"
bench_pkgs="$run_pkgs pax-utils libtree time bc binutils"
case $what in
run) pkgs=$run_pkgs ;;
test) pkgs=$test_pkgs ;;
lint) pkgs=$lint_pkgs ;;
bench) pkgs=$bench_pkgs ;;
*) echo "deps.sh: unknown set '$what'" >&2; exit 2 ;;
esac
missing=""
for p in $pkgs; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" = 0 ]; then
	echo "installing:$missing" >&2
	export DEBIAN_FRONTEND=noninteractive
	# the downloaded .debs go to a directory of their own, removed after the install: left in
	# apt's cache they are 200 MB of a test machine's disk
	debs=$(mktemp -d "${TMPDIR:-/tmp}/cudx-deps.XXXXXX") && chmod 755 "$debs" && mkdir -p "$debs/partial" || exit 1
	apt-get update -qq >/dev/null &&
		apt-get install -y -qq --no-install-recommends -o "Dir::Cache::Archives=$debs" $missing >/dev/null
	rc=$?
	rm -rf "$debs"
	[ $rc = 0 ] || { echo "deps.sh: apt-get install failed for:$missing" >&2; exit 1; }
	exit 0
fi
echo "missing packages; run as root:" >&2
echo "  apt-get install -y$missing" >&2
exit 1
