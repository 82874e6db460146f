// SPDX-License-Identifier: Apache-2.0
// Preparing a snapshot: one pass over the clusters.
#include "scheduling/snapshot.hpp"

#include <algorithm>
#include <numeric>

namespace kpw::scheduling {

namespace {

std::string api_key(std::string_view api_version, std::string_view kind)
{
    std::string key(api_version);
    return key.append(1, '/').append(kind);
}

} // namespace

snapshot::snapshot(std::span<const model::cluster> clusters) : clusters_(clusters)
{
    prepared_.reserve(clusters.size());
    apis_.resize(clusters.size());
    for (std::size_t i = 0; i < clusters.size(); ++i) {
        prepared_.push_back(prepare_cluster(clusters[i], table_));
        // karmada: plugins/apienablement — the group version lists the kind.
        for (const auto& e : clusters[i].api_enablements)
            for (const auto& kind : e.kinds)
                apis_[i].push_back(api_ids_.try_emplace(api_key(e.group_version, kind), int(api_ids_.size())).first->second);
        std::sort(apis_[i].begin(), apis_[i].end());
    }
    std::vector<std::uint32_t> order(clusters.size());
    std::iota(order.begin(), order.end(), 0u);
    std::sort(order.begin(), order.end(), [&](auto a, auto b) { return clusters[a].name < clusters[b].name; });
    rank_.resize(clusters.size());
    for (std::uint32_t r = 0; r < order.size(); ++r) {
        rank_[order[r]] = r;
        sorted_names_.push_back(clusters[order[r]].name);
    }
    std::vector<std::string_view> regions;
    for (const auto& c : clusters)
        regions.push_back(c.region);
    std::sort(regions.begin(), regions.end());
    regions.erase(std::unique(regions.begin(), regions.end()), regions.end());
    region_rank_.reserve(clusters.size());
    for (const auto& c : clusters)
        region_rank_.push_back(static_cast<std::uint32_t>(std::lower_bound(regions.begin(), regions.end(), c.region) - regions.begin()));
}

bool snapshot::contains(std::string_view name) const
{
    return std::binary_search(sorted_names_.begin(), sorted_names_.end(), name);
}

std::int64_t snapshot::rank_of(std::string_view name) const
{
    auto it = std::lower_bound(sorted_names_.begin(), sorted_names_.end(), name);
    return it == sorted_names_.end() || *it != name ? -1 : it - sorted_names_.begin();
}

int snapshot::api_id(std::string_view api_version, std::string_view kind) const
{
    auto it = api_ids_.find(api_key(api_version, kind));
    return it == api_ids_.end() ? -1 : it->second;
}

bool snapshot::api_enabled(std::size_t index, int api) const
{
    return api >= 0 && std::binary_search(apis_[index].begin(), apis_[index].end(), api);
}

void snapshot::use_members(const model::member_states& members)
{
    members_.assign(clusters_.size(), std::nullopt);
    has_estimators_ = !members.members.empty();
    for (std::size_t i = 0; i < clusters_.size(); ++i)
        if (const auto* state = members.find(clusters_[i].name))
            members_[i] = prepare_member(*state);
}

} // namespace kpw::scheduling
