// SPDX-License-Identifier: Apache-2.0
// Decoding policy API pieces embedded in other objects (a binding's spec.placement, a ClusterTaintPolicy's
// targetClusters, the applied-placement annotation) with the policy decoder, errors at the real path.
#pragma once

#include <optional>
#include <string_view>

#include "doc/value.hpp"
#include "field/error.hpp"
#include "model/policy.hpp"

namespace kpw::model {

// `node` as a Placement, with encoding/json's type rules (model::decode). The first type mismatch is
// reported as a FieldValueTypeInvalid at `at` plus the path to the offending node, indices included
// (`spec.placement.clusterAffinities[1].clusterNames: Invalid value: "a": expected []string`); the
// member that did not fit keeps its zero value. Null or absent gives nullopt without an error.
std::optional<placement> decode_placement(const doc::value* node, const field::path& at, field::error_list& errors);

// The same for a ClusterAffinity (ClusterTaintPolicy spec.targetClusters).
std::optional<cluster_affinity> decode_cluster_affinity(const doc::value* node, const field::path& at,
                                                        field::error_list& errors);

// The same for a FailoverBehavior (binding spec.failover).
std::optional<failover_behavior> decode_failover(const doc::value* node, const field::path& at,
                                                 field::error_list& errors);

} // namespace kpw::model
