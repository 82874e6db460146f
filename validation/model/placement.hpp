// SPDX-License-Identifier: Apache-2.0
// Typed model: Placement (tolerations, spread constraints, replica scheduling, workload affinity).
#pragma once

// Part of the typed model; include model/policy.hpp (see there for the presence conventions).

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/affinity.hpp"

namespace kpw::model {

// ---- placement ----------------------------------------------------------------------------

// corev1.Toleration.
struct toleration {
    std::string key;
    std::string op; // JSON "operator"
    std::string value;
    std::string effect;
    std::optional<std::int64_t> toleration_seconds;
    friend bool operator==(const toleration&, const toleration&) = default;
};

// SpreadConstraint (Go int: 64-bit).
struct spread_constraint {
    std::string spread_by_field;
    std::string spread_by_label;
    std::int64_t max_groups = 0;
    std::int64_t min_groups = 0;
    friend bool operator==(const spread_constraint&, const spread_constraint&) = default;
};

// StaticClusterWeight.
struct static_cluster_weight {
    model::cluster_affinity target_cluster;
    std::int64_t weight = 0;
    friend bool operator==(const static_cluster_weight&, const static_cluster_weight&) = default;
};

// ClusterPreferences.
struct cluster_preferences {
    go_slice<static_cluster_weight> static_weight_list;
    std::string dynamic_weight;
    friend bool operator==(const cluster_preferences&, const cluster_preferences&) = default;
};

// ReplicaSchedulingStrategy.
struct replica_scheduling_strategy {
    std::string replica_scheduling_type;
    std::string replica_division_preference;
    std::optional<cluster_preferences> weight_preference;
    friend bool operator==(const replica_scheduling_strategy&, const replica_scheduling_strategy&) = default;
};

// WorkloadAffinityTerm / WorkloadAntiAffinityTerm.
struct workload_affinity_term {
    std::string group_by_label_key;
    friend bool operator==(const workload_affinity_term&, const workload_affinity_term&) = default;
};

// WorkloadAffinity.
struct workload_affinity {
    std::optional<workload_affinity_term> affinity;
    std::optional<workload_affinity_term> anti_affinity;
    friend bool operator==(const workload_affinity&, const workload_affinity&) = default;
};

// Placement.
struct placement {
    std::optional<model::cluster_affinity> cluster_affinity;
    go_slice<cluster_affinity_term> cluster_affinities;
    go_slice<toleration> cluster_tolerations;
    go_slice<spread_constraint> spread_constraints;
    std::optional<replica_scheduling_strategy> replica_scheduling;
    std::optional<model::workload_affinity> workload_affinity;
    friend bool operator==(const placement&, const placement&) = default; // reflect.DeepEqual
};

// The placement with every explicit `[]` / `{}` made absent (model/go_collection.hpp).
placement without_explicit_empties(placement p);

// apimachinery's equality.Semantic.DeepEqual, which takes an empty slice or map for a nil one (the
// controller-runtime CreateOrUpdate test the detector's ApplyPolicy goes through).
bool semantically_equal(const std::optional<placement>& a, const std::optional<placement>& b);

} // namespace kpw::model
