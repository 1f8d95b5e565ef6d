#!/usr/bin/env bats
# The test helpers' file cache (tests/scenarios/lib/hostcache.bash): a host file reaches a test tree
# only as a copy, never as a hard link to the host's own bytes, and the package cache (Debian's
# packages unpacked into the build tree) is linked as it is, not copied again, with a write through a
# link caught at the next use. Each test works on a private cache and a private package cache made
# here, so nothing it breaks on purpose is shared.

setup() {
	w=$BATS_TEST_TMPDIR
	mkdir -p "$w/pkgs/libfake1/root/usr/lib" "$w/tree"
	echo libfake1_1.0_amd64.deb >"$w/pkgs/libfake1/DEB"
	printf 'fake library\n' >"$w/pkgs/libfake1/root/usr/lib/libfake.so.1"
	ln -s libfake.so.1 "$w/pkgs/libfake1/root/usr/lib/libfake.so"
	printf 'a host file\n' >"$w/host-file"
	export CUDX_PKG_CACHE=$w/pkgs CUDX_HOSTCACHE=$w/cache CUDX_BUILD=$w
	# shellcheck source=lib/hostcache.bash
	. "$BATS_TEST_DIRNAME/lib/hostcache.bash"
}

inode() { stat -c %i -- "$1"; }

@test "hostcache: a package's file is linked from the package cache itself, no second copy" {
	hostfile "$w/pkgs/libfake1/root/usr/lib/libfake.so.1" "$w/tree/usr/lib/libfake.so.1"
	[ "$(inode "$w/tree/usr/lib/libfake.so.1")" = "$(inode "$w/pkgs/libfake1/root/usr/lib/libfake.so.1")" ]
	[ -z "$(find "$w/cache" -name 'libfake.so*' -print)" ]
	lib=$(hostcache_tree "$w/pkgs/libfake1/root/usr/lib")
	[ "$lib" = "$(realpath "$w/pkgs/libfake1/root/usr/lib")" ]
	hostcache_link_tree "$lib" "$w/tree2/usr/lib"
	[ "$(readlink "$w/tree2/usr/lib/libfake.so")" = libfake.so.1 ]
	[ "$(inode "$w/tree2/usr/lib/libfake.so.1")" = "$(inode "$w/pkgs/libfake1/root/usr/lib/libfake.so.1")" ]
}

@test "hostcache: a write through a link into the package cache fails the next use, naming the package" {
	hostfile "$w/pkgs/libfake1/root/usr/lib/libfake.so.1" "$w/tree/libfake.so.1"
	printf 'overwritten by a test\n' >"$w/tree/libfake.so.1"
	run hostcache_entry "$w/pkgs/libfake1/root/usr/lib/libfake.so.1"
	[ "$status" -ne 0 ]
	[[ "$output" == *"package cache's $(realpath "$w/pkgs/libfake1") changed since its first use"* ]]
	run hostcache_tree "$w/pkgs/libfake1/root/usr/lib"
	[ "$status" -ne 0 ]
}

@test "hostcache: a host file is copied, never linked, and a write through the tree's link leaves it intact" {
	hostfile "$w/host-file" "$w/tree/host-file"
	[ "$(inode "$w/tree/host-file")" != "$(inode "$w/host-file")" ]
	printf 'overwritten by a test\n' >"$w/tree/host-file" 2>/dev/null || true
	[ "$(cat "$w/host-file")" = "a host file" ]
	# the next use notices the damaged copy and copies again
	hostfile "$w/host-file" "$w/tree/again"
	[ "$(cat "$w/tree/again")" = "a host file" ]
}

@test "hostcache: where the package cache cannot be linked (another mount, another owner) its files are copied like a host's" {
	echo no >"$w/cache/.package-links"
	hostfile "$w/pkgs/libfake1/root/usr/lib/libfake.so.1" "$w/tree/libfake.so.1"
	[ "$(inode "$w/tree/libfake.so.1")" != "$(inode "$w/pkgs/libfake1/root/usr/lib/libfake.so.1")" ]
	[ "$(cat "$w/tree/libfake.so.1")" = "fake library" ]
}
