// SPDX-License-Identifier: Apache-2.0
// Reading the placement: strategy, defaulted spread constraints, when spread constraints are ignored.
#include "scheduling/strategy.hpp"

namespace kpw::scheduling {

namespace {

// karmada CRD default + mutating webhook: replicaSchedulingType Divided, then preference Weighted.
bool divided(const model::replica_scheduling_strategy& rs)
{
    return rs.replica_scheduling_type.empty() || rs.replica_scheduling_type == model::replica_scheduling_divided;
}

// Exactly "Weighted", as shouldIgnoreSpreadConstraint compares it (select_clusters.go): a policy's
// placement has it from the mutating webhook's default; a binding written some other way may carry
// Divided without it, and then its spread constraints count.
bool weighted(const model::replica_scheduling_strategy& rs)
{
    return rs.replica_division_preference == model::division_preference_weighted;
}

} // namespace

std::string_view strategy_name(strategy s)
{
    switch (s) {
    case strategy::duplicated: return "Duplicated";
    case strategy::static_weight: return "StaticWeight";
    case strategy::dynamic_weight: return "DynamicWeight";
    case strategy::aggregated: return "Aggregated";
    case strategy::unsupported: return "Unsupported";
    }
    return "Duplicated";
}

strategy strategy_of(const model::placement& placement)
{
    if (!placement.replica_scheduling || !divided(*placement.replica_scheduling))
        return strategy::duplicated;
    const auto& rs = *placement.replica_scheduling;
    if (rs.replica_division_preference == model::division_preference_aggregated)
        return strategy::aggregated;
    if (!weighted(rs))
        return strategy::unsupported;
    if (rs.weight_preference && !rs.weight_preference->dynamic_weight.empty())
        return strategy::dynamic_weight;
    return strategy::static_weight;
}

spread_view spread_of(const model::placement& placement)
{
    spread_view v;
    for (const auto& c : placement.spread_constraints) {
        v.any = true;
        // A later constraint of the same field replaces an earlier one, as in Karmada's map
        // (select_clusters.go selectBestClustersBySpreadConstraints; group_clusters.go's minGroups
        // loops). The webhook denies two of one field; a binding written some other way may have them.
        if (c.spread_by_field == model::spread_by_field_cluster) {
            v.cluster = c;
            v.one_cluster = v.one_cluster || (c.min_groups == 1 && c.max_groups == 1);
        }
        else if (c.spread_by_field == model::spread_by_field_region)
            v.region = c;
    }
    return v;
}

bool spread_ignored(const model::placement& placement)
{
    if (placement.spread_constraints.empty())
        return true;
    if (!placement.replica_scheduling)
        return false;
    const auto& rs = *placement.replica_scheduling;
    if (!divided(rs) || !weighted(rs))
        return false;
    const auto& wp = rs.weight_preference;
    return !wp || (!wp->static_weight_list.empty() && wp->dynamic_weight.empty());
}

} // namespace kpw::scheduling
