# Helpers for the cudx run scenarios: small C programs compiled once per file, cudx run --json with
# the command's own output kept apart, and the guard around programs that call into libcuda.
# probe_lib gives the package paths (D535, RT11, CUDA13), need_dir/need_cuda13 and the JSON queries.
load probe_lib

# A program that dlopens each argument (RTLD_NOW) and says what happened; exit 1 when one failed.
# "call:SYMBOL" calls int SYMBOL(int *) from the handles opened so far and prints its result.
build_dl() {
	command -v cc >/dev/null || skip "needs a C compiler"
	cat >"$BATS_FILE_TMPDIR/dl.c" <<'C'
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
int main(int argc, char **argv)
{
	int failed = 0;
	void *h[64];
	int n = 0;
	for (int i = 1; i < argc; i++) {
		if (strncmp(argv[i], "call:", 5) == 0) {
			for (int k = n - 1; k >= 0; k--) {
				int (*fn)(int *) = (int (*)(int *))dlsym(h[k], argv[i] + 5);
				if (!fn)
					continue;
				int v = -1, rc = fn(&v);
				printf("%s returned %d\n", argv[i] + 5, rc);
				break;
			}
			continue;
		}
		void *p = dlopen(argv[i], RTLD_NOW);
		printf("%s: %s\n", argv[i], p ? "loaded" : dlerror());
		if (p && n < 64)
			h[n++] = p;
		failed |= !p;
	}
	fflush(stdout);
	return failed;
}
C
	cc -o "$BATS_FILE_TMPDIR/dl" "$BATS_FILE_TMPDIR/dl.c" -ldl
}

# cudx run --json ARGS...: $output is cudx's JSON (stdout), $cmd_err what went to stderr (the
# command's own output goes there with --json), $status cudx's exit status.
run_json() {
	run bash -c '"$@" 2>"$BATS_TEST_TMPDIR/stderr"' _ "${guard_prefix[@]}" "$CUDX" run --json "$@"
	cmd_err=$(cat "$BATS_TEST_TMPDIR/stderr")
	[ "$status" -le 1 ] || { echo "cudx exited $status: $cmd_err"; return 1; }
}

# Severity of the first finding with an id.
finding_severity() {
	py 'print(next(f["severity"] for f in r["findings"] if f["id"]==sys.argv[1]))' "$1"
}

# The finding ids of "other_findings" (this machine, not about the program).
other_ids() {
	py 'print("\n".join(f["id"] for f in r["other_findings"]))'
}

# NVIDIA's libcuda, run as root, creates /dev/nvidiactl and /dev/nvidia-uvm itself when they are
# missing. Every test that calls into libcuda calls `guard` first: run_json then starts cudx in a
# private mount namespace where /dev is read-only (on top of cudx run --sandbox, which the tests
# also use and check), and the test asserts at its end that no /dev/nvidia* node appeared.
guard_prefix=()
guard() {
	nodes_before=$(dev_nodes)
	[ "$(id -u)" = 0 ] || return 0
	unshare --mount --propagation private true 2>/dev/null ||
		skip "cannot make a private mount namespace to keep libcuda away from /dev (needs CAP_SYS_ADMIN)"
	guard_prefix=(unshare --mount --propagation private sh -c 'mount -o remount,bind,ro /dev && exec "$@"' _)
}

dev_nodes() {
	ls -1 /dev | grep '^nvidia' || true
}

check_dev_unchanged() {
	[ "$(dev_nodes)" = "$nodes_before" ] || {
		echo "/dev changed: before [$nodes_before] after [$(dev_nodes)]"
		return 1
	}
}

# schema_valid FILE...: each file is valid against docs/cudx.schema.json (the envelope every
# command prints, run's keys included). Skips without python3-jsonschema.
schema_valid() {
	python3 -c 'import jsonschema' 2>/dev/null || skip "python3-jsonschema missing (scripts/deps.sh test installs it)"
	python3 - "$CUDX_SRC/docs/cudx.schema.json" "$@" <<'PY'
import json, sys
from jsonschema import Draft202012Validator
v = Draft202012Validator(json.load(open(sys.argv[1])))
bad = [(f, e) for f in sys.argv[2:] for e in v.iter_errors(json.load(open(f)))]
for f, e in bad:
    print("%s: %s at /%s" % (f, e.message[:300], "/".join(map(str, e.absolute_path))))
sys.exit(1 if bad else 0)
PY
}
