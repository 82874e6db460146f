// SPDX-License-Identifier: Apache-2.0
// Decoding scenario files (kind Scenario) and checking the clusters and workloads their steps name.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "doc/value.hpp"
#include "simulate/scenario.hpp"

namespace kpw::simulate {

struct scenario_decoding {
    scenario value;
    std::vector<scenario_error> errors; // empty: the scenario can run
};

// Strict, since a person writes it: apiVersion karmada-policy-webhook.io/v1alpha1, kind Scenario, a
// non-empty `steps` list; each step a mapping with an optional `name` and exactly one action key
// (taint, untaint, clusterDown, clusterUp, addCluster, removeCluster, setResources, scale, rebalance,
// applyPolicy, wait) whose value is a mapping of that action's fields. Reported, each at the node to
// edit: unknown keys, two or no actions, missing fields, malformed workload references, malformed
// taints (kubectl's texts), bad durations (Go's texts), negative replicas, unparsable quantities.
scenario_decoding decode_scenario(const doc::value& root);

// Parses "KIND/NAMESPACE/NAME" or "KIND/NAME"; a failure says what is expected.
result<workload_ref> parse_workload_ref(std::string_view text, position where);

// "a scenario step naming an unknown cluster or workload": walks the steps in order with the cluster
// names known before the first step (addCluster adds the names of its `clusters`, removeCluster drops
// the name for the steps after it), and reports every step naming a cluster or a workload that is not
// known at that point ("steps[3].scale.workload: workload Deployment/default/web is not among the workloads").
std::vector<scenario_error> validate_references(const scenario& s, std::span<const std::string> clusters,
                                                std::span<const workload_ref> workloads);

} // namespace kpw::simulate
