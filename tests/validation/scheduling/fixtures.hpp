// SPDX-License-Identifier: Apache-2.0
// Builders for simulator tests: clusters whose available replicas are their free pods, specs by strategy.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "model/cluster.hpp"
#include "model/policy.hpp"
#include "model/workload.hpp"
#include "scheduling/simulator.hpp"

namespace kpw::scheduling::test {

// A cluster serving apps/v1 Deployment whose free pods are `available`: a workload without requests
// then gets exactly `available` from the general estimator.
inline model::cluster cluster(std::string name, std::int64_t available, std::string region = {},
                              model::label_map labels = {})
{
    model::cluster c;
    c.name = std::move(name);
    c.region = std::move(region);
    c.labels = std::move(labels);
    c.api_enablements = {{"apps/v1", {"Deployment", "StatefulSet"}}, {"v1", {"ConfigMap", "Service"}}};
    model::resource_summary s;
    s.allocatable["pods"] = model::quantity::from_int(available);
    c.resource_summary = s;
    return c;
}

inline model::workload deployment(std::int32_t replicas, std::string uid = {})
{
    model::workload w;
    w.api_version = "apps/v1";
    w.kind = "Deployment";
    w.namespace_ = "default";
    w.name = "web";
    w.uid = std::move(uid);
    w.replicas = replicas;
    return w;
}

inline model::cluster_affinity names(std::vector<std::string> cluster_names)
{
    model::cluster_affinity a;
    a.cluster_names = std::move(cluster_names);
    return a;
}

inline model::replica_scheduling_strategy divided(std::string preference, std::string dynamic = {})
{
    model::replica_scheduling_strategy rs;
    rs.replica_scheduling_type = "Divided";
    rs.replica_division_preference = std::move(preference);
    if (!dynamic.empty())
        rs.weight_preference = model::cluster_preferences{{}, std::move(dynamic)};
    return rs;
}

inline model::propagation_spec dynamic_weight_spec()
{
    model::propagation_spec spec;
    spec.placement.replica_scheduling = divided("Weighted", "AvailableReplicas");
    return spec;
}

inline model::propagation_spec aggregated_spec()
{
    model::propagation_spec spec;
    spec.placement.replica_scheduling = divided("Aggregated");
    return spec;
}

inline model::propagation_spec duplicated_spec()
{
    model::propagation_spec spec;
    spec.placement.replica_scheduling = model::replica_scheduling_strategy{"Duplicated", {}, {}};
    return spec;
}

// Static weights by cluster name: {{"member1", 2}, {"member2", 1}}.
inline model::propagation_spec static_weight_spec(std::vector<std::pair<std::string, std::int64_t>> weights)
{
    model::propagation_spec spec;
    auto rs = divided("Weighted");
    model::cluster_preferences wp;
    for (auto& [name, w] : weights)
        wp.static_weight_list.push_back({names({name}), w});
    rs.weight_preference = wp;
    spec.placement.replica_scheduling = rs;
    return spec;
}

inline model::cluster_affinity_term term(std::string name, std::vector<std::string> cluster_names,
                                         std::vector<model::overflow_cluster_affinity> overflow = {})
{
    return {std::move(name), names(std::move(cluster_names)), std::move(overflow)};
}

inline model::overflow_cluster_affinity overflow(std::string name, std::vector<std::string> cluster_names)
{
    return {std::move(name), names(std::move(cluster_names))};
}

// name -> replicas of a decision, for compact assertions.
inline std::map<std::string, std::int32_t> split(const decision& d)
{
    std::map<std::string, std::int32_t> out;
    for (const auto& c : d.clusters)
        out[c.name] = c.replicas;
    return out;
}

using replicas_map = std::map<std::string, std::int32_t>;

} // namespace kpw::scheduling::test
