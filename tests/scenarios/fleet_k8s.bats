#!/usr/bin/env bats
# The Kubernetes recipe (packaging/k8s/): the manifests parse (python3-yaml) and hold what a
# cluster needs (kind, apiVersion, names, a selector matching the pod labels, volumes for every
# mount) and what the recipe promises (host / read-only at /host, no privileges, cudx --root /host
# into the textfile directory); the container's command runs here against a tree; the image build
# copies files that the install rules really produce. kubeconform is not in Debian: these are
# the checks it would make that matter here, by hand.

load lib/cudx

K8S=$CUDX_SRC/packaging/k8s

setup() {
	python3 -c 'import yaml' 2>/dev/null || skip_fixture "python3-yaml missing"
	tmp=$(mktemp -d "$BATS_TEST_TMPDIR/k8s.XXXXXX")
}

@test "the manifests parse and the DaemonSet is well formed and unprivileged" {
	run python3 - "$K8S"/*.yaml <<'EOF'
import sys, yaml
docs = [d for f in sys.argv[1:] for d in yaml.safe_load_all(open(f)) if d is not None]
assert docs, "no manifest"
api = {"Namespace": "v1", "DaemonSet": "apps/v1"}
for d in docs:
    assert d.get("kind") in api, d.get("kind")
    assert d.get("apiVersion") == api[d["kind"]], (d["kind"], d.get("apiVersion"))
    assert d.get("metadata", {}).get("name"), "metadata.name"
ds = [d for d in docs if d["kind"] == "DaemonSet"]
assert len(ds) == 1
ds = ds[0]
ns = [d["metadata"]["name"] for d in docs if d["kind"] == "Namespace"]
assert ds["metadata"].get("namespace") in ns, "the DaemonSet's namespace is created"
spec = ds["spec"]
tmpl = spec["template"]
sel = spec["selector"]["matchLabels"]
assert sel and all(tmpl["metadata"]["labels"].get(k) == v for k, v in sel.items()), "selector matches the pod"
pod = tmpl["spec"]
volumes = {v["name"]: v for v in pod["volumes"]}
assert len(volumes) == len(pod["volumes"]), "volume names are unique"
assert not pod.get("hostNetwork") and not pod.get("hostPID") and not pod.get("hostIPC")
assert pod.get("automountServiceAccountToken") is False
(c,) = pod["containers"]
for key in ("name", "image"):
    assert c.get(key), key
mounts = {m["mountPath"]: m for m in c["volumeMounts"]}
for m in c["volumeMounts"]:
    assert m["name"] in volumes, "mount of an undefined volume " + m["name"]
host = mounts["/host"]
assert host.get("readOnly") is True, "the host's / is read-only"
assert volumes[host["name"]]["hostPath"]["path"] == "/"
text = mounts["/textfile"]
assert not text.get("readOnly")
assert volumes[text["name"]]["hostPath"]["path"].startswith("/var/lib/")
sc = c["securityContext"]
assert sc["privileged"] is False and sc["allowPrivilegeEscalation"] is False
assert sc["capabilities"]["drop"] == ["ALL"] and not sc["capabilities"].get("add")
assert sc["readOnlyRootFilesystem"] is True
script = " ".join(c.get("command", []) + c.get("args", []))
assert "cudx-textfile /textfile --root /host" in script, script
assert c["resources"]["limits"]["memory"]
EOF
	echo "$output"
	[ "$status" -eq 0 ]
}

@test "the container's command writes cudx.prom for a host tree" {
	mkdir -p "$tmp/host/etc" "$tmp/textfile"
	line=$(python3 - "$K8S/cudx-daemonset.yaml" <<'EOF'
import sys, yaml
ds = [d for d in yaml.safe_load_all(open(sys.argv[1])) if d and d["kind"] == "DaemonSet"][0]
script = ds["spec"]["template"]["spec"]["containers"][0]["args"][0]
print([l.strip() for l in script.splitlines() if "cudx-textfile" in l][0].split(" || ")[0])
EOF
	)
	# the image's paths mapped to this tree: the helper, the mounted textfile dir and host root
	line=${line/\/usr\/lib\/cudx\/cudx-textfile/$CUDX_SRC/packaging/cudx-textfile}
	line=${line/\/textfile/$tmp/textfile}
	line=${line/\/host/$tmp/host}
	CUDX="$CUDX" $line
	grep -q '^cudx_finding{id="no-driver",severity="info",subject=""} 1$' "$tmp/textfile/cudx.prom"
	grep -q '^cudx_library_copies 0$' "$tmp/textfile/cudx.prom"
}

@test "the Dockerfile builds on debian:12 and copies what the install rules produce" {
	f=$K8S/Dockerfile
	[ "$(grep -m1 '^FROM' "$f")" = "FROM debian:12 AS build" ]
	# every instruction is one Docker knows
	run grep -vE '^(#|$|FROM |RUN |WORKDIR |COPY |ENTRYPOINT |CMD | && |USER |ENV |LABEL )' "$f"
	[ -z "$output" ]
	# the COPY --from=build sources exist in an install with the same prefix
	[ -f "$CUDX_BUILD/cmake_install.cmake" ] || skip_fixture "no configured build in $CUDX_BUILD"
	DESTDIR="$tmp/out" cmake --install "$CUDX_BUILD" --prefix /usr >/dev/null
	for src in $(sed -n 's|^COPY --from=build /out\(/[^ ]*\) .*|\1|p' "$f"); do
		[ -e "$tmp/out$src" ] || { echo "not installed: $src"; return 1; }
	done
	[ -x "$tmp/out/usr/lib/cudx/cudx-textfile" ]
}
