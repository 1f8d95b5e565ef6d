#!/usr/bin/env bats
# Finding ids are public API: every id the code can emit is documented, and docs/findings.md is
# the current assembly of docs/findings/*.md.

ids_in_code() {
	# rule tables `{ "id", SEV_...` and direct finding_add(..., "id", SEV_...) calls
	grep -rhoE '\{ *"[a-z0-9]+(-[a-z0-9]+)+", *SEV_' "$CUDX_SRC/src" | sed -E 's/\{ *"([^"]+)".*/\1/'
	grep -rhoE 'finding_add\([^,]+, *"[a-z0-9]+(-[a-z0-9]+)+"' "$CUDX_SRC/src" | sed -E 's/.*"([^"]+)"$/\1/'
}

@test "every finding id in the code is documented in docs/findings.md" {
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
