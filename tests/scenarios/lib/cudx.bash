# Strict helpers for every scenario that runs cudx. A test must be able to fail with a broken
# binary (CUDX=/bin/false, one that prints `{}`, one that prints an empty envelope), so:
#   - run_strict checks the exit status right away: 0 or 1 (a diagnosis), never a crash, a
#     sanitizer report (tests.cmake makes those exit 86) or a usage error, unless the test names
#     the status it expects (run_strict -2 ...);
#   - with --json, stdout must be one JSON object with a findings array of {id: ...} objects,
#     checked before the test looks at anything, so an absence check (lacks_finding) can never
#     pass on empty or garbage output;
#   - finding_ids parses the JSON or fails: no grep fallback (and no `jq -e`, which exits 0 on
#     empty input in Debian's jq 1.6).
#
#   run_strict "$CUDX" --json why libz.so.1          # status 0/1, JSON envelope checked
#   run_strict env X=1 "$CUDX" probe --json          # any wrapper command in front
#   run_strict -2 "$CUDX" arch                       # a usage error is expected: status exactly 2
#   has_finding ID / lacks_finding ID / finding_ids / finding_severity ID / json_get '["k"]'
#   run_to_file out.json "$CUDX" --json check        # the same checks, stdout kept in a file
#   skip_fixture "needs X"                           # a skip, or a failure under CUDX_TEST_STRICT=1

: "${CUDX:?CUDX must point at the cudx binary}"
# (also sourced outside bats, by fixture scripts such as tests/fixtures/fleet/make-reports.sh)
if declare -F bats_require_minimum_version >/dev/null; then bats_require_minimum_version 1.5.0; fi

# Commands whose --json is not yet the cudx/1 envelope (issue 12 converts them): for these the
# output must be a JSON object, but a findings array is not required yet. Remove a command from
# the list when its envelope lands.
CUDX_JSON_PRE_ENVELOPE=${CUDX_JSON_PRE_ENVELOPE-""}
CUDX_COMMANDS="check why tree arch probe explain kb run compare"
CUDA13=${CUDX_CUDA13:-/usr/local/cuda-13.0}

# python3 through a version manager's shim (pyenv) costs a second a call on a busy machine, and
# the checks here call it often: the interpreter the shim picks goes first on PATH, resolved once
# per test file (exported from bats' file process to its tests).
if [ -z "${CUDX_PYTHON_DIR:-}" ]; then
	CUDX_PYTHON_DIR=$(dirname "$(python3 -c 'import sys; print(sys.executable)')")
	export CUDX_PYTHON_DIR
fi
PATH=$CUDX_PYTHON_DIR:$PATH

# A missing fixture (package not fetched, toolkit absent, not root): a skip during development, a
# failure in CI (CUDX_TEST_STRICT=1, set by .ci/run), so that CI never reports green on tests that
# did not run.
skip_fixture() {
	if [ "${CUDX_TEST_STRICT:-0}" = 1 ]; then
		echo "CUDX_TEST_STRICT=1: a missing fixture fails the test: $*" >&2
		return 1
	fi
	skip "$*"
}

need_cuda13() {
	[ -e "$CUDA13/lib/libcudart.so.13" ] || skip_fixture "needs the CUDA 13 toolkit at $CUDA13"
}

# The words of a command line, one per line, quotes dropped (a `bash -c "..."` string is split).
cudx_words() {
	printf '%s\n' "$@" | tr -d "'\"" | tr -s ' \t' '\n\n'
}

# The cudx subcommand of a command line ("check" when none is named): the first command name after
# the word "$CUDX", also inside a `bash -c "..."` string.
cudx_subcommand() {
	local w seen=0
	while IFS= read -r w; do
		if [ "$seen" = 0 ]; then
			[ "$w" = "$CUDX" ] && seen=1
			continue
		fi
		case " $CUDX_COMMANDS " in *" $w "*)
			echo "$w"
			return
			;;
		esac
	done < <(cudx_words "$@")
	echo check
}

# Validate $output as cudx's JSON for subcommand $1.
cudx_json_ok() {
	local need=1
	case " $CUDX_JSON_PRE_ENVELOPE " in *" $1 "*) need=0 ;; esac
	python3 -c '
import json, sys
try:
    r = json.loads(sys.stdin.read())
except ValueError as e:
    sys.exit("cudx --json printed no valid JSON: %s" % e)
if not isinstance(r, dict):
    sys.exit("cudx --json printed %s, not a JSON object" % type(r).__name__)
if sys.argv[1] == "1":
    f = r.get("findings")
    if not isinstance(f, list):
        sys.exit("cudx --json printed no findings array")
    for x in f:
        if not isinstance(x, dict) or not isinstance(x.get("id"), str) or not x["id"]:
            sys.exit("a finding without an id: %r" % (x,))
' "$need" <<<"$output"
}

# strict_checks WANT JSON CMD...: run_strict's checks of $status (and, when JSON is 1, $output) for
# the command line CMD; WANT is the status the test names, or empty for 0/1.
strict_checks() {
	local want=$1 json=$2
	shift 2
	if [ -n "$want" ]; then
		[ "$status" -eq "$want" ] || { echo "cudx exited $status, expected $want: $output $stderr"; return 1; }
		return 0
	fi
	case $status in
	0 | 1) ;;
	*)
		echo "cudx exited $status (0 or 1 expected: a crash, a sanitizer report or a usage error): $output $stderr"
		return 1
		;;
	esac
	if [ "$json" = 1 ]; then
		cudx_json_ok "$(cudx_subcommand "$@")" || { echo "stdout: ${output:0:2000}"; echo "stderr: ${stderr:0:2000}"; return 1; }
	fi
	return 0
}

# run_strict [-N] CMD...: bats' run, then the checks above. With --json, stderr is kept apart in
# $stderr so that stdout can be parsed whole.
run_strict() {
	local want=
	case ${1:-} in -[0-9]*) want=${1#-}; shift ;; esac
	local json=0
	cudx_words "$@" | grep -qx -- --json && json=1
	if [ "$json" = 1 ] && [ -z "$want" ]; then
		run --separate-stderr "$@"
	else
		run "$@"
		stderr=
	fi
	strict_checks "$want" "$json" "$@"
}

# run_to_file [-N] FILE CMD...: CMD with its stdout in FILE and stderr in FILE.err (for tests that
# compare several outputs later), then run_strict's checks; $status, $output and $stderr as there.
run_to_file() {
	local want= file json=0
	case ${1:-} in -[0-9]*) want=${1#-}; shift ;; esac
	file=$1
	shift
	cudx_words "$@" | grep -qx -- --json && json=1
	status=0
	"$@" >"$file" 2>"$file.err" || status=$?
	output=$(cat "$file")
	stderr=$(cat "$file.err")
	strict_checks "$want" "$json" "$@"
}

# Finding ids in the JSON output ($output), one per line; fails on anything but cudx's JSON.
finding_ids() {
	python3 -c 'import json,sys; print("\n".join(f["id"] for f in json.load(sys.stdin)["findings"]))' <<<"$output"
}

has_finding() {
	local ids
	ids=$(finding_ids) || { echo "no findings in the output: ${output:0:500}"; return 1; }
	grep -qx -- "$1" <<<"$ids" || { echo "expected finding $1; got: $(tr '\n' ' ' <<<"$ids")"; return 1; }
}

lacks_finding() {
	local ids
	ids=$(finding_ids) || { echo "no findings in the output: ${output:0:500}"; return 1; }
	! grep -qx -- "$1" <<<"$ids" || { echo "unexpected finding $1"; return 1; }
}

# Severity of the first finding with an id.
finding_severity() {
	python3 -c 'import json,sys; print(next(f["severity"] for f in json.load(sys.stdin)["findings"] if f["id"]==sys.argv[1]))' "$1" <<<"$output"
}

no_error_findings() {
	local n
	n=$(python3 -c 'import json,sys; print(sum(f["severity"]=="error" for f in json.load(sys.stdin)["findings"]))' <<<"$output") || return 1
	[ "$n" = 0 ] || { echo "expected no error findings; got: $(finding_ids | tr '\n' ' ')"; return 1; }
}

# jq-less JSON query: json_get '["inventory"]["driver"]["kernel_version"]'
json_get() {
	python3 -c "import json,sys; v=json.load(sys.stdin)$1; print(v if not isinstance(v,(dict,list)) else json.dumps(v))" <<<"$output"
}

# lib_field PATH FIELD: a field of the inventory's library whose path is PATH (or ends with /PATH),
# "absent" when there is none: a positive check that check did look at a library.
lib_field() {
	python3 -c '
import json, sys
libs = json.load(sys.stdin)["inventory"]["libraries"]
l = next((l for l in libs if l["path"] == sys.argv[1] or l["path"].endswith("/" + sys.argv[1])), None)
print("absent" if l is None else l.get(sys.argv[2]))' "$1" "$2" <<<"$output"
}

# py 'EXPR' ARGS...: python with the output parsed as r (sys.argv holds ARGS).
py() {
	python3 -c "import json,sys
r=json.loads(sys.stdin.read())
$1" "${@:2}" <<<"$output"
}
