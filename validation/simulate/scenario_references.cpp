// SPDX-License-Identifier: Apache-2.0
// Checking a scenario's cluster and workload names against the world it runs on, step by step.
#include <algorithm>
#include <set>

#include "simulate/scenario_decode.hpp"

namespace kpw::simulate {

namespace {

struct checker {
    std::set<std::string, std::less<>> clusters;
    std::span<const workload_ref> workloads;
    std::vector<scenario_error> errors;

    static std::string where(const step& s)
    {
        return "steps[" + std::to_string(s.index) + "]" + (s.name.empty() ? "" : " (" + s.name + ")") + "." +
               s.action_key;
    }
    void cluster(const step& s, const cluster_name& c)
    {
        if (!c.name.empty() && !clusters.contains(c.name))
            errors.push_back({c.where, where(s) + ".cluster: cluster " + c.name + " is not among the clusters" +
                                           " at this step (--clusters, addCluster and removeCluster steps)"});
    }
    void workload(const step& s, const workload_ref& w, std::string_view field)
    {
        if (w.name.empty() || std::find(workloads.begin(), workloads.end(), w) != workloads.end())
            return;
        errors.push_back({w.where, where(s) + "." + std::string(field) + ": workload " + w.str() +
                                       " is not among the workloads (--workloads, --bindings)"});
    }
    void visit(const step& s)
    {
        std::visit(
            [&](const auto& a) {
                using T = std::decay_t<decltype(a)>;
                if constexpr (std::is_same_v<T, add_cluster_step>) {
                    for (const auto& c : a.clusters)
                        clusters.insert(c.name);
                } else if constexpr (std::is_same_v<T, remove_cluster_step>) {
                    cluster(s, a.cluster);
                    clusters.erase(a.cluster.name);
                } else if constexpr (requires { a.cluster; }) {
                    cluster(s, a.cluster);
                } else if constexpr (std::is_same_v<T, scale_step> || std::is_same_v<T, relabel_step>) {
                    workload(s, a.workload, "workload");
                } else if constexpr (std::is_same_v<T, rebalance_step>) {
                    for (std::size_t i = 0; i < a.workloads.size(); ++i)
                        workload(s, a.workloads[i], "workloads[" + std::to_string(i) + "]");
                }
            },
            s.what);
    }
};

} // namespace

std::vector<scenario_error> validate_references(const scenario& s, std::span<const std::string> clusters,
                                                std::span<const workload_ref> workloads)
{
    checker c{{clusters.begin(), clusters.end()}, workloads, {}};
    for (const auto& st : s.steps)
        c.visit(st);
    return std::move(c.errors);
}

} // namespace kpw::simulate
