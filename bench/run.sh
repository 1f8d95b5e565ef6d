#!/usr/bin/env bash
# Every benchmark, each comparing cudx with the tool a user would otherwise run, in one run.
here=$(cd "$(dirname "$0")" && pwd)
for b in "$here"/check.sh "$here"/tree.sh "$here"/arch.sh "$here"/probe.sh "$here"/run_audit.sh "$here"/compare.sh; do
	[ -x "$b" ] || continue
	echo "== $(basename "$b")"
	"$b"
	echo
done
