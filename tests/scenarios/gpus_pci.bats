#!/usr/bin/env bats
# GPUs on the PCI bus (/sys/bus/pci/devices) that the NVIDIA driver does not list: named from the
# real pci.ids of Debian's pci.ids package, the kernel driver that holds each, and what no-driver and
# driver-gpu-unsupported make of them. The sysfs entries are laid out as the kernel shows them: a
# device directory under /sys/devices, linked from /sys/bus/pci/devices, its driver a link to
# /sys/bus/pci/drivers/NAME.

load lib/sysroot

setup() {
	setup_root
}

teardown() {
	teardown_root
}

# pci_dev BUS DEVICE CLASS [DRIVER]: an NVIDIA function on the bus
pci_dev() {
	local bus=$1 dev=$2 cls=$3 drv=${4:-} d
	d="$root/sys/devices/pci0000:00/0000:00:01.0/$bus"
	mkdir -p "$d" "$root/sys/bus/pci/devices"
	printf '0x10de\n' >"$d/vendor"
	printf '0x%s\n' "$dev" >"$d/device"
	printf '0x%s\n' "$cls" >"$d/class"
	if [ -n "$drv" ]; then
		mkdir -p "$root/sys/bus/pci/drivers/$drv"
		ln -s "../../../../bus/pci/drivers/$drv" "$d/driver"
	fi
	ln -s "../../../devices/pci0000:00/0000:00:01.0/$bus" "$root/sys/bus/pci/devices/$bus"
}

add_pci_ids() {
	need_pkg pci.ids
	mkdir -p "$root/usr/share/misc"
	hostfile "$CUDX_PKG_CACHE/pci.ids/root/usr/share/misc/pci.ids" "$root/usr/share/misc/pci.ids"
}

@test "a GTX 750 Ti held by nouveau and no NVIDIA driver: no-driver is an error that names nouveau and how to blacklist it" {
	add_pci_ids
	pci_dev 0000:01:00.0 1380 030000 nouveau
	pci_dev 0000:01:00.1 0fbc 040300 snd_hda_intel # the card's audio function is not a GPU
	run_cudx --root "$root" --env "$env_file" --json
	[ "$status" -eq 1 ]
	has_finding no-driver
	[ "$(finding_severity no-driver)" = error ]
	[ "$(json_get '["inventory"]["gpus"].__len__()')" = 1 ]
	[ "$(json_get '["inventory"]["gpus"][0]["name"]')" = "NVIDIA GeForce GTX 750 Ti" ]
	[ "$(json_get '["inventory"]["gpus"][0]["compute_capability"]')" = 5.0 ]
	[ "$(json_get '["inventory"]["gpus"][0]["kernel_driver"]')" = nouveau ]
	[ "$(json_get '["inventory"]["gpus"][0]["pci_id"]')" = 10de:1380 ]
	[ "$(json_get '["inventory"]["gpus"][0]["pci_only"]')" = True ]
	py 'f=next(f for f in r["findings"] if f["id"]=="no-driver"); print("\n".join(f["fix"]))' | grep -q "blacklist nouveau"
	py 'f=next(f for f in r["findings"] if f["id"]=="no-driver"); print("\n".join(f["evidence"]))' |
		grep -q "PCI 0000:01:00.0: NVIDIA GeForce GTX 750 Ti (10de:1380), kernel driver: nouveau"
	run_cudx --root "$root" --env "$env_file"
	[[ "$output" == *"PCI 10de:1380, kernel driver: nouveau"* ]]
}

@test "a tree without the PCI bus stays an image: no-driver is information" {
	run_cudx --root "$root" --env "$env_file" --json
	[ "$(finding_severity no-driver)" = info ]
	[ "$(json_get '["inventory"]["gpus"].__len__()')" = 0 ]
}

@test "Debian's driver 535 installed, a Tesla K80 on the bus that no driver took: driver-gpu-unsupported (R470 is Kepler's last)" {
	add_pci_ids
	need_pkg libcuda1
	add_pkg "$root" libcuda1
	link_driver_libs "$root" "$MULTIARCH/nvidia/current"
	pci_dev 0000:3b:00.0 102d 030200
	run_cudx --root "$root" --env "$env_file" --json
	[ "$status" -eq 1 ]
	has_finding driver-gpu-unsupported
	has_finding no-driver
	[ "$(json_get '["inventory"]["gpus"][0]["compute_capability"]')" = 3.7 ]
	[ "$(json_get '["inventory"]["gpus"][0]["kernel_driver"]')" = None ]
	py 'print(next(f["summary"] for f in r["findings"] if f["id"]=="driver-gpu-unsupported"))' | grep -q "Tesla K80 (Kepler, sm_37): R470"
}

@test "explain on that machine: nvidia-smi's 'couldn't communicate' is the K80 the driver will not drive, before no-driver" {
	add_pci_ids
	need_pkg libcuda1
	add_pkg "$root" libcuda1
	link_driver_libs "$root" "$MULTIARCH/nvidia/current"
	pci_dev 0000:3b:00.0 102d 030200
	run_strict "$CUDX" explain --no-probe --root "$root" --env "$env_file" --json \
		"NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make sure that the latest NVIDIA driver is installed and running."
	[ "$(json_get '["causes"][0]["id"]')" = driver-gpu-unsupported ]
	[ "$(json_get '["causes"][1]["id"]')" = no-driver ]
}

@test "the same K80 bound to vfio-pci (passed to a virtual machine) is not the host driver's to judge" {
	add_pci_ids
	need_pkg libcuda1
	add_pkg "$root" libcuda1
	link_driver_libs "$root" "$MULTIARCH/nvidia/current"
	pci_dev 0000:3b:00.0 102d 030200 vfio-pci
	run_cudx --root "$root" --env "$env_file" --json
	lacks_finding driver-gpu-unsupported
	py 'f=next(f for f in r["findings"] if f["id"]=="no-driver"); print("\n".join(f["fix"]))' | grep -q "vfio-pci.ids"
}

@test "a GPU the NVIDIA driver lists gets its PCI facts, not a second entry" {
	add_pci_ids
	install_driver_535
	mkdir -p "$root/proc/driver/nvidia/gpus/0000:01:00.0"
	printf 'Model: \t\t NVIDIA GeForce RTX 4090\nBus Location: \t 0000:01:00.0\n' >"$root/proc/driver/nvidia/gpus/0000:01:00.0/information"
	pci_dev 0000:01:00.0 2684 030000 nvidia
	run_cudx --root "$root" --env "$env_file" --json
	[ "$(json_get '["inventory"]["gpus"].__len__()')" = 1 ]
	[ "$(json_get '["inventory"]["gpus"][0]["kernel_driver"]')" = nvidia ]
	[ "$(json_get '["inventory"]["gpus"][0]["pci_only"]')" = False ]
	[ "$(json_get '["inventory"]["gpus"][0]["source"]')" = /proc/driver/nvidia/gpus/0000:01:00.0/information ]
}

@test "without pci.ids the GPU is still found, by its device ID, with no compute capability" {
	pci_dev 0000:01:00.0 1380 030000
	run_cudx --root "$root" --env "$env_file" --json
	[ "$(json_get '["inventory"]["gpus"][0]["name"]')" = "NVIDIA device 10de:1380" ]
	[ "$(json_get '["inventory"]["gpus"][0]["compute_capability"]')" = None ]
	[ "$(finding_severity no-driver)" = error ]
}
