#!/bin/sh
# Write seed inputs for the fuzz targets into OUT/fuzz_NAME/ (default: a new temp dir, printed),
# taken from real files: slices of the CUDA 13 libraries and of the Debian NVIDIA packages
# ($CUDX_PKG_CACHE), fat binaries nvcc writes for tests/fixtures/arch/kernel.cu, ld.so.cache files
# ldconfig writes for a temporary root, the PE fixtures of tests/fixtures/windows, Python
# METADATA/RECORD of installed distributions, the messages of tests/fixtures/explain and the
# explain catalogue. Only small slices of NVIDIA files are kept (headers, dynamic sections, string
# tables, a window of .rodata), never a whole library. A source that is missing is skipped with a
# note. The committed corpus is what the fuzzers found starting from these seeds, minimised with
# libFuzzer's -merge=1 by campaign.sh (docs/fuzzing.md).
#
# Nothing outside OUT and a temp dir is written: ldconfig runs with -r on a temp root (a chroot,
# so the ld.so.cache seeds need root; without it they are skipped with a note).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
out=${1:-$(mktemp -d /tmp/cudx-seeds-XXXXXX)}
cuda=${CUDA:-/usr/local/cuda-13.0}
pkgs=${CUDX_PKG_CACHE:-$src/build/pkgs}
tmp=$(mktemp -d /tmp/cudx-seeds-work-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
slice="python3 $here/elfslice.py"
note() { echo "make-seeds: $*" >&2; }
for t in containerd dpkg elf envsnap explain fatbin ldcache nvproc pciids pe probe_records pymeta version win_env; do
	mkdir -p "$out/fuzz_$t"
done

# --- ELF: dynamic sections, version records and string tables of real libraries ---------------
elfs=""
for f in "$cuda"/lib64/libcudart.so.13 "$cuda"/lib64/libcublas.so.13 "$cuda"/lib64/libcublasLt.so.13 \
	"$cuda"/lib64/libnvrtc.so.13 "$cuda"/lib64/libcudnn.so.9 "$cuda"/lib64/libnccl.so.2 \
	"$cuda"/lib64/libcufft.so.12 "$cuda"/lib64/libnvJitLink.so.13 "$cuda"/lib64/stubs/libcuda.so \
	"$cuda"/bin/nvcc \
	"$pkgs"/libcuda1/root/usr/lib/x86_64-linux-gnu/nvidia/current/libcuda.so.535.* \
	"$pkgs"/libnvidia-ml1/root/usr/lib/x86_64-linux-gnu/nvidia/current/libnvidia-ml.so.535.* \
	"$pkgs"/libnvidia-ptxjitcompiler1/root/usr/lib/x86_64-linux-gnu/nvidia/current/libnvidia-ptxjitcompiler.so.535.* \
	"$pkgs"/libnvidia-tesla-470-cuda1/root/usr/lib/x86_64-linux-gnu/nvidia/tesla-470/libcuda.so.470.* \
	"$pkgs"/libcudart11.0/root/usr/lib/x86_64-linux-gnu/libcudart.so.11.* \
	"$pkgs"/libcublaslt11/root/usr/lib/x86_64-linux-gnu/libcublasLt.so.11.*; do
	[ -f "$f" ] || { note "no $f"; continue; }
	[ -L "$f" ] && continue # the versioned name is the file; its links would be duplicates
	b=$(basename "$f")
	case $b in libcuda.so) b=libcuda-stub.so ;; esac
	$slice "$f" "$out/fuzz_elf/$b"
	elfs="$elfs $out/fuzz_elf/$b"
done
# the same reader through PT_DYNAMIC alone (section headers stripped), for two of them
for f in "$cuda"/lib64/libcudart.so.13 "$pkgs"/libcuda1/root/usr/lib/x86_64-linux-gnu/nvidia/current/libcuda.so.535.*; do
	[ -f "$f" ] && $slice "$f" "$out/fuzz_elf/$(basename "$f").nosh" --no-sections
done

# --- version: the driver version string as it sits in libcuda's .rodata, and small texts -------
python3 - "$out/fuzz_version" "$pkgs"/libcuda1/root/usr/lib/x86_64-linux-gnu/nvidia/current/libcuda.so.535.* \
	"$pkgs"/libnvidia-tesla-470-cuda1/root/usr/lib/x86_64-linux-gnu/nvidia/tesla-470/libcuda.so.470.* <<'EOF'
import mmap, os, re, sys
out = sys.argv[1]
for path in sys.argv[2:]:
    if not os.path.isfile(path):
        continue
    ver = re.search(r"\.so\.(\d+\.\d+(\.\d+)?)$", path).group(1).encode()
    with open(path, "rb") as f:
        m = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
        at = m.find(ver)
        if at >= 0:  # 1 KB of the strings before the first copy of the version, and a little after
            with open(os.path.join(out, "rodata-" + ver.decode()), "wb") as o:
                o.write(m[max(0, at - 1024):at + 64])
EOF
printf '550.54.14\n' >"$out/fuzz_version/sys-module-version"
[ -f "$cuda/version.json" ] && head -c 512 "$cuda/version.json" >"$out/fuzz_version/cuda-version-json"
printf 'NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  580.95.05  Release Build  (dvs-builder@U16-I3-B03-4-3)  Tue Sep 23 09:57:26 UTC 2025' \
	>"$out/fuzz_version/nvrm-open"
"$cuda/bin/nvcc" --version >"$out/fuzz_version/nvcc-version" 2>/dev/null || note "nvcc --version failed"

# --- nvproc: /proc/driver/nvidia formats (NVIDIA README, "Using the /proc File System Interface") --
printf 'NVRM version: NVIDIA UNIX x86_64 Kernel Module  550.54.15  Tue Mar  5 22:23:56 UTC 2024\nGCC version:  gcc version 12.2.0 (Debian 12.2.0-14)\n' \
	>"$out/fuzz_nvproc/version-proprietary"
printf 'NVRM version: NVIDIA UNIX Open Kernel Module for aarch64  570.86.15  Release Build  (dvs-builder@U16-I2-C03-12-3)  Thu Jan 23 21:42:01 UTC 2025\nGCC version:  gcc version 11.4.0 (Ubuntu 11.4.0-1ubuntu1~22.04)\n' \
	>"$out/fuzz_nvproc/version-open-aarch64"
printf 'NVRM version: NVIDIA UNIX ppc64le Kernel Module  510.54  Tue Feb  8 04:32:08 UTC 2022\n' \
	>"$out/fuzz_nvproc/version-ppc64le-two-part"
printf 'Model: \t\t NVIDIA A100-SXM4-40GB\nIRQ:   \t\t 133\nGPU UUID: \t GPU-3b0c0f2a-6e0e-2c8a-58b1-0f9a4e2c1d77\nVideo BIOS: \t 92.00.45.00.03\nBus Type: \t PCIe\nDMA Size: \t 47 bits\nDMA Mask: \t 0x7fffffffffff\nBus Location: \t 0000:07:00.0\nDevice Minor: \t 0\nGPU Firmware: \t 550.54.15\nGPU Excluded:\t No\n' \
	>"$out/fuzz_nvproc/gpu-information"
# a Jetson's /etc/nv_tegra_release (L4T R35.4.1)
printf '# R35 (release), REVISION: 4.1, GCID: 33958178, BOARD: t186ref, EABI: aarch64, DATE: Tue Aug  1 19:57:35 UTC 2023\n# KERNEL_VARIANT: oot\nTARGET_USERSPACE_LIB_DIR=nvidia\n' \
	>"$out/fuzz_nvproc/tegra-release-r35"

# --- dpkg: /var/lib/dpkg/status stanzas (deb-control(5)): this machine's first ones, and a
# Debian driver's open-module package beside a removed one's config files
head -c 4000 /var/lib/dpkg/status >"$out/fuzz_dpkg/status-head" 2>/dev/null || note "no /var/lib/dpkg/status"
printf 'Package: nvidia-open-kernel-dkms\nStatus: install ok installed\nVersion: 535.247.01-1~deb12u1\nDescription: NVIDIA open kernel module DKMS source\n This package builds the NVIDIA binary kernel modules.\n .\n\nPackage: nvidia-kernel-dkms\nStatus: deinstall ok config-files\nVersion: 535.247.01-1~deb12u1\n\r\n' \
	>"$out/fuzz_dpkg/status-debian"

# --- pci.ids: NVIDIA's vendor block of the Debian pci.ids package (its device names), cut short --
ids=$pkgs/pci.ids/root/usr/share/misc/pci.ids
if [ -r "$ids" ]; then
	awk '/^10de /{on=1} on&&/^[0-9a-f]/&&!/^10de /{exit} on' "$ids" | head -n 400 >"$out/fuzz_pciids/nvidia-block"
else
	note "no $ids (tests/fixtures/fetch-nvidia-debs.sh fetches it): pci.ids seeds skipped"
fi

# --- containerd: config.toml as nvidia-ctk runtime configure writes it (v2), and v3's plugin name --
printf 'version = 2\n\n[plugins]\n\n  [plugins."io.containerd.grpc.v1.cri"]\n\n    [plugins."io.containerd.grpc.v1.cri".containerd]\n      default_runtime_name = "nvidia"\n\n      [plugins."io.containerd.grpc.v1.cri".containerd.runtimes]\n\n        [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.nvidia]\n          privileged_without_host_devices = false\n          runtime_type = "io.containerd.runc.v2"\n\n          [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.nvidia.options]\n            BinaryName = "/usr/bin/nvidia-container-runtime"\n' \
	>"$out/fuzz_containerd/v2-nvidia-default"
printf "version = 3\n[plugins.'io.containerd.cri.v1.runtime'.containerd]\n  default_runtime_name = 'runc'\n[plugins.'io.containerd.cri.v1.runtime'.containerd.runtimes.'nvidia-cdi']\n  runtime_type = 'io.containerd.runc.v2'\n" \
	>"$out/fuzz_containerd/v3-runc-default"

# --- fatbin: what nvcc writes (objects, a cubin, a raw .fatbin, a shared library) ---------------
nvcc=$cuda/bin/nvcc
k=$src/tests/fixtures/arch/kernel.cu
if [ -x "$nvcc" ]; then
	cu() { # NAME ARGS...: compile, keep it if it fits the fuzzers' -max_len
		n=$1; shift
		if nice "$nvcc" "$@" "$k" -o "$tmp/$n" >"$tmp/nvcc.log" 2>&1; then
			[ "$(wc -c <"$tmp/$n")" -le 65536 ] && cp "$tmp/$n" "$out/fuzz_fatbin/$n" || note "$n too large"
		else
			note "nvcc $* failed: $(tail -1 "$tmp/nvcc.log")"
		fi
	}
	cu sm75-sm90-ptx90.o -c -gencode arch=compute_75,code=sm_75 -gencode arch=compute_90,code='[sm_90,compute_90]'
	cu sm90a.o -c -gencode arch=compute_90a,code=sm_90a
	cu sm100f.o -c -gencode arch=compute_100f,code=sm_100f
	cu ptx-only.o -c -gencode arch=compute_80,code=compute_80
	cu compressed.o -c -Xfatbin -compress-all -gencode arch=compute_86,code=sm_86 -gencode arch=compute_120,code=sm_120
	cu sm80.cubin -cubin -arch=sm_80
	cu sm120.fatbin -fatbin -gencode arch=compute_120,code='[sm_120,compute_120]'
	cu shared.so -shared -Xcompiler -fPIC -cudart shared -gencode arch=compute_89,code=sm_89
	# the raw container of an object, as cuobjdump sees it
	if [ -f "$out/fuzz_fatbin/sm75-sm90-ptx90.o" ]; then
		objcopy -O binary --only-section=.nv_fatbin "$out/fuzz_fatbin/sm75-sm90-ptx90.o" \
			"$out/fuzz_fatbin/raw-nv_fatbin" || note "objcopy failed"
	fi
else
	note "no nvcc at $nvcc: no fat binary seeds"
fi

# --- ld.so.cache: ldconfig's three formats over a small temporary root --------------------------
if command -v ldconfig >/dev/null 2>&1 && [ -n "$elfs" ]; then
	r=$tmp/root
	mkdir -p "$r/etc" "$r/usr/lib/x86_64-linux-gnu/glibc-hwcaps/x86-64-v3" "$r/usr/local/cuda/lib64"
	printf '/usr/local/cuda/lib64\n' >"$r/etc/ld.so.conf"
	for f in $elfs; do
		case $f in *.nosh|*/nvcc) continue ;; esac
		b=$(basename "$f")
		case $b in
		libcuda.so.535*|libnvidia-*) cp "$f" "$r/usr/lib/x86_64-linux-gnu/" ;;
		libcudart.so.11*) cp "$f" "$r/usr/lib/x86_64-linux-gnu/glibc-hwcaps/x86-64-v3/" ;;
		libcuda-stub.so|libcuda.so.470*) ;;
		*) cp "$f" "$r/usr/local/cuda/lib64/" ;;
		esac
	done
	for fmt in old new compat; do
		# -r: chroot into the temp root (needs root); -X: no links are made
		if ldconfig -X -r "$r" -c "$fmt" 2>"$tmp/ldconfig.log"; then
			cp "$r/etc/ld.so.cache" "$out/fuzz_ldcache/cuda-$fmt.cache"
		else
			note "ldconfig -c $fmt: $(head -1 "$tmp/ldconfig.log")"
		fi
	done
fi

# --- PE: the Windows fixtures (mingw-w64 stubs, the cuDNN fixture with imports and VERSIONINFO) --
if sh "$src/tests/fixtures/windows/build.sh" "$tmp/winfix" >/dev/null 2>&1; then
	for f in x64/zlibwapi.dll x64/app.exe x64/cudnn_cnn_infer64_8.dll x86/zlibwapi.dll arm64/zlibwapi.dll; do
		[ -f "$tmp/winfix/$f" ] && cp "$tmp/winfix/$f" "$out/fuzz_pe/$(echo "$f" | tr / -)"
	done
	# fat binary scanner over a PE host as well
	cp "$tmp/winfix/x64/app.exe" "$out/fuzz_fatbin/pe-app.exe" 2>/dev/null || true
else
	note "tests/fixtures/windows/build.sh failed (mingw-w64 missing?): no PE seeds"
fi

# --- pymeta: installed distributions' METADATA and RECORD, a pyvenv.cfg python writes -----------
for d in /usr/lib/python3/dist-packages/cryptography-*.dist-info /usr/lib/python3/dist-packages/PyYAML-*.dist-info; do
	[ -f "$d/METADATA" ] && head -c 8192 "$d/METADATA" >"$out/fuzz_pymeta/METADATA-$(basename "$d" .dist-info)"
done
for rec in /usr/lib/python3/dist-packages/pip-*.dist-info/RECORD "$(python3 -c 'import pip, os; print(os.path.dirname(pip.__file__))' 2>/dev/null)"-*.dist-info/RECORD; do
	[ -f "$rec" ] && head -n 40 "$rec" >"$out/fuzz_pymeta/RECORD-pip" && break
done
if python3 -m venv --without-pip "$tmp/venv" 2>/dev/null; then
	cp "$tmp/venv/pyvenv.cfg" "$out/fuzz_pymeta/pyvenv.cfg"
fi
[ -f /usr/lib/python3/dist-packages/cryptography/__about__.py ] &&
	cp /usr/lib/python3/dist-packages/cryptography/__about__.py "$out/fuzz_pymeta/about_py"

# --- explain: the messages of the accuracy cases, and the catalogue itself --------------------
python3 - "$src/tests/fixtures/explain/error-cases.jsonl" "$out/fuzz_explain" <<'EOF'
import json, os, sys
for line in open(sys.argv[1], encoding="utf-8"):
    c = json.loads(line)
    with open(os.path.join(sys.argv[2], c["id"]), "w", encoding="utf-8") as o:
        o.write(c["error_text"] + "\n")
EOF
if [ -f "$src/data/explain_causes.tsv" ] && [ -f "$src/data/explain_patterns.tsv" ]; then
	# fuzz_explain splits its input at the first 0xff byte: causes before, patterns after
	{ head -n 12 "$src/data/explain_causes.tsv"; printf '\377'; head -n 12 "$src/data/explain_patterns.tsv"; } \
		>"$out/fuzz_explain/catalogue-head"
	{ cat "$src/data/explain_causes.tsv"; printf '\377'; cat "$src/data/explain_patterns.tsv"; } |
		head -c 65536 >"$out/fuzz_explain/catalogue"
fi

# --- envsnap: what env(1), a shell and /proc/PID/environ print (a fixed environment, not ours) ---
E="PATH=/usr/local/cuda-13.0/bin:/usr/bin:/bin LD_LIBRARY_PATH=/usr/local/cuda/lib64:/opt/conda/lib/python3.11/site-packages/nvidia/cudnn/lib CUDA_HOME=/usr/local/cuda CUDA_VISIBLE_DEVICES=0,1 NVIDIA_VISIBLE_DEVICES=all NVIDIA_DRIVER_CAPABILITIES=compute,utility LD_PRELOAD= HOME=/root"
env -i $E env >"$out/fuzz_envsnap/env-output"
env -i $E sh -c 'cat /proc/$$/environ' >"$out/fuzz_envsnap/proc-environ" 2>/dev/null || note "no /proc/PID/environ"
command -v bash >/dev/null && env -i $E bash -c 'export -p' >"$out/fuzz_envsnap/bash-export-p"
env -i $E sh -c 'export -p' >"$out/fuzz_envsnap/sh-export-p"

# --- win_env: cmd.exe `set` and PowerShell `Get-ChildItem Env:` output, as saved by `>` (UTF-16) --
winset='ALLUSERSPROFILE=C:\ProgramData
CUDA_PATH=C:\Program Files\NVIDIA GPU Computing Toolkit\CUDA\v12.4
CUDA_PATH_V11_8=C:\Program Files\NVIDIA GPU Computing Toolkit\CUDA\v11.8
CUDA_PATH_V12_4=C:\Program Files\NVIDIA GPU Computing Toolkit\CUDA\v12.4
CUDNN_PATH=C:\tools\cudnn
Path=C:\Program Files\NVIDIA GPU Computing Toolkit\CUDA\v12.4\bin;C:\Program Files\NVIDIA GPU Computing Toolkit\CUDA\v12.4\libnvvp;%CUDNN_PATH%\bin;C:\Windows\system32;C:\Windows;C:\Windows\System32\Wbem;C:\Users\me\AppData\Local\Programs\Python\Python311\Scripts\;
PATHEXT=.COM;.EXE;.BAT;.CMD;.VBS;.VBE;.JS;.JSE;.WSF;.WSH;.MSC;.PY;.PYW
SystemRoot=C:\Windows
windir=C:\Windows'
printf '%s\n' "$winset" | sed 's/$/\r/' >"$out/fuzz_win_env/cmd-set"
pstable='
Name                           Value
----                           -----
ALLUSERSPROFILE                C:\ProgramData
CUDA_PATH                      C:\Program Files\NVIDIA GPU Computing Toolkit\CUDA\v12.4
CUDA_PATH_V12_4                C:\Program Files\NVIDIA GPU Computing Toolkit\CUDA\v12.4
Path                           C:\Program Files\NVIDIA GPU Computing Toolkit\CUDA\v12.4\bin;C:\Program Files\NVIDIA GPU Comp...
SystemRoot                     C:\Windows
'
printf '%s' "$pstable" | sed 's/$/\r/' >"$out/fuzz_win_env/ps-table"
if command -v iconv >/dev/null; then
	{ printf '\377\376'; iconv -f UTF-8 -t UTF-16LE "$out/fuzz_win_env/ps-table"; } >"$out/fuzz_win_env/ps-table-utf16"
	{ printf '\377\376'; iconv -f UTF-8 -t UTF-16LE "$out/fuzz_win_env/cmd-set"; } >"$out/fuzz_win_env/cmd-set-utf16"
fi

echo "$out"
