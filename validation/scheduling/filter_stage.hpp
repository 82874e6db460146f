// SPDX-License-Identifier: Apache-2.0
// The filter stage of one scheduling group: every plugin over the snapshot, fast, with reasons on demand.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "model/cluster.hpp"
#include "model/policy.hpp"
#include "scheduling/simulator.hpp"
#include "scheduling/snapshot.hpp"

namespace kpw::scheduling {

// One scheduling group as the ClusterAffinity plugin sees it (the status' observed affinity name picks
// the clusterAffinities term; overflow entries count only for workloads).
struct group_scope {
    std::string name;                                 // affinityName; "" for clusterAffinity / none
    const model::cluster_affinity* primary = nullptr; // nullptr: every cluster matches
    std::span<const model::overflow_cluster_affinity> overflow;
    // Replicas are dealt tier by tier (karmada common.go enableOverflow): a named term whose
    // overflowAffinities is set, an explicit `[]` included (a binding written some other way keeps it).
    bool tiered = false;
};

// Everything the filter plugins read besides the cluster. A first schedule (no targets, no evicting)
// depends only on (group, tolerations, spread constraints, api): a caller re-planning many workloads of
// one shape may compute filter_group once per such key and reuse it.
struct filter_scope {
    group_scope group;
    std::span<const model::toleration> tolerations;  // placement.clusterTolerations (+ legacy defaults)
    std::span<const model::spread_constraint> spread; // placement.spreadConstraints
    std::string_view api_version;
    std::string_view kind;
    int api = -1;                           // snapshot::api_id(api_version, kind)
    std::span<const std::uint32_t> targets;  // name ranks of spec.clusters, sorted
    std::span<const std::uint32_t> evicting; // name ranks of graceful-eviction fromClusters, sorted
};

// Appends "<name>: not in the snapshot" for each clusterNames entry the snapshot lacks.
void add_missing_names(const model::cluster_affinity& a, const snapshot& snap, std::vector<std::string>& out);

// overflowOrder (scheduling-semantics §3.1); -1 when the cluster matches no affinity of the group.
int tier_of(const model::cluster& cluster, const group_scope& group);

struct group_filter {
    struct pass {
        std::uint32_t index = 0; // snapshot index
        int tier = 0;
    };
    std::vector<pass> feasible;         // snapshot order
    std::vector<std::uint32_t> rejected; // clusters the group's affinity selects that fail another plugin
};

// karmada: generic_scheduler.go findClustersThatFit. Deleting clusters are skipped silently; the others
// pass when every plugin passes. A cluster that ClusterAffinity rejects is in neither list.
group_filter filter_group(const snapshot& snap, const filter_scope& scope);

// Which plugins a cluster fails, without any text: the cheap form of plugin_failures. Clusters with
// equal masks, taint and spread field give the same reasons, so a FitError is counted over these.
struct failing_plugins {
    std::uint8_t mask = 0;               // bit (1 << filter_plugin)
    const model::taint* taint = nullptr; // TaintToleration: the first untolerated NoSchedule/NoExecute taint
    std::string_view spread_field;       // SpreadConstraint: the first spreadByField the cluster lacks
    bool fails(filter_plugin p) const;
};

// Nothing fails for a deleting cluster (findClustersThatFit skips it before the plugins).
failing_plugins failing(const snapshot& snap, std::size_t index, const filter_scope& scope);

// Karmada's reason string of plugin `p` for a cluster that fails it.
std::string plugin_reason(filter_plugin p, const failing_plugins& f);

// Every plugin cluster `index` fails, in registry order, with Karmada's reason string and the project's
// detail; empty when it passes (or is being deleted). Slow path: for diagnosis and explain only.
std::vector<plugin_failure> plugin_failures(const snapshot& snap, std::size_t index, const filter_scope& scope);

} // namespace kpw::scheduling
