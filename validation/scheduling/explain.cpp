// SPDX-License-Identifier: Apache-2.0
// The explain rows of one group: filter failures, estimates and the reason a cluster got no more.
#include "scheduling/explain.hpp"

#include "scheduling/available.hpp"

#include <algorithm>

#include "scheduling/filter.hpp"
#include "scheduling/strategy.hpp"

namespace kpw::scheduling {

namespace {

// The group's candidates, selection and assignment indexed by name rank (one pass each).
struct by_rank {
    std::vector<const candidate*> feasible;
    std::vector<bool> selected;
    std::vector<std::int32_t> replicas;
    int last_tier = -1; // the last tier that received replicas
    // A multi-component job (explain_input::sets): selection by region, and the text every candidate
    // the single-cluster pick did not choose starts with (set_left_out).
    bool by_region = false;
    std::string not_chosen;

    explicit by_rank(const explain_input& in)
        : feasible(in.snap.clusters().size()), selected(feasible.size()), replicas(feasible.size())
    {
        for (const auto& c : in.feasible)
            feasible[c.name_rank] = &c;
        for (const auto& c : in.selected)
            selected[c.name_rank] = true;
        if (in.sets != nullptr)
            prepare_sets(in);
        if (in.result == nullptr)
            return;
        for (const auto& r : in.result->clusters) {
            replicas[r.target->name_rank] = r.replicas;
            last_tier = std::max(last_tier, r.target->tier);
        }
    }

    void prepare_sets(const explain_input& in)
    {
        by_region = spread_of(in.placement).region.has_value();
        std::string kept = "not chosen: multi-template scheduling keeps the job on one cluster (";
        if (in.result == nullptr || in.feasible.empty())
            return;
        if (by_region || in.selected.size() != 1) {
            kept += "picked by the region spread selection: ";
            for (std::size_t i = 0; i < in.selected.size(); ++i)
                kept.append(i ? ", " : "").append(in.selected[i].cluster->name);
            not_chosen = kept + ")";
            return;
        }
        const candidate& x = in.selected.front();
        const candidate& first = in.feasible.front();
        if (x.name_rank == first.name_rank)
            not_chosen = kept + x.cluster->name + " was picked first: ";
        else
            not_chosen = kept + x.cluster->name + " replaced " + first.cluster->name +
                         ", which came first but holds no complete set: ";
    }
};

// A static-weight cluster that no staticWeightList rule with a positive weight matches is left out of
// the division (assignment.go getStaticWeightInfoList) unless no cluster has a weight.
bool zero_static_weight(const model::cluster& c, const model::placement& p)
{
    const auto& wp = p.replica_scheduling->weight_preference;
    if (!wp)
        return false;
    const auto& rules = wp->static_weight_list;
    return std::none_of(rules.begin(), rules.end(), [&](const model::static_cluster_weight& r) {
        return r.weight > 0 && cluster_matches(c, r.target_cluster);
    });
}

// Why a cluster that passed the filters holds no more replicas, decided in this order:
//   "spread selection"  — the spread-constraint selection (3.5/3.6) did not pick it;
//   "tie-breaker"       — its count changes with the other uid-driven name order (Webster ties);
//   "tier not needed"   — got 0 and its overflow tier comes after the last tier that received replicas;
//   "static weight 0"   — got 0 under static weight and no positive rule matches it;
//   "not in the Aggregated prefix" — got 0 under Aggregated (the prefix already covered the replicas);
//   "no available replicas" — got 0 under DynamicWeight because its estimate is 0;
//   "0 replicas to assign" — the workload has none (every cluster is dropped);
//   "Webster rounding"  — got 0 although it had votes: the apportionment gave its seats to others.
// A cluster that got replicas (and no tie) has no reason: holding fewer than `available` is the split.
std::string left_out(const explain_input& in, const by_rank& idx, const candidate& c, std::int32_t replicas)
{
    if (!idx.selected[c.name_rank])
        return "spread selection";
    if (in.result == nullptr || !in.workload)
        return {};
    if (std::find(in.tie_between.begin(), in.tie_between.end(), c.cluster->name) != in.tie_between.end())
        return "tie-breaker";
    if (replicas > 0)
        return {};
    // A workload of 0 replicas whose requirements make it one (common.go:68): every share is 0 and
    // removeZeroReplicasCluster drops every cluster.
    if (in.result->clusters.empty())
        return "0 replicas to assign";
    if (c.tier > idx.last_tier)
        return "tier not needed";
    if (in.s == strategy::static_weight && zero_static_weight(*c.cluster, in.placement))
        return "static weight 0";
    if (in.s == strategy::aggregated)
        return "not in the Aggregated prefix";
    if (in.s == strategy::dynamic_weight && c.available == 0)
        return "no available replicas";
    return "Webster rounding";
}

// Why Karmada's order (spreadconstraint sortClusters: tier, score, available sets, name) put `x` before `c`.
std::string order_key(const explain_input& in, const candidate& x, const candidate& c)
{
    if (x.tier != c.tier)
        return "tier " + tier_name(in.scope.group, x.tier) + " comes before " + tier_name(in.scope.group, c.tier);
    if (x.score != c.score)
        return "ClusterLocality score " + std::to_string(x.score) + " > " + std::to_string(c.score);
    if (x.available != c.available)
        return "more complete sets, " + std::to_string(x.available) + " > " + std::to_string(c.available);
    return "as many complete sets, " + std::to_string(x.available) + ", and its name sorts first";
}

// A multi-component job scheduled as one (day2-semantics §6.2): selection with maxGroups 1 keeps the
// first candidate in Karmada's order, or, when the capacity is checked (not Duplicated) and that one holds
// no complete set, swaps in the reserve candidate with the most sets (select_clusters_by_cluster.go; the
// first of equals in order). The selected cluster receives the whole job and has no reason; every other
// candidate says which cluster was picked and by which key of the order.
std::string set_left_out(const explain_input& in, const by_rank& idx, const candidate& c)
{
    if (in.result == nullptr) {
        // By cluster with need 1 the selection fails only when no candidate holds a set.
        if (in.selected.empty() && !idx.by_region && c.available < 1)
            return "holds no complete set, and no other candidate does either: multi-template scheduling places "
                   "the whole job on one cluster or nowhere";
        return "spread selection";
    }
    if (idx.selected[c.name_rank])
        return {};
    if (idx.by_region || in.selected.size() != 1)
        return idx.not_chosen;
    const candidate& x = in.selected.front();
    const candidate& first = in.feasible.front();
    if (x.name_rank == first.name_rank)
        return idx.not_chosen + order_key(in, x, c) + ")";
    if (c.name_rank == first.name_rank)
        return "not chosen: it came first in Karmada's order but holds no complete set, so the reserve swap "
               "replaced it with " + x.cluster->name + " (the most sets, " + std::to_string(x.available) + ")";
    if (x.available > c.available)
        return idx.not_chosen + "the reserve swap takes the most sets, " + std::to_string(x.available) + " > " +
               std::to_string(c.available) + ")";
    return idx.not_chosen + "the first in order of the candidates with the most sets, " +
           std::to_string(x.available) + ")";
}

considered_cluster passed_row(const explain_input& in, const by_rank& idx, std::size_t i, const candidate& c)
{
    considered_cluster row;
    row.passed = true;
    row.available = static_cast<std::int32_t>(std::min<std::int64_t>(c.available, unlimited_replicas));
    row.replicas = idx.replicas[c.name_rank];
    if (in.sets != nullptr) { // the component-set estimator decided `available`
        row.component_sets = true;
        row.bound_by = in.sets->bound_by(i, in.accurate);
        row.holds_job = in.result != nullptr && idx.selected[c.name_rank];
        row.left_out = set_left_out(in, idx, c);
        return row;
    }
    if (in.workload)
        row.bound_by = available_bound_by(estimate_available(in.snap, i, in.request, in.accurate), in.request,
                                          in.snap.resources());
    else
        row.receives_object = in.result != nullptr && idx.selected[c.name_rank];
    row.left_out = left_out(in, idx, c, row.replicas);
    return row;
}

} // namespace

std::string tier_name(const group_scope& group, int tier)
{
    return tier <= 0 ? group.name : group.overflow[static_cast<std::size_t>(tier - 1)].affinity_name;
}

std::vector<considered_cluster> explain_group(const explain_input& in)
{
    by_rank idx(in);
    std::vector<considered_cluster> out;
    auto clusters = in.snap.clusters();
    out.reserve(in.feasible.size());
    for (std::size_t i = 0; i < clusters.size(); ++i) {
        const candidate* c = idx.feasible[in.snap.name_rank(i)];
        int tier = c != nullptr ? c->tier : tier_of(clusters[i], in.scope.group); // a candidate has its tier
        if (tier < 0)
            continue;
        considered_cluster row;
        if (c != nullptr)
            row = passed_row(in, idx, i, *c);
        else if (clusters[i].deleting)
            row.left_out = "being deleted: skipped before the filters";
        else
            row.failures = plugin_failures(in.snap, i, in.scope);
        row.name = clusters[i].name;
        row.tier = tier_name(in.scope.group, tier);
        out.push_back(std::move(row));
    }
    return out;
}

} // namespace kpw::scheduling
