// SPDX-License-Identifier: Apache-2.0
// Typed model of policy.karmada.io/v1alpha1 PropagationPolicy and ClusterPropagationPolicy.
#pragma once

// Mirrors karmada pkg/apis/policy/v1alpha1/propagation_types.go field for field; member names are
// the snake_case of the JSON keys. Presence rules follow the Go round trip (validation-rules §2):
//  * Go pointers to structs / *int32 / *bool are std::optional: set when present, even when empty;
//  * lists are vectors: an empty list is the same as an absent one (omitempty drops it);
//  * plain Go strings/ints are plain members: "" / 0 means unset.
// Enumerated strings stay std::string so that unsupported values can be reported verbatim; the
// known values are the constants below.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kpw::model {

// ---- selectors ----------------------------------------------------------------------------

// metav1.LabelSelectorRequirement and corev1.NodeSelectorRequirement share this shape.
struct selector_requirement {
    std::string key;
    std::string op; // JSON "operator" (a C++ keyword)
    std::vector<std::string> values;
    friend bool operator==(const selector_requirement&, const selector_requirement&) = default;
};

// metav1.LabelSelector.
struct label_selector {
    std::map<std::string, std::string> match_labels; // sorted, as Go encodes maps
    std::vector<selector_requirement> match_expressions;
    friend bool operator==(const label_selector&, const label_selector&) = default;
};

// FieldSelector: keys provider/region/zone, operators In/NotIn (checked by the webhook).
struct field_selector {
    std::vector<selector_requirement> match_expressions;
    friend bool operator==(const field_selector&, const field_selector&) = default;
};

// ClusterAffinity.
struct cluster_affinity {
    std::optional<model::label_selector> label_selector;
    std::optional<model::field_selector> field_selector;
    std::vector<std::string> cluster_names;
    std::vector<std::string> exclude;
    friend bool operator==(const cluster_affinity&, const cluster_affinity&) = default;
};

// OverflowClusterAffinity: a named overflow tier; the ClusterAffinity is inlined in JSON.
struct overflow_cluster_affinity {
    std::string affinity_name;
    model::cluster_affinity cluster_affinity; // inline
    friend bool operator==(const overflow_cluster_affinity&, const overflow_cluster_affinity&) = default;
};

// ClusterAffinityTerm: one scheduling group; the ClusterAffinity is inlined in JSON.
struct cluster_affinity_term {
    std::string affinity_name;
    model::cluster_affinity cluster_affinity; // inline
    std::vector<overflow_cluster_affinity> overflow_affinities;
    friend bool operator==(const cluster_affinity_term&, const cluster_affinity_term&) = default;
};

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
    std::vector<static_cluster_weight> static_weight_list;
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
    std::vector<cluster_affinity_term> cluster_affinities;
    std::vector<toleration> cluster_tolerations;
    std::vector<spread_constraint> spread_constraints;
    std::optional<replica_scheduling_strategy> replica_scheduling;
    std::optional<model::workload_affinity> workload_affinity;
    friend bool operator==(const placement&, const placement&) = default;
};

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

// ---- well-known values ------------------------------------------------------------------

inline constexpr std::string_view kind_propagation_policy = "PropagationPolicy";
inline constexpr std::string_view kind_cluster_propagation_policy = "ClusterPropagationPolicy";

inline constexpr std::string_view replica_scheduling_duplicated = "Duplicated";
inline constexpr std::string_view replica_scheduling_divided = "Divided";
inline constexpr std::string_view division_preference_aggregated = "Aggregated";
inline constexpr std::string_view division_preference_weighted = "Weighted";
inline constexpr std::string_view dynamic_weight_available_replicas = "AvailableReplicas";

inline constexpr std::string_view spread_by_field_cluster = "cluster";
inline constexpr std::string_view spread_by_field_region = "region";
inline constexpr std::string_view spread_by_field_zone = "zone";
inline constexpr std::string_view spread_by_field_provider = "provider";

inline constexpr std::string_view preemption_always = "Always";
inline constexpr std::string_view preemption_never = "Never";
inline constexpr std::string_view conflict_resolution_abort = "Abort";
inline constexpr std::string_view conflict_resolution_overwrite = "Overwrite";
inline constexpr std::string_view activation_preference_lazy = "Lazy";

inline constexpr std::string_view purge_mode_directly = "Directly";
inline constexpr std::string_view purge_mode_gracefully = "Gracefully";
inline constexpr std::string_view purge_mode_never = "Never";

inline constexpr std::string_view default_scheduler_name = "default-scheduler";

// Labels and finalizers the mutating webhook manages (validation-rules §3.2 M7/M8, §6.1-6.2).
inline constexpr std::string_view pp_permanent_id_label = "propagationpolicy.karmada.io/permanent-id";
inline constexpr std::string_view cpp_permanent_id_label = "clusterpropagationpolicy.karmada.io/permanent-id";
inline constexpr std::string_view pp_finalizer = "karmada.io/propagation-policy-controller";
inline constexpr std::string_view cpp_finalizer = "karmada.io/cluster-propagation-policy-controller";

} // namespace kpw::model
