#!/usr/bin/env bats
# cudx check on sysroots built from real NVIDIA files: the issue-3 scenarios.

load lib/sysroot

setup() {
	setup_root
}

teardown() {
	teardown_root
}

@test "driver 470 with the CUDA 13 runtime: driver-too-old" {
	need_cuda13
	install_driver_470
	add_cuda13 "$root" libcudart.so.13
	run_cudx --root "$root" --env "$env_file" --json
	[ "$status" -eq 1 ]
	has_finding driver-too-old
	[ "$(json_get '["inventory"]["driver"]["libcuda_version"]')" = 470.256.02 ]
	[[ "$output" == *"CUDA 13.0 runtime"* ]]
}

@test "driver 535 with the CUDA 13 runtime: driver-too-old (13.x needs 580+)" {
	need_cuda13
	install_driver_535
	add_cuda13 "$root" libcudart.so.13
	run_cudx --root "$root" --env "$env_file" --json
	[ "$status" -eq 1 ]
	has_finding driver-too-old
}

@test "driver 535 with CUDA 11.8 (cudart + cuBLAS): healthy, no driver-too-old" {
	install_driver_535
	need_pkg libcudart11.0 libcublas11 libcublaslt11
	add_pkg "$root" libcudart11.0
	add_pkg "$root" libcublas11
	add_pkg "$root" libcublaslt11
	run_cudx --root "$root" --env "$env_file" --json
	lacks_finding driver-too-old
	lacks_finding driver-minor-compat
	no_error_findings
	[ "$status" -eq 0 ]
	[ "$(json_get '["inventory"]["driver"]["max_cuda"]')" = 12.2 ]
}

# CUDA 11.0 came before minor-version compatibility: its runtime needs 450.51.05 (its own minimum),
# below the 450.80.02 floor the later 11.x releases run from. A small ELF named as CUDA 11.0.221's
# runtime stands in for it (its file name is what tells the release); the driver is simulated.
@test "the CUDA 11.0 runtime needs its own minimum driver, 450.51.05, not the 11.x floor" {
	fake_lib "$root" "usr/local/cuda-11.0/lib64/libcudart.so.11.0.221" libcudart.so.11.0
	ln -s libcudart.so.11.0.221 "$root/usr/local/cuda-11.0/lib64/libcudart.so.11.0"
	mkdir -p "$root/usr/local/cuda-11.0/include" && touch "$root/usr/local/cuda-11.0/include/cuda.h"
	printf 'LD_LIBRARY_PATH=/usr/local/cuda-11.0/lib64\n' >>"$env_file"
	run_cudx --root "$root" --env "$env_file" --driver 450.36.06 --json
	[[ "$(jq -r '.findings[] | select(.id=="driver-too-old") | .summary' <<<"$output")" == *"(needs >= 450.51.05)"* ]]
	run_cudx --root "$root" --env "$env_file" --driver 450.51.06 --json
	lacks_finding driver-too-old
}

@test "driver 470 with CUDA 11.8: minor-version compatibility, a warning and no driver-too-old" {
	install_driver_470
	need_pkg libcudart11.0
	add_pkg "$root" libcudart11.0
	run_cudx --root "$root" --env "$env_file" --json
	lacks_finding driver-too-old
	has_finding driver-minor-compat
	[ "$(finding_severity driver-minor-compat)" = warning ]
	# error 222 there: PTX of the newer toolkit, which minor-version compatibility does not JIT
	run_strict "$CUDX" explain --no-probe --root "$root" --env "$env_file" --json "RuntimeError: CUDA error: the provided PTX was compiled with an unsupported toolchain."
	[ "$(jq -r '.causes[0].id + " " + .causes[0].confidence' <<<"$output")" = "driver-minor-compat high" ]
}

@test "the toolkit's stubs first on LD_LIBRARY_PATH: stub-libcuda and ld-library-path-stubs" {
	need_cuda13
	install_driver_535
	add_cuda13 "$root" libcudart.so.13 stubs
	echo "LD_LIBRARY_PATH=/usr/local/cuda/lib64/stubs:/usr/local/cuda/lib64" >"$env_file"
	run_cudx --root "$root" --env "$env_file" --json
	has_finding stub-libcuda
	has_finding ld-library-path-stubs
}

@test "a stub copied as libcuda.so.1 is what the loader picks: stub-libcuda error" {
	need_cuda13
	mkdir -p "$root/opt/lib"
	hostfile "$CUDA13/lib/stubs/libcuda.so" "$root/opt/lib/libcuda.so.1"
	echo "LD_LIBRARY_PATH=/opt/lib" >"$env_file"
	run_cudx --root "$root" --env "$env_file" --json
	has_finding stub-libcuda
	[ "$(finding_severity stub-libcuda)" = error ]
	[ "$(json_get '["inventory"]["driver"]["libcuda_is_stub"]')" = True ]
}

@test "kernel module 550 with user-space 535: driver-userspace-mismatch" {
	install_driver_535
	proc_version "$root" 550.54.15
	run_cudx --root "$root" --env "$env_file" --json
	[ "$status" -eq 1 ]
	has_finding driver-userspace-mismatch
	[[ "$output" == *"kernel module 550.54.15, libcuda 535.309.01"* ]]
}

@test "--driver simulates a host: CUDA 11.8 on driver 450.36 is too old" {
	need_pkg libcudart11.0
	add_pkg "$root" libcudart11.0
	run_cudx --root "$root" --env "$env_file" --driver 450.36.06 --json
	has_finding driver-too-old
	[ "$(json_get '["inventory"]["driver"]["simulated_version"]')" = 450.36.06 ]
}

@test "an image without a driver: no-driver is information, not an error" {
	need_cuda13
	add_cuda13 "$root" libcudart.so.13
	run_cudx --root "$root" --env "$env_file" --json
	has_finding no-driver
	[ "$(finding_severity no-driver)" = info ]
	[ "$status" -eq 0 ]
}

@test "cuDNN 8 libraries of two releases on the search path: cudnn-mixed-versions" {
	fake_lib "$root" /opt/cudnn/libcudnn.so.8.9.7 libcudnn.so.8
	ln -s libcudnn.so.8.9.7 "$root/opt/cudnn/libcudnn.so.8"
	fake_lib "$root" /opt/cudnn/libcudnn_ops_infer.so.8.9.7 libcudnn_ops_infer.so.8
	ln -s libcudnn_ops_infer.so.8.9.7 "$root/opt/cudnn/libcudnn_ops_infer.so.8"
	fake_lib "$root" /opt/old/libcudnn_cnn_infer.so.8.6.0 libcudnn_cnn_infer.so.8
	ln -s libcudnn_cnn_infer.so.8.6.0 "$root/opt/old/libcudnn_cnn_infer.so.8"
	echo "LD_LIBRARY_PATH=/opt/old:/opt/cudnn" >"$env_file"
	run_cudx --root "$root" --env "$env_file" --json
	has_finding cudnn-mixed-versions
	[[ "$output" == *"8.6.0"* && "$output" == *"8.9.7"* ]]
}

@test "one cuDNN 8 release: no cudnn-mixed-versions" {
	fake_lib "$root" /opt/cudnn/libcudnn.so.8.9.7 libcudnn.so.8
	ln -s libcudnn.so.8.9.7 "$root/opt/cudnn/libcudnn.so.8"
	fake_lib "$root" /opt/cudnn/libcudnn_ops_infer.so.8.9.7 libcudnn_ops_infer.so.8
	ln -s libcudnn_ops_infer.so.8.9.7 "$root/opt/cudnn/libcudnn_ops_infer.so.8"
	echo "LD_LIBRARY_PATH=/opt/cudnn" >"$env_file"
	run_cudx --root "$root" --env "$env_file" --json
	# both sub-libraries were seen, of the one release
	[ "$(lib_field /opt/cudnn/libcudnn.so.8 version)" = 8.9.7 ]
	[ "$(lib_field /opt/cudnn/libcudnn_ops_infer.so.8 version)" = 8.9.7 ]
	lacks_finding cudnn-mixed-versions
}

@test "a versioned link to a missing file: lib-broken-symlink (error)" {
	mkdir -p "$root/opt/cudnn"
	ln -s libcudnn.so.8.9.7 "$root/opt/cudnn/libcudnn.so.8"
	echo "LD_LIBRARY_PATH=/opt/cudnn" >"$env_file"
	run_cudx --root "$root" --env "$env_file" --json
	has_finding lib-broken-symlink
	[ "$(finding_severity lib-broken-symlink)" = error ]
	[[ "$output" == *"/opt/cudnn/libcudnn.so.8 -> libcudnn.so.8.9.7"* ]]
}

@test "CUDA_VISIBLE_DEVICES=-1 hides every GPU: cuda-visible-devices-hides" {
	echo "CUDA_VISIBLE_DEVICES=-1" >"$env_file"
	run_cudx --root "$root" --env "$env_file" --json
	has_finding cuda-visible-devices-hides
	[ "$(finding_severity cuda-visible-devices-hides)" = error ]
}

@test "CUDA_VISIBLE_DEVICES=0: nothing to report" {
	echo "CUDA_VISIBLE_DEVICES=0" >"$env_file"
	run_cudx --root "$root" --env "$env_file" --json
	[ "$(json_get '["inventory"]["env"]["CUDA_VISIBLE_DEVICES"]')" = 0 ]
	lacks_finding cuda-visible-devices-hides
}

@test "LD_LIBRARY_PATH names a directory that is gone: ld-library-path-missing-dir" {
	echo "LD_LIBRARY_PATH=/usr/local/cuda-11.8/lib64:/usr/lib" >"$env_file"
	run_cudx --root "$root" --env "$env_file" --json
	has_finding ld-library-path-missing-dir
	[[ "$output" == *"/usr/local/cuda-11.8/lib64"* ]]
}

@test "text report: findings first, then the inventory, exit 1 on errors" {
	install_driver_470
	need_cuda13
	add_cuda13 "$root" libcudart.so.13
	run_cudx --root "$root" --env "$env_file" --no-color
	[ "$status" -eq 1 ]
	[[ "${lines[0]}" == "cudx "* ]]
	[[ "$output" == *"error   driver-too-old: driver 470.256.02 is too old for the CUDA 13.0 runtime"* ]]
	[[ "$output" == *"Libraries"* ]]
	[[ "$output" != *$'\033['* ]]
}

@test "--prom: one gauge per finding" {
	echo "CUDA_VISIBLE_DEVICES=-1" >"$env_file"
	run_cudx --root "$root" --env "$env_file" --prom
	[[ "$output" == *'cudx_finding{id="cuda-visible-devices-hides",severity="error"'* ]]
	[[ "$output" == *'cudx_findings{severity="error"} 1'* ]]
}

@test "an image without its C library: lib-not-found names what is missing and who needs it" {
	need_cuda13
	add_cuda13 "$root" libcudart.so.13
	rm "$root/$MULTIARCH/libc.so.6"
	run_cudx --root "$root" --env "$env_file" --json
	[ "$status" -eq 1 ]
	has_finding lib-not-found
	[[ "$output" == *"libc.so.6"*"needed by /usr/local/cuda"* ]]
}

@test "a venv's nvidia-* wheel libraries are in the inventory, with the wheel's version" {
	need_cuda13
	local site="$root/opt/venv/lib/python3.11/site-packages"
	mkdir -p "$site/nvidia/cudnn/lib" "$site/nvidia_cudnn_cu12-9.1.0.70.dist-info" "$root/opt/venv/bin"
	printf 'home = /usr/bin\nversion = 3.11.2\n' >"$root/opt/venv/pyvenv.cfg"
	hostfile "$CUDA13/lib/libcudnn.so.9" "$site/nvidia/cudnn/lib/libcudnn.so.9"
	printf 'Metadata-Version: 2.1\nName: nvidia-cudnn-cu12\nVersion: 9.1.0.70\n' >"$site/nvidia_cudnn_cu12-9.1.0.70.dist-info/METADATA"
	printf 'nvidia/cudnn/lib/libcudnn.so.9,sha256=x,129240\nnvidia_cudnn_cu12-9.1.0.70.dist-info/METADATA,,\n' >"$site/nvidia_cudnn_cu12-9.1.0.70.dist-info/RECORD"
	echo "VIRTUAL_ENV=/opt/venv" >"$env_file"
	run_cudx --root "$root" --env "$env_file" --json
	lib=$(json_get '["inventory"]["libraries"]' | python3 -c '
import json,sys
for l in json.load(sys.stdin):
    if l["path"].endswith("nvidia/cudnn/lib/libcudnn.so.9"): print(l["origin"], "|", l["version"], "|", l["owner"])')
	[[ "$lib" == "python env /opt/venv | 9.1.0.70 | nvidia-cudnn-cu12 9.1.0.70" ]]
}

@test "a conda env's CUDA runtime (cudatoolkit in PREFIX/lib) is judged against the driver" {
	need_pkg libcudart11.0
	mkdir -p "$root/opt/conda/envs/ml/lib" "$root/opt/conda/envs/ml/conda-meta" "$root/opt/conda/envs/ml/bin"
	hostfile "$CUDX_PKG_CACHE/libcudart11.0/root/$MULTIARCH/libcudart.so.11.8.89" "$root/opt/conda/envs/ml/lib/libcudart.so.11.8.89"
	ln -s libcudart.so.11.8.89 "$root/opt/conda/envs/ml/lib/libcudart.so.11.0"
	echo "CONDA_PREFIX=/opt/conda/envs/ml" >"$env_file"
	run_cudx --root "$root" --env "$env_file" --driver 450.36.06 --json
	has_finding driver-too-old
	[[ "$output" == *'"origin": "conda env /opt/conda/envs/ml"'* ]]
}

@test "a wheel library whose size differs from its RECORD is lib-damaged; the intact one is not" {
	need_cuda13
	local site="$root/opt/venv/lib/python3.11/site-packages"
	mkdir -p "$site/nvidia/cudnn/lib" "$site/nvidia_cudnn_cu12-9.1.0.70.dist-info"
	printf 'home = /usr/bin\nversion = 3.11.2\n' >"$root/opt/venv/pyvenv.cfg"
	hostfile "$CUDA13/lib/libcudnn.so.9" "$site/nvidia/cudnn/lib/libcudnn.so.9"
	hostfile "$CUDA13/lib/libcudnn_graph.so.9" "$site/nvidia/cudnn/lib/libcudnn_graph.so.9"
	size=$(stat -c %s "$site/nvidia/cudnn/lib/libcudnn.so.9")
	gsize=$(stat -c %s "$site/nvidia/cudnn/lib/libcudnn_graph.so.9")
	printf 'Metadata-Version: 2.1\nName: nvidia-cudnn-cu12\nVersion: 9.1.0.70\n' >"$site/nvidia_cudnn_cu12-9.1.0.70.dist-info/METADATA"
	# RECORD as pip writes it (CRLF): libcudnn_graph's stated size is not the file's
	printf 'nvidia/cudnn/lib/libcudnn.so.9,sha256=x,%s\r\nnvidia/cudnn/lib/libcudnn_graph.so.9,sha256=y,%s\r\n' \
		"$size" "$((gsize + 4096))" >"$site/nvidia_cudnn_cu12-9.1.0.70.dist-info/RECORD"
	echo "VIRTUAL_ENV=/opt/venv" >"$env_file"
	run_cudx --root "$root" --env "$env_file" --json
	has_finding lib-damaged
	[ "$(finding_ids | grep -c '^lib-damaged$')" -eq 1 ]
	[[ "$output" == *"libcudnn_graph.so.9 is not the file its package installed ($gsize bytes, $((gsize + 4096)) expected)"* ]]
	[[ "$output" == *"pip install --force-reinstall --no-deps nvidia-cudnn-cu12==9.1.0.70"* ]]
}

@test "a stale cache entry behind a directory link (merged /usr) is no broken symlink" {
	command -v ldconfig >/dev/null || skip_fixture "needs ldconfig to write a cache into the root"
	rm -rf "$root/lib" && ln -s usr/lib "$root/lib"
	fake_lib "$root" "/usr/lib/x86_64-linux-gnu/libcudart.so.12" libcudart.so.12
	echo "/lib/x86_64-linux-gnu" >"$root/etc/ld.so.conf"
	ldconfig -r "$root" 2>/dev/null || skip_fixture "ldconfig -r failed here"
	rm "$root/usr/lib/x86_64-linux-gnu/libcudart.so.12"
	run_cudx --root "$root" --env "$env_file" --json
	lacks_finding lib-broken-symlink
	# the stale entry is there and read: the loader tries it and finds no file
	run_strict "$CUDX" --root "$root" --json why libcudart.so.12
	[ "$status" -eq 1 ]
	[ "$(py 'print(" ".join(c["path"] for c in r["candidates"] if c["how"] == "ldcache"))')" = /lib/x86_64-linux-gnu/libcudart.so.12 ]
}

@test "a library of another package with the same file name is not judged by that wheel's RECORD" {
	need_cuda13
	local site="$root/opt/venv/lib/python3.11/site-packages"
	mkdir -p "$site/torch/lib" "$site/nvidia/cudnn/lib" "$site/nvidia_cudnn_cu12-9.1.0.70.dist-info" "$site/torch-2.4.0.dist-info"
	printf 'home = /usr/bin\nversion = 3.11.2\n' >"$root/opt/venv/pyvenv.cfg"
	hostfile "$CUDA13/lib/libcudnn.so.9" "$site/torch/lib/libcudnn.so.9"
	size=$(stat -c %s "$site/torch/lib/libcudnn.so.9")
	printf 'nvidia/cudnn/lib/libcudnn.so.9,sha256=x,999999\n' >"$site/nvidia_cudnn_cu12-9.1.0.70.dist-info/RECORD"
	printf 'torch/lib/libcudnn.so.9,sha256=y,%s\n' "$size" >"$site/torch-2.4.0.dist-info/RECORD"
	printf 'VIRTUAL_ENV=/opt/venv\nLD_LIBRARY_PATH=/opt/venv/lib/python3.11/site-packages/torch/lib\n' >"$env_file"
	run_cudx --root "$root" --env "$env_file" --json
	# torch's copy is judged by torch's RECORD (same size: intact), not by the cuDNN wheel's
	[ "$(lib_field torch/lib/libcudnn.so.9 owner)" = "torch 2.4.0" ]
	lacks_finding lib-damaged
	[[ "$output" != *"nvidia_cudnn_cu12 9.1.0.70\", \"is_stub\""* ]]
}

@test "LD_LIBRARY_PATH=:/nope:/nope: one missing-dir finding for /nope, and the empty element its own info finding" {
	echo "LD_LIBRARY_PATH=:/nope:/nope:" >"$env_file"
	run_cudx --root "$root" --env "$env_file" --json
	[ "$(finding_ids | grep -c '^ld-library-path-missing-dir$')" -eq 1 ]
	[ "$(finding_ids | grep -c '^ld-library-path-empty-element$')" -eq 1 ]
	fields=$(python3 -c 'import json,sys
for f in json.load(sys.stdin)["findings"]:
    if f["id"].startswith("ld-library-path-"): print(f["id"], f["severity"], repr(f.get("subject")))' <<<"$output")
	grep -qx "ld-library-path-missing-dir warning '/nope'" <<<"$fields"
	grep -qx "ld-library-path-empty-element info None" <<<"$fields"
}

@test "--prom: a repeated LD_LIBRARY_PATH element gives no duplicate series" {
	echo "LD_LIBRARY_PATH=:/nope:/nope:" >"$env_file"
	run_cudx --root "$root" --env "$env_file" --prom
	[[ "$output" == *'cudx_finding{id="ld-library-path-missing-dir",severity="warning",subject="/nope"} 1'* ]]
	[[ "$output" == *'cudx_findings{severity="warning"} 1'* ]]
	[ -z "$(grep -v '^#' <<<"$output" | sed 's/ [0-9]*$//' | sort | uniq -d)" ]
}

@test "LD_LIBRARY_PATH of 300 distinct missing dirs: at most 256 findings, quickly" {
	echo "LD_LIBRARY_PATH=$(seq -f '/gone/d%g' 1 300 | paste -sd:)" >"$env_file"
	SECONDS=0
	run_cudx --root "$root" --env "$env_file" --json
	[ "$SECONDS" -lt 20 ]
	n=$(finding_ids | grep -c '^ld-library-path-missing-dir$')
	[ "$n" -gt 0 ] && [ "$n" -le 256 ]
	# the elements past the cap are not judged
	python3 -c 'import json,sys
s = {f.get("subject") for f in json.load(sys.stdin)["findings"]}
sys.exit("/gone/d300" in s or "/gone/d1" not in s)' <<<"$output"
}

@test "a CUDA 11.8 toolkit dir without version.json: its version is the real libcudart's, not the SONAME link's 11.0" {
	need_pkg libcudart11.0
	local lib="$root/usr/local/cuda-11.8/targets/x86_64-linux/lib"
	mkdir -p "$lib"
	ln -s targets/x86_64-linux/lib "$root/usr/local/cuda-11.8/lib64"
	# the SONAME link sorts before the real file (cudx lists directories sorted)
	ln -s libcudart.so.11.8.89 "$lib/libcudart.so.11.0"
	hostfile "$CUDX_PKG_CACHE/libcudart11.0/root/$MULTIARCH/libcudart.so.11.8.89" "$lib/libcudart.so.11.8.89"
	run_cudx --root "$root" --env "$env_file" --gpu "RTX 3090" --json
	[ "$(json_get '["inventory"]["toolkits"][0]["version"]')" = 11.8.89 ]
	[ "$(json_get '["inventory"]["toolkits"][0]["version_source"]')" = "libcudart file name" ]
	# CUDA 11.8 builds sm_86: read as 11.0, the toolkit was called unable to
	lacks_finding gpu-unsupported-by-toolkit
	# lib64 a directory of its own holding only the link: the real file elsewhere still decides
	rm "$root/usr/local/cuda-11.8/lib64"
	mkdir "$root/usr/local/cuda-11.8/lib64"
	ln -s ../targets/x86_64-linux/lib/libcudart.so.11.8.89 "$root/usr/local/cuda-11.8/lib64/libcudart.so.11.0"
	run_cudx --root "$root" --env "$env_file" --gpu "RTX 3090" --json
	[ "$(json_get '["inventory"]["toolkits"][0]["version"]')" = 11.8.89 ]
}

@test "a container is recognised by each marker: Docker's, Podman's, systemd's (LXC, not WSL) and a Kubernetes pod's" {
	run_cudx --root "$root" --env "$env_file" --json
	[ "$(json_get '["system"]["container"]')" = False ]
	local m
	for m in .dockerenv run/.containerenv run/systemd/container var/run/secrets/kubernetes.io/serviceaccount; do
		mkdir -p "$root/$(dirname "$m")"
		case $m in
		*serviceaccount) mkdir -p "$root/$m" ;;
		run/systemd/container) echo lxc >"$root/$m" ;;
		*) : >"$root/$m" ;;
		esac
		run_cudx --root "$root" --env "$env_file" --json
		[ "$(json_get '["system"]["container"]')" = True ] || { echo "not seen: $m"; false; }
		rm -rf "${root:?}/$m"
	done
	# WSL 2 with systemd writes "wsl" there: no container (its GPU comes through /dev/dxg)
	mkdir -p "$root/run/systemd"
	echo wsl >"$root/run/systemd/container"
	run_cudx --root "$root" --env "$env_file" --json
	[ "$(json_get '["system"]["container"]')" = False ]
}

@test "LD_LIBRARY_PATH of NVIDIA's CUDA images (/usr/local/nvidia/lib, lib64, absent under the container toolkit) is no missing directory; another absent one is" {
	echo "LD_LIBRARY_PATH=/usr/local/nvidia/lib:/usr/local/nvidia/lib64:/opt/cuda-gone/lib64" >"$env_file"
	run_cudx --root "$root" --env "$env_file" --json
	has_finding ld-library-path-missing-dir
	[ "$(finding_ids | grep -c '^ld-library-path-missing-dir$')" -eq 1 ]
	[[ "$output" == *"does not exist: /opt/cuda-gone/lib64"* ]]
	[[ "$output" != *"does not exist: /usr/local/nvidia"* ]]
}

@test "a forward-compat libcuda newer than the kernel module is by design, an older one a mismatch" {
	proc_version "$root" 535.183.01
	local compat=/usr/local/cuda-12.8/compat
	mkdir -p "$root/usr/local/cuda-12.8/include" "$root/$compat"
	touch "$root/usr/local/cuda-12.8/include/cuda.h"
	fake_lib "$root" "$compat/libcuda.so.570.86.10" libcuda.so.1
	ln -s libcuda.so.570.86.10 "$root/$compat/libcuda.so.1"
	echo "LD_LIBRARY_PATH=$compat" >"$env_file"
	run_cudx --root "$root" --env "$env_file" --json
	[ "$(json_get '["inventory"]["driver"]["libcuda"]')" = "$compat/libcuda.so.1" ]
	lacks_finding driver-userspace-mismatch
	# the same package on a newer host driver: its libcuda is older than the module
	proc_version "$root" 575.51.03
	run_cudx --root "$root" --env "$env_file" --json
	has_finding driver-userspace-mismatch
}

# The NVIDIA container runtime on a host driver older than the image's cuda-compat mounts the compat
# libcuda into the library directory beside the host's files (libnvidia-container's compat "mount"
# mode, set 41): that copy is the forward-compat one, not a driver upgraded without a reboot
@test "in a container, a libcuda of the image's cuda-compat version mounted into the library dir is forward compatibility, not a mismatch" {
	proc_version "$root" 470.223.02
	local compat=/usr/local/cuda-11.8/compat lib="/$MULTIARCH"
	mkdir -p "$root/usr/local/cuda-11.8/include" "$root/$compat"
	touch "$root/usr/local/cuda-11.8/include/cuda.h" "$root/.dockerenv"
	fake_lib "$root" "$compat/libcuda.so.520.61.05" libcuda.so.1
	ln -s libcuda.so.520.61.05 "$root/$compat/libcuda.so.1"
	fake_lib "$root" "$lib/libcuda.so.470.223.02" libcuda.so.1
	fake_lib "$root" "$lib/libcuda.so.520.61.05" libcuda.so.1
	ln -s libcuda.so.520.61.05 "$root/$lib/libcuda.so.1"
	run_cudx --root "$root" --env "$env_file" --json
	[ "$(json_get '["inventory"]["driver"]["libcuda"]')" = "$lib/libcuda.so.1" ]
	lacks_finding driver-userspace-mismatch
	# error 804 there is the compat copy refused on this GPU: confirmed, with the copy named
	run_strict "$CUDX" explain --no-probe --root "$root" --env "$env_file" --json "cudaErrorCompatNotSupportedOnDevice: forward compatibility was attempted on non supported HW"
	[ "$(jq -r '.causes[0].id + " " + .causes[0].confidence' <<<"$output")" = "forward-compat-unsupported high" ]
	[[ "$(jq -r '.causes[0].evidence | join("\n")' <<<"$output")" == *"forward-compatibility copy: $lib/libcuda.so.1"* ]]
	# outside a container nothing mounts compat copies: the same files are a mismatch
	rm "$root/.dockerenv"
	run_cudx --root "$root" --env "$env_file" --json
	has_finding driver-userspace-mismatch
	# and in a container a libcuda of a version no compat dir has is one too
	touch "$root/.dockerenv"
	rm "$root/$lib/libcuda.so.1"
	fake_lib "$root" "$lib/libcuda.so.525.60.13" libcuda.so.1
	ln -s libcuda.so.525.60.13 "$root/$lib/libcuda.so.1"
	run_cudx --root "$root" --env "$env_file" --json
	has_finding driver-userspace-mismatch
}

# CUDA images ship the forward-compatibility libcuda under /usr/local/cuda-X/compat; in a container
# started without the GPU it is all the tree has of libcuda, and it is no installed driver
@test "a container whose only libcuda is the image's cuda-compat copy: no driver of its own (info), not a kernel module that failed" {
	local compat=/usr/local/cuda-11.7/compat
	mkdir -p "$root/usr/local/cuda-11.7/include" "$root/$compat"
	touch "$root/usr/local/cuda-11.7/include/cuda.h" "$root/.dockerenv"
	fake_lib "$root" "$compat/libcuda.so.515.65.01" libcuda.so.1
	ln -s libcuda.so.515.65.01 "$root/$compat/libcuda.so.1"
	run_cudx --root "$root" --env "$env_file" --json
	has_finding no-driver
	[ "$(finding_severity no-driver)" = info ]
	run_strict "$CUDX" explain --no-probe --root "$root" --env "$env_file" --json "nvidia-smi: command not found"
	[ "$(jq -r '.causes[0].id' <<<"$output")" = container-no-gpu ]
	[[ "$(jq -r '.causes[0].evidence | join("\n")' <<<"$output")" == *"shows neither the driver's /proc entries nor its libcuda.so.1"* ]]
	# the same tree outside a container: no driver is the cause
	rm "$root/.dockerenv"
	run_strict "$CUDX" explain --no-probe --root "$root" --env "$env_file" --json "nvidia-smi: command not found"
	[ "$(jq -r '.causes[0].id' <<<"$output")" = no-driver ]
}

# A container's tree shows none of the host's /proc: the driver bound where runtimes bind it says
# nothing of the module; one in the image's library directory (mounted there by the toolkit, or
# baked in) gets a mild note, never "modprobe"
@test "a container's tree with libcuda and no /proc: nothing for /usr/local/nvidia, a mild note for the image's library directory" {
	need_pkg libcuda1
	local real=$CUDX_PKG_CACHE/libcuda1/root/usr/lib/x86_64-linux-gnu/nvidia/current/libcuda.so.535.309.01
	touch "$root/.dockerenv"
	mkdir -p "$root/usr/local/nvidia/lib64"
	hostfile "$real" "$root/usr/local/nvidia/lib64/libcuda.so.535.309.01"
	ln -s libcuda.so.535.309.01 "$root/usr/local/nvidia/lib64/libcuda.so.1"
	echo "LD_LIBRARY_PATH=/usr/local/nvidia/lib64" >"$env_file"
	run_cudx --root "$root" --env "$env_file" --json
	[ "$(jq -r '.inventory.driver.libcuda' <<<"$output")" = /usr/local/nvidia/lib64/libcuda.so.1 ]
	[ "$(jq '[.findings[] | select(.id == "no-driver")] | length' <<<"$output")" = 0 ]
	rm -r "$root/usr/local/nvidia"
	hostfile "$real" "$root/$MULTIARCH/libcuda.so.535.309.01"
	ln -s libcuda.so.535.309.01 "$root/$MULTIARCH/libcuda.so.1"
	: >"$env_file"
	run_cudx --root "$root" --env "$env_file" --json
	[ "$(finding_severity no-driver)" = info ]
	py 'print(next(f["summary"] for f in r["findings"] if f["id"] == "no-driver"))' | grep -q "not visible from this container's tree"
	py 'print("\n".join(next(f["fix"] for f in r["findings"] if f["id"] == "no-driver")))' | grep -vq modprobe
}

# The NVIDIA Container Toolkit beside a container engine is a host's: a tree with both and no driver
# is a host without one (an error); the toolkit alone is also the image of the toolkit itself (the
# GPU Operator's). A host with an engine and no toolkit is what Docker's "could not select device
# driver" means; a CDI spec or containerd's nvidia runtime is the toolkit too, and a message the
# toolkit wrote says it ran
@test "a tree with a container engine and the NVIDIA Container Toolkit and no driver is a host: no-driver is an error; an engine without the toolkit backs container-toolkit-missing" {
	mkdir -p "$root/usr/bin"
	run_cudx --root "$root" --env "$env_file" --json
	[ "$(finding_severity no-driver)" = info ]
	touch "$root/usr/bin/nvidia-container-runtime-hook"
	run_cudx --root "$root" --env "$env_file" --json
	[ "$(finding_severity no-driver)" = info ]
	touch "$root/usr/bin/dockerd"
	run_cudx --root "$root" --env "$env_file" --json
	[ "$(finding_severity no-driver)" = error ]
	[ "$(jq -r '.inventory.container_host.toolkit' <<<"$output")" = /usr/bin/nvidia-container-runtime-hook ]
	[ "$(jq -r '.inventory.container_host.engine' <<<"$output")" = /usr/bin/dockerd ]
	py 'print("\n".join(next(f["evidence"] for f in r["findings"] if f["id"] == "no-driver")))' |
		grep -q "the NVIDIA Container Toolkit (/usr/bin/nvidia-container-runtime-hook) and a container engine (/usr/bin/dockerd) are installed here"
	# inside a container the toolkit's files say nothing of a host
	touch "$root/.dockerenv"
	run_cudx --root "$root" --env "$env_file" --json
	[ "$(finding_severity no-driver)" = info ]
	rm "$root/.dockerenv" "$root/usr/bin/nvidia-container-runtime-hook"
	msg='docker: Error response from daemon: could not select device driver "" with capabilities: [[gpu]].'
	backed='a container engine is installed here (/usr/bin/dockerd), the NVIDIA Container Toolkit is not'
	run_strict "$CUDX" explain --no-probe --root "$root" --env "$env_file" --json "$msg"
	[ "$(jq -r '.causes[0].id' <<<"$output")" = container-toolkit-missing ]
	[[ "$(jq -r '.causes[0].evidence | join("\n")' <<<"$output")" == *"$backed"* ]]
	# a message that the toolkit's program is missing is backed; the toolkit's own message says it ran
	run_strict "$CUDX" explain --no-probe --root "$root" --env "$env_file" --json \
		"docker: Error response from daemon: failed to create task: fork/exec /usr/bin/nvidia-container-runtime: no such file or directory: unknown."
	[[ "$(jq -r '.causes[0].evidence | join("\n")' <<<"$output")" == *"$backed"* ]]
	for cli in nvidia-container-cli nvidia-container-cli.real; do
		run_strict "$CUDX" explain --no-probe --root "$root" --env "$env_file" --json \
			"$cli: initialization error: load library failed: libnvidia-ml.so.1: cannot open shared object file: no such file or directory: unknown"
		[[ "$(jq -r '[.causes[].evidence[]] | join("\n")' <<<"$output")" != *"$backed"* ]]
	done
	# CRI-O, k3s: engines too; the GPU Operator's toolkit directory is a host's by itself
	rm "$root/usr/bin/dockerd"
	touch "$root/usr/bin/crio" "$root/usr/bin/nvidia-ctk"
	run_cudx --root "$root" --env "$env_file" --json
	[ "$(finding_severity no-driver)" = error ]
	rm "$root/usr/bin/crio" "$root/usr/bin/nvidia-ctk"
	mkdir -p "$root/usr/local/nvidia/toolkit" && touch "$root/usr/local/nvidia/toolkit/nvidia-container-runtime"
	run_cudx --root "$root" --env "$env_file" --json
	[ "$(finding_severity no-driver)" = error ]
	py 'print("\n".join(next(f["fix"] for f in r["findings"] if f["id"] == "no-driver")))' | grep -q "nvidia-driver-daemonset"
	rm -r "$root/usr/local/nvidia"
	touch "$root/usr/bin/dockerd"
	# a CDI spec (NixOS's module writes one and no nvidia-ctk on the system path), the GPU
	# Operator's toolkit directory, containerd's nvidia runtime: the toolkit is there
	for way in cdi operator containerd docker1; do
		case $way in
		cdi) mkdir -p "$root/var/run/cdi" && touch "$root/var/run/cdi/management.nvidia.com-gpu.yaml" ;;
		operator) mkdir -p "$root/usr/local/nvidia/toolkit" && touch "$root/usr/local/nvidia/toolkit/nvidia-container-runtime" ;;
		docker1) touch "$root/usr/bin/nvidia-docker" ;;
		containerd) mkdir -p "$root/etc/containerd" && printf '[plugins."io.containerd.grpc.v1.cri".containerd.runtimes.nvidia]\n' >"$root/etc/containerd/config.toml" ;;
		esac
		run_strict "$CUDX" explain --no-probe --root "$root" --env "$env_file" --json "$msg"
		[[ "$(jq -r '.causes[0].evidence | join("\n")' <<<"$output")" != *"$backed"* ]]
		rm -rf "$root/var/run/cdi" "$root/usr/local/nvidia" "$root/etc/containerd" "$root/usr/bin/nvidia-docker"
	done
}

# Many installs do not make /dev/nvidia-uvm at boot: libcuda makes it through the setuid
# nvidia-modprobe on the first CUDA call, the toolkit's CLI for Docker; enroot, without privileges,
# cannot (enroot#106)
@test "a host with the nvidia module and enroot, without /dev/nvidia-uvm: nvidia-uvm-missing; not once the node is there, nor in a container, nor without enroot or /dev in a tree" {
	proc_version "$root" 450.80.02
	mkdir -p "$root/usr/bin"
	touch "$root/usr/bin/enroot"
	# a tree without /dev says nothing of its nodes
	run_cudx --root "$root" --env "$env_file" --json
	! has_finding nvidia-uvm-missing
	mkdir -p "$root/dev"
	touch "$root/dev/nvidiactl" "$root/dev/nvidia0"
	rm "$root/usr/bin/enroot"
	run_cudx --root "$root" --env "$env_file" --json
	! has_finding nvidia-uvm-missing
	touch "$root/usr/bin/enroot"
	run_cudx --root "$root" --env "$env_file" --json
	[ "$(finding_severity nvidia-uvm-missing)" = error ]
	[ "$(jq -r '.inventory.container_host.unprivileged' <<<"$output")" = /usr/bin/enroot ]
	[ "$(jq -r '.inventory.driver.nvidia_uvm_loaded' <<<"$output")" = false ]
	py 'print("\n".join(next(f["evidence"] for f in r["findings"] if f["id"] == "nvidia-uvm-missing")))' |
		grep -q "/usr/bin/enroot: starts containers without privileges"
	# the fix uses what is there: modprobe and mknod, or the nvidia-modprobe libcuda runs
	py 'print("\n".join(next(f["fix"] for f in r["findings"] if f["id"] == "nvidia-uvm-missing")))' |
		grep -q "sudo modprobe nvidia-uvm && sudo mknod"
	touch "$root/usr/bin/nvidia-modprobe"
	run_cudx --root "$root" --env "$env_file" --json
	py 'print("\n".join(next(f["fix"] for f in r["findings"] if f["id"] == "nvidia-uvm-missing")))' |
		grep -q "sudo /usr/bin/nvidia-modprobe -u -c=0"
	rm "$root/usr/bin/nvidia-modprobe"
	run_strict "$CUDX" explain --no-probe --root "$root" --env "$env_file" --json \
		"RuntimeError: CUDA unknown error - this may be due to an incorrectly set up environment"
	[ "$(jq -r '.causes[0].id' <<<"$output")" = nvidia-uvm-missing ]
	[[ "$(jq -r '.causes[0].evidence | join("\n")' <<<"$output")" == *"/sys/module/nvidia_uvm: missing"* ]]
	# the module loaded is no node made (modprobe makes none)
	mkdir -p "$root/sys/module/nvidia_uvm"
	run_cudx --root "$root" --env "$env_file" --json
	[ "$(finding_severity nvidia-uvm-missing)" = error ]
	py 'print(next(f["summary"] for f in r["findings"] if f["id"] == "nvidia-uvm-missing"))' | grep -q "^/dev/nvidia-uvm is missing"
	# the node made: nothing to say
	touch "$root/dev/nvidia-uvm"
	run_cudx --root "$root" --env "$env_file" --json
	! has_finding nvidia-uvm-missing
	# an image that ships enroot is no host
	rm "$root/dev/nvidia-uvm" && touch "$root/.dockerenv"
	run_cudx --root "$root" --env "$env_file" --json
	! has_finding nvidia-uvm-missing
	# enroot with the toolkit's CLI (its hook's) and no driver is a GPU host without one: an error,
	# though enroot is no daemon a missing toolkit could be configured for
	rm -r "$root/proc" "$root/sys" "$root/dev"
	touch "$root/usr/bin/nvidia-container-cli"
	run_cudx --root "$root" --env "$env_file" --json
	[ "$(finding_severity no-driver)" = info ]
	rm "$root/.dockerenv"
	run_cudx --root "$root" --env "$env_file" --json
	[ "$(finding_severity no-driver)" = error ]
	[ "$(jq -r '.inventory.container_host.engine' <<<"$output")" = null ]
}

# The GPU Operator runs the driver in a container whose root the host sees at /run/nvidia/driver:
# a node with the module loaded and no libcuda of its own is how it works, not a broken driver
@test "a GPU Operator node (libcuda only under /run/nvidia/driver), a GKE node (/home/kubernetes/bin/nvidia): no-driver is mild; error 802 there is the fabric manager's" {
	proc_version "$root" 460.73.01
	fake_lib "$root" run/nvidia/driver/usr/lib64/libcuda.so.460.73.01 libcuda.so.1
	ln -s libcuda.so.460.73.01 "$root/run/nvidia/driver/usr/lib64/libcuda.so.1"
	run_cudx --root "$root" --env "$env_file" --json
	has_finding no-driver
	[ "$(finding_severity no-driver)" = info ]
	py 'print(next(f["summary"] for f in r["findings"] if f["id"] == "no-driver"))' | grep -q "GPU Operator's driver container (/run/nvidia/driver)"
	msg="Failed to allocate device vector A (error code system not yet initialized)!"
	run_strict "$CUDX" explain --no-probe --root "$root" --env "$env_file" --json "$msg"
	[ "$(jq -r '.causes[0].id' <<<"$output")" = fabric-manager-not-running ]
	# without the operator's driver root the loaded module without libcuda is an error that goes first
	rm -r "$root/run/nvidia"
	run_strict "$CUDX" explain --no-probe --root "$root" --env "$env_file" --json "$msg"
	[ "$(jq -r '.causes[0].id' <<<"$output")" = no-driver ]
	# GKE's driver installer keeps it in /home/kubernetes/bin/nvidia, which pods get at /usr/local/nvidia
	fake_lib "$root" home/kubernetes/bin/nvidia/lib64/libcuda.so.460.73.01 libcuda.so.1
	ln -s libcuda.so.460.73.01 "$root/home/kubernetes/bin/nvidia/lib64/libcuda.so.1"
	run_cudx --root "$root" --env "$env_file" --json
	[ "$(finding_severity no-driver)" = info ]
	py 'print(next(f["summary"] for f in r["findings"] if f["id"] == "no-driver"))' | grep -q "GKE's driver installer (/home/kubernetes/bin/nvidia)"
	# its pods get the driver from the device plugin, not the toolkit: containerd without the
	# toolkit there backs no missing toolkit
	mkdir -p "$root/usr/bin" && touch "$root/usr/bin/containerd"
	run_strict "$CUDX" explain --no-probe --root "$root" --env "$env_file" --json "0/3 nodes are available: 3 Insufficient nvidia.com/gpu."
	[[ "$(jq -r '[.causes[].evidence[]] | join("\n")' <<<"$output")" != *"a container engine is installed here"* ]]
}

@test "driver 390 with a CUDA 9.2 runtime: driver-too-old from Table 3's pre-10.0 rows, without 11.x-only advice" {
	# CUDA 9.x reports still arrive; before CUDA 10.0 the tables ended and such a driver "supported
	# no known CUDA". 9.2 needs 396.26 (9.2.148: 396.37); 9.x has no minor-version compatibility and
	# no cuda-compat package.
	mkdir -p "$root/usr/local/cuda-9.2/lib64"
	fake_lib "$root" usr/local/cuda-9.2/lib64/libcudart.so.9.2.148 libcudart.so.9.2
	ln -s libcudart.so.9.2.148 "$root/usr/local/cuda-9.2/lib64/libcudart.so.9.2"
	echo LD_LIBRARY_PATH=/usr/local/cuda-9.2/lib64 >"$env_file"
	run_cudx --root "$root" --env "$env_file" --driver 390.48
	[ "$status" -eq 1 ]
	[[ "$output" == *"driver-too-old: driver 390.48 is too old for the CUDA 9.2 runtime (needs >= 396.26)"* ]]
	[[ "$output" == *"supports CUDA up to 9.1"* ]]
	[[ "$output" == *"CUDA 9.x has no minor-version compatibility"* ]]
	[[ "$output" != *"cuda-compat-9"* ]]
	run_cudx --root "$root" --env "$env_file" --driver 396.37 --json
	! has_finding driver-too-old
}

@test "a development link (libcublas.so) takes the major of the file it reaches: 12 for a CUDA 12 toolkit, none of a major the catalogue lacks" {
	# The unversioned name fits every major of its library; listed before libcublas.so.12 it
	# used to classify the file as the newest major (13).
	local d=usr/local/cuda-12.4/lib64
	fake_lib "$root" $d/libcublas.so.12.4.5.8 libcublas.so.12
	ln -s libcublas.so.12.4.5.8 "$root/$d/libcublas.so.12"
	ln -s libcublas.so.12 "$root/$d/libcublas.so"
	fake_lib "$root" usr/local/cuda-6.5/lib64/libcublas.so.6.5.14 libcublas.so.6.5
	ln -s libcublas.so.6.5.14 "$root/usr/local/cuda-6.5/lib64/libcublas.so"
	echo "LD_LIBRARY_PATH=/$d:/usr/local/cuda-6.5/lib64" >"$env_file"
	run_cudx --root "$root" --env "$env_file" --json
	[ "$(lib_field "/$d/libcublas.so.12" major)" = 12 ]
	[ "$(lib_field "/$d/libcublas.so.12" cuda_major)" = 12 ]
	[ "$(lib_field "/usr/local/cuda-6.5/lib64/libcublas.so" major)" = absent ]
	[ "$(py 'print(len(r["inventory"]["libraries"]))')" = 1 ]
}

@test "a driver library copied into an ld.so.conf directory without ldconfig: ldcache-stale names the missing link" {
	# only ldconfig makes libnvidia-ml.so.1 -> libnvidia-ml.so.535.309.01 and its cache entry; a
	# copy (or a container runtime whose ldconfig step failed) leaves the real file alone
	ldconf_root "$root" /opt/nv
	fake_lib "$root" /opt/nv/libnvidia-ml.so.535.309.01 libnvidia-ml.so.1
	run_cudx --root "$root" --env "$env_file"
	[[ "$output" == *"ldcache-stale: /opt/nv/libnvidia-ml.so.535.309.01 has neither its libnvidia-ml.so.1 link nor an ld.so.cache entry"* ]]
	# with the link (as ldconfig -n makes it) only the cache entry is missing: the old wording
	ln -s libnvidia-ml.so.535.309.01 "$root/opt/nv/libnvidia-ml.so.1"
	run_cudx --root "$root" --env "$env_file"
	[[ "$output" == *"ldcache-stale: /opt/nv/libnvidia-ml.so.1 is not in ld.so.cache"* ]]
	[[ "$output" != *"has neither its"* ]]
}

# The driver installed where the system keeps it off the loader's search path (data/driver_dirs.tsv):
# a driver, only not reachable, which no-driver would misname.
@test "Debian's driver 535 without the alternatives' links (only nvidia/current): driver-lib-off-path, not no-driver" {
	need_pkg libcuda1 libnvidia-ml1
	add_pkg "$root" libcuda1
	add_pkg "$root" libnvidia-ml1
	proc_version "$root" 535.309.01
	run_cudx --root "$root" --env "$env_file" --json
	[ "$status" -eq 1 ]
	has_finding driver-lib-off-path
	lacks_finding no-driver
	[ "$(finding_severity driver-lib-off-path)" = error ]
	[ "$(json_get '["inventory"]["driver"]["libcuda"]')" = None ]
	[ "$(json_get '["inventory"]["driver"]["libcuda_off_path"]')" = "/$MULTIARCH/nvidia/current/libcuda.so.1" ]
	# the alternatives' links put it on the default path: nothing to say
	link_driver_libs "$root" "$MULTIARCH/nvidia/current"
	run_cudx --root "$root" --env "$env_file" --json
	lacks_finding driver-lib-off-path
	lacks_finding no-driver
}

@test "NixOS keeps the driver in /run/opengl-driver/lib: driver-lib-off-path, explain's first cause for a missing libcuda.so.1; on LD_LIBRARY_PATH it is found" {
	need_pkg libcuda1
	mkdir -p "$root/run/opengl-driver/lib"
	hostfile "$CUDX_PKG_CACHE/libcuda1/root/usr/lib/x86_64-linux-gnu/nvidia/current/libcuda.so.535.309.01" "$root/run/opengl-driver/lib/libcuda.so.535.309.01"
	ln -s libcuda.so.535.309.01 "$root/run/opengl-driver/lib/libcuda.so.1"
	proc_version "$root" 535.309.01
	run_cudx --root "$root" --env "$env_file"
	[ "$status" -eq 1 ]
	[[ "$output" == *"error   driver-lib-off-path: libcuda.so.1 is in /run/opengl-driver/lib (NixOS), which the loader does not search"* ]]
	[[ "$output" == *"libcuda.so.1       not on the loader's search path; the driver's copy is /run/opengl-driver/lib/libcuda.so.1 (NixOS)"* ]]
	[[ "$output" == *"export LD_LIBRARY_PATH=/run/opengl-driver/lib:"* ]]
	[[ "$output" != *"no-driver"* ]]
	run_strict -1 "$CUDX" explain --root "$root" --env "$env_file" --json "OSError: libcuda.so.1: cannot open shared object file: No such file or directory"
	[ "$(echo "$output" | python3 -c 'import json,sys; print(json.load(sys.stdin)["messages"][0]["causes"][0]["id"])')" = driver-lib-off-path ]
	# error 35 is also what the runtime says when it cannot load libcuda at all: the driver the
	# machine shows unreachable goes before the code's own driver-too-old (a set 15 NixOS report)
	run_strict -1 "$CUDX" explain --root "$root" --env "$env_file" --json "cudaSetDevice err: 35"
	[ "$(echo "$output" | python3 -c 'import json,sys; print(" ".join(c["id"] for c in json.load(sys.stdin)["messages"][0]["causes"][:2]))')" = "driver-lib-off-path driver-too-old" ]
	echo "LD_LIBRARY_PATH=/run/opengl-driver/lib" >"$env_file"
	run_cudx --root "$root" --env "$env_file" --json
	lacks_finding driver-lib-off-path
	lacks_finding no-driver
	[ "$(json_get '["inventory"]["driver"]["libcuda"]')" = /run/opengl-driver/lib/libcuda.so.1 ]
}

@test "an RPM driver in /usr/lib64/nvidia without its ld.so.conf.d file: driver-lib-off-path, not no-driver; explain puts it first for a missing NVML" {
	need_pkg libcuda1
	mkdir -p "$root/usr/lib64/nvidia"
	hostfile "$CUDX_PKG_CACHE/libcuda1/root/usr/lib/x86_64-linux-gnu/nvidia/current/libcuda.so.535.309.01" "$root/usr/lib64/nvidia/libcuda.so.535.309.01"
	ln -s libcuda.so.535.309.01 "$root/usr/lib64/nvidia/libcuda.so.1"
	proc_version "$root" 535.309.01
	run_cudx --root "$root" --env "$env_file"
	[ "$status" -eq 1 ]
	[[ "$output" == *"error   driver-lib-off-path: libcuda.so.1 is in /usr/lib64/nvidia (RPM driver packages for RHEL / Fedora"* ]]
	[[ "$output" == *"sudo tee /etc/ld.so.conf.d/nvidia-lib64.conf"* ]]
	[[ "$output" != *"no-driver"* ]]
	run_strict -1 "$CUDX" explain --root "$root" --env "$env_file" --json "Error: Could not load NVML library"
	[ "$(echo "$output" | python3 -c 'import json,sys; print(json.load(sys.stdin)["messages"][0]["causes"][0]["id"])')" = driver-lib-off-path ]
	# the package's file in /etc/ld.so.conf.d and a cache that lists the copy: found, nothing to say
	ldconf_root "$root" /usr/lib64/nvidia
	run_cudx --root "$root" --env "$env_file" --json
	lacks_finding driver-lib-off-path
	lacks_finding no-driver
	[ "$(json_get '["inventory"]["driver"]["libcuda"]')" = /usr/lib64/nvidia/libcuda.so.1 ]
}

# nvcc's host compiler, from files: the toolkit's own include/crt/host_config.h (the real CUDA 13
# one: "gcc versions later than 15") and the name the gcc on PATH links to. No compiler runs.
@test "nvcc of CUDA 13 with gcc -> gcc-16 on PATH: nvcc-host-compiler-unsupported; gcc-14, NVCC_CCBIN=gcc-14 or -allow-unsupported-compiler: none" {
	need_cuda13
	[ -r "$CUDA13/include/crt/host_config.h" ] || skip_fixture "needs $CUDA13/include/crt/host_config.h"
	add_cuda13 "$root" libcudart.so.13
	mkdir -p "$root/usr/local/cuda-13.0/bin" "$root/usr/local/cuda-13.0/include/crt" "$root/usr/bin"
	hostfile "$CUDA13/include/crt/host_config.h" "$root/usr/local/cuda-13.0/include/crt/host_config.h"
	: >"$root/usr/local/cuda-13.0/bin/nvcc"
	: >"$root/usr/bin/x86_64-linux-gnu-gcc-16"
	: >"$root/usr/bin/x86_64-linux-gnu-gcc-14"
	ln -s x86_64-linux-gnu-gcc-16 "$root/usr/bin/gcc-16"
	ln -s x86_64-linux-gnu-gcc-14 "$root/usr/bin/gcc-14"
	ln -s gcc-16 "$root/usr/bin/gcc"
	echo "PATH=/usr/local/cuda/bin:/usr/bin" >"$env_file"
	run_cudx --root "$root" --env "$env_file" --json
	has_finding nvcc-host-compiler-unsupported
	[ "$(finding_severity nvcc-host-compiler-unsupported)" = error ]
	[[ "$(json_get '["findings"]')" == *"takes GCC up to 15; /usr/bin/gcc is GCC 16"* ]]
	[ "$(json_get '["inventory"]["host_compiler"]["gcc_major"]')" = 16 ]
	# explain: the machine confirms nvcc's refusal
	run_strict -1 "$CUDX" explain --root "$root" --env "$env_file" --json "error -- unsupported GNU version! gcc versions later than 15 are not supported!"
	[ "$(echo "$output" | python3 -c 'import json,sys; c=json.load(sys.stdin)["messages"][0]["causes"][0]; print(c["id"], c["confirmed_by"])')" = "nvcc-host-compiler-unsupported nvcc-host-compiler-unsupported" ]
	# CMake's "Could not find nvcc" when its compiler check failed: the machine's refusal goes first (set 15)
	run_strict -1 "$CUDX" explain --root "$root" --env "$env_file" --json "-- Could not find nvcc, please set CUDAToolkit_ROOT."
	[ "$(echo "$output" | python3 -c 'import json,sys; print(json.load(sys.stdin)["messages"][0]["causes"][0]["id"])')" = nvcc-host-compiler-unsupported ]
	echo "NVCC_CCBIN=/usr/bin/gcc-14" >>"$env_file"
	run_cudx --root "$root" --env "$env_file" --json
	lacks_finding nvcc-host-compiler-unsupported
	echo "PATH=/usr/local/cuda/bin:/usr/bin" >"$env_file"
	echo "NVCC_APPEND_FLAGS=-allow-unsupported-compiler" >>"$env_file"
	run_cudx --root "$root" --env "$env_file" --json
	lacks_finding nvcc-host-compiler-unsupported
	echo "PATH=/usr/local/cuda/bin:/usr/bin" >"$env_file"
	ln -sfn gcc-14 "$root/usr/bin/gcc"
	run_cudx --root "$root" --env "$env_file" --json
	lacks_finding nvcc-host-compiler-unsupported
	[ "$(json_get '["inventory"]["host_compiler"]["gcc_major"]')" = 14 ]
	# explain: CMake's failed compiler check with a host compiler this nvcc takes rules that cause out
	run_strict -1 "$CUDX" explain --root "$root" --env "$env_file" --json "Failed to detect a default CUDA architecture."
	[ "$(echo "$output" | python3 -c 'import json,sys; print([c["confidence"] for c in json.load(sys.stdin)["messages"][0]["causes"] if c["id"] == "nvcc-host-compiler-unsupported"][0])')" = ruled-out ]
}

@test "an unnumbered gcc (Arch, Fedora) is the GCC under /usr/lib/gcc that no gcc-N beside it claims; with two unclaimed, no claim" {
	need_cuda13
	[ -r "$CUDA13/include/crt/host_config.h" ] || skip_fixture "needs $CUDA13/include/crt/host_config.h"
	add_cuda13 "$root" libcudart.so.13
	mkdir -p "$root/usr/local/cuda-13.0/bin" "$root/usr/local/cuda-13.0/include/crt" "$root/usr/bin" \
		"$root/usr/lib/gcc/x86_64-pc-linux-gnu/16.1.1" "$root/usr/lib/gcc/x86_64-pc-linux-gnu/15.2.0"
	hostfile "$CUDA13/include/crt/host_config.h" "$root/usr/local/cuda-13.0/include/crt/host_config.h"
	: >"$root/usr/local/cuda-13.0/bin/nvcc"
	: >"$root/usr/bin/gcc"
	: >"$root/usr/bin/gcc-15"
	echo "PATH=/usr/local/cuda/bin:/usr/bin" >"$env_file"
	run_cudx --root "$root" --env "$env_file" --json
	[ "$(json_get '["inventory"]["host_compiler"]["gcc_major"]')" = 16 ]
	[ "$(json_get '["inventory"]["host_compiler"]["how"]')" = "the GCC installed as /usr/lib/gcc/x86_64-pc-linux-gnu/16.1.1" ]
	has_finding nvcc-host-compiler-unsupported
	rm "$root/usr/bin/gcc-15"
	run_cudx --root "$root" --env "$env_file" --json
	[ "$(json_get '["inventory"]["host_compiler"]["gcc_major"]')" = None ]
	lacks_finding nvcc-host-compiler-unsupported
}

# Debian's/Ubuntu's nvidia-cuda-toolkit: nvcc in /usr/lib/nvidia-cuda-toolkit/bin (a /usr/bin/nvcc
# wrapper), the headers of nvidia-cuda-dev in /usr/include: host_config.h is read from there (set 16)
@test "the distribution's nvidia-cuda-toolkit: host_config.h from /usr/include" {
	need_cuda13
	[ -r "$CUDA13/include/crt/host_config.h" ] || skip_fixture "needs $CUDA13/include/crt/host_config.h"
	mkdir -p "$root/usr/lib/nvidia-cuda-toolkit/bin" "$root/usr/include/crt" "$root/usr/bin"
	hostfile "$CUDA13/include/crt/host_config.h" "$root/usr/include/crt/host_config.h"
	: >"$root/usr/lib/nvidia-cuda-toolkit/bin/nvcc"
	printf '#!/bin/sh\nexec /usr/lib/nvidia-cuda-toolkit/bin/nvcc "$@"\n' >"$root/usr/bin/nvcc"
	: >"$root/usr/bin/x86_64-linux-gnu-gcc-16"
	ln -s x86_64-linux-gnu-gcc-16 "$root/usr/bin/gcc-16"
	ln -s gcc-16 "$root/usr/bin/gcc"
	echo "PATH=/usr/bin" >"$env_file"
	run_cudx --root "$root" --env "$env_file" --json
	[ "$(json_get '["inventory"]["host_compiler"]["gcc_major"]')" = 16 ]
	has_finding nvcc-host-compiler-unsupported
	[[ "$(json_get '["findings"]')" == *"takes GCC up to 15"* ]]
}

# NVIDIA's NGC images: the compat libraries in compat/lib.real, reached through the compat/lib link
# the image's entrypoint puts on LD_LIBRARY_PATH (a set 15 report: Triton's container on a 460 host)
@test "an NGC image's forward-compat libcuda (compat/lib -> lib.real) newer than the module is by design" {
	proc_version "$root" 460.73.01
	local tk=/usr/local/cuda-11.3
	mkdir -p "$root/$tk/include" "$root/$tk/compat/lib.real"
	touch "$root/$tk/include/cuda.h"
	fake_lib "$root" "$tk/compat/lib.real/libcuda.so.465.19.01" libcuda.so.1
	ln -s libcuda.so.465.19.01 "$root/$tk/compat/lib.real/libcuda.so.1"
	ln -s lib.real "$root/$tk/compat/lib"
	echo "LD_LIBRARY_PATH=$tk/compat/lib" >"$env_file"
	run_cudx --root "$root" --env "$env_file" --json
	[ "$(json_get '["inventory"]["driver"]["libcuda"]')" = "$tk/compat/lib/libcuda.so.1" ]
	lacks_finding driver-userspace-mismatch
	[[ "$(json_get '["inventory"]["driver"]["compat_dirs"]')" == *"$tk/compat/lib"* ]]
}

# A Jetson (data/l4t.tsv): its driver is the L4T release's (libcuda.so.1.1 in .../tegra, the nvgpu
# kernel driver, no /proc/driver/nvidia). A tiny ELF stands in for the Tegra libcuda, which no
# Debian package ships; the runtime is the real CUDA 13 libcudart.
jetson_root() {
	local tegra=/usr/lib/aarch64-linux-gnu/tegra
	printf 'PRETTY_NAME="Ubuntu 20.04.6 LTS"\nID=ubuntu\nVERSION_ID="20.04"\n' >"$root/etc/os-release"
	printf '# R35 (release), REVISION: 4.1, GCID: 33958178, BOARD: t186ref, EABI: aarch64, DATE: Tue Aug  1 19:57:35 UTC 2023\n' >"$root/etc/nv_tegra_release"
	fake_lib "$root" "$tegra/libcuda.so.1.1" libcuda.so.1
	ln -s libcuda.so.1.1 "$root$tegra/libcuda.so.1"
	ldconf_root "$root" "$tegra"
	add_cuda13 "$root" libcudart.so.13
	echo "LD_LIBRARY_PATH=/usr/local/cuda/lib64" >"$env_file"
}

@test "a Jetson on L4T R35.4.1 (JetPack 5.1.2, CUDA 11.4) with the CUDA 13 runtime: driver-too-old from the L4T release, no kernel-module error, no driver '1.1'" {
	jetson_root
	: >"$root/dev/nvhost-ctrl-gpu"
	mkdir -p "$root/proc/device-tree"
	printf 'NVIDIA Jetson AGX Orin Developer Kit\0' >"$root/proc/device-tree/model"
	run_cudx --root "$root" --env "$env_file"
	[ "$status" -eq 1 ]
	[[ "$output" == *"NVIDIA Jetson AGX Orin           sm_87 (compute capability 8.7)  [/proc/device-tree/model]"* ]]
	[[ "$output" == *"error   driver-too-old: L4T R35.4.1 (JetPack 5.1.2) runs CUDA up to 11.4, not the CUDA 13.0 runtime"* ]]
	[[ "$output" == *"L4T release        R35.4.1 = JetPack 5.1.2 (CUDA 11.4)"* ]]
	[[ "$output" == *"kernel module      nvgpu (Jetson)"* ]]
	[[ "$output" == *"cuda-compat"* ]]
	[[ "$output" != *"no-driver"* ]]
	[[ "$output" != *"version 1.1"* ]]
	[[ "$output" != *"no-device-nodes"* ]]
	run_cudx --root "$root" --env "$env_file" --json
	[ "$(json_get '["inventory"]["driver"]["jetson"]["l4t_release"]')" = 35.4.1 ]
	[ "$(json_get '["inventory"]["driver"]["max_cuda"]')" = 11.4 ]
	[ "$(json_get '["inventory"]["driver"]["libcuda_version"]')" = None ]
	run_strict -1 "$CUDX" explain --root "$root" --env "$env_file" --json "cudaGetDeviceCount returned 35"
	[ "$(echo "$output" | python3 -c 'import json,sys; print(json.load(sys.stdin)["messages"][0]["causes"][0]["id"])')" = driver-too-old ]
}

@test "a Jetson container started without the NVIDIA runtime (no nvgpu node): no-driver says so; the image's L4T release judges no runtime" {
	jetson_root
	: >"$root/.dockerenv"
	run_cudx --root "$root" --env "$env_file"
	[ "$status" -eq 1 ]
	[[ "$output" == *"error   no-driver: the Jetson's GPU driver (nvgpu) is not visible"* ]]
	[[ "$output" == *"docker run --runtime nvidia"* ]]
	[[ "$output" == *"the image's /etc/nv_tegra_release"* ]]
	[[ "$output" != *"driver-too-old"* ]]
	[[ "$output" != *"dkms"* ]]
}

# Jetson Thor (L4T 38, data/l4t.tsv openrm): its GPU driver is the unified OpenRM nvidia.ko, and its
# version is L4T's own: nvidia-smi prints "Driver Version: 580.00  CUDA Version: 13.0", below the
# desktop 580.65.06 that CUDA 13.0 needs. A tiny ELF stands in for Thor's libcuda (no Debian package
# ships it); the runtime is the real CUDA 13 libcudart.
thor_root() {
	local nv=/usr/lib/aarch64-linux-gnu/nvidia
	printf 'PRETTY_NAME="Ubuntu 24.04.3 LTS"\nID=ubuntu\nVERSION_ID="24.04"\n' >"$root/etc/os-release"
	printf '# R38 (release), REVISION: 2.1, GCID: 41844464, BOARD: generic, EABI: aarch64, DATE: Wed Aug 20 00:00:00 UTC 2025\n# KERNEL_VARIANT: oot\nTARGET_USERSPACE_LIB_DIR=nvidia\nTARGET_USERSPACE_LIB_DIR_PATH=usr/lib/aarch64-linux-gnu/nvidia\n' >"$root/etc/nv_tegra_release"
	mkdir -p "$root/proc/driver/nvidia" "$root/sys/module/nvidia"
	printf 'NVRM version: NVIDIA UNIX Open Kernel Module for aarch64  580.00  Release Build  (buildbrain@mobile-u64-0000)  Wed Aug 20 00:00:00 PDT 2025\n' >"$root/proc/driver/nvidia/version"
	echo 580.00 >"$root/sys/module/nvidia/version"
	: >"$root/dev/nvidiactl"
	: >"$root/dev/nvidia0"
	fake_lib "$root" "$nv/libcuda.so.580.00" libcuda.so.1
	ln -s libcuda.so.580.00 "$root$nv/libcuda.so.1"
	ldconf_root "$root" "$nv"
	add_cuda13 "$root" libcudart.so.13
	echo "LD_LIBRARY_PATH=/usr/local/cuda/lib64" >"$env_file"
}

@test "Jetson Thor (L4T R38, driver 580.00) with CUDA 13.0: its L4T release says CUDA 13.0, no driver-too-old; --driver 580.00 alone is judged on the desktop scale" {
	thor_root
	run_cudx --root "$root" --env "$env_file"
	[[ "$output" == *"L4T release        R38.2.1 = JetPack 7.x (CUDA 13.0)"* ]]
	[[ "$output" == *"supports CUDA      up to 13.0"* ]]
	[[ "$output" == *"580.00 (open kernel module)"* ]]
	[[ "$output" != *"driver-too-old"* ]]
	run_cudx --root "$root" --env "$env_file" --json
	[ "$(json_get '["inventory"]["driver"]["max_cuda"]')" = 13.0 ]
	[ "$(json_get '["inventory"]["driver"]["jetson"]["openrm"]')" = True ]
	lacks_finding driver-too-old
	# the same version given as a desktop driver is too old for CUDA 13.0
	run_cudx --root "$root" --env "$env_file" --driver 580.00 --json
	has_finding driver-too-old
	# in a container the release file is the image's: Thor's reading is not taken from it, and the
	# host's "580.00" (L4T's own build) is judged on no scale
	: >"$root/.dockerenv"
	run_cudx --root "$root" --env "$env_file" --json
	[ "$(json_get '["inventory"]["driver"]["max_cuda"]')" = None ]
	lacks_finding driver-too-old
	run_cudx --root "$root" --env "$env_file"
	[[ "$output" == *"unknown (Jetson Thor's driver: its L4T release decides, not seen here)"* ]]
	[[ "$output" != *"L4T release        "* ]]
	rm "$root/.dockerenv"
	# a release the table lacks (or no release file): the NNN.00 version alone, judged on no scale
	mv "$root/etc/nv_tegra_release" "$root/etc/nv_tegra_release.off"
	run_cudx --root "$root" --env "$env_file" --json
	lacks_finding driver-too-old
	mv "$root/etc/nv_tegra_release.off" "$root/etc/nv_tegra_release"
	# the module not loaded: Thor's nvidia.ko is named, no nvgpu, and the release still gives CUDA 13.0
	rm -rf "$root/proc/driver" "$root/sys/module/nvidia"
	run_cudx --root "$root" --env "$env_file"
	[[ "$output" == *"no-driver: the Jetson's GPU driver (nvidia.ko of L4T R38.2.1) is not loaded"* ]]
	[[ "$output" != *"nvgpu"* ]]
	[[ "$output" == *"supports CUDA      up to 13.0"* ]]
	[[ "$output" != *"driver-too-old"* ]]
	# ... unless the libcuda installed is a desktop one: a desktop driver, judged as such
	rm "$root/usr/lib/aarch64-linux-gnu/nvidia/libcuda.so.1" "$root/usr/lib/aarch64-linux-gnu/nvidia/libcuda.so.580.00"
	fake_lib "$root" /usr/lib/aarch64-linux-gnu/nvidia/libcuda.so.575.57.08 libcuda.so.1
	ln -s libcuda.so.575.57.08 "$root/usr/lib/aarch64-linux-gnu/nvidia/libcuda.so.1"
	ldconfig -r "$root" 2>/dev/null
	run_cudx --root "$root" --env "$env_file" --json
	[ "$(json_get '["inventory"]["driver"]["max_cuda"]')" = 12.9 ]
	has_finding driver-too-old
}

# JetPack 6 loads an OpenRM nvidia.ko for the display ("540.4.0") while the GPU's driver is nvgpu:
# a Jetson, judged by its L4T release, not a desktop driver 540
@test "Jetson Orin on JetPack 6 with the display's nvidia.ko loaded beside nvgpu: the L4T release judges, not driver 540.4.0" {
	jetson_root
	printf '# R36 (release), REVISION: 4.3, GCID: 38968081, BOARD: generic, EABI: aarch64, DATE: Wed Jan  8 01:49:37 UTC 2025\n' >"$root/etc/nv_tegra_release"
	mkdir -p "$root/sys/module/nvgpu" "$root/sys/module/nvidia"
	echo 540.4.0 >"$root/sys/module/nvidia/version"
	run_cudx --root "$root" --env "$env_file" --json
	[ "$(json_get '["inventory"]["driver"]["jetson"]["l4t_release"]')" = 36.4.3 ]
	[ "$(json_get '["inventory"]["driver"]["jetson"]["display_module"]')" = 540.4.0 ]
	[ "$(json_get '["inventory"]["driver"]["max_cuda"]')" = 12.6 ]
	lacks_finding driver-minor-compat
	run_cudx --root "$root" --env "$env_file"
	[[ "$output" == *"nvgpu (Jetson) (the display's nvidia.ko: 540.4.0)"* ]]
}

@test "L4T R38 with a desktop-numbered driver loaded (a discrete GPU): judged on the desktop scale, not as Thor's" {
	thor_root
	printf 'NVRM version: NVIDIA UNIX Open Kernel Module for aarch64  575.57.08  Release Build  (dvs-builder@U16-I3-B03-4-3)  Sat May 24 00:00:00 UTC 2025\n' >"$root/proc/driver/nvidia/version"
	echo 575.57.08 >"$root/sys/module/nvidia/version"
	rm "$root/usr/lib/aarch64-linux-gnu/nvidia/libcuda.so.1"
	run_cudx --root "$root" --env "$env_file" --json
	[ "$(json_get '["inventory"]["driver"]["max_cuda"]')" = 12.9 ]
	has_finding driver-too-old
}

@test "explain: nvidia-smi's banner names the driver's own CUDA (Thor's 'Driver Version: 580.00  CUDA Version: 13.0'): not read as a driver too old for that CUDA" {
	run_strict -1 "$CUDX" explain --no-probe --root "$root" --json "| NVIDIA-SMI 580.00   Driver Version: 580.00   CUDA Version: 13.0 |
RuntimeError: CUDA error: no kernel image is available for execution on the device"
	[[ "$output" != *"the message names driver 580.00"* ]]
	[[ "$output" == *'"role": "driver"'* ]] || [[ "$output" == *'"role":"driver"'* ]]
	# a driver and a CUDA named apart (the user's words, not the banner) still weigh the driver's age
	run_strict -1 "$CUDX" explain --no-probe --root "$root" --json "driver 470.82.01 with CUDA 12.4
RuntimeError: CUDA error: no kernel image is available for execution on the device"
	[[ "$output" == *"the message names driver 470.82.01 (CUDA up to 11.4) and CUDA 12.4"* ]]
	run_strict -1 "$CUDX" explain --no-probe --root "$root" --json "nvidia driver version 470.82.01, cuda version 12.1: RuntimeError: CUDA error: no kernel image is available for execution on the device"
	[[ "$output" == *"the message names driver 470.82.01 (CUDA up to 11.4) and CUDA 12.1"* ]]
	# both with the banner's colons but not its shape: words between them
	run_strict -1 "$CUDX" explain --no-probe --root "$root" --json "Driver Version: 470.82.01 and the CUDA Version: 12.1 -- RuntimeError: CUDA error: no kernel image is available for execution on the device"
	[[ "$output" == *"the message names driver 470.82.01 (CUDA up to 11.4) and CUDA 12.1"* ]]
}

# A GPU the installed driver cannot drive (data/driver_gpu.tsv), with Debian's real driver 535.
@test "driver 535 with a Tesla K80 (Kepler, last branch R470): driver-gpu-unsupported; explain puts it first for 'No devices were found'" {
	install_driver_535
	run_cudx --root "$root" --env "$env_file" --gpu "Tesla K80"
	[ "$status" -eq 1 ]
	[[ "$output" == *"error   driver-gpu-unsupported: driver 535.309.01 does not support the Tesla K80 (Kepler, sm_37): R470 is the last branch for Kepler GPUs"* ]]
	[[ "$output" == *"install a driver of the R470 branch, the last for Kepler GPUs"* ]]
	run_strict -1 "$CUDX" explain --root "$root" --env "$env_file" --gpu "Tesla K80" --json "No devices were found"
	[ "$(echo "$output" | python3 -c 'import json,sys; print(json.load(sys.stdin)["messages"][0]["causes"][0]["id"])')" = driver-gpu-unsupported ]
	# a Turing GPU, and the same Kepler GPU on the R470 driver: nothing to say
	run_cudx --root "$root" --env "$env_file" --gpu "Tesla T4" --json
	lacks_finding driver-gpu-unsupported
	run_cudx --root "$root" --env "$env_file" --gpu "Tesla K80" --driver 470.256.02 --json
	lacks_finding driver-gpu-unsupported
	# a Jetson's compute capability (5.3, Nano) is L4T's: no desktop branch judges it
	run_cudx --root "$root" --env "$env_file" --gpu sm_53 --driver 590.44.01 --json
	lacks_finding driver-gpu-unsupported
	# a Pascal GPU named by its architecture, on a branch past R580
	run_cudx --root "$root" --env "$env_file" --gpu sm_61 --driver 590.44.01
	[[ "$output" == *"error   driver-gpu-unsupported: driver 590.44.01 does not support the GPU (Pascal, sm_61): R580 is the last branch for Pascal GPUs"* ]]
	# WSL: the driver is the Windows one, numbered otherwise
	mkdir -p "$root/usr/lib/wsl/lib"
	run_cudx --root "$root" --env "$env_file" --gpu sm_61 --driver 581.57 --json
	lacks_finding driver-gpu-unsupported
}

@test "the open kernel module with a GTX 1080 (Pascal, before Turing): driver-gpu-unsupported names the proprietary flavour; the proprietary module does not" {
	install_driver_535
	printf 'NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  535.309.01  Release Build  (dvs-builder@U16-I3-B03-4-3)  Tue Sep 23 09:57:26 UTC 2025\n' >"$root/proc/driver/nvidia/version"
	run_cudx --root "$root" --env "$env_file" --gpu "GeForce GTX 1080"
	[ "$status" -eq 1 ]
	[[ "$output" == *"error   driver-gpu-unsupported: the open kernel module cannot drive the NVIDIA GeForce GTX 1080 (Pascal, sm_61, before Turing)"* ]]
	[[ "$output" == *"--kernel-module-type=proprietary"* ]]
	run_cudx --root "$root" --env "$env_file" --gpu "RTX 3090" --json
	lacks_finding driver-gpu-unsupported
	proc_version "$root" 535.309.01
	run_cudx --root "$root" --env "$env_file" --gpu "GeForce GTX 1080" --json
	lacks_finding driver-gpu-unsupported
	# the kernel's own words, with no machine: the open module's refusal
	run_strict -1 "$CUDX" explain --json "NVRM: The NVIDIA GPU 0000:01:00.0 (PCI ID: 10de:1b80) installed in this system is not supported by open nvidia.ko because it does not include the required GPU System Processor (GSP)."
	[ "$(echo "$output" | python3 -c 'import json,sys; print(json.load(sys.stdin)["messages"][0]["causes"][0]["id"])')" = driver-gpu-unsupported ]
}

# No module loaded (nvidia-smi cannot talk to the driver): the package that installs one says which
# flavour would load. Arch's 590 packages made the open flavour the default (S42), which refuses
# Pascal; Debian's open package is nvidia-open-kernel-dkms (S41)
@test "no module loaded, an open-module package installed (pacman, dpkg) with a Pascal GPU: driver-gpu-unsupported names the package; a proprietary one does not" {
	install_driver_535
	rm -rf "$root/proc/driver/nvidia" "$root/sys/module/nvidia"
	mkdir -p "$root/var/lib/pacman/local/nvidia-open-dkms-580.82.09-1" "$root/var/lib/pacman/local/nvidia-utils-580.82.09-1"
	run_cudx --root "$root" --env "$env_file" --gpu "GeForce MX250"
	[ "$status" -eq 1 ]
	[[ "$output" == *"error   driver-gpu-unsupported: the open kernel module cannot drive the NVIDIA GeForce MX250 (Pascal, sm_61, before Turing)"* ]]
	[[ "$output" == *"the installed package nvidia-open-dkms 580.82.09-1 (/var/lib/pacman/local) installs the open flavour"* ]]
	[[ "$output" == *"not loaded (installed: nvidia-open-dkms 580.82.09-1, open flavour)"* ]]
	run_cudx --root "$root" --env "$env_file" --gpu "GeForce MX250" --json
	[ "$(jq -r '.inventory.driver.module_package_flavour' <<<"$output")" = open ]
	# a Turing GPU takes the open module
	run_cudx --root "$root" --env "$env_file" --gpu "GeForce RTX 2080" --json
	lacks_finding driver-gpu-unsupported
	# both flavours' packages (an AUR legacy branch beside the open one): which loads is not known
	mkdir -p "$root/var/lib/pacman/local/nvidia-580xx-dkms-580.95.05-1"
	run_cudx --root "$root" --env "$env_file" --gpu "GeForce MX250" --json
	lacks_finding driver-gpu-unsupported
	run_cudx --root "$root" --env "$env_file" --gpu "GeForce RTX 5090" --json
	lacks_finding driver-gpu-unsupported
	rm -r "$root/var/lib/pacman/local/nvidia-580xx-dkms-580.95.05-1"
	# the proprietary package
	mv "$root/var/lib/pacman/local/nvidia-open-dkms-580.82.09-1" "$root/var/lib/pacman/local/nvidia-dkms-580.82.09-1"
	run_cudx --root "$root" --env "$env_file" --gpu "GeForce MX250" --json
	lacks_finding driver-gpu-unsupported
	# Debian: the open package installed, the proprietary one removed with its configuration kept
	rm -rf "$root/var/lib/pacman"
	mkdir -p "$root/var/lib/dpkg"
	printf 'Package: nvidia-kernel-dkms\nStatus: deinstall ok config-files\nVersion: 535.247.01-1~deb12u1\n\nPackage: nvidia-open-kernel-dkms\nStatus: install ok installed\nVersion: 535.247.01-1~deb12u1\n\n' >"$root/var/lib/dpkg/status"
	run_cudx --root "$root" --env "$env_file" --gpu "GeForce MX250"
	[[ "$output" == *"the installed package nvidia-open-kernel-dkms 535.247.01-1~deb12u1 (/var/lib/dpkg/status) installs the open flavour"* ]]
	# the fix names Debian's package and the branch the package gives
	[[ "$output" == *"Debian: nvidia-kernel-dkms; Ubuntu: nvidia-driver-535, not -open"* ]]
	# Ubuntu's prebuilt modules, one package per kernel: only the running kernel's counts
	printf 'Package: linux-modules-nvidia-570-6.8.0-40-generic\nStatus: install ok installed\nVersion: 6.8.0-40.40\n\nPackage: linux-modules-nvidia-570-open-6.8.0-45-generic\nStatus: install ok installed\nVersion: 6.8.0-45.45\n\n' >"$root/var/lib/dpkg/status"
	mkdir -p "$root/proc/sys/kernel"
	echo 6.8.0-45-generic >"$root/proc/sys/kernel/osrelease"
	run_cudx --root "$root" --env "$env_file" --gpu "GeForce MX250"
	[[ "$output" == *"the installed package linux-modules-nvidia-570-open-6.8.0-45-generic 6.8.0-45.45 (/var/lib/dpkg/status) installs the open flavour"* ]]
	[[ "$output" == *"Debian: nvidia-kernel-dkms; Ubuntu: nvidia-driver-535, not -open"* ]]  # the branch of the user space found
	# without the running kernel, packages of both flavours: which loads is not known, nothing is said
	rm "$root/proc/sys/kernel/osrelease"
	run_cudx --root "$root" --env "$env_file" --gpu "GeForce MX250" --json
	lacks_finding driver-gpu-unsupported
	# a package without a version
	printf 'Package: nvidia-open-kernel-dkms\nStatus: install ok installed\n\n' >"$root/var/lib/dpkg/status"
	run_cudx --root "$root" --env "$env_file" --gpu "GeForce MX250"
	[[ "$output" == *"not loaded (installed: nvidia-open-kernel-dkms, open flavour)"* ]]
	# a loaded module speaks for itself, whatever is installed
	proc_version "$root" 535.309.01
	run_cudx --root "$root" --env "$env_file" --gpu "GeForce MX250" --json
	lacks_finding driver-gpu-unsupported
	[ "$(jq -r '.inventory.driver.module_package // "none"' <<<"$output")" = none ]
}

# Blackwell is driven by the open kernel modules only (S39): the proprietary flavour loads and
# refuses it ("requires use of the NVIDIA open kernel modules", RmInitAdapter failed)
@test "the proprietary kernel module with a GeForce RTX 5090 (Blackwell): driver-gpu-unsupported names the open flavour; the open module does not" {
	install_driver_535
	proc_version "$root" 575.64.05
	run_cudx --root "$root" --env "$env_file" --gpu "GeForce RTX 5090"
	[ "$status" -eq 1 ]
	[[ "$output" == *"error   driver-gpu-unsupported: the proprietary kernel module cannot drive the NVIDIA GeForce RTX 5090 (Blackwell, sm_120): it needs the open one"* ]]
	[[ "$output" == *"--kernel-module-type=open"* ]]
	[[ "$output" == *"Blackwell GPUs: the open kernel module only"* ]]
	[[ "$output" == *"nvidia-driver-575-open"* ]]
	# explain: it is why no device is found, not why a runtime wants a newer driver (error 35)
	run_strict -1 "$CUDX" explain --root "$root" --env "$env_file" --gpu "GeForce RTX 5090" --json "No devices were found"
	[ "$(jq -r '.messages[0].causes[0].id' <<<"$output")" = driver-gpu-unsupported ]
	run_strict -1 "$CUDX" explain --root "$root" --env "$env_file" --gpu "GeForce RTX 5090" --json "CUDA error: no CUDA-capable device is detected"
	[ "$(jq -r '.messages[0].causes[0].id' <<<"$output")" = driver-gpu-unsupported ]
	run_strict -1 "$CUDX" explain --root "$root" --env "$env_file" --gpu "GeForce RTX 5090" --json "CUDA driver version is insufficient for CUDA runtime version"
	# (this tree's user space is 535 under a 575 module: the mismatch leads; the GPU is no cause)
	[ "$(jq -r '[.messages[0].causes[].id] | index("driver-too-old") != null' <<<"$output")" = true ]
	[ "$(jq -r '[.messages[0].causes[].id] | index("driver-gpu-unsupported")' <<<"$output")" = null ]
	# the open flavour drives it; the proprietary one drives an Ada GPU; --driver says nothing of the flavour
	printf 'NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  575.64.05  Release Build  (dvs-builder@U16-I3-B03-4-3)  Tue Sep 23 09:57:26 UTC 2025\n' >"$root/proc/driver/nvidia/version"
	run_cudx --root "$root" --env "$env_file" --gpu "GeForce RTX 5090" --json
	lacks_finding driver-gpu-unsupported
	proc_version "$root" 575.64.05
	run_cudx --root "$root" --env "$env_file" --gpu "GeForce RTX 4090" --json
	lacks_finding driver-gpu-unsupported
	# a branch from before Blackwell: the fix names the first branch for it, not the same one's open flavour
	proc_version "$root" 535.183.01
	run_cudx --root "$root" --env "$env_file" --gpu "GeForce RTX 5090"
	[[ "$output" == *"install driver 570."*" or newer (the first of CUDA 12.8, which added sm_120) in its open flavour"* ]]
	[[ "$output" != *"nvidia-driver-535-open"* ]]
	rm -rf "$root/proc/driver/nvidia" "$root/sys/module/nvidia"
	run_cudx --root "$root" --env "$env_file" --gpu "GeForce RTX 5090" --driver 575.64.05 --json
	lacks_finding driver-gpu-unsupported
}

# --gpu names the GPU a target host has; where the machine shows that GPU itself, it is judged once
@test "--gpu of the GPU the driver lists (by model or by architecture) is judged once, a note says so; another GPU is added" {
	install_driver_535
	mkdir -p "$root/proc/driver/nvidia/gpus/0000:41:00.0"
	printf 'Model: \t\t NVIDIA A40\nBus Location: \t 0000:41:00.0\n' >"$root/proc/driver/nvidia/gpus/0000:41:00.0/information"
	run_cudx --root "$root" --env "$env_file" --gpu "NVIDIA A40" --json
	[ "$(json_get '["inventory"]["gpus"]' | jq -r 'length')" = 1 ]
	[ "$(jq -r '.inventory.gpus[0].source' <<<"$output")" = /proc/driver/nvidia/gpus/0000:41:00.0/information ]
	[[ "$(jq -r '.inventory.notes[]? | tostring' <<<"$output")" == *"is the NVIDIA A40 the machine shows"* ]]
	run_cudx --root "$root" --env "$env_file" --gpu sm_86 --json
	[ "$(jq -r '.inventory.gpus | length' <<<"$output")" = 1 ]
	# the knowledge base's model, whatever the driver's exact name ("A100" is "NVIDIA A100-SXM4-80GB")
	printf 'Model: \t\t NVIDIA A100-SXM4-80GB\nBus Location: \t 0000:41:00.0\n' >"$root/proc/driver/nvidia/gpus/0000:41:00.0/information"
	run_cudx --root "$root" --env "$env_file" --gpu A100 --json
	[ "$(jq -r '.inventory.gpus | length' <<<"$output")" = 1 ]
	run_cudx --root "$root" --env "$env_file" --gpu "Tesla K80" --json
	[ "$(jq -r '.inventory.gpus | length' <<<"$output")" = 2 ]
	[ "$(jq -r '[.findings[] | select(.id == "driver-gpu-unsupported")] | length' <<<"$output")" = 1 ]
}

# eight A100 SXM4 GPUs as the driver lists them (an HGX/DGX A100 board), with driver 535
hgx_a100() {
	install_driver_535
	local i bus
	for i in 0 1 2 3 4 5 6 7; do
		bus="0000:$(printf '%02x' $((0x07 + i * 8))):00.0"
		mkdir -p "$root/proc/driver/nvidia/gpus/$bus"
		printf 'Model: \t\t NVIDIA A100-SXM4-40GB\nBus Location: \t %s\n' "$bus" >"$root/proc/driver/nvidia/gpus/$bus/information"
	done
}

@test "an HGX A100 (eight SXM GPUs) without nv-fabricmanager: fabric-manager-not-running; installed and enabled: none; installed, not enabled: a warning" {
	hgx_a100
	run_cudx --root "$root" --env "$env_file" --json
	[ "$status" -eq 1 ]
	has_finding fabric-manager-not-running
	[ "$(finding_severity fabric-manager-not-running)" = error ]
	py 'f=next(f for f in r["findings"] if f["id"]=="fabric-manager-not-running"); print("\n".join(f["evidence"] + f["fix"]))' >"$root.out"
	grep -q "8 SXM GPUs (NVIDIA A100-SXM4-40GB)" "$root.out"
	grep -q "nvidia-fabricmanager-535=535.309.01-1" "$root.out"
	# explain: a message of no device joins it, first; 999's "unknown error" (nvidia-uvm's) does not
	run_strict "$CUDX" explain --no-probe --root "$root" --env "$env_file" --json "RuntimeError: CUDA error: no CUDA-capable device is detected"
	[ "$(json_get '["causes"][0]["id"]')" = fabric-manager-not-running ]
	run_strict "$CUDX" explain --no-probe --root "$root" --env "$env_file" --json "Test CUDA failure common.cu:1045 'unknown error'"
	[ "$(json_get '["causes"][0]["id"]')" != fabric-manager-not-running ]
	fake_lib "$root" /usr/bin/nv-fabricmanager nv-fabricmanager
	run_cudx --root "$root" --env "$env_file" --json
	[ "$(finding_severity fabric-manager-not-running)" = warning ]
	[ "$(json_get '["inventory"]["driver"]["fabricmanager"]')" = /usr/bin/nv-fabricmanager ]
	mkdir -p "$root/etc/systemd/system/multi-user.target.wants" "$root/lib/systemd/system"
	printf '[Service]\nExecStart=/usr/bin/nv-fabricmanager -c /usr/share/nvidia/nvswitch/fabricmanager.cfg\n' >"$root/lib/systemd/system/nvidia-fabricmanager.service"
	ln -s /lib/systemd/system/nvidia-fabricmanager.service "$root/etc/systemd/system/multi-user.target.wants/nvidia-fabricmanager.service"
	run_cudx --root "$root" --env "$env_file" --json
	lacks_finding fabric-manager-not-running
	rm -f "$root.out"
}

@test "eight A100 PCIe or A30 GPUs are no NVSwitch board, nor is nvidia.ko's empty nvswitch directory; an NVSwitch's node makes any board one" {
	hgx_a100
	sed -i 's/A100-SXM4-40GB/A100-PCIE-40GB/' "$root"/proc/driver/nvidia/gpus/*/information
	mkdir -p "$root/proc/driver/nvidia-nvswitch/devices" # the module makes it with or without a switch
	run_cudx --root "$root" --env "$env_file" --json
	lacks_finding fabric-manager-not-running
	sed -i 's/NVIDIA A100-PCIE-40GB/NVIDIA A30/' "$root"/proc/driver/nvidia/gpus/*/information # PCIe only
	run_cudx --root "$root" --env "$env_file" --json
	lacks_finding fabric-manager-not-running
	touch "$root/dev/nvidia-nvswitch0" # a device node is an empty regular file in a test tree
	run_cudx --root "$root" --env "$env_file" --json
	has_finding fabric-manager-not-running
	py 'f=next(f for f in r["findings"] if f["id"]=="fabric-manager-not-running"); print("\n".join(f["evidence"]))' | grep -q "NVSwitch: /dev/nvidia-nvswitch0"
}

# CUDA 10 and older put the minor in the SONAME (libcublas.so.9.0): a program linked against one
# cannot load another minor's. Small ELF stand-ins with those SONAMEs.
@test "a program that needs libcublas.so.9.0 where CUDA 9.1's libcublas.so.9.1 is installed: lib-wrong-major names the SONAME" {
	mkdir -p "$root/usr/local/cuda-9.1/lib64"
	fake_lib "$root" /usr/local/cuda-9.1/lib64/libcublas.so.9.1.85 libcublas.so.9.1
	ln -s libcublas.so.9.1.85 "$root/usr/local/cuda-9.1/lib64/libcublas.so.9.1"
	ln -s libcublas.so.9.1 "$root/usr/local/cuda-9.1/lib64/libcublas.so"
	ln -s cuda-9.1 "$root/usr/local/cuda"
	echo 'CUDA Version 9.1.85' >"$root/usr/local/cuda-9.1/version.txt"
	mkdir -p "$root/opt/app"
	# the stand-in links against a libcublas.so.9.0 that only exists while it is built
	fake_lib "$root" /tmp/build/libcublas.so.9.0 libcublas.so.9.0
	( cd "$root/tmp/build" && echo 'int f(void){return 0;}' >a.c && cc -shared -fPIC -o "$root/opt/app/libapp.so" a.c -Wl,-soname,libapp.so -Wl,--no-as-needed -L. -l:libcublas.so.9.0 )
	rm -rf "$root/tmp/build"
	run_cudx --root "$root" --env "$env_file" --app /opt/app/libapp.so --json
	has_finding lib-wrong-major
	py 'print(next(f["summary"] for f in r["findings"] if f["id"]=="lib-wrong-major"))' | grep -q "libcublas.so.9.0 is wanted but only libcublas.so.9.1 (SONAME libcublas.so.9.1) exists"
}

# An image committed from a container that had the NVIDIA runtime's mounts carries empty files under
# the driver's names (WSL's stand-ins): on a host whose runtime mounts the real libcuda.so.VERSION
# beside them, the loader stops at the empty libcuda.so.1. The real 535 libcuda is placed as the
# runtime mounts it (by its full name, in the library directory).
@test "in a container, an empty libcuda.so.1 in front of the mounted libcuda.so.VERSION: lib-damaged in check and explain, not a container started without the GPU" {
	install_driver_535
	local lib="/$MULTIARCH"
	touch "$root/.dockerenv"
	rm -f "$root/$lib/libcuda.so.1"
	cp "$root/$lib/nvidia/current/libcuda.so.535.309.01" "$root/$lib/libcuda.so.535.309.01"
	: >"$root/$lib/libcuda.so.1"
	run_cudx --root "$root" --env "$env_file" --json
	has_finding lib-damaged
	f=$(jq -c '.findings[] | select(.id=="lib-damaged")' <<<"$output")
	[ "$(jq -r .subject <<<"$f")" = "$lib/libcuda.so.1" ]
	[[ "$(jq -r '.evidence | join("\n")' <<<"$f")" == *"$lib/libcuda.so.535.309.01"*"driver 535.309.01"* ]]
	[[ "$(jq -r '.fix | join("\n")' <<<"$f")" == *"ln -sf libcuda.so.535.309.01 $lib/libcuda.so.1"* ]]
	run_strict "$CUDX" explain --no-probe --root "$root" --env "$env_file" --json "OSError: libcuda.so.1: file too short"
	[ "$(jq -r '.causes[0].id + " " + .causes[0].confidence' <<<"$output")" = "lib-damaged high" ]
	[ "$(jq -r '[.causes[] | select(.id=="container-no-gpu" and .confidence!="ruled-out")] | length' <<<"$output")" = 0 ]
	# the development name linked to the empty file: the empty file is still the one reported, an error
	ln -sf libcuda.so.1 "$root/$lib/libcuda.so"
	run_cudx --root "$root" --env "$env_file" --json
	[ "$(jq -r '[.findings[] | select(.id=="lib-damaged")] | map(.subject + " " + .severity) | join(",")' <<<"$output")" = "$lib/libcuda.so.1 error" ]
	# an empty development name in front of a good libcuda.so.1: only the linker and a few dlopen
	# calls use it, a warning
	rm "$root/$lib/libcuda.so" "$root/$lib/libcuda.so.1"
	ln -s libcuda.so.535.309.01 "$root/$lib/libcuda.so.1"
	: >"$root/$lib/libcuda.so"
	run_cudx --root "$root" --env "$env_file" --json
	[ "$(jq -r '[.findings[] | select(.id=="lib-damaged")] | map(.subject + " " + .severity) | join(",")' <<<"$output")" = "$lib/libcuda.so warning" ]
	rm "$root/$lib/libcuda.so"
	# a stray empty file of an old release that no name leads to, or a backup: nothing to report
	: >"$root/$lib/libcuda.so.470.256.02"
	: >"$root/$lib/libcuda.so.1.bak"
	run_cudx --root "$root" --env "$env_file" --json
	lacks_finding lib-damaged
	rm "$root/$lib/libcuda.so.1.bak"
	# libcuda.so.1 (and the development name through it) leads to an empty file of an old release:
	# one error, and the fix relinks libcuda.so.1
	ln -sf libcuda.so.470.256.02 "$root/$lib/libcuda.so.1"
	ln -sf libcuda.so.1 "$root/$lib/libcuda.so"
	run_cudx --root "$root" --env "$env_file" --json
	[ "$(jq -r '[.findings[] | select(.id=="lib-damaged")] | map(.subject + " " + .severity) | join(",")' <<<"$output")" = "$lib/libcuda.so.470.256.02 error" ]
	f=$(jq -c '.findings[] | select(.id=="lib-damaged")' <<<"$output")
	[[ "$(jq -r '.fix | join("\n")' <<<"$f")" == *"ln -sf libcuda.so.535.309.01 $lib/libcuda.so.1"* ]]
	rm "$root/$lib/libcuda.so.470.256.02" "$root/$lib/libcuda.so"
	# the copy beside is of another release than the kernel module: linking it would be a mismatch,
	# so it is not named as the answer
	: >"$root/$lib/libcuda.so.1.tmp" && rm "$root/$lib/libcuda.so.1" && mv "$root/$lib/libcuda.so.1.tmp" "$root/$lib/libcuda.so.1"
	proc_version "$root" 550.54.14
	run_cudx --root "$root" --env "$env_file" --json
	lacks_finding lib-damaged
	proc_version "$root" 535.309.01
	# explain: a copy of another release beside the empty file is passed over for the module's own
	fake_lib "$root" "$lib/libcuda.so.470.256.02" libcuda.so.1
	run_strict "$CUDX" explain --no-probe --root "$root" --env "$env_file" --json "OSError: libcuda.so.1: file too short"
	[ "$(jq -r '.causes[0].id + " " + .causes[0].confidence' <<<"$output")" = "lib-damaged high" ]
	rm "$root/$lib/libcuda.so.470.256.02"
	# a backup beside the empty file is no driver library
	mv "$root/$lib/libcuda.so.535.309.01" "$root/$lib/libcuda.so.1.bak"
	run_strict "$CUDX" explain --no-probe --root "$root" --env "$env_file" --json "OSError: libcuda.so.1: file too short"
	[ "$(jq -r '[.causes[] | select(.id=="lib-damaged" and .confidence=="high")] | length' <<<"$output")" = 0 ]
	rm "$root/$lib/libcuda.so.1.bak"
	# the empty file alone, without the real library beside it, is the mount point of a runtime that
	# did not run: no damaged library, and explain says the container lacks the GPU
	run_cudx --root "$root" --env "$env_file" --json
	lacks_finding lib-damaged
	run_strict "$CUDX" explain --no-probe --root "$root" --env "$env_file" --json "OSError: libcuda.so.1: file too short"
	[ "$(jq -r '.causes[0].id' <<<"$output")" = "container-no-gpu" ]
}
