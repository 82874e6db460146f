// SPDX-License-Identifier: Apache-2.0
// The invariants of a placement, shared by the schedule and reschedule targets.
#include "placement_checks.hpp"

#include <set>
#include <string>

#include "targets.hpp"

namespace kpw::fuzz {

void check_clusters(std::string_view name, const scheduling::decision& d, const scheduling::snapshot& snap)
{
    std::set<std::string> seen;
    for (const auto& c : d.clusters) {
        if (!snap.contains(c.name) || !seen.insert(c.name).second)
            invariant_failed(name, "a placement names a cluster twice or one outside the snapshot");
        if (c.replicas < 0)
            invariant_failed(name, "a cluster got a negative replica count");
    }
}

void check_placement(std::string_view name, const scheduling::decision& d, const model::workload& w,
                     const scheduling::snapshot& snap)
{
    check_clusters(name, d, snap);
    if (!d.scheduled || d.non_workload)
        return;
    std::int64_t total = 0;
    for (const auto& c : d.clusters)
        total += c.replicas;
    // A workload of 0 replicas with resource requests goes through replica assignment
    // (pkg/scheduler/core/common.go AssignReplicas): Divided gives it no cluster (assignment.go
    // assignByDynamicStrategy returns the previous result, none on a first schedule). Duplicated gives
    // every candidate 0 replicas (assignByDuplicatedStrategy) and assignReplicasToClusters then drops
    // them (removeZeroReplicasCluster, pkg/scheduler/core/util.go): no cluster either
    // (tests/fuzz/regressions/schedule/duplicated-zero-replicas-with-requests).
    if (d.clusters.empty() && w.replicas > 0)
        invariant_failed(name, "scheduled onto no cluster");
    if (d.strategy == scheduling::strategy::duplicated) {
        for (const auto& c : d.clusters)
            if (c.replicas != w.replicas)
                invariant_failed(name, "Duplicated gave cluster " + c.name + " " + std::to_string(c.replicas) +
                                           " replicas, the workload has " + std::to_string(w.replicas));
    } else if (total != w.replicas) {
        invariant_failed(name, "Divided assigned " + std::to_string(total) + " replicas, the workload has " + std::to_string(w.replicas));
    }
}

} // namespace kpw::fuzz
