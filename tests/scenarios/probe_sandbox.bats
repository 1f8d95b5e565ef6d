#!/usr/bin/env bats
# The probe changes nothing on the host. Run as root with no kernel module, Debian's driver 535
# libcuda creates /dev/nvidiactl itself (mknod) during cuInit, and NVML may try the same; the
# probe's children run that code in a sandbox (src/probe/probe_sandbox.c). These tests run the
# real vendor libraries through `cudx probe` as root and compare /dev and /proc/modules before and
# after. If the sandbox is broken they DO create a node on this machine: they remove every node
# that was not there before, then fail.

load probe_lib

NVML535=$CUDX_PKG_CACHE/libnvidia-ml1/root/usr/lib/x86_64-linux-gnu/nvidia/current

need_root() {
	[ "$(id -u)" = 0 ] || skip_fixture "runs only as root: libcuda creates device nodes only for root"
}

# Device nodes and anything named nvidia* under /dev (not /dev/pts or /dev/shm: other processes
# change those), one path per line.
dev_nodes() {
	find /dev -xdev \( -type c -o -type b -o -name 'nvidia*' \) -print 2>/dev/null | sort
}

# The names of the loaded kernel modules (use counts change on their own). Empty where the
# kernel has no module support.
modules() {
	[ -r /proc/modules ] && cut -d' ' -f1 /proc/modules | sort || true
}

snapshot() {
	dev_before=$(dev_nodes)
	mod_before=$(modules)
}

# Restore the host before judging: any node that appeared is removed, any module that appeared
# is unloaded; then fail naming them.
host_unchanged() {
	local new newmod p
	new=$(comm -13 <(echo "$dev_before") <(dev_nodes))
	newmod=$(comm -13 <(echo "$mod_before") <(modules))
	for p in $new; do
		case $p in /dev/*) rm -rf -- "$p" ;; esac
	done
	for p in $newmod; do
		rmmod "$p" 2>/dev/null || true
	done
	[ -z "$new" ] || { echo "the probe created on the host (now removed): $new"; return 1; }
	[ -z "$newmod" ] || { echo "the probe loaded kernel modules (unloaded again): $newmod"; return 1; }
}

teardown() {
	[ -z "${nobody_dir:-}" ] || rm -rf "$nobody_dir"
}

sandbox() { # KEY -> the probe's sandbox state
	py 'print(r["probe"]["sandbox"][sys.argv[1]])' "$1"
}

@test "premise: driver 535 libcuda run as root outside any sandbox creates /dev/nvidiactl (in a throwaway /dev)" {
	need_root
	need_dir "$D535" "Debian package libcuda1"
	command -v unshare >/dev/null || skip_fixture "needs unshare (util-linux)"
	# a private mount namespace with an empty tmpfs on /dev: nothing reaches the host's /dev
	run unshare --mount --propagation private sh -c '
		mount -t tmpfs cudx-test /dev || exit 77
		LD_LIBRARY_PATH="$1" python3 -c "import ctypes; print(\"cuInit\", ctypes.CDLL(\"libcuda.so.1\").cuInit(0))"
		ls /dev' sh "$D535"
	[ "$status" -ne 77 ] || skip_fixture "cannot mount a tmpfs in a private mount namespace here"
	[ "$status" -eq 0 ]
	[[ "$output" == *"cuInit 100"* ]]
	[[ "$output" == *nvidiactl* ]]
}

@test "as root, cudx probe runs driver 535 libcuda and NVML and leaves no device node and no module" {
	need_root
	need_dir "$D535" "Debian package libcuda1"
	need_dir "$NVML535" "Debian package libnvidia-ml1"
	snapshot
	probe_json "$D535:$NVML535" --stages driver,nvml
	host_unchanged
	# the vendor code did run: cuInit and nvmlInit were called and answered
	has_code driver 100
	[ "$(step_outcome nvml nvmlInit)" = failed ]
	[ "$(sandbox complete)" = True ]
	[ "$(sandbox dev_readonly)" = True ]
	[ "$(sandbox capabilities_dropped)" = True ]
	[ "$(sandbox no_new_privs)" = True ]
}

@test "as root without CAP_SYS_ADMIN (a container): /dev stays writable, the report warns, still no node" {
	need_root
	need_dir "$D535" "Debian package libcuda1"
	command -v setpriv >/dev/null || skip_fixture "needs setpriv (util-linux)"
	snapshot
	run_strict env -u CUDA_VISIBLE_DEVICES LD_LIBRARY_PATH="$D535" setpriv --bounding-set=-sys_admin "$CUDX" probe --json --stages driver
	host_unchanged
	[ "$status" -le 1 ]
	has_code driver 100
	[ "$(sandbox complete)" = False ]
	[ "$(sandbox dev_readonly)" = False ]
	[ "$(sandbox capabilities_dropped)" = True ]
	[[ "$(sandbox failed)" == *"unshare(CLONE_NEWNS): Operation not permitted"* ]]
	run_strict env -u CUDA_VISIBLE_DEVICES LD_LIBRARY_PATH="$D535" NO_COLOR=1 setpriv --bounding-set=-sys_admin "$CUDX" probe --stages driver
	host_unchanged
	[[ "$output" == *"warning: partial sandbox for vendor code: /dev writable (unshare(CLONE_NEWNS): Operation not permitted)"* ]]
}

@test "an unprivileged user: no new privileges and no capabilities; /dev needs no remount" {
	need_root # to become another user
	need_dir "$D535" "Debian package libcuda1"
	command -v setpriv >/dev/null || skip_fixture "needs setpriv (util-linux)"
	# the binary and the library must be reachable by nobody: copies in a world-readable dir
	nobody_dir=$(mktemp -d /tmp/cudx-nobody.XXXXXX)
	local d=$nobody_dir
	mkdir -p "$d/lib"
	cp "$CUDX" "$d/cudx"
	cp -L "$D535/libcuda.so.1" "$d/lib/libcuda.so.1"
	chmod -R a+rX "$d"
	run_strict env -u CUDA_VISIBLE_DEVICES LD_LIBRARY_PATH="$d/lib" setpriv --reuid=65534 --regid=65534 --clear-groups "$d/cudx" probe --json --stages driver
	[ "$status" -le 1 ]
	has_code driver 100
	[ "$(sandbox complete)" = True ]
	[ "$(sandbox dev_readonly)" = None ]
	[ "$(sandbox no_new_privs)" = True ]
}
