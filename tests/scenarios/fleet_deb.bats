#!/usr/bin/env bats
# The Debian package, built with Debian's tools (packaging/build-deb.sh: dpkg-buildpackage,
# debhelper compat 13, debian/), checked by lintian, its metadata and contents read with dpkg-deb,
# then unpacked with dpkg -x into a temp root and run from there. Nothing is installed on the
# host. The build is the slowest fleet test (a release build of cudx; later runs reuse its
# build directory): it skips when dpkg-buildpackage or debhelper are missing.

load lib/cudx

setup_file() {
	# the status is kept for the tests, not fatal here (77: skip, in setup)
	local rc=0
	# where `make deb` builds: a second run reuses the build directory
	export DEBS="$CUDX_SRC/build/deb"
	"$CUDX_SRC/packaging/build-deb.sh" "$DEBS" >"$BATS_FILE_TMPDIR/build.log" 2>&1 || rc=$?
	echo "$rc" >"$BATS_FILE_TMPDIR/build.status"
}

setup() {
	[ "$(cat "$BATS_FILE_TMPDIR/build.status")" != 77 ] || skip_fixture "$(cat "$BATS_FILE_TMPDIR/build.log")"
	version=$(dpkg-parsechangelog -l "$CUDX_SRC/debian/changelog" -S Version)
	deb=$DEBS/cudx_${version}_$(dpkg --print-architecture).deb
}

@test "dpkg-buildpackage builds the package" {
	cat "$BATS_FILE_TMPDIR/build.log"
	[ "$(cat "$BATS_FILE_TMPDIR/build.status")" -eq 0 ]
	[ -f "$deb" ]
}

@test "lintian finds nothing, pedantic and informational tags included" {
	command -v lintian >/dev/null || skip_fixture "lintian missing (apt-get install lintian)"
	[ -f "$deb" ] || skip "no package built"
	changes=${deb%.deb}.changes
	run lintian --pedantic --display-info --tag-display-limit 0 "$changes"
	echo "$output"
	[ "$status" -eq 0 ]
	[ -z "$(grep -v 'running with root privileges' <<<"$output")" ]
}

@test "dpkg-deb: the metadata, and the files where Debian wants them" {
	[ -f "$deb" ] || skip "no package built"
	[ "$(dpkg-deb -f "$deb" Package)" = cudx ]
	[ "$(dpkg-deb -f "$deb" Version)" = "$version" ]
	# jansson is linked in: libc is the only dependency
	[[ "$(dpkg-deb -f "$deb" Depends)" == "libc6 (>= "*")" ]]
	files=$(dpkg-deb -c "$deb" | awk '{print $6}')
	for f in ./usr/bin/cudx ./usr/share/man/man1/cudx.1.gz ./usr/share/bash-completion/completions/cudx \
		./usr/share/zsh/vendor-completions/_cudx ./usr/share/fish/vendor_completions.d/cudx.fish \
		./usr/lib/cudx/cudx-textfile ./lib/systemd/system/cudx-prometheus.service \
		./lib/systemd/system/cudx-prometheus.timer ./usr/share/doc/cudx/copyright \
		./usr/share/doc/cudx/examples/cudx-fleet.sbatch ./usr/share/doc/cudx/examples/cudx-daemonset.yaml; do
		grep -qxF "$f" <<<"$files" || { echo "missing $f"; return 1; }
	done
	# the timer is installed, neither enabled nor started: no start in the maintainer scripts
	dpkg-deb -e "$deb" "$BATS_TEST_TMPDIR/ctl"
	! grep -rq "deb-systemd-invoke" "$BATS_TEST_TMPDIR/ctl"
	! grep -q "deb-systemd-helper enable 'cudx-prometheus.timer'" <(sed '/was-enabled/,/fi/d' "$BATS_TEST_TMPDIR/ctl/postinst")
}

@test "unpacked into a temp root, the packaged cudx runs and compares" {
	[ -f "$deb" ] || skip "no package built"
	root=$BATS_TEST_TMPDIR/root
	dpkg -x "$deb" "$root"
	run_strict -0 "$root/usr/bin/cudx" --version
	[ "$output" = "cudx $version" ]
	mkdir -p "$BATS_TEST_TMPDIR/tree/etc" "$BATS_TEST_TMPDIR/reports"
	run_strict "$root/usr/bin/cudx" --root "$BATS_TEST_TMPDIR/tree" --json
	[ "$status" -eq 0 ]
	echo "$output" >"$BATS_TEST_TMPDIR/reports/a.json"
	cp "$BATS_TEST_TMPDIR/reports/a.json" "$BATS_TEST_TMPDIR/reports/b.json"
	run_strict "$root/usr/bin/cudx" compare "$BATS_TEST_TMPDIR/reports"
	[ "$status" -eq 0 ]
	[[ "$output" == *"2 nodes, all alike"* ]]
	# the unit's helper finds the packaged binary next to it
	mkdir "$BATS_TEST_TMPDIR/tf"
	"$root/usr/lib/cudx/cudx-textfile" "$BATS_TEST_TMPDIR/tf" --root "$BATS_TEST_TMPDIR/tree"
	grep -q '^cudx_gpus 0$' "$BATS_TEST_TMPDIR/tf/cudx.prom"
	grep -q "^ExecStart=/usr/lib/cudx/cudx-textfile /var/lib/prometheus/node-exporter --no-probe$" \
		"$root/lib/systemd/system/cudx-prometheus.service"
	zcat "$root/usr/share/man/man1/cudx.1.gz" | grep -q '^\.Nm cudx$'
}
