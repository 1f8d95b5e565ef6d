#!/bin/bash
# How often `cudx explain` puts the confirmed cause first on real reports: from their text alone,
# and with the machine each report describes rebuilt as a --root tree, which is how explain is
# meant to run (on the machine where the message appeared).
#
#   scripts/explain-accuracy-machine.sh SET [--cudx BIN] [-v]
#   scripts/explain-accuracy-machine.sh SET --build-only [ID...]
#
# SET is a directory of tests/fixtures/explain/machine/: items.jsonl (id, message, state: what the
# report says of the machine), labels.jsonl (id, finding, also_ok: the cause its thread confirmed),
# trees/ID/build.sh (the recipe of each item's tree, made from the state alone by someone who did
# not see the labels; helpers in trees/lib-*.sh and ../lib/) and, when present, expert-A.jsonl /
# expert-B.jsonl (an expert's three causes from the message alone / with the state), scored the
# same way. An item is right when the first cause's finding id is its finding or one of also_ok;
# items labelled "none" are not scored.
#
# The trees are built under build/explain-machine/NAME (as root, in a mount namespace where nothing
# else is writable) with the scenario tests' helpers
# (tests/scenarios/lib/sysroot.bash: real NVIDIA files only through the build tree's host-file
# cache, small ELF stand-ins compiled here), so nothing outside build/ is written. They need the
# Debian packages of tests/fixtures/fetch-nvidia-debs.sh in build/pkgs, the CUDA 13 toolkit at
# /usr/local/cuda-13.0 and, for the Windows items, mingw-w64; an item whose tree cannot be built
# is scored against an empty tree and named. --build-only builds the trees (all, or the IDs named)
# and scores nothing: how a tree builder checks a recipe (then `cudx check --root` on it).
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
set_dir= cudx=$src/build/cudx verbose=0 build_only=0 only=
while [ $# -gt 0 ]; do
	case $1 in
	--cudx) cudx=$2; shift ;;
	-v) verbose=1 ;;
	--build-only) build_only=1 ;;
	*) if [ -z "$set_dir" ]; then set_dir=$1; else only="$only $1"; fi ;;
	esac
	shift
done
[ -d "$set_dir" ] || { echo "usage: $0 SET [--cudx BIN] [-v] | SET --build-only [ID...]" >&2; exit 2; }
[ -z "$only" ] || [ "$build_only" = 1 ] || { echo "$0: IDs only with --build-only" >&2; exit 2; }
set_dir=$(cd "$set_dir" && pwd)
[ -x "$cudx" ] || { echo "$0: no cudx at $cudx (make build, or --cudx BIN)" >&2; exit 2; }
command -v python3 >/dev/null || { echo "$0: needs python3" >&2; exit 2; }

work=$src/build/explain-machine/$(basename "$set_dir")
# one run at a time over build/explain-machine (the shared lib/ copy, the PE fixtures): several
# tree builders may call --build-only at once
mkdir -p "$work"
exec 9>"$work/../.lock"
flock 9
mkdir -p "$work/cache"
# a set collected without its machines (no trees/): the text is scored alone
text_only=0
[ -d "$set_dir/trees" ] || text_only=1
if [ "$text_only" = 1 ]; then
	[ "$build_only" = 0 ] || { echo "$0: $set_dir has no trees/ to build" >&2; exit 2; }
	rm -rf "$work/trees" && mkdir -p "$work/trees"
elif [ -z "$only" ]; then
	rm -rf "$work/trees"
	cp -r "$set_dir/trees" "$work/trees"
else # rebuild the named trees only; the others stay as built
	mkdir -p "$work/trees"
	find "$set_dir/trees" -maxdepth 1 -type f -exec cp {} "$work/trees/" \;
	for id in $only; do
		[ -f "$set_dir/trees/$id/build.sh" ] || { echo "$0: no recipe $set_dir/trees/$id/build.sh" >&2; exit 2; }
		rm -rf "${work:?}/trees/$id" && cp -r "$set_dir/trees/$id" "$work/trees/$id"
	done
fi
if [ "$text_only" = 0 ]; then
	# the recipes' shared helpers, where ../../lib of a set's trees/ finds them
	rm -rf "$work/../lib" && cp -r "$set_dir/../lib" "$work/../lib"
	# what the recipes read (tests/fixtures/explain/machine/README.md)
	export CUDX=$cudx CUDX_SRC=$src EXPLAIN_WORK=$work EXPLAIN_TREES=$work/trees
	export CUDX_PKG_CACHE=${CUDX_PKG_CACHE:-$src/build/pkgs}
	export WINFIX=$work/winfix
	# A recipe writes "$R/etc/...", "$R/usr/...": were $R ever empty (a helper that failed to load),
	# that would be the host's /etc and /usr. As root, recipes therefore run in a mount namespace of
	# their own where everything but the set's build directory is read-only, without the capability to
	# make device nodes or load modules: a broken recipe fails instead of changing the host. (Without
	# unshare, as nobody, who can write nothing else either, but cannot give a tree's files owners.)
	as_builder() {
		if [ "$(id -u)" != 0 ]; then
			"$@"
		elif unshare --mount true 2>/dev/null; then
			W=$work unshare --mount --propagation private -- \
				setpriv --bounding-set=-mknod,-sys_module --inh-caps=-mknod,-sys_module -- \
				sh -c 'mount --bind "$W" "$W" || exit 1
					for m in $(cut -d" " -f2 /proc/self/mounts); do
						[ "$m" = "$W" ] || mount -o remount,bind,ro "$m" 2>/dev/null || true
					done
					mount -o remount,bind,ro / || exit 1
					exec "$@"' as_builder "$@"
		else
			chown -R 65534:65534 "$work"
			setpriv --reuid=65534 --regid=65534 --clear-groups --no-new-privs -- env HOME=/nonexistent "$@"
		fi
	}
	# /tmp is read-only in the namespace: the PE fixtures' temporaries go under the build directory
	mkdir -p "$work/tmp"
	TMPDIR=$work/tmp as_builder sh "$src/tests/fixtures/windows/build.sh" "$WINFIX" >/dev/null 2>&1 ||
		echo "note: no PE fixtures (mingw-w64 missing): Windows trees will not build" >&2
	failed=
	for b in "$work"/trees/*/build.sh; do
		id=$(basename "$(dirname "$b")")
		[ -z "$only" ] || case " $only " in *" $id "*) ;; *) continue ;; esac
		as_builder bash "$b" >"$work/trees/$id/build.log" 2>&1 || { failed="$failed $id"; rm -rf "$work/trees/$id/root"; }
	done
	[ -z "$failed" ] || echo "trees not built (scored against an empty tree):$failed" >&2
	# a recipe stands for a device node with an empty file (cudx only asks whether it exists): a real
	# one, made by mistake, would give any user the GPU and must not stay
	nodes=$(find "$work" -xdev \( -type c -o -type b \) -print -delete)
	[ -z "$nodes" ] || { echo "$0: a recipe made device nodes (removed): $nodes" >&2; exit 1; }
	if [ "$build_only" = 1 ]; then
		echo "trees in $work/trees (ID/root, ID/env, ID/args, ID/build.log)"
		[ -z "$failed" ] || exit 1
		exit 0
	fi
fi

python3 - "$cudx" "$set_dir" "$work/trees" "$verbose" <<'EOF'
import json, os, subprocess, sys, tempfile
cudx, set_dir, trees, verbose = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4] == "1"
def rows(name):
    p = os.path.join(set_dir, name)
    return {j["id"]: j for j in map(json.loads, filter(str.strip, open(p, encoding="utf-8")))} if os.path.exists(p) else None
items, labels = rows("items.jsonl"), rows("labels.jsonl")
empty = tempfile.mkdtemp()
def causes(id_, tree):
    args = [cudx, "explain", "--no-probe", "--json"]
    d = os.path.join(trees, id_)
    if tree and os.path.isdir(os.path.join(d, "root")):
        args += ["--root", os.path.join(d, "root")]
        if os.path.exists(os.path.join(d, "env")):
            args += ["--env", os.path.join(d, "env")]
        if os.path.exists(os.path.join(d, "args")):
            args += [a for a in open(os.path.join(d, "args")).read().split("\n") if a]
    else:
        args += ["--root", empty]
    r = subprocess.run(args + ["-"], input=items[id_]["message"].encode(), capture_output=True)
    try:
        return [c["id"] for c in json.loads(r.stdout).get("causes", [])]
    except ValueError:
        return []
ways = [("text only (an empty --root)", lambda i: causes(i, False))]
if os.listdir(trees):  # a set with its machines
    ways.append(("with the machine state (--root tree)", lambda i: causes(i, True)))
for name, label in (("expert-A.jsonl", "expert, message alone"), ("expert-B.jsonl", "expert, message and state")):
    e = rows(name)
    if e:
        ways.append((label, lambda i, e=e: e[i]["ranked"] if i in e else []))
scored = [i for i, l in labels.items() if l["finding"] != "none"]
print("%s: %d reports with a confirmed finding" % (os.path.basename(set_dir), len(scored)))
for label, get in ways:
    first = top3 = 0
    for i in scored:
        ok = {labels[i]["finding"], *labels[i].get("also_ok", [])}
        ids = get(i)
        first += bool(ids) and ids[0] in ok
        top3 += any(x in ok for x in ids[:3])
        if verbose and not (ids and ids[0] in ok):
            print("  %s: want %s, got %s" % (i, sorted(ok), ids[:3]))
    print("  %-38s right cause first %d (%.1f %%), among the first three %d (%.1f %%)"
          % (label, first, 100.0 * first / len(scored), top3, 100.0 * top3 / len(scored)))
EOF
