#!/bin/sh
# Build the Debian package with Debian's tools (dpkg-buildpackage, debhelper; debian/), from a
# copy of this working tree in OUTDIR (dpkg-buildpackage writes next to the source tree, and the
# tree must not get build products): OUTDIR/cudx_VERSION_ARCH.deb.
#   packaging/build-deb.sh [OUTDIR]    (default build/deb)
# Needs dpkg-dev, debhelper, cmake, libjansson-dev (scripts/deps.sh test installs them).
set -eu
src=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$src/build/deb}
mkdir -p "$out" && out=$(cd "$out" && pwd)
command -v dpkg-buildpackage >/dev/null && [ -e /usr/share/perl5/Debian/Debhelper/Dh_Lib.pm ] || {
	echo "build-deb.sh: dpkg-buildpackage or debhelper missing: apt-get install dpkg-dev debhelper" >&2
	exit 77
}
version=$(dpkg-parsechangelog -l "$src/debian/changelog" -S Version)
tree=$out/cudx-$version
# A fresh copy of the sources each time, but the build directory of the last run is kept (and
# `dpkg-buildpackage -nc`): make rebuilds only what changed, as in a developer's tree.
mkdir -p "$tree"
find "$tree" -mindepth 1 -maxdepth 1 ! -name 'obj-*' -exec rm -rf {} +
# the files git knows (tracked, or new and not ignored): no build directory, no editor debris. The
# list goes to one tar on stdin: through xargs, a long list (the fuzz corpora) became several
# archives in a row, and the reading tar stops at the end of the first.
(cd "$src" && git ls-files -z --cached --others --exclude-standard | tar --null --no-recursion -T - -cf -) |
	tar -xf - -C "$tree"
cd "$tree"
DEB_BUILD_OPTIONS="nocheck parallel=${JOBS:-$(nproc)}" dpkg-buildpackage -b -nc -us -uc >"$out/build.log" 2>&1 || {
	tail -n 40 "$out/build.log" >&2
	exit 1
}
ls "$out"/cudx_"$version"_*.deb
