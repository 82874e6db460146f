// SPDX-License-Identifier: Apache-2.0
// The previous result of a re-schedule as the pipeline reads it: name ranks and current replicas.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "scheduling/simulator.hpp"
#include "scheduling/snapshot.hpp"

namespace kpw::scheduling {

// The previous result reduced to name ranks of the snapshot (clusters that no longer exist drop out).
struct previous_view {
    std::vector<std::uint32_t> targets;                          // spec.clusters, sorted
    std::vector<std::uint32_t> evicting;                         // graceful-eviction fromClusters, sorted
    std::vector<std::pair<std::uint32_t, std::int32_t>> current; // rank -> replicas (first entry wins)
};

// Empty for a first schedule (nullptr).
previous_view view_of(const previous_result* previous, const snapshot& snap);

// karmada: workv1alpha2 AssignedReplicasForCluster — the first spec.clusters entry of that name.
std::int32_t current_of(const previous_view& v, std::uint32_t rank);

} // namespace kpw::scheduling
