#!/usr/bin/env bats
# Frameworks in Python environments, checked from files only: synthetic site-packages trees laid
# out as pip lays them out, holding the real CUDA 13 libraries of /usr/local/cuda and Debian's
# driver 535 libcuda. Each scenario asserts the exact set of python-family finding ids.

load lib/cudx

load_fixture() {
	# shellcheck source=../fixtures/python/mkpy.sh
	source "${CUDX_SRC:-$BATS_TEST_DIRNAME/../..}/tests/fixtures/python/mkpy.sh"
}

setup() {
	load_fixture
	command -v jq >/dev/null || skip_fixture "needs jq (Debian package jq)"
	command -v "$MKPY_CC" >/dev/null || skip_fixture "needs a C compiler (cc or clang) to build the framework objects"
	[ -r "$MKPY_CUDA/lib/libcudnn.so.9" ] || skip_fixture "needs the CUDA 13 toolkit with cuDNN 9 in $MKPY_CUDA"
	R="$BATS_TEST_TMPDIR/root"
	mkdir -p "$R/usr/bin" "$R/etc" "$R/home/u"
	: >"$R/usr/bin/python3.11"
}

check_json() { run_strict "$CUDX" check --no-probe --root "$R" --env "$R.env" --json "$@"; }

# torch 2.9.1+cu130 with the CUDA 13 wheels it pins, in a venv
healthy_venv() {
	local cudnn=${1:-9.19.0.56} torch=${2:-2.9.1+cu130}
	site=$(mkpy_venv "$R" /home/u/venv 3.11)
	mkpy_cu13_wheels "$site" "$cudnn"
	mkpy_torch "$site" "$torch" 13.0 \
		'nvidia-cuda-runtime==13.0.96; platform_system == "Linux"' \
		'nvidia-cublas==13.1.0.3; platform_system == "Linux"' \
		"nvidia-cudnn-cu13==$cudnn; platform_system == \"Linux\"" \
		'triton==3.5.1; platform_system == "Linux"'
	mkpy_envfile "$R.env" VIRTUAL_ENV=/home/u/venv PATH=/home/u/venv/bin:/usr/bin:/bin "$@"
}

@test "torch cu130 with its wheels: healthy, libraries resolved into the wheels via RUNPATH" {
	healthy_venv
	check_json
	[ "$(echo "$output" | mkpy_ids)" = "" ]
	fw=$(echo "$output" | jq -c '.inventory.python.environments[] | select(.prefix=="/home/u/venv") | .frameworks[0]')
	[ "$(echo "$fw" | jq -r .cuda)" = "13.0" ]
	[ "$(echo "$fw" | jq -r .cudnn)" = "9.19.0.56" ]
	cudnn=$(echo "$fw" | jq -c '.libraries[] | select(.name=="libcudnn.so.9")')
	[ "$(echo "$cudnn" | jq -r .how)" = "runpath" ]
	[ "$(echo "$cudnn" | jq -r .resolved)" = "/home/u/venv/lib/python3.11/site-packages/nvidia/cudnn/lib/libcudnn.so.9" ]
	[ "$(echo "$fw" | jq -r '.libraries[] | select(.name=="libcudart.so.13") | .version')" = "13.0.96" ]
	# triton is not an nvidia-* pin: not a requirement cudx checks
	[ "$(echo "$fw" | jq -r '.requires | length')" = "3" ]
	run_strict "$CUDX" check --no-probe --root "$R" --env "$R.env"
	[[ "$output" == *"PyTorch 2.9.1+cu130 (torch)"* ]]
	[[ "$output" == *"built for      CUDA 13.0 (torch/version.py)"* ]]
	[[ "$output" == *"pip wheels bring their own CUDA runtime"* ]]
}

@test "torch cu130 with a simulated 580 driver: no finding; with 535: framework-driver-too-old" {
	healthy_venv
	check_json --driver 580.95.05
	[ "$(echo "$output" | mkpy_ids)" = "" ]
	check_json --driver 535.309.01
	[ "$(echo "$output" | mkpy_ids)" = "framework-driver-too-old" ]
}

@test "torch built for CUDA 13 with driver 535's libcuda in the tree: framework-driver-too-old" {
	pkg="$CUDX_PKG_CACHE/libcuda1/root/usr/lib/x86_64-linux-gnu/nvidia/current/libcuda.so.535.309.01"
	[ -r "$pkg" ] || skip_fixture "needs Debian package libcuda1 in $CUDX_PKG_CACHE (tests/fixtures/fetch-nvidia-debs.sh)"
	healthy_venv
	mkpy_place "$pkg" "$R/usr/lib/x86_64-linux-gnu/nvidia/current/libcuda.so.535.309.01"
	ln -s nvidia/current/libcuda.so.535.309.01 "$R/usr/lib/x86_64-linux-gnu/libcuda.so.1"
	check_json
	[ "$(echo "$output" | mkpy_ids)" = "framework-driver-too-old" ]
	f=$(echo "$output" | jq -c '.findings[] | select(.id=="framework-driver-too-old")')
	[[ "$(echo "$f" | jq -r .summary)" == *"needs driver >= 580"* ]]
	[[ "$(echo "$f" | jq -r '.evidence | join("\n")')" == *"535.309.01"* ]]
}

@test "torch +cpu: torch-cpu-build, nothing else" {
	site=$(mkpy_venv "$R" /home/u/venv 3.11)
	mkpy_torch "$site" 2.9.1+cpu None
	mkpy_envfile "$R.env" VIRTUAL_ENV=/home/u/venv
	check_json
	[ "$(echo "$output" | mkpy_ids)" = "torch-cpu-build" ]
	[ "$(echo "$output" | jq -r '.inventory.python.environments[0].frameworks[0].cpu_only')" = "true" ]
}

# The python:3.12 images: the interpreter built for /usr/local beside the distribution's /usr. Debian's
# python3 reads /usr/local's dist-packages, not its site-packages: torch there is one environment's
@test "torch in /usr/local/lib/python3.12/site-packages (python:3.12 images) is read once, not also as the system Python's" {
	mkdir -p "$R/usr/lib/python3/dist-packages" "$R/usr/local/bin"
	: >"$R/usr/local/bin/python3"
	site=$(mkpy_site "$R" /usr/local 3.12)
	mkpy_torch "$site" 2.9.1+cpu None
	mkpy_envfile "$R.env" PATH=/usr/local/bin:/usr/bin:/bin
	check_json
	[ "$(jq '[.inventory.python.environments[] | select(.site_packages | index("/usr/local/lib/python3.12/site-packages"))] | length' <<<"$output")" = 1 ]
	[ "$(jq '[.findings[] | select(.id == "torch-cpu-build")] | length' <<<"$output")" = 1 ]
	# an image checked without its environment: the interpreter there still owns it
	: >"$R.env"
	check_json
	[ "$(jq -r '[.inventory.python.environments[] | select(.site_packages | index("/usr/local/lib/python3.12/site-packages"))][0].prefix' <<<"$output")" = /usr/local ]
	[ "$(jq '[.findings[] | select(.id == "torch-cpu-build")] | length' <<<"$output")" = 1 ]
	# Debian's pip puts packages in /usr/local's dist-packages, which only Debian's /usr/bin/python3
	# reads, not a Python built for /usr/local
	rm -r "$site/torch" "$site"/torch-*.dist-info
	dsite="$R/usr/local/lib/python3.12/dist-packages"
	mkdir -p "$dsite"
	mkpy_torch "$dsite" 2.9.1+cpu None
	mkpy_envfile "$R.env" PATH=/usr/local/bin:/usr/bin:/bin
	check_json
	[ "$(jq '[.inventory.python.environments[] | select(.site_packages | index("/usr/local/lib/python3.12/dist-packages"))] | length' <<<"$output")" = 1 ]
	[ "$(jq '[.findings[] | select(.id == "torch-cpu-build")] | length' <<<"$output")" = 1 ]
	rm -r "$dsite"
	mkpy_torch "$site" 2.9.1+cpu None
	# without an interpreter of its own there (Fedora), /usr/local's site-packages is the system Python's
	rm "$R/usr/local/bin/python3"
	mkpy_envfile "$R.env" PATH=/usr/bin:/bin
	check_json
	[ "$(jq -r '[.inventory.python.environments[] | select(.site_packages | index("/usr/local/lib/python3.12/site-packages"))][0].prefix' <<<"$output")" = /usr ]
	[ "$(jq '[.findings[] | select(.id == "torch-cpu-build")] | length' <<<"$output")" = 1 ]
}

@test "TF 2.15 (CUDA 12.2, cuDNN 8.9) with only cuDNN 9 on the system: framework-lib-missing" {
	site=$(mkpy_venv "$R" /home/u/tf 3.11)
	mkpy_tf "$site" 2.15.0 12.2 8 \
		'nvidia-cudnn-cu12==8.9.4.25; extra == "and-cuda"' 'nvidia-cuda-runtime-cu12==12.2.140; extra == "and-cuda"'
	for f in $(mkpy_cudnn_files); do
		mkpy_place "$f" "$R/usr/lib/x86_64-linux-gnu/$(basename "$f")"
	done
	mkpy_envfile "$R.env" VIRTUAL_ENV=/home/u/tf
	check_json
	[ "$(echo "$output" | mkpy_ids)" = "framework-lib-missing" ]
	ev=$(echo "$output" | jq -r '.findings[] | select(.id=="framework-lib-missing") | .evidence | join("\n")')
	[[ "$ev" == *"libcudnn.so.8: not found"* ]]
	[[ "$ev" == *"only another major exists: /usr/lib/x86_64-linux-gnu/libcudnn.so.9"* ]]
	# the and-cuda extra is not installed: its pins are not demanded
	[[ "$ev" != *"Requires-Dist"* ]]
	fw=$(echo "$output" | jq -c '.inventory.python.environments[0].frameworks[0]')
	[ "$(echo "$fw" | jq -r .cuda_source)" = "tensorflow/python/platform/build_info.py" ]
	[ "$(echo "$fw" | jq -r '.archs | join(" ")')" = "sm_50 sm_60 sm_70 sm_80 compute_90" ]
}

# TensorFlow's Windows build_info.py writes versions as "64_" and the version without its dots
@test "TF build_info with Windows DLL suffixes: 64_112 is CUDA 11.2, 64_8 is cuDNN 8" {
	site=$(mkpy_venv "$R" /home/u/tf 3.10)
	mkpy_tf "$site" 2.10.0 64_112 64_8
	mkpy_envfile "$R.env" VIRTUAL_ENV=/home/u/tf
	check_json
	[ "$(echo "$output" | jq -r '.inventory.python.environments[0].frameworks[0] | .cuda + " " + .cudnn')" = "11.2 8" ]
}

# TensorFlow 1.15 and 2.0 keep their code in tensorflow_core/ (tensorflow/ forwards to it); NGC's
# 1.15 builds were made for CUDA 11.0, which runs from 450.51.05, below the 450.80.02 that CUDA 11's
# minor-version compatibility needs
@test "TF 1.15 with its code in tensorflow_core/: build_info read there; a CUDA 11.0 build needs the 11.0 toolkit's driver, not the minor-compatibility floor" {
	site=$(mkpy_venv "$R" /home/u/tf 3.8)
	mkpy_tf "$site" 1.15.5+nv22.12 11.0 8
	mkdir -p "$site/tensorflow_core"
	mv "$site/tensorflow/python" "$site/tensorflow/libtensorflow_framework.so.2" "$site/tensorflow_core/"
	mkpy_envfile "$R.env" VIRTUAL_ENV=/home/u/tf
	check_json --driver 450.51.06
	fw=$(echo "$output" | jq -c '.inventory.python.environments[0].frameworks[0]')
	[ "$(echo "$fw" | jq -r '.cuda + " " + .cuda_source')" = "11.0 tensorflow_core/python/platform/build_info.py" ]
	[[ "$(echo "$output" | mkpy_ids)" != *framework-driver-too-old* ]]
	# its native object is read where it lives (no note of a missing tensorflow/libtensorflow_framework)
	[[ "$(echo "$output" | jq -r '.inventory.notes // [] | tostring')" != *"tensorflow/libtensorflow_framework"* ]]
	check_json --driver 440.33.01
	f=$(echo "$output" | jq -c '.findings[] | select(.id=="framework-driver-too-old")')
	[[ "$(echo "$f" | jq -r .summary)" == *"needs driver >= 450.51.05 (CUDA 11.0)"* ]]
	[[ "$(echo "$f" | jq -r .cause)" == *"that toolkit's own minimum"* ]]
	# a stale tensorflow/python/platform/build_info.py another release left: 1.15 reads tensorflow_core's
	mkdir -p "$site/tensorflow/python/platform"
	sed 's/11.0/9.0/' "$site/tensorflow_core/python/platform/build_info.py" >"$site/tensorflow/python/platform/build_info.py"
	check_json --driver 450.51.06
	[ "$(echo "$output" | jq -r '.inventory.python.environments[0].frameworks[0].cuda')" = "11.0" ]
	# a CUDA 12.0 or 13.0 build keeps the floor (the release's own minimum is not below it)
	rm -r "$site"/tensorflow_core "$site"/tensorflow "$site"/tensorflow-1.15.5+nv22.12.dist-info
	mkpy_tf "$site" 2.15.0 12.0 8
	check_json --driver 520.61.05
	[[ "$(echo "$output" | jq -r '.findings[] | select(.id=="framework-driver-too-old") | .summary')" == *"needs driver >= 525.60.13 (CUDA 12)"* ]]
}

@test "TF 2.15 GPU code vs the GPU: sm_35 has none (framework-gpu-arch), sm_86 runs sm_80 SASS" {
	site=$(mkpy_venv "$R" /home/u/tf 3.11)
	mkpy_tf "$site" 2.15.0 12.2 8
	mkpy_envfile "$R.env" VIRTUAL_ENV=/home/u/tf
	check_json --gpu sm_86
	[ "$(echo "$output" | jq -r '.inventory.gpus[0].compute_capability')" != null ] ||
		skip_fixture "--gpu sm_86 gives no compute capability (kb_gpu_lookup, issue 2)"
	[ "$(echo "$output" | mkpy_ids)" = "framework-lib-missing" ]
	check_json --gpu sm_35
	[ "$(echo "$output" | mkpy_ids)" = "framework-gpu-arch framework-lib-missing" ]
}

@test "torch whose libtorch_cuda.so holds only sm_90 SASS (built by nvcc 13): framework-gpu-arch on sm_75 only" {
	[ -x "$MKPY_CUDA/bin/nvcc" ] || skip_fixture "needs nvcc in $MKPY_CUDA/bin"
	healthy_venv
	mkpy_torch_gpu_code "$site" arch=compute_90,code=sm_90 || skip_fixture "nvcc could not build a shared object here"
	check_json --gpu sm_75
	[ "$(echo "$output" | jq -r '.inventory.gpus[0].compute_capability')" != null ] ||
		skip_fixture "--gpu gives no compute capability (kb_gpu_lookup, issue 2)"
	[ "$(echo "$output" | mkpy_ids)" = "framework-gpu-arch" ]
	f=$(echo "$output" | jq -c '.findings[] | select(.id=="framework-gpu-arch")')
	[[ "$(echo "$f" | jq -r '.evidence | join("\n")')" == *"fat binaries in /home/u/venv/lib/python3.11/site-packages/torch/lib/libtorch_cuda.so: sm_90"* ]]
	# the shared cudart it was linked with is resolved through its RUNPATH into the wheel
	[ "$(echo "$output" | jq -r '.inventory.python.environments[0].frameworks[0].libraries[] | select(.name=="libcudart.so.13") | .how')" = runpath ]
	check_json --gpu sm_90
	[ "$(echo "$output" | mkpy_ids)" = "" ]
}

# the real cuDNN 9.19 of the toolkit as a system copy in /opt/cudnn/lib, first on LD_LIBRARY_PATH
system_cudnn_on_path() {
	mkdir -p "$R/opt/cudnn/lib"
	for f in $(mkpy_cudnn_files); do
		b=$(basename "$f")
		mkpy_place "$f" "$R/opt/cudnn/lib/$b.19.0"
		ln -s "$b.19.0" "$R/opt/cudnn/lib/$b"
	done
	echo LD_LIBRARY_PATH=/opt/cudnn/lib >>"$R.env"
}

@test "a system cuDNN earlier on LD_LIBRARY_PATH than the wheel's: pip-nvidia-shadowed" {
	healthy_venv 9.13.0.50 2.9.1+cu130
	system_cudnn_on_path
	check_json
	# 9.19 is newer than the 9.13 torch was built with: shadowed, but not a cuDNN mismatch
	[ "$(echo "$output" | mkpy_ids)" = "pip-nvidia-shadowed" ]
	f=$(echo "$output" | jq -c '.findings[] | select(.id=="pip-nvidia-shadowed")')
	[[ "$(echo "$f" | jq -r '.evidence | join("\n")')" == *"would load: /opt/cudnn/lib/libcudnn.so.9 via LD_LIBRARY_PATH, version 9.19.0"* ]]
	[[ "$(echo "$f" | jq -r '.fix | join("\n")')" == *"Remove /opt/cudnn/lib from LD_LIBRARY_PATH"* ]]
}

# cuDNN's own failures ("unable to find an engine", CUDNN_STATUS_*) name no library: in text alone
# they point at memory or an old cuDNN, and the shadowed wheel check finds on the machine goes first
@test "cuDNN's 'unable to find an engine' and CUDNN_STATUS_EXECUTION_FAILED with a shadowed wheel: pip-nvidia-shadowed first" {
	healthy_venv 9.13.0.50 2.9.1+cu130
	system_cudnn_on_path
	for msg in "RuntimeError: GET was unable to find an engine to execute this computation" \
		"RuntimeError: cuDNN error: CUDNN_STATUS_EXECUTION_FAILED"; do
		run_strict "$CUDX" explain --no-probe --root "$R" --env "$R.env" --json "$msg"
		[ "$(jq -r '.causes[0].id' <<<"$output")" = pip-nvidia-shadowed ]
		[[ "$(jq -r '.causes[0].evidence | join("\n")' <<<"$output")" == *"/opt/cudnn/lib"* ]]
	done
	# the same message with nothing on the machine: not the shadowed wheel first
	mkdir -p "$BATS_TEST_TMPDIR/empty"
	run_strict "$CUDX" explain --no-probe --root "$BATS_TEST_TMPDIR/empty" --json "RuntimeError: GET was unable to find an engine to execute this computation"
	[ "$(jq -r '.causes[0].id' <<<"$output")" = gpu-out-of-memory ]
}

# torch.tsv pins the cuDNN of a release's wheels; a nightly before it pinned its own (older) one
@test "a torch nightly without its pins is not judged by its release's cuDNN; the release is" {
	site=$(mkpy_venv "$R" /home/u/venv 3.11)
	mkpy_cu13_wheels "$site" 9.10.2.21
	mkpy_torch "$site" 2.9.1+cu130 13.0
	mkpy_envfile "$R.env" VIRTUAL_ENV=/home/u/venv PATH=/home/u/venv/bin:/usr/bin:/bin
	check_json
	[ "$(echo "$output" | mkpy_ids)" = "framework-cudnn-mismatch" ]
	rm -rf "$site"/torch "$site"/torch-*.dist-info
	mkpy_torch "$site" 2.9.1.dev20250901+cu130 13.0
	check_json
	[ "$(echo "$output" | mkpy_ids)" = "" ]
	# a pre-release built from source, an NGC build: neither is the release's wheel
	for v in 2.9.0a0+git1234567 2.9.0a0+50eac811a6.nv25.09; do
		rm -rf "$site"/torch "$site"/torch-*.dist-info
		mkpy_torch "$site" "$v" 13.0
		check_json
		[ "$(echo "$output" | mkpy_ids)" = "" ]
	done
}

@test "an older system cuDNN shadows the wheel torch pins: framework-cudnn-mismatch and pip-nvidia-shadowed" {
	# torch 2.12 cu130 pins nvidia-cudnn-cu13==9.20.0.48 (compat-facts 6a); the system copy is 9.19
	healthy_venv 9.20.0.48 2.12.0+cu130
	mkdir -p "$R/opt/cudnn/lib"
	mkpy_place "$MKPY_CUDA/lib/libcudnn.so.9" "$R/opt/cudnn/lib/libcudnn.so.9.19.0"
	ln -s libcudnn.so.9.19.0 "$R/opt/cudnn/lib/libcudnn.so.9"
	echo LD_LIBRARY_PATH=/opt/cudnn/lib >>"$R.env"
	check_json
	[ "$(echo "$output" | mkpy_ids)" = "framework-cudnn-mismatch pip-nvidia-shadowed" ]
	s=$(echo "$output" | jq -r '.findings[] | select(.id=="framework-cudnn-mismatch") | .summary')
	[[ "$s" == *"built with cuDNN 9.20.0.48 but would load cuDNN 9.19.0"* ]]
}

@test "a conda env and a venv side by side: both found, each with its own frameworks" {
	site=$(mkpy_venv "$R" /home/u/venv 3.11)
	mkpy_torch "$site" 2.9.1+cpu None
	csite=$(mkpy_conda "$R" /home/u/miniconda3/envs/ml 3.12)
	mkpy_cu13_wheels "$csite"
	mkpy_torch "$csite" 2.9.1+cu130 13.0 'nvidia-cudnn-cu13==9.19.0.56; platform_system == "Linux"'
	mkdir -p "$R/home/u/.conda"
	printf '/home/u/miniconda3/envs/ml\n/home/u/miniconda3/envs/deleted\n' >"$R/home/u/.conda/environments.txt"
	mkpy_envfile "$R.env" VIRTUAL_ENV=/home/u/venv
	check_json
	[ "$(echo "$output" | mkpy_ids)" = "torch-cpu-build" ]
	envs=$(echo "$output" | jq -c '[.inventory.python.environments[] | {prefix, kind, n: (.frameworks | length)}]')
	[[ "$envs" == *'{"prefix":"/home/u/venv","kind":"venv","n":1}'* ]]
	[[ "$envs" == *'{"prefix":"/home/u/miniconda3/envs/ml","kind":"conda","n":1}'* ]]
	[[ "$envs" != *"deleted"* ]]
	conda=$(echo "$output" | jq -c '.inventory.python.environments[] | select(.kind=="conda") | .frameworks[0]')
	[ "$(echo "$conda" | jq -r '.libraries[] | select(.name=="libcudnn.so.9") | .resolved')" = \
	  "/home/u/miniconda3/envs/ml/lib/python3.12/site-packages/nvidia/cudnn/lib/libcudnn.so.9" ]
}

@test "bad input: broken METADATA, unexpected version.py, unreadable envs: notes, no crash" {
	site=$(mkpy_venv "$R" /home/u/venv 3.11)
	mkpy_cu13_wheels "$site"
	mkpy_torch "$site" 2.9.1+cu130 13.0
	head -c 4096 "$MKPY_CUDA/lib/libcudart.so.13" >"$site/torch-2.9.1+cu130.dist-info/METADATA"
	site2=$(mkpy_venv "$R" /home/u/odd 3.11)
	mkpy_torch "$site2" 2.5.0 13.0
	printf "__version__ = '2.5.0'\ncuda = _get_cuda_version()\n" >"$site2/torch/version.py"
	mkdir -p "$R/home/u/loop/lib/python3.11"
	ln -s site-packages "$R/home/u/loop/lib/python3.11/site-packages.tmp"
	ln -s site-packages.tmp "$R/home/u/loop/lib/python3.11/site-packages"
	: >"$R/home/u/afile"
	mkpy_envfile "$R.env" VIRTUAL_ENV=/home/u/gone CONDA_PREFIX=/home/u/afile
	run_strict "$CUDX" check --no-probe --root "$R" --env "$R.env" --python /home/u/venv --python /home/u/odd \
		--python /home/u/loop --json
	[ "$status" -le 1 ]
	[ "$(echo "$output" | mkpy_ids)" = "" ]
	py=$(echo "$output" | jq -c .inventory.python)
	[[ "$py" == *"METADATA: binary data (NUL bytes) where text metadata was expected"* ]]
	[[ "$py" == *"torch/version.py: cuda = _get_cuda_version() (not a literal cudx reads)"* ]]
	[[ "$py" == *"cannot read /home/u/gone: No such file or directory"* ]]
	[[ "$py" == *"/home/u/afile is not a directory"* ]]
	[ "$(echo "$py" | jq -r '.environments[] | select(.prefix=="/home/u/loop") | .problem')" = \
	  "no site-packages directory under this prefix" ]
	# the first torch still resolves its libraries; the second is not claimed to be a CPU build
	[ "$(echo "$py" | jq -r '.environments[] | select(.prefix=="/home/u/odd") | .frameworks[0].cpu_only')" = "false" ]
	run_strict "$CUDX" check --no-probe --root "$R" --env "$R.env" --python /home/u/odd
	[ "$status" -le 1 ]
	[[ "$output" == *"no CUDA build information"* ]]
}

# The tree of a Windows machine is its C: drive: an environment on D: is not in it, and is not
# read from the same path on C: either
@test "Windows: a Python environment on another drive is named as outside the tree, not read from C:" {
	mkdir -p "$R/Windows/System32" "$R/software/env/Lib/site-packages"
	mkpy_dist "$R/software/env/Lib/site-packages" torch 2.3.1+cu118
	: >"$R.env"
	run_strict "$CUDX" check --no-probe --os windows --root "$R" --env "$R.env" --python 'D:\software\env' --json
	env='.inventory.python.environments[] | select(.prefix == "D:\\software\\env")'
	[ "$(echo "$output" | jq -r "$env | .problem")" = 'D:\software\env is on drive D:, which the analysed tree (the C: drive) does not hold' ]
	[ "$(echo "$output" | jq -r "[$env | .frameworks[]?] | length")" = 0 ]
	run_strict "$CUDX" check --no-probe --os windows --root "$R" --env "$R.env" --python 'C:\software\env' --json
	[ "$(echo "$output" | jq -r '.inventory.python.environments[] | select(.prefix == "/software/env") | .frameworks[0].package')" = torch ]
}

@test "TensorFlow 2.15 on native Windows: tf-windows-native-gpu; 2.10 is fine" {
	mkdir -p "$R/Windows/System32" "$R/Python311/Lib/site-packages"
	site="$R/Python311/Lib/site-packages"
	mkpy_dist "$site" tensorflow 2.15.0 'tensorflow-intel==2.15.0; platform_system == "Windows"'
	mkpy_dist "$site" tensorflow_intel 2.15.0
	# as the wheel has it: a CPU build
	mkdir -p "$site/tensorflow/python/platform"
	echo "build_info = collections.OrderedDict([('is_cuda_build', False), ('is_rocm_build', False), ('msvcp_dll_names', 'msvcp140.dll,msvcp140_1.dll')])" \
		>"$site/tensorflow/python/platform/build_info.py"
	printf 'Path=C:\\Python311;C:\\Python311\\Scripts;C:\\Windows\\System32\r\n' >"$R.env"
	: >"$R/Python311/python.exe"
	run_strict "$CUDX" check --no-probe --os windows --root "$R" --env "$R.env" --json
	[ "$(echo "$output" | mkpy_ids)" = "tf-windows-native-gpu" ]
	# tensorflow-cpu is a CPU build asked for
	rm -rf "$site"/tensorflow*
	mkpy_dist "$site" tensorflow_cpu 2.15.0
	mkdir -p "$site/tensorflow"
	run_strict "$CUDX" check --no-probe --os windows --root "$R" --env "$R.env" --json
	[ "$(echo "$output" | jq -r '.inventory.python.environments[0].frameworks[0] | "\(.package) \(.cpu_only)"')" = "tensorflow-cpu true" ]
	[ "$(echo "$output" | mkpy_ids)" = "" ]
	rm -rf "$site"/tensorflow*
	mkpy_dist "$site" tensorflow_gpu 2.10.0
	mkdir -p "$site/tensorflow"
	run_strict "$CUDX" check --no-probe --os windows --root "$R" --env "$R.env" --json
	[ "$(echo "$output" | mkpy_ids)" = "" ]
	[ "$(echo "$output" | jq -r '.inventory.python.environments[0].frameworks[0].cuda')" = "11.2" ]
}

# onnxruntime-gpu before its CUDA provider became a library of its own (1.0 to 1.7): the Python
# module links the CUDA libraries itself, and there is no libonnxruntime_providers_cuda.so
@test "onnxruntime-gpu 1.4: the CUDA libraries are read from the Python module's NEEDED, not a provider library it never had" {
	site=$(mkpy_venv "$R" /home/u/venv 3.11)
	mkpy_dist "$site" onnxruntime_gpu 1.4.0
	mkdir -p "$site/onnxruntime/capi"
	echo '# synthetic' >"$site/onnxruntime/__init__.py"
	local c=$MKPY_CUDA/lib
	mkpy_so "$site/onnxruntime/capi/onnxruntime_pybind11_state.so" '$ORIGIN' "$c/libcudart.so.13" "$c/libcublas.so.13"
	mkpy_envfile "$R.env" VIRTUAL_ENV=/home/u/venv PATH=/home/u/venv/bin:/usr/bin:/bin
	check_json
	fw=$(echo "$output" | jq -c '.inventory.python.environments[] | select(.prefix=="/home/u/venv") | .frameworks[0]')
	[ "$(echo "$fw" | jq -r .package)" = "onnxruntime-gpu" ]
	via=$(echo "$fw" | jq -r '.libraries[] | select(.name=="libcudart.so.13") | .via')
	[[ "$via" == "NEEDED of /home/u/venv/lib/python3.11/site-packages/onnxruntime/capi/onnxruntime_pybind11_state.so" ]]
	[[ "$output" != *"libonnxruntime_providers_cuda.so"* ]]
}

# The three below were seen on a working H100 machine (torch 2.11.0+cu130 and JAX 0.11.2 in one
# venv): cudx called it broken (two framework-lib-missing errors) and misnamed the wheels that own
# the shared nvidia/cu13/lib libraries.
@test "CUDA 13 wheels share nvidia/cu13/lib: each library belongs to the wheel whose RECORD lists it" {
	healthy_venv
	check_json
	lib=/home/u/venv/lib/python3.11/site-packages/nvidia/cu13/lib
	owner() { echo "$output" | jq -r --arg p "$lib/$1" '.inventory.libraries[] | select(.path==$p) | .owner'; }
	[ "$(owner libcudart.so.13)" = "nvidia-cuda-runtime 13.0.96" ]
	[ "$(owner libcublas.so.13)" = "nvidia-cublas 13.1.0.3" ]
	[ "$(owner libcublasLt.so.13)" = "nvidia-cublas 13.1.0.3" ]
}

@test "torch pins cuda-bindings: installed, it is no missing library; removed, framework-lib-missing names it" {
	healthy_venv
	mkpy_torch "$site" 2.11.0+cu130 13.0 \
		'nvidia-cuda-runtime==13.0.96; platform_system == "Linux"' \
		'cuda-bindings<14,>=13.0.3; platform_system == "Linux"'
	rm -rf "$site"/torch-2.9.1+cu130.dist-info
	mkpy_dist "$site" cuda_bindings 13.0.3
	check_json
	[ "$(echo "$output" | mkpy_ids)" = "" ]
	rm -rf "$site"/cuda_bindings-13.0.3.dist-info
	check_json
	[ "$(echo "$output" | mkpy_ids)" = "framework-lib-missing" ]
	[[ "$(echo "$output" | jq -r '.findings[] | select(.id=="framework-lib-missing") | .summary')" == *"cuda-bindings"* ]]
}

@test "JAX's with-cuda extra: a missing tool wheel (nvcc, nvvm) is no missing requirement; a missing library wheel of it is" {
	healthy_venv
	mkpy_dist "$site" jax_cuda13_plugin 0.11.2 \
		'nvidia-cublas>=13.0.0.19; sys_platform == "linux" and extra == "with-cuda"' \
		'nvidia-cuda-nvcc>=13.0.48; sys_platform == "linux" and extra == "with-cuda"' \
		'nvidia-nvvm; extra == "with-cuda"' \
		'nvidia-cufft>=12.0.0.15; sys_platform == "linux" and extra == "with-cuda"'
	mkpy_dist "$site" nvidia_cufft 12.0.0.61
	# (the plugin's own library is not in this tree, so its dlopen'ed libraries stay unresolved:
	# only the Requires-Dist part of the finding is under test)
	jax_reqs() { echo "$output" | jq -r '.inventory.python.environments[0].frameworks[] | select(.package=="jax-cuda13-plugin") | .requires[] | "\(.name) \(.installed // "missing")"' | sort | tr '\n' ' '; }
	check_json
	[ "$(jax_reqs)" = "nvidia-cublas 13.1.0.3 nvidia-cufft 12.0.0.61 " ]
	[[ "$(echo "$output" | jq -r '.findings[] | .evidence | join("\n")')" != *"Requires-Dist"* ]]
	rm -rf "$site"/nvidia_cufft-12.0.0.61.dist-info
	check_json
	[ "$(jax_reqs)" = "nvidia-cublas 13.1.0.3 nvidia-cufft missing " ]
	ev=$(echo "$output" | jq -r '.findings[] | select(.id=="framework-lib-missing") | .evidence | join("\n")')
	[[ "$ev" == *"Requires-Dist: nvidia-cufft>=12.0.0.15"* ]]
	[[ "$ev" != *"nvidia-cuda-nvcc"* && "$ev" != *"nvidia-nvvm"* ]]
}

# PaddlePaddle: the version module its setup.py generates says the CUDA and cuDNN ('False' in the CPU
# package); without it, the package name and a 2.x ".postXYZ" version still tell
@test "PaddlePaddle: CUDA and cuDNN from paddle/version/__init__.py, the CPU package, and the .post tag" {
	site=$(mkpy_venv "$R" /home/u/venv 3.11)
	mkpy_dist "$site" paddlepaddle_gpu 2.5.1
	mkdir -p "$site/paddle/version"
	printf "full_version    = '2.5.1'\ncuda_version    = '11.7'\ncudnn_version   = '8.4.1'\nistaged         = True\n" >"$site/paddle/version/__init__.py"
	mkpy_envfile "$R.env" VIRTUAL_ENV=/home/u/venv PATH=/home/u/venv/bin:/usr/bin:/bin
	check_json --driver 450.80.02
	fw=$(echo "$output" | jq -c '.inventory.python.environments[] | select(.prefix=="/home/u/venv") | .frameworks[0]')
	[ "$(echo "$fw" | jq -r '.package + " " + .cuda + " " + .cudnn + " " + .cuda_source')" = "paddlepaddle-gpu 11.7 8.4.1 paddle/version/__init__.py" ]
	# CUDA 11 needs driver >= 450.80.02 (minor-version compatibility): this one is enough, 418 is not
	[ "$(echo "$output" | mkpy_ids)" = "" ]
	check_json --driver 418.40.04
	[ "$(echo "$output" | mkpy_ids)" = "framework-driver-too-old" ]
	printf "full_version    = '2.5.1'\ncuda_version    = 'False'\ncudnn_version   = 'False'\n" >"$site/paddle/version/__init__.py"
	check_json
	[ "$(echo "$output" | jq -r '.inventory.python.environments[] | select(.prefix=="/home/u/venv") | .frameworks[0].cpu_only')" = true ]
	rm "$site/paddle/version/__init__.py"
	rm -r "$site"/paddlepaddle_gpu-2.5.1.dist-info
	mkpy_dist "$site" paddlepaddle_gpu 2.4.2.post112
	check_json
	[ "$(echo "$output" | jq -r '.inventory.python.environments[] | select(.prefix=="/home/u/venv") | .frameworks[0] | .cuda + " " + .cuda_source')" = "11.2 wheel version tag" ]
	# 1.x tags name the CUDA and cuDNN majors: post107 is CUDA 10.0 with cuDNN 7, not 10.7
	rm -r "$site"/paddlepaddle_gpu-2.4.2.post112.dist-info
	mkpy_dist "$site" paddlepaddle_gpu 1.5.1.post107
	check_json
	[ "$(echo "$output" | jq -r '.inventory.python.environments[] | select(.prefix=="/home/u/venv") | .frameworks[0] | .cuda + " " + .cudnn')" = "10.0 7" ]
}

# PyTorch's self-contained wheels (1.x from PyPI) bundle the CUDA runtime in torch/lib under
# auditwheel's hashed names, linked by those names with RUNPATH $ORIGIN, and link cuBLAS and cuDNN
# statically: no plain name (libcublas.so.10) is loaded
@test "a self-contained torch wheel (CUDA bundled under hashed names, cuBLAS static): nothing missing; a hashed copy removed is named" {
	site=$(mkpy_venv "$R" /home/u/venv 3.11)
	mkpy_torch "$site" 1.12.1 10.2
	local L=$site/torch/lib n
	for n in libcudart-a7b20f20.so.10.2 libnvToolsExt-24de1d56.so.1 libnvrtc-d833c4f3.so.10.2; do
		mkpy_so "$L/$n" '$ORIGIN'
	done
	mkpy_so "$L/libtorch_cuda.so" '$ORIGIN' "$L/libcudart-a7b20f20.so.10.2" "$L/libnvToolsExt-24de1d56.so.1" \
		"$L/libnvrtc-d833c4f3.so.10.2"
	mkpy_envfile "$R.env" VIRTUAL_ENV=/home/u/venv PATH=/home/u/venv/bin:/usr/bin:/bin
	check_json
	env='.inventory.python.environments[] | select(.prefix=="/home/u/venv") | .frameworks[] | select(.package=="torch")'
	jq -e '[.findings[] | select(.id == "framework-lib-missing")] | length == 0' <<<"$output"
	[ "$(jq -r "$env"' | .libraries[] | select(.name=="libcudart-a7b20f20.so.10.2") | .via' <<<"$output")" = "NEEDED of /home/u/venv/lib/python3.11/site-packages/torch/lib/libtorch_cuda.so" ]
	# the plain names the wheel does not load are not looked for
	jq -e "[$env | .libraries[] | select(.name == \"libcudart.so.10.2\" or .name == \"libcublas.so.10\" or .name == \"libcublasLt.so.10\")] | length == 0" <<<"$output"
	rm "$L/libcudart-a7b20f20.so.10.2"
	check_json
	jq -e '[.findings[] | select(.id == "framework-lib-missing") | .summary | test("libcudart-a7b20f20.so.10.2")] | any' <<<"$output"
}

# Older layouts: torch before 1.5 had one libtorch.so with the CUDA code (no libtorch_cuda.so),
# PaddlePaddle before 2.5 wrote paddle/version.py, TensorFlow before 1.x no build_info.py
@test "torch 1.4's libtorch.so, PaddlePaddle 2.x's paddle/version.py, tensorflow-gpu without build_info.py" {
	site=$(mkpy_venv "$R" /home/u/venv 3.11)
	mkpy_cu13_wheels "$site"
	mkpy_torch "$site" 1.4.0 13.0
	local c=$MKPY_CUDA/lib
	rm "$site/torch/lib/libtorch_cuda.so"
	mkpy_so "$site/torch/lib/libtorch.so" '$ORIGIN/../../nvidia/cu13/lib:$ORIGIN/../../nvidia/cudnn/lib:$ORIGIN' \
		"$c/libcudart.so.13" "$c/libcublas.so.13" "$c/libcudnn.so.9"
	mkpy_dist "$site" paddlepaddle_gpu 2.1.2
	mkdir -p "$site/paddle"
	printf "full_version    = '2.1.2'\ncuda_version    = '10.2'\ncudnn_version   = '7.6.5'\n" >"$site/paddle/version.py"
	mkpy_dist "$site" tensorflow_gpu 0.12.1
	mkdir -p "$site/tensorflow"
	echo '# synthetic' >"$site/tensorflow/__init__.py"
	mkpy_envfile "$R.env" VIRTUAL_ENV=/home/u/venv PATH=/home/u/venv/bin:/usr/bin:/bin
	check_json
	env='.inventory.python.environments[] | select(.prefix=="/home/u/venv")'
	[ "$(echo "$output" | jq -r "$env"' | .frameworks[] | select(.package=="torch") | .libraries[] | select(.name=="libcudart.so.13") | .via')" = "NEEDED of /home/u/venv/lib/python3.11/site-packages/torch/lib/libtorch.so" ]
	[ "$(echo "$output" | jq -r "$env"' | .frameworks[] | select(.package=="paddlepaddle-gpu") | .cuda + " " + .cudnn + " " + .cuda_source')" = "10.2 7.6.5 paddle/version.py" ]
	[ "$(echo "$output" | jq -r "$env"' | .frameworks[] | select(.package=="tensorflow-gpu") | .gpu_build')" = true ]
}

# onnxruntime and onnxruntime-gpu share onnxruntime/: the CPU one installed last hides the CUDA provider
@test "onnxruntime next to onnxruntime-gpu: framework-cpu-build from check; the CPU package alone is no finding" {
	site=$(mkpy_venv "$R" /home/u/venv 3.11)
	mkpy_dist "$site" onnxruntime 1.19.2
	mkdir -p "$site/onnxruntime/capi"
	echo '# synthetic' >"$site/onnxruntime/__init__.py"
	mkpy_envfile "$R.env" VIRTUAL_ENV=/home/u/venv PATH=/home/u/venv/bin:/usr/bin:/bin
	check_json
	[ "$(echo "$output" | mkpy_ids)" = "" ]
	[ "$(echo "$output" | jq -r '[.findings[].id] | index("framework-cpu-build")')" = null ]
	[ "$(echo "$output" | jq -r '.inventory.python.environments[] | select(.prefix=="/home/u/venv") | .frameworks[0] | .package + " " + (.cpu_only|tostring)')" = "onnxruntime true" ]
	mkpy_dist "$site" onnxruntime_gpu 1.19.2
	check_json
	[ "$(echo "$output" | jq -r '[.findings[] | select(.id == "framework-cpu-build") | .subject][0]')" = /home/u/venv/lib/python3.11/site-packages/onnxruntime ]
	# explain: the machine confirms the message's cause
	run_strict "$CUDX" explain --no-probe --root "$R" --env "$R.env" --json "[W:onnxruntime:Default, onnxruntime_pybind_state.cc:965 CreateExecutionProviderInstance] Failed to create CUDAExecutionProvider. Specified provider 'CUDAExecutionProvider' is not in available provider names.Available providers: 'AzureExecutionProvider, CPUExecutionProvider'"
	[ "$(jq -r '.causes[0].id' <<<"$output")" = framework-cpu-build ]
	[ "$(jq -r '.causes[0].confirmed_by' <<<"$output")" != null ]
}

# `python setup.py install` of a source build leaves an egg directory that easy-install.pth puts
# before site-packages: its torch is the one imported, not the pip install beside it
@test "a torch egg from a source build shadows the pip torch of the same site-packages" {
	healthy_venv
	egg="$site/torch-1.5.0a0+4ff3872-py3.11-linux-x86_64.egg"
	mkdir -p "$egg/EGG-INFO" "$egg/torch"
	printf 'Metadata-Version: 2.1\nName: torch\nVersion: 1.5.0a0+4ff3872\n' >"$egg/EGG-INFO/PKG-INFO"
	printf "__version__ = '1.5.0a0+4ff3872'\ncuda = '10.2'\nhip = None\n" >"$egg/torch/version.py"
	check_json
	fw=$(echo "$output" | jq -c '.inventory.python.environments[] | select(.prefix=="/home/u/venv") | .frameworks[] | select(.framework=="torch")')
	[ "$(echo "$fw" | jq -r '.version + " " + .cuda + " " + .path')" = "1.5.0a0+4ff3872 10.2 ${egg#"$R"}/torch" ]
}

# `python setup.py develop` (PyTorch's documented source build) leaves only torch.egg-link in
# site-packages: the torch imported is the source tree's, its egg-info beside the package
@test "a torch development install (torch.egg-link to a source tree) is the torch of the environment" {
	healthy_venv
	src="$R/home/u/pytorch"
	mkdir -p "$src/torch.egg-info" "$src/torch"
	printf 'Metadata-Version: 2.1\nName: torch\nVersion: 2.1.0a0+git32f93b1\n' >"$src/torch.egg-info/PKG-INFO"
	printf "__version__ = '2.1.0a0+git32f93b1'\ncuda = '12.1'\nhip = None\n" >"$src/torch/version.py"
	rm -rf "$site"/torch-*.dist-info "$site/torch"
	printf '/home/u/pytorch\n.\n' >"$site/torch.egg-link"
	check_json
	fw=$(echo "$output" | jq -c '.inventory.python.environments[] | select(.prefix=="/home/u/venv") | .frameworks[] | select(.framework=="torch")')
	[ "$(echo "$fw" | jq -r '.version + " " + .cuda + " " + .path')" = "2.1.0a0+git32f93b1 12.1 /home/u/pytorch/torch" ]
	# a link whose source tree is gone is no install
	rm -rf "$src"
	check_json
	[ "$(echo "$output" | jq -r '[.inventory.python.environments[] | select(.prefix=="/home/u/venv") | .frameworks[] | select(.framework=="torch")] | length')" = 0 ]
}

# jaxlib from PyPI without a +cuda tag is the CPU build unless a CUDA plugin sits beside it
@test "jaxlib without a CUDA plugin: JAX's CPU build; with jax-cuda12-plugin: not a CPU build" {
	site=$(mkpy_venv "$R" /home/u/venv 3.11)
	mkpy_dist "$site" jaxlib 0.4.30
	mkpy_envfile "$R.env" VIRTUAL_ENV=/home/u/venv PATH=/home/u/venv/bin:/usr/bin:/bin
	check_json
	[ "$(echo "$output" | jq -r '.inventory.python.environments[] | select(.prefix=="/home/u/venv") | .frameworks[] | .framework + " " + .package + " " + (.cpu_only|tostring)')" = "jax jaxlib true" ]
	mkpy_dist "$site" jax_cuda12_plugin 0.4.30
	check_json
	[ "$(echo "$output" | jq -r '[.inventory.python.environments[] | select(.prefix=="/home/u/venv") | .frameworks[] | select(.cpu_only)] | length')" = 0 ]
}

# A dist-info whose name kept its '-' (cupy-cuda101-8.4.0.dist-info, not PEP 427's cupy_cuda101):
# the version starts at the first '-' before a digit
@test "a dist-info named with its name's own '-': cupy-cuda101 8.4.0, CUDA 10.1" {
	site=$(mkpy_venv "$R" /home/u/venv 3.6)
	mkpy_dist "$site" cupy-cuda101 8.4.0
	mkpy_envfile "$R.env" VIRTUAL_ENV=/home/u/venv PATH=/home/u/venv/bin:/usr/bin:/bin
	check_json
	[ "$(echo "$output" | jq -r '.inventory.python.environments[] | select(.prefix=="/home/u/venv") | .frameworks[] | .package + " " + .version + " " + .cuda')" = "cupy-cuda101 8.4.0 10.1" ]
}

# conda-forge's CUDA jaxlib has a plain version; its conda-meta record's build string says CUDA
@test "conda-forge jaxlib whose build string is cuda112: JAX built for CUDA 11, not a CPU build; cpu_*: the CPU build" {
	csite=$(mkpy_conda "$R" /opt/conda/envs/nb 3.10)
	mkpy_dist "$csite" jaxlib 0.4.3
	: >"$R/opt/conda/envs/nb/conda-meta/jaxlib-0.4.3-cuda112py310h4bfa4fc_201.json"
	mkpy_envfile "$R.env" CONDA_PREFIX=/opt/conda/envs/nb PATH=/opt/conda/envs/nb/bin:/usr/bin:/bin
	check_json
	[ "$(echo "$output" | jq -r '.inventory.python.environments[] | select(.prefix=="/opt/conda/envs/nb") | .frameworks[] | .framework + " " + .cuda + " " + (.cpu_only|tostring)')" = "jax 11 false" ]
	# a conda package uses the environment's CUDA libraries: no note about pip wheels' own runtime
	run_strict "$CUDX" --root "$R" --env "$R.env" --no-probe --no-color
	[[ "$output" == *"built for      CUDA 11 (conda build string)"* ]]
	[[ "$output" != *"pip wheels bring their own CUDA runtime"* ]]
	rm "$R/opt/conda/envs/nb/conda-meta/jaxlib-0.4.3-cuda112py310h4bfa4fc_201.json"
	: >"$R/opt/conda/envs/nb/conda-meta/jaxlib-0.4.3-cpu_py310h1234567_1.json"
	check_json
	[ "$(echo "$output" | jq -r '.inventory.python.environments[] | select(.prefix=="/opt/conda/envs/nb") | .frameworks[] | .framework + " " + (.cpu_only|tostring)')" = "jax true" ]
}

# A Jetson's libcuda is libcuda.so.1.1 (L4T's tegra directory): ".1.1" revises the soname, it is no
# driver release, so a framework built for CUDA 13 is not judged against a "driver 1.1" (set 30's
# builders met it on an Orin). A tiny ELF with the soname stands in for the Tegra libcuda.
@test "torch cu130 on a Jetson whose libcuda is libcuda.so.1.1: no framework-driver-too-old against a driver '1.1'" {
	healthy_venv
	local tegra="$R/usr/lib/aarch64-linux-gnu/tegra"
	mkdir -p "$tegra"
	echo 'int cuInit(unsigned f) { return (int)f; }' >"$BATS_TEST_TMPDIR/tegra_cuda.c"
	"$MKPY_CC" -shared -fPIC -Wl,-soname,libcuda.so.1 -o "$tegra/libcuda.so.1.1" "$BATS_TEST_TMPDIR/tegra_cuda.c"
	ln -s libcuda.so.1.1 "$tegra/libcuda.so.1"
	mkpy_envfile "$R.env" VIRTUAL_ENV=/home/u/venv PATH=/home/u/venv/bin:/usr/bin:/bin LD_LIBRARY_PATH=/usr/lib/aarch64-linux-gnu/tegra
	check_json
	[[ "$(echo "$output" | mkpy_ids)" != *framework-driver-too-old* ]]
	[[ "$output" != *"the driver is 1.1"* ]]
	# the framework still resolves that libcuda: the check had something to judge
	[[ "$(echo "$output" | jq -r '[.inventory.python.environments[].frameworks[].libraries[]? | select(.name=="libcuda.so.1") | .resolved][0]')" == *tegra/libcuda.so.1 ]]
}

# CTranslate2 (faster-whisper) ships one wheel for CPU and GPU and dlopens cuBLAS and cuDNN by name,
# with no path into the nvidia-* wheels pip puts beside it. cuDNN is the real cuDNN 9 of
# /usr/local/cuda; no CUDA 12 cuBLAS exists on this machine, so a small ELF named libcublas.so.12
# stands in for it (only its presence on the loader's path matters here).
@test "CTranslate2 4.5 with the cuDNN 9 wheel off the loader's path: framework-lib-missing where a driver is; none on a CPU-only machine" {
	site=$(mkpy_venv "$R" /home/u/venv 3.11)
	mkpy_dist "$site" ctranslate2 4.5.0
	mkdir -p "$site/ctranslate2" && : >"$site/ctranslate2/__init__.py"
	mkpy_nvidia "$site" nvidia_cudnn_cu12 9.1.0.70 nvidia/cudnn/lib $(mkpy_cudnn_files)
	mkpy_so "$R/usr/lib/x86_64-linux-gnu/libcublas.so.12" '$ORIGIN'
	mkpy_envfile "$R.env" VIRTUAL_ENV=/home/u/venv PATH=/home/u/venv/bin:/usr/bin:/bin
	check_json --driver 550.54.14
	[ "$(echo "$output" | mkpy_ids)" = "framework-lib-missing" ]
	f=$(echo "$output" | jq -c '.findings[] | select(.id=="framework-lib-missing")')
	[[ "$(echo "$f" | jq -r .summary)" == *"CTranslate2 4.5.0"*"libcudnn.so.9"* ]]
	[[ "$(echo "$f" | jq -r '.evidence | join("\n")')" == *"libcudnn.so.9: not found (dlopen by CTranslate2)"* ]]
	fw=$(echo "$output" | jq -c '.inventory.python.environments[0].frameworks[0]')
	[ "$(echo "$fw" | jq -r '.cuda + " " + .cudnn')" = "12 9" ]
	# the fix names the wheel's own directory; CTranslate2 pins no wheels a reinstall would bring
	[[ "$(echo "$f" | jq -r '.fix | join("\n")')" == *"export LD_LIBRARY_PATH=/home/u/venv/lib/python3.11/site-packages/nvidia/cudnn/lib"* ]]
	[[ "$(echo "$f" | jq -r '.fix | join("\n")')" != *"force-reinstall"* ]]
	# the cuBLAS found on the default path is no missing library
	[[ "$(echo "$f" | jq -r '.evidence | join("\n")')" != *"libcublas"* ]]
	# the wheel's directory on LD_LIBRARY_PATH, as faster-whisper's docs say: nothing missing
	mkpy_envfile "$R.env" VIRTUAL_ENV=/home/u/venv PATH=/home/u/venv/bin:/usr/bin:/bin \
		LD_LIBRARY_PATH=/home/u/venv/lib/python3.11/site-packages/nvidia/cudnn/lib
	check_json --driver 550.54.14
	[ "$(echo "$output" | mkpy_ids)" = "" ]
	# the same package on a machine without an NVIDIA driver or GPU runs on the CPU: no claim
	mkpy_envfile "$R.env" VIRTUAL_ENV=/home/u/venv PATH=/home/u/venv/bin:/usr/bin:/bin
	check_json
	[ "$(echo "$output" | mkpy_ids)" = "" ]
	# a system cuDNN 9 on the default path is what CTranslate2 loads: found, and no wheel "shadowed"
	for f in $(mkpy_cudnn_files); do
		mkpy_place "$f" "$R/usr/lib/x86_64-linux-gnu/$(basename "$f")"
	done
	check_json --driver 550.54.14
	[ "$(echo "$output" | mkpy_ids)" = "" ]
	rm "$R"/usr/lib/x86_64-linux-gnu/libcudnn*
	# an aarch64 wheel is CTranslate2's CPU build: no claim on its CUDA libraries
	sed -i 's/manylinux_2_28_x86_64/manylinux_2_17_aarch64/' "$site/ctranslate2-4.5.0.dist-info/WHEEL"
	check_json --driver 550.54.14
	[ "$(echo "$output" | mkpy_ids)" = "" ]
	# macOS's x86-64 wheel is a CPU build too
	sed -i 's/manylinux_2_17_aarch64/macosx_10_9_x86_64/' "$site/ctranslate2-4.5.0.dist-info/WHEEL"
	check_json --driver 550.54.14
	[ "$(echo "$output" | mkpy_ids)" = "" ]
	sed -i 's/macosx_10_9_x86_64/manylinux_2_28_x86_64/' "$site/ctranslate2-4.5.0.dist-info/WHEEL"
	# 4.4 wants cuDNN 8, which is nowhere; a driver for CUDA 11 only is too old for its CUDA 12
	rm -r "$site"/ctranslate2-4.5.0.dist-info
	mkpy_dist "$site" ctranslate2 4.4.0
	check_json --driver 510.47.03
	[ "$(echo "$output" | mkpy_ids)" = "framework-driver-too-old framework-lib-missing" ]
	ev=$(echo "$output" | jq -r '.findings[] | select(.id=="framework-lib-missing") | .evidence | join("\n")')
	[[ "$ev" == *"libcudnn.so.8: not found"* ]]
}

# whisperX imports torch before CTranslate2: the cuDNN torch's RUNPATH loads from its wheel is in the
# process when CTranslate2 dlopens the same name. A conda package of CTranslate2 links its CUDA
# libraries from the environment's lib and is not judged.
@test "CTranslate2 beside a torch that links the cuDNN it names: still missing for a process without torch, and the evidence says so; a conda-packaged CTranslate2 is not judged" {
	healthy_venv
	mkpy_dist "$site" ctranslate2 4.5.0
	mkdir -p "$site/ctranslate2" && : >"$site/ctranslate2/__init__.py"
	mkpy_so "$R/usr/lib/x86_64-linux-gnu/libcublas.so.12" '$ORIGIN'
	check_json --driver 580.95.05
	[ "$(echo "$output" | mkpy_ids)" = "framework-lib-missing" ]
	fws=$(echo "$output" | jq -r '.inventory.python.environments[0].frameworks | map(.package) | join(" ")')
	[[ "$fws" == *ctranslate2* && "$fws" == *torch* ]]
	ev=$(echo "$output" | jq -r '.findings[] | select(.id=="framework-lib-missing") | .evidence | join("\n")')
	[[ "$ev" == *"found only in a process that imports PyTorch first"*"nvidia/cudnn/lib/libcudnn.so.9"* ]]
	# without torch the same cuDNN wheel is off CTranslate2's path, and nothing else links it
	rm -r "$site"/torch "$site"/torch-*.dist-info
	check_json --driver 580.95.05
	[ "$(echo "$output" | mkpy_ids)" = "framework-lib-missing" ]
	ev=$(echo "$output" | jq -r '.findings[] | select(.id=="framework-lib-missing") | .evidence | join("\n")')
	[[ "$ev" != *"imports PyTorch first"* ]]
	# a conda env whose conda-meta records the package
	csite=$(mkpy_conda "$R" /home/u/conda 3.11)
	mkpy_dist "$csite" ctranslate2 4.5.0
	echo '{"name": "ctranslate2", "version": "4.5.0"}' >"$R/home/u/conda/conda-meta/ctranslate2-4.5.0-cuda126py311h0_0.json"
	mkpy_envfile "$R.env" CONDA_PREFIX=/home/u/conda PATH=/home/u/conda/bin:/usr/bin:/bin
	check_json --driver 580.95.05 --python /home/u/conda
	[ "$(echo "$output" | jq -r '[.findings[] | select(.id=="framework-lib-missing") | .subject] | map(select(test("/home/u/conda"))) | length')" = 0 ]
}

# bitsandbytes of release VER in the venv, in place of the one there
bnb_release() {
	rm -rf "$site"/bitsandbytes-*.dist-info
	mkpy_dist "$site" bitsandbytes "$1"
}

# the findings about the bitsandbytes package (framework-lib-missing on its directory)
bnb_findings() {
	echo "$output" | jq '[.findings[] | select(.id=="framework-lib-missing" and (.subject | endswith("/bitsandbytes")))] | length'
}

# bitsandbytes (0.43+) loads libbitsandbytes_cuda<torch's CUDA> from its package directory and
# falls back to its CPU library when that file is missing. The libraries are empty stand-ins: only
# their names matter to which one it picks.
@test "bitsandbytes without a library for torch's CUDA: framework-lib-missing on a GPU machine, named with what it carries; BNB_CUDA_VERSION decides; none without a driver, before 0.43 or with the library" {
	healthy_venv
	bnb_release 0.45.5
	mkdir -p "$site/bitsandbytes"
	for v in 118 121 124 126 128; do : >"$site/bitsandbytes/libbitsandbytes_cuda$v.so"; done
	: >"$site/bitsandbytes/libbitsandbytes_cpu.so"
	check_json --driver 580.95.05
	[ "$(echo "$output" | mkpy_ids)" = "framework-lib-missing" ]
	f=$(echo "$output" | jq -c '.findings[] | select(.id=="framework-lib-missing")')
	[[ "$(echo "$f" | jq -r .summary)" == "bitsandbytes 0.45.5 has no library for CUDA 13.0 (libbitsandbytes_cuda130)" ]]
	[ "$(echo "$f" | jq -r .subject)" = "/home/u/venv/lib/python3.11/site-packages/bitsandbytes" ]
	ev=$(echo "$f" | jq -r '.evidence | join("\n")')
	[[ "$ev" == *"libbitsandbytes_cuda118.so, libbitsandbytes_cuda121.so"*"libbitsandbytes_cuda128.so"* ]]
	[[ "$ev" == *"torch 2.9.1+cu130: CUDA 13.0 (torch/version.py)"* ]]
	[[ "$(echo "$f" | jq -r '.fix | join("\n")')" == *"pip install -U bitsandbytes"*"CUDA 13.0"* ]]
	# explain on this machine: bitsandbytes' own complaint is confirmed by that finding; its library
	# lives in its package directory, so ld.so's search finding no such name confirms no lib-not-found
	for msg in "WARNING:bitsandbytes.cextension:Could not find the bitsandbytes CUDA binary at PosixPath('$site/bitsandbytes/libbitsandbytes_cuda130.so')" \
		"CUDA SETUP: Required library version not found: libbitsandbytes_cuda130.so. Maybe you need to compile it from source?"; do
		run_strict "$CUDX" explain --no-probe --root "$R" --env "$R.env" --driver 580.95.05 --json "$msg"
		[ "$(echo "$output" | jq -r '.causes[0].id + " " + .causes[0].confidence')" = "framework-lib-missing high" ]
		[ "$(echo "$output" | jq -r '[.causes[] | select(.id=="lib-not-found" and .confidence=="high")] | length')" = 0 ]
	done
	# no driver and no GPU: torch.cuda.is_available() is False and the CPU library is what it takes
	check_json
	[ "$(echo "$output" | mkpy_ids)" = "" ]
	# BNB_CUDA_VERSION names a library it carries: that one loads
	mkpy_envfile "$R.env" VIRTUAL_ENV=/home/u/venv PATH=/home/u/venv/bin:/usr/bin:/bin BNB_CUDA_VERSION=128
	check_json --driver 580.95.05
	[ "$(echo "$output" | mkpy_ids)" = "" ]
	# a release with the library for torch's CUDA, but BNB_CUDA_VERSION asks for one it lacks
	: >"$site/bitsandbytes/libbitsandbytes_cuda130.so"
	mkpy_envfile "$R.env" VIRTUAL_ENV=/home/u/venv PATH=/home/u/venv/bin:/usr/bin:/bin BNB_CUDA_VERSION=122
	check_json --driver 580.95.05
	[ "$(echo "$output" | mkpy_ids)" = "framework-lib-missing" ]
	f=$(echo "$output" | jq -c '.findings[] | select(.id=="framework-lib-missing")')
	[[ "$(echo "$f" | jq -r .summary)" == *"no library for CUDA 122 (libbitsandbytes_cuda122)"* ]]
	[[ "$(echo "$f" | jq -r '.fix | join("\n")')" == *"unset BNB_CUDA_VERSION"* ]]
	mkpy_envfile "$R.env" VIRTUAL_ENV=/home/u/venv PATH=/home/u/venv/bin:/usr/bin:/bin
	check_json --driver 580.95.05
	[ "$(echo "$output" | mkpy_ids)" = "" ]
	# only the exact name with this system's suffix counts: not a Windows DLL, not cuda1300, and
	# the _nocublaslt variant only where every GPU is below compute capability 7.5
	rm "$site/bitsandbytes/libbitsandbytes_cuda130.so"
	: >"$site/bitsandbytes/libbitsandbytes_cuda130.dll"
	: >"$site/bitsandbytes/libbitsandbytes_cuda1300.so"
	: >"$site/bitsandbytes/libbitsandbytes_cuda130_nocublaslt.so"
	check_json --driver 580.95.05 --gpu "RTX 4090"
	[ "$(bnb_findings)" = 1 ]
	# 0.45 has no _nocublaslt variants; 0.43-0.44 load that one on a GPU below 7.5
	check_json --driver 580.95.05 --gpu "Tesla P100"
	[ "$(bnb_findings)" = 1 ]
	bnb_release 0.44.1
	check_json --driver 580.95.05 --gpu "Tesla P100"
	[ "$(bnb_findings)" = 0 ]
	check_json --driver 580.95.05 --gpu "RTX 4090"
	[ "$(bnb_findings)" = 1 ]
	bnb_release 0.45.5
	rm "$site/bitsandbytes"/libbitsandbytes_cuda130*
	# no library of torch's major below its minor: no BNB_CUDA_VERSION way out
	check_json --driver 580.95.05
	[[ "$(echo "$output" | jq -r '.findings[] | select(.id=="framework-lib-missing") | .fix | join("\n")')" != *"BNB_CUDA_VERSION"* ]]
	# torch for CUDA 13.1 beside a library for 13.0: BNB_CUDA_VERSION=130 is the other way out (a
	# Windows DLL of that release is none on Linux)
	: >"$site/bitsandbytes/libbitsandbytes_cuda130.dll"
	rm -r "$site"/torch-2.9.1+cu130.dist-info
	mkpy_torch "$site" 2.10.0+cu131 13.1
	check_json --driver 580.95.05
	[[ "$(echo "$output" | jq -r '.findings[] | select(.id=="framework-lib-missing") | .fix | join("\n")')" != *"BNB_CUDA_VERSION"* ]]
	rm -r "$site"/torch-2.10.0+cu131.dist-info
	mkpy_torch "$site" 2.9.1+cu130 13.0
	: >"$site/bitsandbytes/libbitsandbytes_cuda130.so"
	rm -r "$site"/torch-2.9.1+cu130.dist-info
	mkpy_torch "$site" 2.10.0+cu131 13.1
	check_json --driver 580.95.05
	[ "$(echo "$output" | mkpy_ids)" = "framework-lib-missing" ]
	f=$(echo "$output" | jq -c '.findings[] | select(.id=="framework-lib-missing")')
	[[ "$(echo "$f" | jq -r .summary)" == "bitsandbytes 0.45.5 has no library for CUDA 13.1 (libbitsandbytes_cuda131)" ]]
	[[ "$(echo "$f" | jq -r '.fix | join("\n")')" == *"export BNB_CUDA_VERSION=130"* ]]
	# a CPU-only torch: bitsandbytes never asks for a CUDA library
	rm -r "$site"/torch-2.10.0+cu131.dist-info
	mkpy_torch "$site" 2.10.0+cpu None
	check_json --driver 580.95.05
	[ "$(bnb_findings)" = 0 ]
	rm -r "$site"/torch-2.10.0+cpu.dist-info
	mkpy_torch "$site" 2.10.0+cu131 13.1
	# the release boundary: 0.43.0 is judged, 0.42.0 (which chose by the libcudart it found) is not
	bnb_release 0.43.0
	check_json --driver 580.95.05
	[ "$(bnb_findings)" = 1 ]
	bnb_release 0.42.0
	check_json --driver 580.95.05
	[ "$(bnb_findings)" = 0 ]
	# a driver too old for torch's CUDA: torch sees no GPU, and that is framework-driver-too-old's
	bnb_release 0.45.5
	check_json --driver 535.104.05
	[ "$(bnb_findings)" = 0 ]
	[[ "$(echo "$output" | mkpy_ids)" == *framework-driver-too-old* ]]
}
