// SPDX-License-Identifier: Apache-2.0
// model::binding: the fields of a work.karmada.io/v1alpha2 ResourceBinding / ClusterResourceBinding
// that karmada-scheduler and the controllers around it read and write (day2-semantics §1).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "base/result.hpp"
#include "model/policy.hpp"
#include "model/time.hpp"
#include "model/workload.hpp"

namespace kpw::model {

inline constexpr std::string_view kind_resource_binding = "ResourceBinding";
inline constexpr std::string_view kind_cluster_resource_binding = "ClusterResourceBinding";
inline constexpr std::string_view binding_api_version = "work.karmada.io/v1alpha2";
inline constexpr std::string_view applied_placement_annotation = "policy.karmada.io/applied-placement";
inline constexpr std::string_view pp_namespace_annotation = "propagationpolicy.karmada.io/namespace";
inline constexpr std::string_view pp_name_annotation = "propagationpolicy.karmada.io/name";
inline constexpr std::string_view cpp_name_annotation = "clusterpropagationpolicy.karmada.io/name";
inline constexpr std::string_view managed_by_label = "binding.karmada.io/managed-by";

// spec.resource: the template the binding was made for.
struct object_reference {
    std::string api_version;
    std::string kind;
    std::string namespace_; // "" for a cluster-scoped template
    std::string name;
    std::string uid;
    std::string resource_version;
    friend bool operator==(const object_reference&, const object_reference&) = default;
};

// TargetCluster.components[] and spec.clusters[] entries.
struct component_replicas {
    std::string name;
    std::int32_t replicas = 0;
    friend bool operator==(const component_replicas&, const component_replicas&) = default;
};

struct target_cluster {
    std::string name;
    std::int32_t replicas = 0; // omitted (0) for non-workloads
    std::vector<component_replicas> components;
    friend bool operator==(const target_cluster&, const target_cluster&) = default;
};

// spec.gracefulEvictionTasks[] (day2-semantics §4.5).
struct graceful_eviction_task {
    std::string from_cluster;
    std::string purge_mode; // Directly | Gracefully | Never
    std::int32_t replicas = 0;
    std::string reason;   // TaintUntolerated | ApplicationFailure
    std::string message;
    std::string producer; // TaintManager | ...-application-failover-controller
    std::optional<std::int32_t> grace_period_seconds;
    std::optional<bool> suppress_deletion;
    std::optional<timestamp> creation_timestamp; // set by the graceful-eviction controller
    friend bool operator==(const graceful_eviction_task&, const graceful_eviction_task&) = default;
};

// status.aggregatedStatus[] as far as graceful eviction reads it.
struct aggregated_status_item {
    std::string cluster_name;
    std::string health; // Healthy | Unhealthy | Unknown
    friend bool operator==(const aggregated_status_item&, const aggregated_status_item&) = default;
};

// status.conditions[type=Scheduled].
struct scheduled_condition {
    std::string status; // True | False
    std::string reason; // Success | NoClusterFit | Unschedulable | SchedulerError | QuotaExceeded
    std::string message;
    friend bool operator==(const scheduled_condition&, const scheduled_condition&) = default;
};

// Which policy holds the binding, from its claim labels and annotations (day2-semantics §1.1).
struct policy_claim {
    bool cluster_policy = false; // a ClusterPropagationPolicy
    std::string namespace_;      // the PropagationPolicy's namespace ("" for a CPP)
    std::string name;
    std::string permanent_id;
    friend bool operator==(const policy_claim&, const policy_claim&) = default;
};

struct binding {
    std::string kind; // kind_resource_binding or kind_cluster_resource_binding
    std::string namespace_; // "" for a ClusterResourceBinding
    std::string name;
    std::int64_t generation = 0;
    bool deleting = false; // metadata.deletionTimestamp is set
    std::map<std::string, std::string> labels;
    std::map<std::string, std::string> annotations;
    std::optional<policy_claim> claim; // nullopt: no claim labels (the scheduler ignores it)
    // The uid of the controller owner reference (metav1.GetControllerOf: the first with controller: true);
    // the detector updates the binding only for the template of that uid (detector.go ApplyPolicy, #2090).
    std::optional<std::string> controller_owner_uid;

    // spec
    object_reference resource;
    std::int32_t replicas = 0;
    bool has_requirements = false; // spec.replicaRequirements is set
    replica_request request;       // spec.replicaRequirements.resourceRequest, karmada units
    std::optional<model::node_claim> node_claim; // spec.replicaRequirements.nodeClaim
    std::vector<component> components;
    std::optional<model::placement> placement;
    std::string scheduler_name;
    std::optional<failover_behavior> failover;
    bool suspend_scheduling = false; // spec.suspension.scheduling
    std::vector<target_cluster> clusters;
    std::vector<graceful_eviction_task> graceful_eviction_tasks;
    std::optional<timestamp> reschedule_triggered_at;

    // status
    std::int64_t scheduler_observed_generation = 0;
    std::optional<timestamp> last_scheduled_time;
    std::string scheduler_observing_affinity_name;
    std::vector<aggregated_status_item> aggregated_status;
    std::optional<scheduled_condition> scheduled;

    position where; // the object's start in its file (0 when built in memory)
    std::string source; // that file's name ("" when built in memory)
    friend bool operator==(const binding&, const binding&) = default;
};

// Whether the binding holds a placement: its Scheduled condition is True, or, without one (a binding the
// scheduler has not written a condition to, or one written by hand), it lists clusters.
inline bool holds_placement(const binding& b)
{
    return b.scheduled ? b.scheduled->status == "True" : !b.clusters.empty();
}

// Whether spec.resource names this template (apiVersion, kind, namespace, name; a binding's own match).
inline bool refers_to(const object_reference& r, const workload& w)
{
    return r.api_version == w.api_version && r.kind == w.kind && r.namespace_ == w.namespace_ && r.name == w.name;
}

// The binding as the scheduler reads the workload: replicas, requirements and components.
inline workload workload_of(const binding& b)
{
    workload w;
    w.api_version = b.resource.api_version;
    w.kind = b.resource.kind;
    w.namespace_ = b.resource.namespace_;
    w.name = b.resource.name;
    w.uid = b.resource.uid;
    w.replicas = b.replicas;
    w.has_requirements = b.has_requirements;
    w.request = b.request;
    w.claim = b.node_claim;
    w.components = b.components;
    w.where = b.where;
    return w;
}

} // namespace kpw::model
