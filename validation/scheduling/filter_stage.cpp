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

std::string affinity_detail(const model::cluster& c, const group_scope& group)
{
    std::string detail = affinity_mismatch(c, *group.primary);
    if (!group.overflow.empty())
        detail += ", and it matches none of the overflowAffinities";
    return group.name.empty() ? detail : "affinity group " + group.name + ": " + detail;
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

// Each plugin's Filter, as in pkg/scheduler/framework/plugins/*, without building any text.
failing_plugins failing(const snapshot& snap, std::size_t i, const filter_scope& scope)
{
    failing_plugins out;
    const auto& c = snap.clusters()[i];
    if (c.deleting)
        return out;
    auto set = [&](filter_plugin p) { out.mask |= static_cast<std::uint8_t>(1u << static_cast<unsigned>(p)); };
    std::uint32_t rank = snap.name_rank(i);
    bool targeted = listed(scope.targets, rank);
    if (!targeted && !snap.api_enabled(i, scope.api))
        set(filter_plugin::api_enablement);
    if ((out.taint = targeted ? nullptr : untolerated_taint(c, scope.tolerations)) != nullptr)
        set(filter_plugin::taint_toleration);
    if (tier_of(c, scope.group) < 0)
        set(filter_plugin::cluster_affinity);
    if (!(out.spread_field = missing_spread_field(c, scope.spread)).empty())
        set(filter_plugin::spread_constraint);
    if (listed(scope.evicting, rank))
        set(filter_plugin::cluster_eviction);
    return out;
}

bool failing_plugins::fails(filter_plugin p) const
{
    return (mask >> static_cast<unsigned>(p)) & 1u;
}

// Karmada's exact reason strings.
std::string plugin_reason(filter_plugin p, const failing_plugins& f)
{
    switch (p) {
    case filter_plugin::api_enablement: return "cluster(s) did not have the API resource";
    case filter_plugin::taint_toleration: return "cluster(s) had untolerated taint {" + taint_string(*f.taint) + "}";
    case filter_plugin::cluster_affinity: return "cluster(s) did not match the placement cluster affinity constraint";
    case filter_plugin::spread_constraint:
        return "cluster(s) did not have " +
               std::string(f.spread_field == model::spread_by_field_zone ? "zones" : f.spread_field) + " property";
    case filter_plugin::cluster_eviction: return "cluster(s) is in the process of eviction";
    }
    return {};
}

std::vector<plugin_failure> plugin_failures(const snapshot& snap, std::size_t i, const filter_scope& scope)
{
    std::vector<plugin_failure> out;
    auto f = failing(snap, i, scope);
    for (auto p : all_filter_plugins) {
        if (!f.fails(p))
            continue;
        std::string detail;
        switch (p) {
        case filter_plugin::api_enablement:
            detail = "API " + std::string(scope.api_version) + "/" + std::string(scope.kind) + " not enabled";
            break;
        case filter_plugin::taint_toleration: detail = "taint " + taint_string(*f.taint) + " not tolerated"; break;
        case filter_plugin::cluster_affinity: detail = affinity_detail(snap.clusters()[i], scope.group); break;
        case filter_plugin::spread_constraint:
            detail = "no " + std::string(f.spread_field) + " for the spread constraint";
            break;
        case filter_plugin::cluster_eviction: detail = "a graceful-eviction task from this cluster is pending"; break;
        }
        out.push_back({p, plugin_reason(p, f), std::move(detail)});
    }
    return out;
}

} // namespace kpw::scheduling
