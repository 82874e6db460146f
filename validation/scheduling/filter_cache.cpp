// SPDX-License-Identifier: Apache-2.0
// The shape key of a filter scope, and the per-binding adjustments on top of a cached result.
#include "scheduling/filter_cache.hpp"

#include "scheduling/available.hpp"

#include <algorithm>

#include "model/encode.hpp"

namespace kpw::scheduling {

namespace {

template <class T>
std::string json_of(std::span<const T> list)
{
    return model::go_json(std::vector<T>(list.begin(), list.end()));
}

// Everything filter_group reads besides targets and evicting, as one string (the API by name too: the
// FitError details name it, and every API the snapshot lacks has the same id).
std::string shape_key(const filter_scope& s)
{
    std::string key = std::to_string(s.api) + " " + std::string(s.api_version) + "/" + std::string(s.kind) + " ";
    key += s.group.primary != nullptr ? model::go_json(*s.group.primary) : "*";
    return key + json_of(s.group.overflow) + json_of(s.tolerations) + json_of(s.spread);
}

bool listed(std::span<const std::uint32_t> ranks, std::uint32_t rank)
{
    return std::binary_search(ranks.begin(), ranks.end(), rank);
}

} // namespace

filter_cache::filter_cache(const snapshot& snap) : snap_(snap) {}

filter_cache::shape& filter_cache::shape_of(const filter_scope& scope)
{
    filter_scope base = scope;
    base.targets = {};
    base.evicting = {};
    auto key = shape_key(base);
    auto it = entries_.find(key);
    if (it == entries_.end())
        it = entries_.emplace(std::move(key), shape{filter_group(snap_, base), {}, {}}).first;
    return it->second;
}

group_filter filter_cache::filter(const shape& s, const filter_scope& scope) const
{
    if (scope.targets.empty() && scope.evicting.empty())
        return s.base;
    // Only targets can newly pass and only evicting clusters can newly fail: re-check those.
    group_filter out;
    const auto& cached = s.base;
    for (const auto& p : cached.feasible) {
        if (listed(scope.evicting, snap_.name_rank(p.index)))
            out.rejected.push_back(p.index);
        else
            out.feasible.push_back(p);
    }
    for (auto index : cached.rejected) {
        std::uint32_t rank = snap_.name_rank(index);
        bool recheck = listed(scope.targets, rank) && !listed(scope.evicting, rank);
        if (recheck && failing(snap_, index, scope).mask == 0)
            out.feasible.push_back({index, tier_of(snap_.clusters()[index], scope.group)});
        else
            out.rejected.push_back(index);
    }
    auto by_index = [](const auto& a, const auto& b) { return a.index < b.index; };
    std::sort(out.feasible.begin(), out.feasible.end(), by_index);
    std::sort(out.rejected.begin(), out.rejected.end());
    return out;
}

const std::vector<group_filter::pass>& filter_cache::first_order(shape& s, std::vector<std::int32_t>& memo,
                                                               const prepared_request& request, bool accurate)
{
    auto [it, added] = s.orders.try_emplace(&memo);
    if (!added)
        return it->second;
    auto& order = it->second;
    order = s.base.feasible;
    for (const auto& p : order)
        (void)estimate_for(memo, p.index, request, accurate);
    // canonical_before with score 0 and available = estimate (select.cpp).
    std::sort(order.begin(), order.end(), [&](const group_filter::pass& a, const group_filter::pass& b) {
        if (a.tier != b.tier)
            return a.tier < b.tier;
        if (memo[a.index] != memo[b.index])
            return memo[a.index] > memo[b.index];
        return snap_.name_rank(a.index) < snap_.name_rank(b.index);
    });
    return order;
}

std::vector<std::int32_t>& filter_cache::estimates_for(const prepared_request& request, bool accurate)
{
    // With the accurate estimator, the node claim separates shapes too.
    std::string key = estimate_key(request, accurate);
    auto it = estimates_.find(key);
    if (it == estimates_.end())
        it = estimates_.emplace(std::move(key), std::vector<std::int32_t>(snap_.clusters().size(), -1)).first;
    return it->second;
}

std::int32_t filter_cache::estimate_for(std::vector<std::int32_t>& memo, std::uint32_t index,
                                        const prepared_request& request, bool accurate) const
{
    if (memo[index] < 0)
        memo[index] = estimate_available(snap_, index, request, accurate).replicas;
    return memo[index];
}

} // namespace kpw::scheduling
