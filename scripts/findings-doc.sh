#!/bin/sh
# Assemble docs/findings.md from the per-module pages in docs/findings/ (each module documents the
# finding ids it emits). Run after editing a page; tests/scenarios/docs.bats checks it is current.
set -eu
cd "$(dirname "$0")/.."
{
	echo "# Findings"
	echo
	echo "Every finding has a stable id: scripts and dashboards may match on it. Ids are never reused"
	echo "for another meaning; a finding that is retired keeps its id reserved. Severity: \`error\` (the"
	echo "stack cannot work as configured; \`cudx check\` exits 1), \`warning\` (works with a limitation"
	echo "or may break), \`info\`. Each finding carries its cause, the evidence cudx observed, the fix and"
	echo "references; the JSON layout is in [json.md](json.md)."
	echo
	for f in core loader arch probe python windows explain run kb fleet; do
		[ -f "docs/findings/$f.md" ] || continue
		echo
		sed 's/^#/##/' "docs/findings/$f.md"
	done
} >docs/findings.md
