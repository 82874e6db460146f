#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The HTML report (lint --report) in a real browser: headless Chromium loads the shipped examples' diff
# against manifests/examples/pr-edit/ and a report with hostile names; report_dom_check.py checks the DOM
# after load. Writes docs/report.png (the README's screenshot). Exit 77 (meson: skipped) without Chromium.
# usage: report_browser_test.sh KARMADA_POLICY_WEBHOOK SOURCE_ROOT
set -eu
binary=$1
root=$2
check="$root/tests/webhook/lint/report_dom_check.py"
examples="$root/manifests/examples"

# Debian's chromium, installed once (idempotent: nothing happens when it is there).
if ! command -v chromium >/dev/null 2>&1; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends chromium >/dev/null 2>&1 ||
            { apt-get update >/dev/null 2>&1 && DEBIAN_FRONTEND=noninteractive apt-get install -y \
                --no-install-recommends chromium >/dev/null 2>&1; } || true
    fi
    command -v chromium >/dev/null 2>&1 || { echo "SKIP: chromium is not installed and cannot be installed"; exit 77; }
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export HOME="$work" # chromium's profile and crash dumps stay in the scratch directory

browse() { # browse URL [chromium flags...]: the page's DOM after load on stdout, the console log in $work/log
    url=$1
    shift
    timeout 60 chromium --headless --no-sandbox --disable-gpu --no-first-run --user-data-dir="$work/profile" \
        --enable-logging=stderr --v=0 "$@" "$url" 2>>"$work/log"
}

cd "$root" # relative file names in the report, as CI runs lint from the repository root
"$binary" lint -o json --fail-on=none --clusters "$examples/clusters.yaml" --workloads "$examples/workloads.yaml" \
    --base "$examples/dc-groups.yaml" --base "$examples/checkout-local-idc.yaml" \
    --base "$examples/overflow-onprem-cloud.yaml" --report "$work/report.html" "$examples/pr-edit" >"$work/report.json"

browse "file://$work/report.html" --dump-dom >"$work/all.html"
python3 "$check" "$work/all.html" "$work/report.json" ""
browse "file://$work/report.html#q=checkout" --dump-dom >"$work/filtered.html"
python3 "$check" "$work/filtered.html" "$work/report.json" "checkout"

# Hostile names: a policy named <script>, a workload named <img onerror>.
cat >"$work/hostile-workloads.yaml" <<'YAML'
apiVersion: apps/v1
kind: Deployment
metadata: {name: "<img src=x onerror=alert(1)>", namespace: default}
spec:
  replicas: 2
  template: {spec: {containers: [{name: c, image: i, resources: {requests: {cpu: 100m}}}]}}
YAML
cat >"$work/hostile.yaml" <<'YAML'
apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: "<script>document.documentElement.setAttribute('data-pwned','1')</script>", namespace: default}
spec:
  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment}]
---
apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: hostile, namespace: default}
spec:
  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment, name: "<img src=x onerror=alert(1)>"}]
  placement: {clusterAffinity: {clusterNames: [member1]}}
YAML
"$binary" lint -o json --clusters "$examples/clusters.yaml" --workloads "$work/hostile-workloads.yaml" \
    --report "$work/hostile.html" "$work/hostile.yaml" >"$work/hostile.json" || true
browse "file://$work/hostile.html" --dump-dom >"$work/hostile-dom.html"
python3 "$check" "$work/hostile-dom.html" "$work/hostile.json" "" "<script>document.documentElement"

# Console errors of any page (the in-page hook catches script errors; this catches the rest, e.g. CSP).
if grep -E 'CONSOLE|Uncaught|Refused to' "$work/log"; then
    echo "FAIL: console errors above"
    exit 1
fi

mkdir -p "$root/docs"
browse "file://$work/report.html" --screenshot="$work/report.png" --window-size=1280,1100 --hide-scrollbars >/dev/null
mv "$work/report.png" "$root/docs/report.png"
echo "ok: docs/report.png written"
