#!/usr/bin/env bats
# Finding ids are public API: every id the code can emit is documented, and docs/findings.md is
# the current assembly of docs/findings/*.md.

load lib/cudx

ids_in_code() {
	# every finding is made through a rule entry (src/diag/rule.h): the registry lists them all
	python3 -c 'import json,sys; [print(f["id"]) for f in json.load(sys.stdin)["kb"]["findings"]]' <<<"$output"
}

@test "every finding id in the code is documented in docs/findings.md" {
	run_strict "$CUDX" kb findings --json
	[ "$(ids_in_code | wc -l)" -gt 40 ] # the registry answered
	missing=""
	for id in $(ids_in_code | sort -u); do
		grep -qE "(\`$id\`|^#+ $id\$)" "$CUDX_SRC/docs/findings.md" || missing="$missing $id"
	done
	[ -z "$missing" ] || { echo "undocumented finding ids:$missing"; return 1; }
}

@test "docs/findings.md is assembled from docs/findings/*.md" {
	tmp=$(mktemp -d)
	cp -a "$CUDX_SRC/docs" "$CUDX_SRC/scripts" "$tmp/"
	(cd "$tmp" && sh scripts/findings-doc.sh)
	diff -u "$CUDX_SRC/docs/findings.md" "$tmp/docs/findings.md"
	rm -rf "$tmp"
}
