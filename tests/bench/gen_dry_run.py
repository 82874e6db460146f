#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Generates a dry-run corpus for `lint --clusters --workloads`: N Clusters (one List, as kubectl prints
them), P policies and P Deployments (one claimed per policy), in the six shapes schedule_bench.cpp uses.
    gen_dry_run.py DIR --clusters N --policies P
"""
import argparse
import json
import os

PROVIDERS = ["onprem", "aws", "alibaba", "huaweicloud"]
CPU = ["0", "1", "2", "4", "8", "16", "32", "64", "128", "1000000"]
MEM = ["0", "4Gi", "16Gi", "32Gi", "64Gi", "128Gi", "256Gi", "512Gi", "1Ti", "1Ei"]
MODELS = [{"grade": g, "ranges": [{"name": "cpu", "min": CPU[g], "max": CPU[g + 1]},
                                  {"name": "memory", "min": MEM[g], "max": MEM[g + 1]}]} for g in range(9)]
APIS = [{"groupVersion": "apps/v1", "resources": [{"kind": k, "name": k.lower() + "s"} for k in
                                                  ["ControllerRevision", "DaemonSet", "Deployment", "ReplicaSet", "StatefulSet"]]},
        {"groupVersion": "batch/v1", "resources": [{"kind": "CronJob", "name": "cronjobs"}, {"kind": "Job", "name": "jobs"}]},
        {"groupVersion": "v1", "resources": [{"kind": k, "name": k.lower() + "s"} for k in ["ConfigMap", "Pod", "Secret", "Service"]]}]


def cluster(i):
    region = "region-%05d" % (i % 20)
    spec = {"provider": PROVIDERS[i % 4], "region": region, "zones": [region + ("a" if i % 2 else "b")], "syncMode": "Push",
            "apiEndpoint": "https://member-%05d.example:6443" % i}
    if i % 20 == 7:
        spec["taints"] = [{"key": "maintenance", "value": "planned", "effect": "NoSchedule"}]
    summary = {"allocatable": {"cpu": "64", "memory": "256Gi", "pods": "440"},
               "allocated": {"cpu": "%dm" % (20000 + (i * 7919) % 40000), "memory": "100Gi", "pods": str(i % 300)}}
    if i % 2:
        spec["resourceModels"] = MODELS
        summary["allocatableModelings"] = [{"grade": 2, "count": i % 5}, {"grade": 3, "count": i % 3}, {"grade": 4, "count": 1}]
    return {"apiVersion": "cluster.karmada.io/v1alpha1", "kind": "Cluster",
            "metadata": {"name": "member-%05d" % i, "labels": {
                "location": "idc" if i % 4 == 0 else "cloud", "env": "prod" if i % 3 else "staging",
                "team": "team-%05d" % (i % 50), "capacity-tier": "base" if i % 5 else "burst"}},
            "spec": spec,
            "status": {"apiEnablements": APIS, "conditions": [{"type": "Ready", "status": "True"},
                                                              {"type": "CompleteAPIEnablements", "status": "True"}],
                       "resourceSummary": summary}}


def dynamic():
    return {"replicaSchedulingType": "Divided", "replicaDivisionPreference": "Weighted",
            "weightPreference": {"dynamicWeight": "AvailableReplicas"}}


def placement(i, n):
    region = "region-%05d" % (i % 20)
    shape = i % 6
    if shape == 0:
        return {"clusterAffinities": [
            {"affinityName": "local-idc",
             "labelSelector": {"matchLabels": {"location": "idc", "env": "prod"}},
             "fieldSelector": {"matchExpressions": [{"key": "region", "operator": "In", "values": [region]}]},
             "overflowAffinities": [{"affinityName": "public-cloud",
                                     "labelSelector": {"matchLabels": {"location": "cloud", "capacity-tier": "burst"}}}]},
            {"affinityName": "anywhere", "labelSelector": {}}], "replicaScheduling": dynamic()}
    if shape == 1:
        return {"clusterAffinity": {"clusterNames": ["member-%05d" % ((i * 31 + k * 97) % n) for k in range(10)]},
                "replicaScheduling": dynamic()}
    if shape == 2:
        return {"spreadConstraints": [{"spreadByField": "cluster", "minGroups": 2, "maxGroups": 6},
                                      {"spreadByField": "region", "minGroups": 2, "maxGroups": 3}],
                "replicaScheduling": dynamic()}
    if shape == 3:
        return {"clusterAffinity": {"labelSelector": {"matchLabels": {"team": "team-%05d" % (i % 50)}}},
                "replicaScheduling": {"replicaSchedulingType": "Divided", "replicaDivisionPreference": "Weighted",
                                      "weightPreference": {"staticWeightList": [
                                          {"targetCluster": {"labelSelector": {"matchLabels": {"capacity-tier": "burst"}}}, "weight": 2},
                                          {"targetCluster": {}, "weight": 1}]}}}
    if shape == 4:
        return {"clusterAffinity": {"fieldSelector": {"matchExpressions": [
                    {"key": "provider", "operator": "In", "values": ["aws", "alibaba"]},
                    {"key": "region", "operator": "In", "values": [region]}]}},
                "replicaScheduling": {"replicaSchedulingType": "Divided", "replicaDivisionPreference": "Aggregated"}}
    return {"clusterAffinities": [{"affinityName": "primary",
                                   "clusterNames": ["member-%05d" % ((i + k) % n) for k in range(3)]}]}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir")
    ap.add_argument("--clusters", type=int, default=5000)
    ap.add_argument("--policies", type=int, default=1000)
    a = ap.parse_args()
    os.makedirs(a.dir, exist_ok=True)
    # JSON is YAML: lint and the loaders read it through the same parser, and it is quick to write.
    with open(os.path.join(a.dir, "clusters.json"), "w") as f:
        json.dump({"apiVersion": "v1", "kind": "List", "items": [cluster(i) for i in range(a.clusters)]}, f)
    policies, workloads = [], []
    for i in range(a.policies):
        name = "app-%05d" % i
        policies.append({"apiVersion": "policy.karmada.io/v1alpha1", "kind": "PropagationPolicy",
                         "metadata": {"name": "policy-%05d" % i, "namespace": "default"},
                         "spec": {"resourceSelectors": [{"apiVersion": "apps/v1", "kind": "Deployment", "name": name}],
                                  "placement": placement(i, a.clusters)}})
        workloads.append({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": name, "namespace": "default"},
                          "spec": {"replicas": 2 + i % 40, "template": {"spec": {"containers": [{"name": "app", "resources": {
                              "requests": {"cpu": "%dm" % (100 + (i % 8) * 150), "memory": "%dMi" % (256 + (i % 4) * 256)}}}]}}}})
    with open(os.path.join(a.dir, "policies.json"), "w") as f:
        json.dump({"apiVersion": "v1", "kind": "List", "items": policies}, f)
    with open(os.path.join(a.dir, "workloads.json"), "w") as f:
        json.dump({"apiVersion": "v1", "kind": "List", "items": workloads}, f)


if __name__ == "__main__":
    main()
