#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Writes today's ResourceBindings (as `kubectl get rb -o json` prints them after karmada-scheduler placed
them) for a gen_dry_run.py corpus, from lint's first-time text report (placements, observed affinity
term), the policies (claim, placement) and the Deployments (replicas, requests). karmada_schedule_bench.sh
uses it for the full-size steady re-plan of lint, where running Karmada's scheduler over every workload
first would take too long; on its sample it checks that lint's placements are Karmada's.
    bindings_from_lint.py LINT_TEXT POLICIES WORKLOADS OUT
"""
import json
import re
import sys

text, pols, wls, out = sys.argv[1:5]
policies = {p["metadata"]["name"]: p for p in json.load(open(pols))["items"]}
workloads = {w["metadata"]["name"]: w for w in json.load(open(wls))["items"]}
head = re.compile(r": note: PropagationPolicy ([^/]+)/(\S+): Deployment ([^/]+)/(\S+) \(\d+ replicas\): scheduled(?: in group (\S+))? ")
row = re.compile(r"^    (\S+)\s+(\d+)\s+\S+\s+\S+\s*$")
placed, cur = {}, None
for line in open(text):
    m = head.search(line)
    if m:
        cur = m.group(4)
        placed[cur] = (m.group(2), m.group(5) or "", [])
        continue
    if not line.startswith("    "):
        cur = None
        continue
    r = row.match(line)
    if cur and r and r.group(1) != "cluster":
        placed[cur][2].append({"name": r.group(1), "replicas": int(r.group(2))})
items = []
for name, (policy, group, clusters) in placed.items():
    p, w = policies[policy], workloads[name]
    placement = p["spec"]["placement"]
    req = w["spec"]["template"]["spec"]["containers"][0]["resources"]["requests"]
    status = {"conditions": [{"type": "Scheduled", "status": "True", "reason": "Success",
                              "message": "Binding has been scheduled successfully.", "lastTransitionTime": "2026-12-01T00:00:00Z"}]}
    if group:
        status["schedulerObservingAffinityName"] = group
    items.append({"apiVersion": "work.karmada.io/v1alpha2", "kind": "ResourceBinding",
                  "metadata": {"name": name + "-deployment", "namespace": "default",
                               "labels": {"propagationpolicy.karmada.io/permanent-id": "bench-" + policy},
                               "annotations": {"policy.karmada.io/applied-placement": json.dumps(placement, separators=(",", ":")),
                                               "propagationpolicy.karmada.io/name": policy,
                                               "propagationpolicy.karmada.io/namespace": "default"}},
                  "spec": {"resource": {"apiVersion": "apps/v1", "kind": "Deployment", "namespace": "default", "name": name},
                           "replicas": w["spec"]["replicas"], "replicaRequirements": {"resourceRequest": req},
                           "placement": placement, "schedulerName": "default-scheduler", "clusters": clusters},
                  "status": status})
json.dump({"apiVersion": "v1", "kind": "List", "items": items}, open(out, "w"))
print(f"{len(items)} bindings written from lint's placements")
