// SPDX-License-Identifier: Apache-2.0
// A group's feasible clusters as scored candidates (availableReplicas, ClusterLocality), in canonical order.
#include "scheduling/simulator_run.hpp"

#include <algorithm>
#include <cstdint>

#include "scheduling/filter_cache.hpp"

namespace kpw::scheduling::detail {

namespace {

// availableReplicas = estimate + current replicas; ClusterLocality scores a current target 100
// (plugins/clusterlocality; spreadconstraint/group_clusters.go generateClustersInfo).
struct candidate_maker {
    const run& r;
    // With a filter cache, estimates are shared by every workload of the same per-replica request.
    std::vector<std::int32_t>* memo;
    bool accurate; // karmada-scheduler-estimator's answers count (available.hpp)
    bool locality = !r.previous.targets.empty();

    candidate_maker(const run& run_of, bool with_accurate, std::vector<std::int32_t>* shared = nullptr)
        : r(run_of), memo(shared), accurate(with_accurate)
    {
    }

    bool targeted(std::uint32_t rank) const
    {
        return locality && std::binary_search(r.previous.targets.begin(), r.previous.targets.end(), rank);
    }

    candidate operator()(const group_filter::pass& p) const
    {
        std::uint32_t rank = r.snap.name_rank(p.index);
        std::int32_t estimate = !r.estimates() ? unlimited_replicas
                                : r.sets    ? r.sets->available(p.index, accurate)
                                : memo      ? r.opts.filters->estimate_for(*memo, p.index, r.request, accurate)
                                            : estimate_available(r.snap, p.index, r.request, accurate).replicas;
        // calAvailableReplicas "avoids overflow": a cluster still at its MaxInt32 boundary (every estimator
        // skipped as UnauthenticReplica, or an answer of MaxInt32) gets spec.replicas (core/util.go:101-106 of
        // v1.18.2, the same before). Component sets have their own (job_sets::available).
        if (r.estimates() && !r.sets && estimate == unlimited_replicas)
            estimate = r.w.replicas;
        std::int32_t current = locality ? current_of(r.previous, rank) : 0;
        const std::int64_t available = std::int64_t(estimate) + std::max(current, 0);
        return {&r.snap.clusters()[p.index], p.tier, available, rank, estimate, current, targeted(rank) ? 100 : 0,
                r.snap.region_rank(p.index)};
    }
};

} // namespace

// The feasible clusters as candidates, in canonical order (tier, score, available, name). Without a filter
// cache, or for non-workloads and component sets (which share no per-request estimates).
std::vector<candidate> candidates_of(const run& r, const group_filter& f, bool accurate)
{
    candidate_maker make(r, accurate);
    std::vector<candidate> out;
    out.reserve(f.feasible.size());
    for (const auto& p : f.feasible)
        out.push_back(make(p));
    canonical_sort(out);
    return out;
}

// The same list from a filter cache's shared first-schedule order: every untargeted cluster keeps its
// place there (score 0, available = estimate), so only the targets are sorted and merged in.
std::vector<candidate> candidates_of(const run& r, const group_filter& f, const std::vector<group_filter::pass>& order,
                                     std::vector<std::int32_t>& memo, bool accurate)
{
    candidate_maker make(r, accurate, &memo);
    std::vector<candidate> targets;
    for (const auto& p : f.feasible)
        if (make.targeted(r.snap.name_rank(p.index)))
            targets.push_back(make(p));
    canonical_sort(targets);
    const auto& evicting = r.previous.evicting;
    std::vector<candidate> out;
    out.reserve(f.feasible.size());
    auto next_target = targets.begin();
    for (const auto& p : order) {
        std::uint32_t rank = r.snap.name_rank(p.index);
        if (make.targeted(rank) || std::binary_search(evicting.begin(), evicting.end(), rank))
            continue;
        candidate c = make(p);
        for (; next_target != targets.end() && canonical_before(*next_target, c); ++next_target)
            out.push_back(*next_target);
        out.push_back(c);
    }
    out.insert(out.end(), next_target, targets.end());
    return out;
}

} // namespace kpw::scheduling::detail
