#!/usr/bin/env bats
# The Slurm recipe (packaging/slurm/cudx-fleet.sbatch) on a real one-node Slurm cluster started on
# this machine by tests/fixtures/fleet/slurm-run.sh: Debian's slurmctld, slurmd and munge unpacked
# (never installed), their own config, key, socket, state and free ports in a temp dir, in a
# private mount namespace, all stopped when the jobs are done.

load lib/cudx

# One cluster for the file: two jobs, one over a fresh directory, one over a directory that already
# holds the reports of two nodes with another driver (made with --driver), side by side on the
# node's two CPUs. Their exit statuses are sbatch --wait's.
setup_file() {
	export TMP="$BATS_FILE_TMPDIR"
	mkdir -p "$TMP/run2/reports"
	run_to_file "$TMP/ghost.json" "$CUDX" --no-probe --json --driver 535.104.05
	cp "$TMP/ghost.json" "$TMP/run2/reports/ghost.json"
	cp "$TMP/ghost.json" "$TMP/run2/reports/ghost2.json"
	# its status is kept, not fatal here: 77 (Slurm cannot start) makes every test skip, in setup
	local rc=0
	env CUDX="$CUDX" "$CUDX_SRC/tests/fixtures/fleet/slurm-run.sh" "$TMP/cluster" sh -c '
		cd "$1" || exit 2
		(sbatch --wait -N1 --output=job1.out "$2" "$1/run1" >/dev/null; echo $? >status1) &
		(sbatch --wait -N1 --output=job2.out "$2" "$1/run2" >/dev/null; echo $? >status2) &
		wait' \
		sh "$TMP" "$CUDX_SRC/packaging/slurm/cudx-fleet.sbatch" >"$TMP/slurm.log" 2>&1 || rc=$?
	echo "$rc" >"$TMP/slurm.status"
}

# should the run have been cut short: no daemon outlives the file (the pid files are ours)
teardown_file() {
	local f pid
	for f in slurmd slurmctld munged; do
		pid=$(cat "$TMP/cluster/$f.pid" 2>/dev/null) || continue
		case $(ps -o comm= -p "$pid" 2>/dev/null) in
		"$f"*) kill "$pid" 2>/dev/null ;;
		esac
	done
	return 0
}

setup() {
	[ "$(cat "$TMP/slurm.status")" != 77 ] || skip_fixture "Slurm cannot start here: $(cat "$TMP/slurm.log")"
	host=$(hostname -s)
}

@test "sbatch over the nodes: one report per node in one directory, compared; exit 0 when alike" {
	cat "$TMP/slurm.log" "$TMP/job1.out"
	[ "$(cat "$TMP/status1")" -eq 0 ]
	# the node's own report, named by srun after the node, a cudx/1 check report of this host
	[ "$(ls "$TMP/run1/reports")" = "$host.json" ]
	[ "$(jq -r .schema "$TMP/run1/reports/$host.json")" = cudx/1 ]
	[ "$(jq -r .system.hostname "$TMP/run1/reports/$host.json")" = "$(hostname)" ]
	[ "$(jq -r .system.live "$TMP/run1/reports/$host.json")" = true ]
	grep -q "cudx compare: 1 node, all alike" "$TMP/run1/compare.txt"
	grep -q "cudx compare: 1 node, all alike" "$TMP/job1.out"
	[ "$(jq -r .command "$TMP/run1/compare.json")" = compare ]
	[ "$(jq -r .nodes "$TMP/run1/compare.json")" = 1 ]
}

@test "a node that differs makes the job fail with compare's verdict" {
	cat "$TMP/job2.out"
	[ "$(cat "$TMP/status2")" -eq 1 ]
	[ -s "$TMP/run2/reports/$host.json" ]
	grep -q "cudx compare: 3 nodes, 1 differs from the majority" "$TMP/run2/compare.txt"
	grep -q "^  $host: .*(majority 535.104.05, 2 of 3 nodes)" "$TMP/run2/compare.txt"
}

@test "no Slurm daemon is left running" {
	for f in munged slurmctld slurmd; do
		pid=$(cat "$TMP/cluster/$f.pid" 2>/dev/null) || continue
		state=$(ps -o stat= -p "$pid" 2>/dev/null || true)
		[ -z "$state" ] || [[ "$state" == Z* ]]
	done
}
