// SPDX-License-Identifier: Apache-2.0
// Duplicated and static weight assignment, the dispatch to dynamic division, and the overflow tier loop.
#include "scheduling/assign.hpp"

#include <algorithm>

#include "scheduling/division.hpp"
#include "scheduling/filter.hpp"

namespace kpw::scheduling {

namespace {

// The static weight of a cluster: the maximum weight among the rules whose targetCluster matches it.
std::int64_t static_weight(const model::cluster& c, const model::cluster_preferences& wp)
{
    std::int64_t w = 0;
    for (const auto& rule : wp.static_weight_list)
        if (rule.weight > w && cluster_matches(c, rule.target_cluster))
            w = rule.weight;
    return w;
}

// karmada: assignment.go assignByStaticWeightStrategy with division_algorithm.go getStaticWeightInfoList.
// Recomputed from zero on every schedule: the previous result's LastReplicas is read but Webster ignores it.
assignment by_static_weight(const std::vector<candidate>& selected, const model::placement& placement,
                            std::int32_t replicas, name_order order)
{
    const auto& wp = placement.replica_scheduling->weight_preference;
    std::vector<voter> voters;
    for (std::size_t i = 0; i < selected.size(); ++i) {
        std::int64_t w = wp ? static_weight(*selected[i].cluster, *wp) : 1;
        if (w > 0)
            voters.push_back({i, w});
    }
    if (voters.empty())
        for (std::size_t i = 0; i < selected.size(); ++i)
            voters.push_back({i, 1});
    std::vector<std::int32_t> shares(selected.size(), 0);
    deal_webster(selected, voters, replicas, order, shares);
    return collect(selected, shares);
}

} // namespace

assignment unschedulable_assignment(std::string error)
{
    assignment out;
    out.error = std::move(error);
    out.unschedulable = true;
    return out;
}

assignment assign_strategy(const std::vector<candidate>& selected, const model::placement& placement, strategy s,
                           std::int32_t replicas, name_order order, division_mode mode,
                           settings::karmada_release release)
{
    switch (s) {
    case strategy::duplicated: {
        // karmada: assignByDuplicatedStrategy; zero counts are then dropped (removeZeroReplicasCluster).
        assignment out;
        if (replicas > 0)
            for (const auto& c : selected)
                out.clusters.push_back({&c, replicas});
        return out;
    }
    case strategy::static_weight: return by_static_weight(selected, placement, replicas, order);
    case strategy::dynamic_weight: return divide_dynamically(selected, false, replicas, order, mode, release);
    case strategy::aggregated: return divide_dynamically(selected, true, replicas, order, mode, release);
    case strategy::unsupported: {
        const auto& rs = *placement.replica_scheduling; // only a Divided replicaScheduling is unsupported
        assignment plain_error; // fmt.Errorf: SchedulerError
        plain_error.error = std::string(unsupported_strategy_error) + ", replicaSchedulingType: " +
                            (rs.replica_scheduling_type.empty() ? std::string(model::replica_scheduling_divided)
                                                                : rs.replica_scheduling_type) +
                            ", replicaDivisionPreference: " + rs.replica_division_preference +
                            ", please try another scheduling strategy";
        return plain_error;
    }
    }
    return {};
}

// karmada: common.go assignWorkloadReplicas. Every tier runs assignReplicasToClusters with its own
// replica count and the whole previous spec.clusters, so each tier's division sees the previous replicas
// of its own clusters (buildScheduledClusters keeps the candidates only). A tier's error is returned as is.
assignment assign_tiers(const std::vector<candidate>& selected, const model::placement& placement, strategy s,
                        std::int32_t replicas, name_order order, division_mode mode)
{
    int last_tier = 0;
    for (const auto& c : selected)
        last_tier = std::max(last_tier, c.tier);
    assignment out;
    std::int64_t remaining = replicas;
    for (int tier = 0; tier <= last_tier; ++tier) {
        std::vector<candidate> members;
        std::vector<std::size_t> origin; // members[i] is selected[origin[i]]
        std::int64_t cap = 0;            // availableReplicasPerTier: includes the current replicas
        for (std::size_t i = 0; i < selected.size(); ++i)
            if (selected[i].tier == tier) {
                members.push_back(selected[i]);
                origin.push_back(i);
                cap += selected[i].available;
            }
        if (members.empty())
            continue;
        auto n = static_cast<std::int32_t>(std::min(remaining, cap));
        auto part = assign_strategy(members, placement, s, n, order, mode);
        if (!part.error.empty()) {
            part.clusters.clear();
            return part;
        }
        // Re-point the rows at the caller's selection, not at this loop's copy.
        for (const auto& a : part.clusters) {
            auto at = origin[static_cast<std::size_t>(a.target - members.data())];
            out.clusters.push_back({&selected[at], a.replicas});
        }
        remaining -= n;
        if (remaining <= 0)
            break;
    }
    if (remaining > 0)
        return unschedulable_assignment("Clusters available replicas are not enough to schedule.");
    return out;
}

} // namespace kpw::scheduling
