// SPDX-License-Identifier: Apache-2.0
// Selection by cluster (with the capacity swap) and by region (group scores and the DFS over regions).
#include "scheduling/select.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>

namespace kpw::scheduling {

namespace {

std::int64_t total_available(const std::vector<candidate>& list)
{
    std::int64_t sum = 0;
    for (const auto& c : list)
        sum += c.available;
    return sum;
}

// karmada: select_clusters_by_cluster.go selectClusters — fill from the reserve, last slot first.
selection by_cluster(std::vector<candidate> ordered, const model::spread_constraint& constraint, std::int64_t need)
{
    const auto total = static_cast<std::int64_t>(ordered.size());
    if (total < constraint.min_groups)
        return {{}, "the number of feasible clusters is less than spreadConstraint.MinGroups"};
    // needCnt := min(totalClusterCnt, MaxGroups) is a Go int; Duplicated slices Clusters[:needCnt], the
    // others slice [:int32(needCnt)] (selectClustersByAvailableResource). A negative bound is Go's
    // runtime panic (karmada v1.18.2 select_clusters_by_cluster.go:36 and :58): maxGroups < 0, which
    // Karmada's webhook denies, so only a binding written some other way reaches it.
    const std::int64_t go_need_cnt = std::min(total, constraint.max_groups);
    const std::int64_t cut = need < 0 ? go_need_cnt : static_cast<std::int64_t>(static_cast<std::int32_t>(go_need_cnt));
    if (cut < 0) {
        selection crashed;
        crashed.panic = "runtime error: slice bounds out of range [:" + std::to_string(cut) + "]";
        return crashed;
    }
    const auto need_cnt = static_cast<std::size_t>(std::min(cut, total));
    std::vector<candidate> chosen(ordered.begin(), ordered.begin() + static_cast<std::ptrdiff_t>(need_cnt));
    if (need < 0)
        return {std::move(chosen), {}};
    std::vector<candidate> reserve(ordered.begin() + static_cast<std::ptrdiff_t>(need_cnt), ordered.end());
    for (std::size_t slot = chosen.size(); slot-- > 0 && total_available(chosen) < need && !reserve.empty();) {
        std::int64_t best = chosen[slot].available;
        std::size_t pick = reserve.size();
        for (std::size_t i = 0; i < reserve.size(); ++i)
            if (reserve[i].available > best) {
                best = reserve[i].available;
                pick = i;
            }
        if (pick != reserve.size())
            std::swap(chosen[slot], reserve[pick]);
    }
    // select_clusters_by_cluster.go:39 tests len(selected) == 0: an empty selection (maxGroups 0) fails
    // here even when it needs no replicas.
    if (chosen.empty() || total_available(chosen) < need)
        return {{}, "no enough resource when selecting " + std::to_string(go_need_cnt) + " clusters"};
    return {std::move(chosen), {}};
}

struct region_group {
    std::string name;
    std::vector<candidate> clusters; // canonical order
    std::int64_t score = 0;
};

// karmada: group_clusters.go calcGroupScoreForDuplicate — valid clusters (available ≥ replicas)
// weigh 1000 each, plus their mean ClusterLocality score.
std::int64_t duplicated_region_score(const region_group& g, std::int64_t replicas)
{
    std::int64_t valid = 0, scores = 0;
    for (const auto& c : g.clusters)
        if (c.available >= replicas) {
            ++valid;
            scores += c.score;
        }
    return valid == 0 ? 0 : valid * 1000 + scores / valid;
}

// The spread fields whose groups Karmada scores before it selects (group_clusters.go
// groupClustersBasedTopology: generateZoneInfo, generateRegionInfo, generateProviderInfo), for each the
// group names a cluster belongs to.
std::vector<std::string_view> groups_of(const model::cluster& c, std::string_view field)
{
    if (field == model::spread_by_field_zone)
        return {c.zones.begin(), c.zones.end()};
    const std::string& one = field == model::spread_by_field_region ? c.region : c.provider;
    return one.empty() ? std::vector<std::string_view>{} : std::vector<std::string_view>{one};
}

// Before v1.17.0 calcGroupScoreForDuplicate divided by the count of a group's clusters that hold the
// replicas: a zone, region or provider group without one is Go's "integer divide by zero", raised while
// the groups are scored, before any selection (settings::changes::duplicated_region_score_guard).
bool duplicated_group_score_divides_by_zero(const std::vector<candidate>& ordered, const model::placement& placement,
                                            std::int64_t replicas)
{
    for (std::string_view field : {model::spread_by_field_zone, model::spread_by_field_region,
                                   model::spread_by_field_provider}) {
        const bool constrained = std::any_of(placement.spread_constraints.begin(), placement.spread_constraints.end(),
                                             [&](const auto& c) { return c.spread_by_field == field; });
        if (!constrained)
            continue;
        std::map<std::string_view, bool> holds; // group -> a cluster of it holds the replicas
        for (const auto& c : ordered)
            for (std::string_view g : groups_of(*c.cluster, field))
                holds[g] = holds[g] || c.available >= replicas;
        for (const auto& [group, ok] : holds)
            if (!ok)
                return true;
    }
    return false;
}

// Go's int64(f) of a float64 on amd64 (CVTTSD2SQ): truncation, and the "integer indefinite"
// 0x8000000000000000 for NaN and for values out of range. (arm64 saturates instead; Karmada's images and
// this project's oracle are amd64.)
std::int64_t go_int64_amd64(double f)
{
    if (std::isnan(f) || f >= 0x1p63 || f < -0x1p63)
        return std::numeric_limits<std::int64_t>::min();
    return static_cast<std::int64_t>(f);
}

// Go's int64 multiplication, which wraps.
std::int64_t go_mul(std::int64_t a, std::int64_t b)
{
    return static_cast<std::int64_t>(static_cast<std::uint64_t>(a) * static_cast<std::uint64_t>(b));
}

// karmada: group_clusters.go calcGroupScore — the walked clusters' available replicas up to the target
// weigh 1000 each, plus the mean score (over the walked clusters, or all when the target is not met).
// The target is int64(math.Ceil(float64(replicas) / float64(minGroups))), as Go computes it: a binding
// written without the webhook may have a region minGroups of 0 (+Inf or NaN, then 0x8000000000000000)
// or below.
std::int64_t region_score(const region_group& g, strategy s, std::int64_t replicas, std::int64_t region_min,
                          std::int64_t cluster_min)
{
    if (s == strategy::duplicated)
        return duplicated_region_score(g, replicas);
    const std::int64_t target =
        go_int64_amd64(std::ceil(static_cast<double>(replicas) / static_cast<double>(region_min)));
    std::int64_t k = std::max(cluster_min, region_min), sum = 0, counted = 0, scores = 0;
    for (const auto& c : g.clusters) {
        sum += c.available;
        scores += c.score;
        if (++counted >= k && sum >= target)
            break;
    }
    if (sum < target)
        return go_mul(sum, 1000) + scores / static_cast<std::int64_t>(g.clusters.size());
    return go_mul(target, 1000) + scores / counted;
}

struct dfs_path {
    std::vector<const region_group*> groups; // sorted by score descending, then name
    std::int64_t weight = 0, value = 0;
    int id = 0;
};

// karmada: select_groups.go findFeasiblePaths — groups sorted by clusters ascending, score descending,
// name; a path holding ≥ target clusters with a length in [min_len, max_len] is recorded, not extended.
std::vector<dfs_path> feasible_paths(std::vector<const region_group*> groups, std::int64_t min_len,
                                     std::int64_t max_len, std::int64_t target)
{
    std::sort(groups.begin(), groups.end(), [](const region_group* a, const region_group* b) {
        if (a->clusters.size() != b->clusters.size())
            return a->clusters.size() < b->clusters.size();
        return a->score != b->score ? a->score > b->score : a->name < b->name;
    });
    std::vector<dfs_path> paths;
    std::vector<const region_group*> stack;
    auto dfs = [&](auto& self, std::int64_t sum, std::size_t begin) -> void {
        auto len = static_cast<std::int64_t>(stack.size());
        if (sum >= target && len >= min_len && len <= max_len) {
            dfs_path p{stack, 0, 0, static_cast<int>(paths.size()) + 1};
            for (const auto* g : stack) {
                p.weight += g->score;
                p.value += static_cast<std::int64_t>(g->clusters.size());
            }
            std::sort(p.groups.begin(), p.groups.end(), [](const region_group* a, const region_group* b) {
                return a->score != b->score ? a->score > b->score : a->name < b->name;
            });
            paths.push_back(std::move(p));
            return;
        }
        if (len >= max_len)
            return;
        for (std::size_t i = begin; i < groups.size(); ++i) {
            stack.push_back(groups[i]);
            self(self, sum + static_cast<std::int64_t>(groups[i]->clusters.size()), i + 1);
            stack.pop_back();
        }
    };
    dfs(dfs, 0, 0);
    return paths;
}

// karmada: select_groups.go prioritizePaths — weight, then value, then discovery order; a ranked path
// that is a strict prefix of the current choice (by group names) replaces it.
std::vector<const region_group*> select_groups(const std::vector<const region_group*>& groups, std::int64_t min_len,
                                               std::int64_t max_len, std::int64_t target)
{
    auto paths = feasible_paths(groups, min_len, max_len, target);
    if (paths.empty())
        return {};
    std::sort(paths.begin(), paths.end(), [](const dfs_path& a, const dfs_path& b) {
        if (a.weight != b.weight)
            return a.weight > b.weight;
        return a.value != b.value ? a.value > b.value : a.id < b.id;
    });
    const dfs_path* best = &paths.front();
    for (std::size_t i = 1; i < paths.size(); ++i) {
        const auto& sub = paths[i].groups;
        if (sub.size() < best->groups.size() && std::equal(sub.begin(), sub.end(), best->groups.begin(),
                                                             [](auto* x, auto* y) { return x->name == y->name; }))
            best = &paths[i];
    }
    return best->groups;
}

// karmada: select_clusters_by_region.go selectBestClustersByRegion.
selection by_region(const std::vector<candidate>& ordered, const spread_view& spread, strategy s, std::int32_t replicas)
{
    const auto& region_c = *spread.region;
    model::spread_constraint cluster_c = spread.cluster.value_or(model::spread_constraint{});
    // Grouped by region rank (name order, as Karmada's map of regions), one slot per rank.
    std::vector<region_group> regions;
    std::vector<std::size_t> slot;
    for (const auto& c : ordered) {
        if (c.region >= slot.size())
            slot.resize(c.region + 1, SIZE_MAX);
        if (slot[c.region] == SIZE_MAX) {
            slot[c.region] = regions.size();
            regions.push_back({c.cluster->region, {}, 0});
        }
        regions[slot[c.region]].clusters.push_back(c);
    }
    std::sort(regions.begin(), regions.end(), [](const region_group& a, const region_group& b) { return a.name < b.name; });
    if (static_cast<std::int64_t>(regions.size()) < region_c.min_groups)
        return {{}, "the number of feasible region is less than spreadConstraint.MinGroups"};
    std::vector<const region_group*> groups;
    for (auto& g : regions) {
        g.score = region_score(g, s, replicas, region_c.min_groups, cluster_c.min_groups);
        groups.push_back(&g);
    }
    auto chosen = select_groups(groups, region_c.min_groups, region_c.max_groups, cluster_c.min_groups);
    if (chosen.empty())
        return {{}, "the number of clusters is less than the cluster spreadConstraint.MinGroups"};
    selection out;
    std::vector<candidate> rest;
    for (const auto* g : chosen) {
        out.clusters.push_back(g->clusters.front());
        rest.insert(rest.end(), g->clusters.begin() + 1, g->clusters.end());
    }
    auto total = static_cast<std::int64_t>(out.clusters.size() + rest.size());
    auto need_cnt = std::min(total, cluster_c.max_groups);
    canonical_sort(rest);
    for (std::size_t i = 0; static_cast<std::int64_t>(out.clusters.size()) < need_cnt && i < rest.size(); ++i)
        out.clusters.push_back(rest[i]);
    return out;
}

} // namespace

bool canonical_before(const candidate& a, const candidate& b)
{
    if (a.tier != b.tier)
        return a.tier < b.tier;
    if (a.score != b.score)
        return a.score > b.score;
    if (a.available != b.available)
        return a.available > b.available;
    return a.name_rank < b.name_rank; // name ascending, precomputed
}

void canonical_sort(std::vector<candidate>& candidates)
{
    std::sort(candidates.begin(), candidates.end(), canonical_before);
}

bool selection_may_panic(const model::placement& placement, settings::karmada_release release)
{
    if (spread_ignored(placement))
        return false;
    const spread_view spread = spread_of(placement);
    const bool grouped = std::any_of(placement.spread_constraints.begin(), placement.spread_constraints.end(),
                                     [](const auto& c) { return c.spread_by_field != model::spread_by_field_cluster; });
    if (grouped && strategy_of(placement) == strategy::duplicated &&
        !settings::has(release, settings::changes::duplicated_region_score_guard))
        return true;
    return !spread.region && spread.cluster && spread.cluster->max_groups < 0;
}

selection select_clusters(std::vector<candidate> ordered, const model::placement& placement, strategy s,
                          std::int32_t replicas, settings::karmada_release release)
{
    selection out;
    if (spread_ignored(placement)) {
        out.clusters = std::move(ordered);
    } else {
        spread_view spread = spread_of(placement);
        if (s == strategy::duplicated && !settings::has(release, settings::changes::duplicated_region_score_guard) &&
            duplicated_group_score_divides_by_zero(ordered, placement, replicas)) {
            out.panic = std::string(divide_by_zero_panic);
            return out;
        }
        std::int64_t need = s == strategy::duplicated ? -1 : replicas;
        if (spread.region)
            out = by_region(ordered, spread, s, replicas);
        else if (spread.cluster)
            out = by_cluster(std::move(ordered), *spread.cluster, need);
        else
            return {{}, "just support cluster and region spread constraint"};
    }
    if (out.error.empty() && out.panic.empty() && out.clusters.empty()) {
        out.error = "no clusters available to schedule";
        out.empty = true;
    }
    return out;
}

panic_advice advice_for_panic(std::string_view runtime_error)
{
    if (runtime_error.starts_with("runtime error: index out of range"))
        return {"before v1.18.0 the general estimator reads allocatableModelings and each requested resource's "
                "model minimums by model position, and this Cluster has fewer allocatableModelings than "
                "resourceModels (which Karmada's validation admits) or a model without a requested resource",
                "upgrade Karmada to v1.18 or later, or give the Cluster an allocatableModelings entry per model and "
                "every model the same resources"};
    if (runtime_error == divide_by_zero_panic)
        return {"Karmada's webhook admits this placement: before v1.17.0, calcGroupScoreForDuplicate divides by "
                "the clusters of a zone, region or provider group that hold every replica, and a group holds none",
                "upgrade Karmada to v1.17 or later, give every group of that spread constraint a cluster that "
                "holds the replicas, or spread by cluster only"};
    return {"Karmada's webhook denies such a placement",
            "correct the policy that claims it and apply it through karmada-apiserver (maxGroups >= 0), or delete "
            "the binding"};
}

} // namespace kpw::scheduling
