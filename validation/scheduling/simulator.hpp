// SPDX-License-Identifier: Apache-2.0
// The dry-run scheduler: what karmada-scheduler decides for one workload under one policy (first schedule).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "model/cluster.hpp"
#include "model/policy.hpp"
#include "model/workload.hpp"
#include "scheduling/snapshot.hpp"
#include "scheduling/strategy.hpp"

namespace kpw::scheduling {

struct options {
    // Karmada v1.3-v1.14's webhook added NoExecute tolerations for cluster.karmada.io/not-ready and
    // cluster.karmada.io/unreachable to every policy; v1.15+ adds none (spec 1.1).
    bool legacy_default_tolerations = false;
    // Without a workload uid, assign again with the reversed name order and report a tie if it differs.
    bool detect_ties = true;
};

struct cluster_placement {
    std::string name;
    std::int32_t replicas = 0;  // 0 for a non-workload (propagated without a replica count)
    std::string tier;           // the primary or overflow affinityName the cluster was used from
    std::int32_t available = 0; // the estimator's answer (MaxInt32 for a non-workload)
};

// Why one clusterAffinities term (or the single clusterAffinity, affinity_name "") failed.
struct term_failure {
    std::string affinity_name;
    std::string reason;
    std::string str() const; // "dc-shanghai: no cluster passed the filters (unavailable: not in the snapshot)"
};

struct decision {
    bool scheduled = false;
    bool non_workload = false;
    scheduling::strategy strategy = strategy::duplicated;
    std::string affinity_name;              // the chosen clusterAffinities term; "" for clusterAffinity
    std::vector<cluster_placement> clusters; // tier order, then most available, then name
    std::string message;
    bool tie = false;                      // the split depends on karmada's uid-driven tie-breaker
    std::vector<std::string> tie_between;  // clusters whose replicas differ with the other name order
    std::vector<term_failure> failures;    // the terms tried before the chosen one (all when unscheduled)
    std::vector<cluster_placement> candidates; // the chosen term's feasible clusters (replicas = assigned)
};

// Simulates one first-time schedule (spec 2). `spec` is the policy spec as stored (after CRD and
// webhook defaults); `clusters` is the snapshot. Never throws; pure.
decision schedule(const model::propagation_spec& spec, const model::workload& workload, const snapshot& clusters,
                  const options& opts = {});

// The same over clusters not prepared yet (prepares a snapshot for this one call).
decision schedule(const model::propagation_spec& spec, const model::workload& workload,
                  std::span<const model::cluster> clusters, const options& opts = {});

// An affinity (a term's primary or one of its overflow entries, or the single clusterAffinity) that
// matches no cluster of the snapshot at all, whatever the workload.
struct unmatched_affinity {
    std::string affinity_name; // "" for the single clusterAffinity
    std::string field;         // spec.placement.clusterAffinities[0], ...overflowAffinities[1], ...
    std::string message;
};

std::vector<unmatched_affinity> unmatched_terms(const model::propagation_spec& spec, const snapshot& clusters);
std::vector<unmatched_affinity> unmatched_terms(const model::propagation_spec& spec,
                                                std::span<const model::cluster> clusters);

} // namespace kpw::scheduling
