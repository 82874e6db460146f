// SPDX-License-Identifier: Apache-2.0
// Candidate order and spread-constraint selection (spec 3.1-3.6).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "model/cluster.hpp"
#include "model/policy.hpp"
#include "scheduling/strategy.hpp"
#include "settings/karmada_release.hpp"

namespace kpw::scheduling {

// One feasible cluster with what ordering, selection and assignment read.
struct candidate {
    const model::cluster* cluster = nullptr;
    int tier = 0;                   // overflowOrder: 0 primary, i+1 for overflowAffinities[i]
    // availableReplicas: the estimate (+ assigned, 0 on a first schedule), in int64 as Karmada adds them
    // (group_clusters.go generateClustersInfo): a non-workload's MaxInt32 + its current replicas still
    // orders a cluster with more current replicas first.
    std::int64_t available = 0;
    std::uint32_t name_rank = 0;    // the cluster's position in name order (snapshot::name_rank)
    // Re-schedule only (all 0 on a first schedule):
    std::int32_t allocatable = 0; // the estimate alone (allocatableReplicas), without current replicas
    std::int32_t current = 0;     // replicas the previous result gave this cluster
    std::int64_t score = 0;       // ClusterLocality: 100 for a cluster in the previous spec.clusters
    // snapshot::region_rank: region spread groups by it (equal ranks, equal region names).
    std::uint32_t region = 0;
};

// Spec 3.1: tier ascending, score descending (all 0 on a first schedule), available descending, name
// (karmada: spreadconstraint/util.go sortClusters with the availableReplicas comparison).
bool canonical_before(const candidate& a, const candidate& b);
void canonical_sort(std::vector<candidate>& candidates);

struct selection {
    std::vector<candidate> clusters;
    std::string error; // non-empty: the group fails with this message
    bool empty = false; // the error is assignReplicas' "no clusters available to schedule", not selection's
    // Non-empty: Karmada's code crashes here instead of selecting, with this Go runtime error: a binding
    // written without Karmada's webhook (maxGroups < 0, which it denies), or before v1.17 a Duplicated
    // placement its webhook admits (divide_by_zero_panic).
    std::string panic = {};
};

// The Go runtime error of calcGroupScoreForDuplicate before v1.17.0 (settings::changes::
// duplicated_region_score_guard).
inline constexpr std::string_view divide_by_zero_panic = "runtime error: integer divide by zero";

// What a person needs beside one of selection's panics: why Karmada's code gets there, and the way out.
struct panic_advice {
    std::string_view why;
    std::string_view remedy;
};
panic_advice advice_for_panic(std::string_view runtime_error);

// Whether selection can reach Go's runtime panic for this placement (a cluster spread constraint with
// maxGroups < 0 that is used; before v1.17 also Duplicated with a zone, region or provider constraint, whose
// group score may divide by zero): a cheap test before a full scheduling pass.
bool selection_may_panic(const model::placement& placement,
                         settings::karmada_release release = settings::newest_karmada_release);

// karmada: spreadconstraint.SelectBestClusters. `ordered` is in canonical order; `replicas` is the
// workload's count (capacity is ignored for Duplicated).
// `release` decides what differs between Karmada releases (settings::changes).
selection select_clusters(std::vector<candidate> ordered, const model::placement& placement, strategy s,
                          std::int32_t replicas,
                          settings::karmada_release release = settings::newest_karmada_release);

} // namespace kpw::scheduling
