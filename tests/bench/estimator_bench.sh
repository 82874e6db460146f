#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# lint's dry run with and without karmada-scheduler-estimator (--member-state) on the checkout overflow,
# every member of the example snapshot holding NODES nodes and PODS_PER_NODE running pods each (a large
# member: `kubectl get nodes,pods -A -o json` of it). Prints best-of-RUNS wall times side by side.
#   tests/bench/estimator_bench.sh BUILD_DIR [NODES] [PODS_PER_NODE] [RUNS]
set -euo pipefail
build=${1:?build dir}; nodes=${2:-5000}; per_node=${3:-20}; runs=${4:-3}
root=$(cd "$(dirname "$0")/../.." && pwd)
bin=$build/webhook/karmada-policy-webhook
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
python3 - "$work/members" "$nodes" "$per_node" <<'PY'
import json, os, sys
out, nodes, per_node = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
for cluster in ["idc-east-1", "cloud-east-1", "cloud-east-2"]:
    items = []
    for n in range(nodes):
        name = f"{cluster}-node-{n}"
        node = {"apiVersion": "v1", "kind": "Node",
                "metadata": {"name": name, "labels": {"kubernetes.io/hostname": name, "zone": f"z{n % 3}"}},
                "spec": {"taints": [{"key": "dedicated", "value": "batch", "effect": "NoSchedule"}]} if n % 10 == 0 else {},
                "status": {"allocatable": {"cpu": "32", "memory": "128Gi", "pods": "110"}}}
        items.append(node)
        for p in range(per_node):
            items.append({"apiVersion": "v1", "kind": "Pod",
                          "metadata": {"name": f"p-{n}-{p}", "namespace": "load", "uid": f"{cluster}-{n}-{p}"},
                          "spec": {"nodeName": name, "containers": [{"name": "c", "resources": {"requests": {"cpu": "1", "memory": "4Gi"}}}]},
                          "status": {"phase": "Running"}})
    os.makedirs(os.path.join(out, cluster))
    with open(os.path.join(out, cluster, "state.json"), "w") as f:
        json.dump({"apiVersion": "v1", "kind": "List", "items": items}, f)
PY
ex=$root/manifests/examples
best() {
  local best_ms=
  for _ in $(seq "$runs"); do
    local t0 t1
    t0=$(date +%s%N)
    "$bin" lint -o json --clusters "$ex/clusters.yaml" --workloads "$ex/workloads.yaml" "$@" "$ex/checkout-local-idc.yaml" >/dev/null
    t1=$(date +%s%N)
    local ms=$(( (t1 - t0) / 1000000 ))
    if [ -z "$best_ms" ] || [ "$ms" -lt "$best_ms" ]; then best_ms=$ms; fi
  done
  echo "$best_ms"
}
size=$(du -sm "$work/members" | cut -f1)
general=$(best)
accurate=$(best --member-state "$work/members")
echo "| members x nodes x pods | member state | general only | with --member-state |"
echo "|---|---:|---:|---:|"
echo "| 3 x $nodes x $((nodes * per_node)) | ${size} MiB JSON | ${general} ms | ${accurate} ms |"
