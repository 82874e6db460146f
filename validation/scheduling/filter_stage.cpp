// SPDX-License-Identifier: Apache-2.0
// The filter stage: the plugins' pass/fail per cluster, and their reasons when asked.
#include "scheduling/filter_stage.hpp"

#include <algorithm>

#include "scheduling/filter.hpp"

namespace kpw::scheduling {

namespace {

bool listed(std::span<const std::uint32_t> ranks, std::uint32_t rank)
{
    return !ranks.empty() && std::binary_search(ranks.begin(), ranks.end(), rank);
}

// karmada: plugins/apienablement and plugins/tainttoleration pass a cluster already in spec.clusters
// (bindingSpec.TargetContains), so a re-schedule never drops a target because of them.
bool passes(const snapshot& snap, std::size_t i, const filter_scope& scope)
{
    const auto& c = snap.clusters()[i];
    std::uint32_t rank = snap.name_rank(i);
    bool targeted = listed(scope.targets, rank);
    if (!targeted && (!snap.api_enabled(i, scope.api) || untolerated_taint(c, scope.tolerations) != nullptr))
        return false;
    return missing_spread_field(c, scope.spread).empty() && !listed(scope.evicting, rank);
}

plugin_failure affinity_failure(const model::cluster& c, const group_scope& group)
{
    std::string detail = affinity_mismatch(c, *group.primary);
    if (!group.overflow.empty())
        detail += ", and it matches none of the overflowAffinities";
    if (!group.name.empty())
        detail = "affinity group " + group.name + ": " + detail;
    return {filter_plugin::cluster_affinity, "cluster(s) did not match the placement cluster affinity constraint",
            std::move(detail)};
}

} // namespace

void add_missing_names(const model::cluster_affinity& a, const snapshot& snap, std::vector<std::string>& out)
{
    for (const auto& name : a.cluster_names)
        if (!snap.contains(name))
            out.push_back(name + ": not in the snapshot");
}

int tier_of(const model::cluster& c, const group_scope& group)
{
    if (group.primary == nullptr || cluster_matches(c, *group.primary))
        return 0;
    for (std::size_t i = 0; i < group.overflow.size(); ++i)
        if (cluster_matches(c, group.overflow[i].cluster_affinity))
            return static_cast<int>(i) + 1;
    return -1;
}

group_filter filter_group(const snapshot& snap, const filter_scope& scope)
{
    group_filter out;
    auto clusters = snap.clusters();
    for (std::size_t i = 0; i < clusters.size(); ++i) {
        const auto& c = clusters[i];
        if (c.deleting)
            continue;
        int tier = tier_of(c, scope.group);
        if (tier < 0)
            continue;
        if (passes(snap, i, scope))
            out.feasible.push_back({static_cast<std::uint32_t>(i), tier});
        else
            out.rejected.push_back(static_cast<std::uint32_t>(i));
    }
    return out;
}

// Each plugin's Filter, as in pkg/scheduler/framework/plugins/*; reasons are Karmada's exact strings.
std::vector<plugin_failure> plugin_failures(const snapshot& snap, std::size_t i, const filter_scope& scope)
{
    std::vector<plugin_failure> out;
    const auto& c = snap.clusters()[i];
    if (c.deleting)
        return out;
    std::uint32_t rank = snap.name_rank(i);
    bool targeted = listed(scope.targets, rank);
    if (!targeted && !snap.api_enabled(i, scope.api)) {
        out.push_back({filter_plugin::api_enablement, "cluster(s) did not have the API resource",
                       "API " + std::string(scope.api_version) + "/" + std::string(scope.kind) + " not enabled"});
    }
    if (const model::taint* t = targeted ? nullptr : untolerated_taint(c, scope.tolerations)) {
        std::string shown = taint_string(*t);
        out.push_back({filter_plugin::taint_toleration, "cluster(s) had untolerated taint {" + shown + "}",
                       "taint " + shown + " not tolerated"});
    }
    if (tier_of(c, scope.group) < 0)
        out.push_back(affinity_failure(c, scope.group));
    if (auto f = missing_spread_field(c, scope.spread); !f.empty()) {
        std::string property = f == model::spread_by_field_zone ? "zones" : std::string(f);
        out.push_back({filter_plugin::spread_constraint, "cluster(s) did not have " + property + " property",
                       "no " + std::string(f) + " for the spread constraint"});
    }
    if (listed(scope.evicting, rank))
        out.push_back({filter_plugin::cluster_eviction, "cluster(s) is in the process of eviction",
                       "a graceful-eviction task from this cluster is pending"});
    return out;
}

} // namespace kpw::scheduling
