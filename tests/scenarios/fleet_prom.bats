#!/usr/bin/env bats
# --prom checked by Prometheus' own promtool, and the node_exporter textfile-collector recipe
# (packaging/systemd/, packaging/cudx-textfile) run end to end against Debian's
# prometheus-node-exporter, started by the test from a temp dir on a free port on 127.0.0.1 and
# stopped in teardown. Both programs are unpacked from Debian's packages, never installed
# (tests/fixtures/fetch-fleet-debs.sh).

load lib/cudx

PKGS=${CUDX_FLEET_CACHE:-$CUDX_SRC/build/fleet-pkgs}/root

setup() {
	tmp=$(mktemp -d "$BATS_TEST_TMPDIR/prom.XXXXXX")
	mkdir -p "$tmp/root/etc" "$tmp/textfile"
	# a tree with findings whose subjects need escaping in label values
	printf 'LD_LIBRARY_PATH=/opt/we"ird\\dir:/usr/local/cuda/lib64/stubs\n' >"$tmp/root.env"
	ne_pid=
}

teardown() {
	if [ -n "$ne_pid" ]; then
		kill "$ne_pid" 2>/dev/null
		wait "$ne_pid" 2>/dev/null
	fi
	return 0
}

need() {
	[ -x "$PKGS/usr/bin/$1" ] || skip_fixture "needs $1 from Debian's $2 package, unpacked by tests/fixtures/fetch-fleet-debs.sh into $PKGS"
}

@test "promtool check metrics accepts --prom of this machine and of a tree with escaped labels" {
	need promtool prometheus
	"$CUDX" --no-probe --prom >"$tmp/live.prom" || [ $? -eq 1 ]
	run "$PKGS/usr/bin/promtool" check metrics <"$tmp/live.prom"
	[ "$status" -eq 0 ]
	[ -z "$output" ]
	"$CUDX" --root "$tmp/root" --env "$tmp/root.env" --prom >"$tmp/tree.prom" || [ $? -eq 1 ]
	grep -qF 'subject="/opt/we\"ird\\dir"' "$tmp/tree.prom"
	run "$PKGS/usr/bin/promtool" check metrics <"$tmp/tree.prom"
	[ "$status" -eq 0 ]
	[ -z "$output" ]
	# promtool does fail on a broken exposition: the check above can fail
	sed 's/^cudx_gpus /cudx gpus /' "$tmp/tree.prom" >"$tmp/broken.prom"
	run "$PKGS/usr/bin/promtool" check metrics <"$tmp/broken.prom"
	[ "$status" -ne 0 ]
}

@test "promtool check rules accepts the alerting rules" {
	need promtool prometheus
	run "$PKGS/usr/bin/promtool" check rules "$CUDX_SRC/packaging/prometheus/cudx.rules.yml"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == *"SUCCESS: 3 rules found"* ]]
}

@test "the systemd units pass systemd-analyze verify" {
	command -v systemd-analyze >/dev/null || skip_fixture "systemd-analyze missing"
	unit="$CUDX_BUILD/packaging/cudx-prometheus.service"
	[ -f "$unit" ] || skip_fixture "no configured unit in $CUDX_BUILD (cmake configures packaging/install.cmake)"
	# verify resolves units and the ExecStart program inside --root: a tree with systemd's own
	# units (copied), the helper where the unit says it is, and our two units
	exe=$(sed -n 's/^ExecStart=\([^ ]*\).*/\1/p' "$unit")
	r=$tmp/sysroot
	mkdir -p "$r/lib/systemd" "$r/etc/systemd/system" "$r$(dirname "$exe")"
	cp -r /lib/systemd/system "$r/lib/systemd/"
	cp "$CUDX_SRC/packaging/cudx-textfile" "$r$exe"
	cp "$unit" "$CUDX_SRC/packaging/systemd/cudx-prometheus.timer" "$r/etc/systemd/system/"
	run systemd-analyze verify --man=no --root="$r" /etc/systemd/system/cudx-prometheus.service \
		/etc/systemd/system/cudx-prometheus.timer
	echo "$output"
	[ "$status" -eq 0 ]
	[ -z "$output" ]
	rm "$r$exe"
	run systemd-analyze verify --man=no --root="$r" /etc/systemd/system/cudx-prometheus.service
	[ "$status" -ne 0 ]
}

# start node_exporter with only the textfile collector on a free port; sets ne_pid and url
start_node_exporter() {
	local port i
	port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
	"$PKGS/usr/bin/prometheus-node-exporter" --web.listen-address="127.0.0.1:$port" --collector.disable-defaults \
		--collector.textfile --collector.textfile.directory="$tmp/textfile" >"$tmp/node_exporter.log" 2>&1 &
	ne_pid=$!
	url="http://127.0.0.1:$port/metrics"
	for i in $(seq 1 50); do
		curl -fsS "$url" >/dev/null 2>&1 && return 0
		sleep 0.2
	done
	cat "$tmp/node_exporter.log"
	return 1
}

# The samples of a Prometheus text exposition as "name{sorted labels} value", for comparing what
# cudx wrote with what node_exporter serves.
samples() {
	python3 -c '
import re, sys
for line in sys.stdin:
    line = line.rstrip("\n")
    if not line.startswith("cudx_"):
        continue
    m = re.match(r"([a-z_]+)(?:\{(.*)\})? (\S+)$", line)
    labels = sorted(re.findall(r"([a-z_]+)=\"((?:[^\"\\\\]|\\\\.)*)\"", m.group(2) or ""))
    print(m.group(1), labels, float(m.group(3)))
' | sort
}

@test "node_exporter's textfile collector serves what the unit's ExecStart wrote, atomically" {
	need prometheus-node-exporter prometheus-node-exporter
	command -v curl >/dev/null || skip_fixture "curl missing"
	unit="$CUDX_BUILD/packaging/cudx-prometheus.service"
	[ -f "$unit" ] || skip_fixture "no configured unit in $CUDX_BUILD"
	start_node_exporter
	# the unit's command, with the installed paths pointing into this tree and the temp dir
	cmd=$(sed -n 's/^ExecStart=//p' "$unit")
	exe=${cmd%% *}
	[ "$(basename "$exe")" = cudx-textfile ]
	cmd=${cmd/#$exe/$CUDX_SRC/packaging/cudx-textfile}
	cmd=${cmd//\/var\/lib\/prometheus\/node-exporter/$tmp/textfile}
	[[ "$cmd" == *" --no-probe"* ]]
	CUDX="$CUDX" $cmd
	[ "$(ls -A "$tmp/textfile")" = cudx.prom ] # the temporary file is gone
	curl -fsS "$url" >"$tmp/scrape"
	grep -q '^node_textfile_scrape_error 0' "$tmp/scrape"
	grep -q 'node_textfile_mtime_seconds{file="[^"]*cudx.prom"}' "$tmp/scrape"
	"$CUDX" --no-probe --prom | samples >"$tmp/direct" || true
	samples <"$tmp/scrape" >"$tmp/served"
	[ -s "$tmp/direct" ]
	diff "$tmp/direct" "$tmp/served"

	# another tree through the same helper: the escaped subjects arrive intact
	CUDX="$CUDX" "$CUDX_SRC/packaging/cudx-textfile" "$tmp/textfile" --root "$tmp/root" --env "$tmp/root.env"
	curl -fsS "$url" >"$tmp/scrape2"
	grep -qF 'cudx_finding{id="ld-library-path-missing-dir",severity="warning",subject="/opt/we\"ird\\dir"} 1' "$tmp/scrape2"
	grep -q '^node_textfile_scrape_error 0' "$tmp/scrape2"

	# a failing run (usage error) keeps the last good file and leaves no temporary file
	before=$(cat "$tmp/textfile/cudx.prom")
	run env CUDX="$CUDX" "$CUDX_SRC/packaging/cudx-textfile" "$tmp/textfile" --no-such-option
	[ "$status" -eq 2 ]
	[ "$(cat "$tmp/textfile/cudx.prom")" = "$before" ]
	[ "$(ls -A "$tmp/textfile")" = cudx.prom ]
}
