#!/bin/sh
# How often `cudx explain` puts the right cause first on a set of real reports, on their text alone.
#   scripts/explain-accuracy.sh [CASES.jsonl] [--cudx BIN] [--half even|odd] [-v]
# CASES.jsonl: one JSON object a line with "error_text" and "category" (the research's
# error-cases.jsonl format; default: tests/fixtures/explain/error-cases.jsonl). Each text goes to
# `cudx explain --json` against an empty tree, so that no machine confirms or contradicts anything:
# the answer is the text's. A case is right when the category of the first cause of the most
# relevant message is the case's category. --half takes every other case (even: the ones the
# tables were tuned on; odd: the others). -v lists every miss.
set -eu
src=$(cd "$(dirname "$0")/.." && pwd)
cases=$src/tests/fixtures/explain/error-cases.jsonl
cudx=$src/build/cudx
half=all
verbose=0
while [ $# -gt 0 ]; do
	case $1 in
	--cudx) cudx=$2; shift ;;
	--half) half=$2; shift ;;
	-v) verbose=1 ;;
	*) cases=$1 ;;
	esac
	shift
done
command -v jq >/dev/null || { echo "explain-accuracy.sh: needs jq" >&2; exit 2; }
[ -x "$cudx" ] || { echo "explain-accuracy.sh: no cudx at $cudx (make build, or --cudx BIN)" >&2; exit 2; }
empty=$(mktemp -d)
trap 'rm -rf "$empty"' EXIT
total=0 right=0 among=0 i=0
while IFS= read -r line; do
	[ -n "$line" ] || continue
	i=$((i + 1))
	case $half in
	even) [ $((i % 2)) -eq 1 ] || continue ;;
	odd) [ $((i % 2)) -eq 0 ] || continue ;;
	esac
	want=$(printf '%s' "$line" | jq -r '.category')
	id=$(printf '%s' "$line" | jq -r '.id // "?"')
	out=$(printf '%s' "$line" | jq -r '.error_text' | "$cudx" explain --no-probe --root "$empty" --json - 2>/dev/null || true)
	got=$(printf '%s' "$out" | jq -r '.causes[0].category // "none"')
	total=$((total + 1))
	if [ "$got" = "$want" ]; then
		right=$((right + 1))
	elif [ $verbose = 1 ]; then
		printf '%s: want %s, got %s (%s)\n' "$id" "$want" "$got" "$(printf '%s' "$out" | jq -r '[.causes[].cause] | join(", ")')"
	fi
	printf '%s' "$out" | jq -e --arg c "$want" '[.causes[].category] | index($c) != null' >/dev/null && among=$((among + 1))
done <"$cases"
[ $total -gt 0 ] || { echo "explain-accuracy.sh: no cases in $cases" >&2; exit 2; }
echo "$total cases ($half): right cause first $right ($((right * 1000 / total / 10)).$((right * 1000 / total % 10)) %), among the causes $among"
