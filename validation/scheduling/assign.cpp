// SPDX-License-Identifier: Apache-2.0
// Duplicated, static weight, dynamic weight and aggregated assignment; the overflow tier loop.
#include "scheduling/assign.hpp"

#include <algorithm>

#include "scheduling/filter.hpp"

namespace kpw::scheduling {

namespace {

assignment webster_over(const std::vector<const candidate*>& parties_of, const std::vector<std::int64_t>& votes,
                        std::int32_t replicas, name_order order)
{
    std::vector<party> parties;
    parties.reserve(parties_of.size());
    for (std::size_t i = 0; i < parties_of.size(); ++i)
        parties.push_back({parties_of[i]->cluster->name, votes[i]});
    auto seats = allocate_webster(replicas, parties, order);
    assignment out;
    for (std::size_t i = 0; i < parties_of.size(); ++i)
        if (seats[i] > 0)
            out.clusters.push_back({parties_of[i], seats[i]});
    return out;
}

// The static weight of a cluster: the maximum weight among the rules whose targetCluster matches it.
std::int64_t static_weight(const model::cluster& c, const model::cluster_preferences& wp)
{
    std::int64_t w = 0;
    for (const auto& rule : wp.static_weight_list)
        if (rule.weight > w && cluster_matches(c, rule.target_cluster))
            w = rule.weight;
    return w;
}

assignment by_static_weight(const std::vector<candidate>& selected, const model::placement& placement,
                            std::int32_t replicas, name_order order)
{
    const auto& wp = placement.replica_scheduling->weight_preference;
    std::vector<const candidate*> parties;
    std::vector<std::int64_t> votes;
    for (const auto& c : selected) {
        std::int64_t w = wp ? static_weight(*c.cluster, *wp) : 1;
        if (w > 0) {
            parties.push_back(&c);
            votes.push_back(w);
        }
    }
    if (parties.empty()) {
        for (const auto& c : selected) {
            parties.push_back(&c);
            votes.push_back(1);
        }
    }
    return webster_over(parties, votes, replicas, order);
}

std::string not_enough(std::int64_t available)
{
    return "Clusters available replicas " + std::to_string(available) + " are not enough to schedule.";
}

assignment by_dynamic_weight(const std::vector<candidate>& selected, std::int32_t replicas, name_order order)
{
    std::vector<const candidate*> parties;
    std::vector<std::int64_t> votes;
    std::int64_t sum = 0;
    for (const auto& c : selected) {
        parties.push_back(&c);
        votes.push_back(c.available);
        sum += c.available;
    }
    if (sum < replicas)
        return {{}, not_enough(sum)};
    return webster_over(parties, votes, replicas, order);
}

assignment by_aggregated(const std::vector<candidate>& selected, std::int32_t replicas, name_order order)
{
    std::vector<const candidate*> sorted;
    std::int64_t sum = 0;
    for (const auto& c : selected) {
        sorted.push_back(&c);
        sum += c.available;
    }
    if (sum < replicas)
        return {{}, not_enough(sum)};
    // Go's sort.Sort is an insertion sort for ≤ 12 elements, hence stable; stable here for any size.
    std::stable_sort(sorted.begin(), sorted.end(),
                     [](const candidate* a, const candidate* b) { return a->available > b->available; });
    std::vector<const candidate*> prefix;
    std::vector<std::int64_t> votes;
    std::int64_t acc = 0;
    for (const auto* c : sorted) {
        if (acc >= replicas && !prefix.empty())
            break;
        prefix.push_back(c);
        votes.push_back(c->available);
        acc += c->available;
    }
    return webster_over(prefix, votes, replicas, order);
}

} // namespace

assignment assign_strategy(const std::vector<candidate>& selected, const model::placement& placement, strategy s,
                           std::int32_t replicas, name_order order, division_mode /*mode: steady/fresh to come*/)
{
    switch (s) {
    case strategy::duplicated: {
        assignment out;
        if (replicas > 0)
            for (const auto& c : selected)
                out.clusters.push_back({&c, replicas});
        return out;
    }
    case strategy::static_weight: return by_static_weight(selected, placement, replicas, order);
    case strategy::dynamic_weight: return by_dynamic_weight(selected, replicas, order);
    case strategy::aggregated: return by_aggregated(selected, replicas, order);
    }
    return {};
}

assignment assign_tiers(const std::vector<candidate>& selected, const model::placement& placement, strategy s,
                        std::int32_t replicas, name_order order, division_mode /*mode: steady/fresh to come*/)
{
    int last_tier = 0;
    for (const auto& c : selected)
        last_tier = std::max(last_tier, c.tier);
    assignment out;
    std::int64_t remaining = replicas;
    for (int tier = 0; tier <= last_tier && remaining > 0; ++tier) {
        std::vector<candidate> members;
        std::vector<std::size_t> origin; // members[i] is selected[origin[i]]
        std::int64_t cap = 0;
        for (std::size_t i = 0; i < selected.size(); ++i)
            if (selected[i].tier == tier) {
                members.push_back(selected[i]);
                origin.push_back(i);
                cap += selected[i].available;
            }
        if (members.empty())
            continue;
        auto n = static_cast<std::int32_t>(std::min(remaining, cap));
        auto part = assign_strategy(members, placement, s, n, order);
        // Re-point the rows at the caller's selection, not at this loop's copy.
        for (const auto& a : part.clusters)
            out.clusters.push_back({&selected[origin[static_cast<std::size_t>(a.target - members.data())]], a.replicas});
        remaining -= n;
    }
    if (remaining > 0)
        return {{}, "Clusters available replicas are not enough to schedule."};
    return out;
}

} // namespace kpw::scheduling
