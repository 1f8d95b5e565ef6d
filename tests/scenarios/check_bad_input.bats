#!/usr/bin/env bats
# Garbage in: a clear note and the rest of the report, never a crash.

load lib/sysroot

setup() {
	root=$(mkroot)
	env_file="$root.env"
	echo "LD_LIBRARY_PATH=/opt/lib" >"$env_file"
	mkdir -p "$root/opt/lib"
}

teardown() {
	chmod -R u+rwx "$root" 2>/dev/null
	rm -rf "$root" "$env_file"
}

@test "truncated and garbage ELF files in a library dir are noted, the rest is reported" {
	head -c 100 /bin/sh >"$root/opt/lib/libcudart.so.12"
	head -c 5000 /dev/urandom >"$root/opt/lib/libcudnn.so.9"
	printf 'not an elf at all' >"$root/opt/lib/libcublas.so.12"
	echo "CUDA_VISIBLE_DEVICES=-1" >>"$env_file"
	run_cudx --root "$root" --env "$env_file" --json
	[ "$status" -eq 1 ]
	has_finding cuda-visible-devices-hides
	[[ "$output" == *'"subject": "/opt/lib/libcudart.so.12"'* ]]
	[[ "$output" == *"not a usable ELF file"* ]]
	[ "$(json_get '["inventory"]["libraries"]' | python3 -c 'import json,sys; print(len(json.load(sys.stdin)))')" -ge 3 ]
}

@test "a symlink loop is a broken link, with the loop named" {
	ln -s libcudnn.so.8 "$root/opt/lib/libcudnn.so.8.x"
	ln -s libcudnn.so.8.x "$root/opt/lib/libcudnn.so.8"
	run_cudx --root "$root" --env "$env_file" --json
	has_finding lib-broken-symlink
	[[ "$output" == *"Too many levels of symbolic links"* ]]
}

@test "a garbage /proc/driver/nvidia/version is noted and ignored" {
	mkdir -p "$root/proc/driver/nvidia"
	head -c 300 /dev/urandom >"$root/proc/driver/nvidia/version"
	run_cudx --root "$root" --env "$env_file" --json
	[ "$status" -le 1 ]
	[[ "$output" == *'"subject": "/proc/driver/nvidia/version"'* ]]
	[ "$(json_get '["inventory"]["driver"]["kernel_version"]')" = None ]
}

@test "a corrupt ld.so.cache is noted and ignored" {
	printf 'glibc-ld.so.cache1.1\xff\xff\xff\xffgarbage' >"$root/etc/ld.so.cache"
	run_cudx --root "$root" --env "$env_file" --json
	[ "$status" -le 1 ]
	[[ "$output" == *'"subject": "/etc/ld.so.cache"'* ]]
}

@test "an unreadable directory on LD_LIBRARY_PATH is noted (run as an unprivileged user)" {
	command -v setpriv >/dev/null || skip_fixture "needs setpriv (util-linux) to drop root"
	mkdir -p "$root/opt/locked"
	chmod 000 "$root/opt/locked"
	echo "LD_LIBRARY_PATH=/opt/locked" >"$env_file"
	chmod 755 "$root" && chmod 644 "$env_file"
	if [ "$(id -u)" = 0 ]; then
		# cudx and its root must be reachable by nobody
		setpriv --reuid=nobody --regid=nogroup --clear-groups test -x "$CUDX" || skip_fixture "cudx binary not reachable by user nobody"
		run_strict setpriv --reuid=nobody --regid=nogroup --clear-groups "$CUDX" --no-probe --root "$root" --env "$env_file" --json
	else
		run_cudx --root "$root" --env "$env_file" --json
	fi
	[ "$status" -le 1 ]
	[[ "$output" == *"cannot list directory: Permission denied"* ]]
}

@test "a --root that does not exist is a usage error" {
	run_strict -2 "$CUDX" --root /nonexistent/cudx-root
	[ "$status" -eq 2 ]
	[[ "$output" == *"--root /nonexistent/cudx-root"* ]]
}

@test "a FIFO where a file is expected does not hang cudx" {
	mkdir -p "$root/proc/driver/nvidia" "$root/usr/lib/x86_64-linux-gnu"
	mkfifo "$root/proc/driver/nvidia/version" "$root/usr/lib/x86_64-linux-gnu/libcudart.so.12.4.127"
	run_strict timeout 20 "$CUDX" --no-probe --root "$root" --env "$env_file" --json
	[ "$status" -le 1 ]
	[[ "$output" == *'"schema": "cudx/1"'* ]]
}

@test "an empty --root or --env is a usage error, not the live system" {
	run_strict -2 "$CUDX" --no-probe --root ""
	[ "$status" -eq 2 ]
	[[ "$output" == *"cudx: --root needs a directory"* ]]
	run_strict -2 "$CUDX" --no-probe --root= --json
	[ "$status" -eq 2 ]
	[[ "$output" == *"cudx: --root needs a directory"* ]]
	[[ "$output" != *'"findings"'* ]]
	run_strict -2 "$CUDX" --no-probe --root "$root" --env=
	[ "$status" -eq 2 ]
	[[ "$output" == *"cudx: --env needs a file"* ]]
}

@test "an --env file over 16 MB is an error, not silently cut" {
	head -c $((16 * 1024 * 1024 + 1)) /dev/zero | tr '\0' x >>"$env_file"
	run_cudx -2 --root "$root" --env "$env_file" --json
	[ "$status" -eq 2 ]
	[[ "$output" == *"cudx: --env $env_file: File too large (over 16 MB)"* ]]
}

@test "an --env file with more than 65536 variables is read, with a warning naming what was ignored" {
	awk 'BEGIN { for (i = 0; i < 70000; i++) printf "VAR_%d=%d\n", i, i }' >>"$env_file"
	run_cudx --root "$root" --env "$env_file" --json
	[ "$status" -le 1 ]
	[[ "$stderr" == *"cudx: warning: environment of file $env_file: 4465 variables past the first 65536 ignored"* ]]
	[ "$(grep -c 'variables past the first' <<<"$stderr")" -eq 1 ]
}
