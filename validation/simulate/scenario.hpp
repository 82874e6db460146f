// SPDX-License-Identifier: Apache-2.0
// simulate::scenario: a drill for `simulate`, an ordered list of steps that change the world.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "base/result.hpp"
#include "controllers/taint_syntax.hpp"
#include "model/cluster.hpp"

namespace kpw::simulate {

inline constexpr std::string_view scenario_api_version = "karmada-policy-webhook.io/v1alpha1";
inline constexpr std::string_view kind_scenario = "Scenario";

// A cluster named by a step, with where its name is written.
struct cluster_name {
    std::string name;
    position where;
};

// "KIND/NAMESPACE/NAME", or "KIND/NAME" for a cluster-scoped workload (namespace_ empty).
struct workload_ref {
    std::string kind;
    std::string namespace_;
    std::string name;
    position where;
    std::string str() const; // back to the written form
    friend bool operator==(const workload_ref& a, const workload_ref& b)
    {
        return a.kind == b.kind && a.namespace_ == b.namespace_ && a.name == b.name;
    }
};

// taint / untaint: a kubectl taint argument applied to one cluster (change.remove tells which).
struct taint_step {
    cluster_name cluster;
    controllers::taint_change change;
    std::string spec; // as written
};

// clusterDown: the Ready condition becomes False (default) or Unknown.
struct cluster_down_step {
    cluster_name cluster;
    std::string status = "False";
};

// clusterUp: the Ready condition becomes True.
struct cluster_up_step {
    cluster_name cluster;
};

// addCluster: a Cluster file (relative to the scenario file) or an inline Cluster object. For an inline
// object `clusters` holds it decoded; for a path the caller loads the file and fills `clusters`
// (validate_references counts them).
struct add_cluster_step {
    std::string path;
    std::vector<model::cluster> clusters;
};

// removeCluster: the cluster's deletionTimestamp is set (unjoin).
struct remove_cluster_step {
    cluster_name cluster;
};

// setResources: merged into status.resourceSummary (a list given replaces those resources only).
struct set_resources_step {
    cluster_name cluster;
    std::optional<model::resource_list> allocatable;
    std::optional<model::resource_list> allocated;
    std::optional<model::resource_list> allocating;
};

// scale: the workload's replica count now.
struct scale_step {
    workload_ref workload;
    std::int32_t replicas = 0;
};

// rebalance: a WorkloadRebalancer for these workloads, created at the step's time.
struct rebalance_step {
    std::vector<workload_ref> workloads;
};

// applyPolicy: a new version of policies (a file relative to the scenario file).
struct apply_policy_step {
    std::string path;
};

// deletePolicy: the policy is deleted (kubectl delete): Karmada takes its claims off the templates and
// bindings, and the remaining policies may claim the templates (scheduling/policy_deletion.hpp).
struct delete_policy_step {
    std::string kind; // PropagationPolicy | ClusterPropagationPolicy
    std::string namespace_;
    std::string name;
    position where;
};

// relabel: labels set (a value) or removed (null) on one workload's template (kubectl label).
struct relabel_step {
    workload_ref workload;
    std::vector<std::pair<std::string, std::optional<std::string>>> labels;
};

// wait: time passes.
struct wait_step {
    std::int64_t seconds = 0;
    std::string text; // as written ("10m")
};

using action = std::variant<taint_step, cluster_down_step, cluster_up_step, add_cluster_step, remove_cluster_step,
                            set_resources_step, scale_step, rebalance_step, apply_policy_step, delete_policy_step,
                            relabel_step, wait_step>;

struct step {
    std::size_t index = 0; // position in the file's steps list
    std::string name;      // optional
    std::string action_key; // "taint", "untaint", "clusterDown", ...
    simulate::action what;
    position where; // the step's mapping in the file
};

struct scenario {
    std::string name; // metadata.name
    std::string description;
    // memberState: the members' Nodes and Pods for karmada-scheduler-estimator (a directory relative to the
    // scenario file, as --member-state reads it; docs/estimator.md). "" = none.
    std::string member_state;
    std::vector<step> steps;
    position where;
};

// A problem in a scenario file, at the node a person edits; the caller adds the file name.
struct scenario_error {
    position where;
    std::string message; // "steps[2].scale.replicas: Invalid value: -1: must be greater than or equal to 0"
};

} // namespace kpw::simulate
