// SPDX-License-Identifier: Apache-2.0
// Typed model of policy.karmada.io/v1alpha1 PropagationPolicy and ClusterPropagationPolicy.
#pragma once

// Mirrors karmada pkg/apis/policy/v1alpha1/propagation_types.go field for field; member names are
// the snake_case of the JSON keys. Presence rules follow the Go round trip (validation-rules §2):
//  * Go pointers to structs / *int32 / *bool are std::optional: set when present, even when empty;
//  * lists are vectors: an empty list is the same as an absent one (omitempty drops it); the Placement
//    types' lists and maps are go_collections, which can also remember an explicit `[]` / `{}` where a
//    placement is read as written (model/go_collection.hpp);
//  * plain Go strings/ints are plain members: "" / 0 means unset.
// Enumerated strings stay std::string so that unsupported values can be reported verbatim; the
// known values are the constants of model/well_known.hpp.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/affinity.hpp"
#include "model/placement.hpp"
#include "model/well_known.hpp"

namespace kpw::model {

// ---- failover, suspension, priority ------------------------------------------------------

struct state_preservation_rule {
    std::string alias_label_name;
    std::string json_path;
    friend bool operator==(const state_preservation_rule&, const state_preservation_rule&) = default;
};

struct state_preservation {
    std::vector<state_preservation_rule> rules;
    friend bool operator==(const state_preservation&, const state_preservation&) = default;
};

// DecisionConditions (a struct, not a pointer, in Go: always emitted).
struct decision_conditions {
    std::optional<std::int32_t> toleration_seconds;
    friend bool operator==(const decision_conditions&, const decision_conditions&) = default;
};

// ApplicationFailoverBehavior.
struct application_failover_behavior {
    model::decision_conditions decision_conditions;
    std::string purge_mode;
    std::optional<std::int32_t> grace_period_seconds;
    std::optional<model::state_preservation> state_preservation;
    friend bool operator==(const application_failover_behavior&, const application_failover_behavior&) = default;
};

// ClusterFailoverBehavior.
struct cluster_failover_behavior {
    std::string purge_mode;
    std::optional<model::state_preservation> state_preservation;
    friend bool operator==(const cluster_failover_behavior&, const cluster_failover_behavior&) = default;
};

// FailoverBehavior.
struct failover_behavior {
    std::optional<application_failover_behavior> application;
    std::optional<cluster_failover_behavior> cluster;
    friend bool operator==(const failover_behavior&, const failover_behavior&) = default;
};

// SuspendClusters.
struct suspend_clusters {
    std::vector<std::string> cluster_names;
    friend bool operator==(const suspend_clusters&, const suspend_clusters&) = default;
};

// Suspension.
struct suspension {
    std::optional<bool> dispatching;
    std::optional<suspend_clusters> dispatching_on_clusters;
    friend bool operator==(const suspension&, const suspension&) = default;
};

// SchedulePriority.
struct schedule_priority {
    std::string priority_class_source;
    std::string priority_class_name;
    friend bool operator==(const schedule_priority&, const schedule_priority&) = default;
};

// ResourceSelector.
struct resource_selector {
    std::string api_version;
    std::string kind;
    std::string ns; // JSON "namespace" (a C++ keyword)
    std::string name;
    std::optional<model::label_selector> label_selector;
    friend bool operator==(const resource_selector&, const resource_selector&) = default;
};

// ---- the policy -------------------------------------------------------------------------

// PropagationSpec, shared by PP and CPP.
struct propagation_spec {
    std::vector<resource_selector> resource_selectors;
    bool propagate_deps = false;
    model::placement placement;
    std::optional<std::int32_t> priority;
    std::string preemption;
    std::vector<std::string> dependent_overrides;
    std::string scheduler_name;
    std::optional<failover_behavior> failover;
    std::string conflict_resolution;
    std::string activation_preference;
    std::optional<model::suspension> suspension;
    std::optional<bool> preserve_resources_on_deletion;
    bool association = false; // deprecated upstream, still part of the API
    std::optional<model::schedule_priority> schedule_priority;
    friend bool operator==(const propagation_spec&, const propagation_spec&) = default;
};

// The parts of metav1.ObjectMeta the product reads; other metadata is carried in the document.
struct object_meta {
    std::string name;
    std::string generate_name;
    std::string ns; // JSON "namespace"
    std::string uid;
    std::map<std::string, std::string> labels;
    std::map<std::string, std::string> annotations;
    std::vector<std::string> finalizers;
    friend bool operator==(const object_meta&, const object_meta&) = default;
};

// PropagationPolicy (namespaced) or ClusterPropagationPolicy (cluster-scoped): one spec type.
struct policy {
    std::string api_version; // "policy.karmada.io/v1alpha1"
    std::string kind;        // kind_propagation_policy or kind_cluster_propagation_policy
    object_meta metadata;
    propagation_spec spec;
    friend bool operator==(const policy&, const policy&) = default;
};

} // namespace kpw::model
