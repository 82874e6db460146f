// SPDX-License-Identifier: Apache-2.0
// The general estimator: how many replicas of a workload one cluster can still take (spec section 4).
#pragma once

#include <cstdint>
#include <limits>

#include "model/cluster.hpp"
#include "model/workload.hpp"

namespace kpw::scheduling {

// karmada caps every estimate at MaxInt32; a non-workload skips estimation and gets this everywhere.
inline constexpr std::int32_t unlimited_replicas = std::numeric_limits<std::int32_t>::max();

// Pods each virtual node of a resource model holds at most (karmada's model node capacity).
inline constexpr std::int64_t model_node_pods = 110;

// Which path produced an estimate; the lint text says whether models or the summary were used.
enum class estimate_source { no_summary, no_pods_left, pods_only, resource_models, summary };

struct estimate {
    std::int32_t replicas = 0;
    estimate_source source = estimate_source::no_summary;
};

// karmada: pkg/estimator/client/general.go GeneralEstimator.maxAvailableReplicas
// Order: no resourceSummary → 0; podsLeft ≤ 0 → 0; no ReplicaRequirements → podsLeft; resource models
// when spec.resourceModels and allocatableModelings both exist; otherwise the summary totals.
estimate general_estimate(const model::cluster& cluster, const model::workload& workload);

} // namespace kpw::scheduling
