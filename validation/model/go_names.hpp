// SPDX-License-Identifier: Apache-2.0
// Go type names of the API structs, as encoding/json prints them in unmarshal errors.
#pragma once

#include <algorithm>
#include <cctype>
#include <string>
#include <string_view>
#include <utility>

#include "doc/value.hpp"
#include "model/policy.hpp"

namespace kpw::model {

// encoding/json's word for a JSON value in "cannot unmarshal W into ...": bool, number, string, array, object.
inline std::string_view json_value_word(const doc::value& v)
{
    return v.is_bool() ? "bool" : v.is_number() ? "number" : doc::type_name(v.kind());
}

// Whether encoding/json's Unmarshal takes the JSON member `name` for the field `field`: names match with ASCII
// case folded (Go folds a few Unicode letters too, which no field name of these types holds).
inline bool json_names_field(std::string_view name, std::string_view field)
{
    return std::equal(name.begin(), name.end(), field.begin(), field.end(), [](char a, char b) {
        return std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b));
    });
}

// Go package-qualified names of the API structs, for "of type v1alpha1.Placement" and "Go struct field X.".
using go_name = std::pair<std::string_view, std::string_view>;
inline go_name go_name_of(const selector_requirement*) { return {"v1", "LabelSelectorRequirement"}; }
inline go_name go_name_of(const label_selector*) { return {"v1", "LabelSelector"}; }
inline go_name go_name_of(const field_selector*) { return {"v1alpha1", "FieldSelector"}; }
inline go_name go_name_of(const cluster_affinity*) { return {"v1alpha1", "ClusterAffinity"}; }
inline go_name go_name_of(const overflow_cluster_affinity*) { return {"v1alpha1", "OverflowClusterAffinity"}; }
inline go_name go_name_of(const cluster_affinity_term*) { return {"v1alpha1", "ClusterAffinityTerm"}; }
inline go_name go_name_of(const toleration*) { return {"v1", "Toleration"}; }
inline go_name go_name_of(const spread_constraint*) { return {"v1alpha1", "SpreadConstraint"}; }
inline go_name go_name_of(const static_cluster_weight*) { return {"v1alpha1", "StaticClusterWeight"}; }
inline go_name go_name_of(const cluster_preferences*) { return {"v1alpha1", "ClusterPreferences"}; }
inline go_name go_name_of(const replica_scheduling_strategy*) { return {"v1alpha1", "ReplicaSchedulingStrategy"}; }
inline go_name go_name_of(const workload_affinity_term*) { return {"v1alpha1", "WorkloadAffinityTerm"}; }
inline go_name go_name_of(const workload_affinity*) { return {"v1alpha1", "WorkloadAffinity"}; }
inline go_name go_name_of(const placement*) { return {"v1alpha1", "Placement"}; }
inline go_name go_name_of(const state_preservation_rule*) { return {"v1alpha1", "StatePreservationRule"}; }
inline go_name go_name_of(const state_preservation*) { return {"v1alpha1", "StatePreservation"}; }
inline go_name go_name_of(const decision_conditions*) { return {"v1alpha1", "DecisionConditions"}; }
inline go_name go_name_of(const application_failover_behavior*) { return {"v1alpha1", "ApplicationFailoverBehavior"}; }
inline go_name go_name_of(const cluster_failover_behavior*) { return {"v1alpha1", "ClusterFailoverBehavior"}; }
inline go_name go_name_of(const failover_behavior*) { return {"v1alpha1", "FailoverBehavior"}; }
inline go_name go_name_of(const suspend_clusters*) { return {"v1alpha1", "SuspendClusters"}; }
inline go_name go_name_of(const suspension*) { return {"v1alpha1", "Suspension"}; }
inline go_name go_name_of(const schedule_priority*) { return {"v1alpha1", "SchedulePriority"}; }
inline go_name go_name_of(const resource_selector*) { return {"v1alpha1", "ResourceSelector"}; }
inline go_name go_name_of(const propagation_spec*) { return {"v1alpha1", "PropagationSpec"}; }
inline go_name go_name_of(const object_meta*) { return {"v1", "ObjectMeta"}; }

inline std::string go_type_of(const std::string*) { return "string"; }
template <class T>
std::string go_type_of(const T* p)
{
    const auto [pkg, name] = go_name_of(p);
    return std::string(pkg) + "." + std::string(name);
}

} // namespace kpw::model
