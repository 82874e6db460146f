#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Writes a corpus of realistic PropagationPolicy/ClusterPropagationPolicy documents for benchmarks.

usage: gen_policies.py OUT_DIR [--policies N] [--per-file K] [--invalid-every M]
Deterministic (seeded), stdlib only. Every M-th policy carries a mistake (duplicate affinityName,
overflow with Duplicated, clusterAffinity next to clusterAffinities) so the rules run their error paths.
"""
import argparse
import os
import random


def affinity_terms(rng, i, broken):
    groups = []
    for g in range(rng.randint(1, 3)):
        name = f"group-{g}" if not (broken == "dup-name" and g == 1) else "group-0"
        term = [f"      - affinityName: {name}",
                "        clusterNames:"] + [f"          - member-{rng.randint(1, 500)}" for _ in range(rng.randint(1, 4))]
        if g == 0 and i % 3 == 0:
            term += ["        overflowAffinities:",
                     "          - affinityName: public-cloud",
                     "            labelSelector:",
                     "              matchLabels:",
                     "                provider: cloud"]
        groups.append("\n".join(term))
    return groups


def policy(rng, i, broken):
    cluster_scoped = i % 5 == 0
    lines = ["apiVersion: policy.karmada.io/v1alpha1",
             f"kind: {'ClusterPropagationPolicy' if cluster_scoped else 'PropagationPolicy'}",
             "metadata:",
             f"  name: policy-{i}"]
    if not cluster_scoped:
        lines.append(f"  namespace: team-{i % 40}")
    lines += ["  labels:", f"    app.kubernetes.io/name: app-{i}", "spec:", "  resourceSelectors:"]
    for k in range(rng.randint(1, 3)):
        lines += ["    - apiVersion: apps/v1", "      kind: Deployment", f"      name: app-{i}-{k}"]
        if cluster_scoped:
            lines.append(f"      namespace: team-{i % 40}")
    lines += ["  placement:"]
    if broken == "both-affinities":
        lines += ["    clusterAffinity:", "      clusterNames: [member-1]"]
    lines += ["    clusterAffinities:"] + affinity_terms(rng, i, broken)
    lines += ["    clusterTolerations:",
              "      - key: node.karmada.io/unreachable",
              "        operator: Exists",
              "        effect: NoExecute",
              "        tolerationSeconds: 300"]
    if i % 4 == 1:
        lines += ["    spreadConstraints:",
                  "      - spreadByField: region",
                  "        maxGroups: 2",
                  "        minGroups: 1",
                  "      - spreadByField: cluster",
                  "        maxGroups: 3",
                  "        minGroups: 1"]
    if broken == "overflow-duplicated":
        lines += ["    replicaScheduling:", "      replicaSchedulingType: Duplicated"]
    else:
        lines += ["    replicaScheduling:",
                  "      replicaSchedulingType: Divided",
                  "      replicaDivisionPreference: Weighted",
                  "      weightPreference:",
                  "        dynamicWeight: AvailableReplicas"]
    if i % 6 == 2:
        lines += ["  propagateDeps: true",
                  "  failover:",
                  "    application:",
                  "      decisionConditions:",
                  "        tolerationSeconds: 120",
                  "      purgeMode: Gracefully",
                  "      gracePeriodSeconds: 600"]
    lines += [f"  priority: {i % 10}", "  preemption: Never", "  conflictResolution: Abort"]
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--policies", type=int, default=10000)
    ap.add_argument("--per-file", type=int, default=100)
    ap.add_argument("--invalid-every", type=int, default=10)
    args = ap.parse_args()
    rng = random.Random(42)
    os.makedirs(args.out, exist_ok=True)
    mistakes = ["dup-name", "overflow-duplicated", "both-affinities"]
    for f in range(0, args.policies, args.per_file):
        docs = []
        for i in range(f, min(f + args.per_file, args.policies)):
            broken = mistakes[(i // args.invalid_every) % 3] if args.invalid_every and i % args.invalid_every == 0 else None
            docs.append(policy(rng, i, broken))
        with open(os.path.join(args.out, f"policies-{f // args.per_file:05d}.yaml"), "w") as out:
            out.write("---\n".join(docs))


if __name__ == "__main__":
    main()
