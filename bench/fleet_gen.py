#!/usr/bin/env python3
"""Make a fleet of `cudx check --json` reports from a few real ones.

    fleet_gen.py BASE_DIR OUT_DIR N [SEED]

BASE_DIR holds real reports (tests/fixtures/fleet/make-reports.sh writes them: healthy_535.json,
old_470.json, ...). Each of the N nodes gets one of them, as a cluster would look: most nodes the
usual configuration, a few percent the odd ones (an old driver, CUDA 13 on a 535 node, the stubs
on LD_LIBRARY_PATH, a kernel module upgraded without its libraries, another partition's GPUs),
then small drifts that happen on real nodes (a GPU fallen off the bus, a point release of the
driver). Every node is a live report of its own host name, written the way cudx writes JSON
(indent 2, ASCII), as OUT_DIR/nodeNNNNN.json.
"""
import copy
import json
import os
import random
import sys

# configuration -> share of the fleet; the first is the majority
MIX = [
    ("healthy_535", 0.90),
    ("cudnn_535", 0.04),
    ("h100_535", 0.03),
    ("old_470", 0.01),
    ("cuda13_535", 0.008),
    ("stubs_535", 0.006),
    ("mismatch_550", 0.006),
]


def drift(rep, rnd):
    """Small changes seen on real nodes, applied to a few."""
    inv = rep["inventory"]
    r = rnd.random()
    if r < 0.004 and inv["gpus"]:
        inv["gpus"].pop()  # a GPU fell off the bus
    elif r < 0.008 and inv["driver"].get("effective_version"):
        for k in ("libcuda_version", "nvml_version", "effective_version"):
            if inv["driver"].get(k):
                inv["driver"][k] = "535.216.01"  # a point release on a few nodes


def main():
    base_dir, out_dir, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
    rnd = random.Random(int(sys.argv[4]) if len(sys.argv) > 4 else 15)
    bases = {}
    for name, _ in MIX:
        path = os.path.join(base_dir, name + ".json")
        if os.path.exists(path):
            with open(path) as f:
                bases[name] = json.load(f)
    if not bases:
        sys.exit("fleet_gen.py: no base reports in " + base_dir)
    names = [m for m, _ in MIX if m in bases]
    weights = [w for m, w in MIX if m in bases]
    os.makedirs(out_dir, exist_ok=True)
    for i in range(n):
        rep = copy.deepcopy(bases[rnd.choices(names, weights)[0]])
        host = "node%05d" % i
        rep["system"].update(root="/", live=True, hostname=host, kernel="6.1.0-18-amd64", machine="x86_64")
        drift(rep, rnd)
        with open(os.path.join(out_dir, host + ".json"), "w") as f:
            json.dump(rep, f, indent=2, ensure_ascii=True)
            f.write("\n")


if __name__ == "__main__":
    main()
