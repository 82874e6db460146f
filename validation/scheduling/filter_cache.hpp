// SPDX-License-Identifier: Apache-2.0
// Filter results shared across workloads of one shape: many bindings, one pass over the clusters.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <unordered_map>

#include "scheduling/component_sets.hpp"
#include "scheduling/diagnosis.hpp"
#include "scheduling/filter_stage.hpp"

namespace kpw::scheduling {

// Caches filter_group per (group affinities, tolerations, spread constraints, API) over one snapshot,
// computed without targets or eviction tasks; a re-schedule's targets (TaintToleration/APIEnablement
// pass-through) and evicting clusters (ClusterEviction) are applied on top of the cached result, so
// bindings of one policy and kind share one pass over the clusters. Not thread-safe; borrows `snap`.
class filter_cache {
public:
    // One filter shape: its filter_group result without targets or evicting, and that result's feasible
    // clusters in first-schedule canonical order, one order per per-replica request.
    struct shape {
        group_filter base;
        std::unordered_map<const std::vector<std::int32_t>*, std::vector<group_filter::pass>> orders;
        // When nothing passes without targets or evicting: the project's FitError line and Karmada's,
        // which depend on nothing else (filled by the first such attempt; a counted pass over all clusters).
        std::optional<std::pair<std::string, fit_diagnosis>> fit_error;
    };

    explicit filter_cache(const snapshot& snap);

    // The cached shape of `scope` (computed on first use; the reference stays valid).
    shape& shape_of(const filter_scope& scope);

    // Equal to filter_group(snap, scope) for every scope over this snapshot.
    group_filter filter(const filter_scope& scope) { return filter(shape_of(scope), scope); }
    group_filter filter(const shape& s, const filter_scope& scope) const;

    // s.base.feasible sorted as canonical_before sorts first-schedule candidates (tier, estimate
    // descending, name) with the estimates in `memo` (estimates_for(request)): the order of every
    // cluster a re-schedule does not target, so each binding of this shape and request merges its few
    // targets into it instead of sorting thousands of candidates.
    const std::vector<group_filter::pass>& first_order(shape& s, std::vector<std::int32_t>& memo,
                                                       const prepared_request& request, bool accurate);

    std::size_t size() const { return entries_.size(); }

    // The estimators' answers for `request` (available.hpp; `accurate`: with karmada-scheduler-estimator's),
    // one slot per snapshot cluster (-1: not computed yet): workloads that request the same per replica
    // (and, with the accurate estimator, claim the same nodes) share them (estimate_for fills a slot).
    std::vector<std::int32_t>& estimates_for(const prepared_request& request, bool accurate);
    std::int32_t estimate_for(std::vector<std::int32_t>& memo, std::uint32_t index, const prepared_request& request,
                              bool accurate) const;
    std::size_t request_shapes() const { return estimates_.size(); }

    // Component sets of multi-component jobs, shared by jobs of one component shape (component_sets.hpp).
    component_set_cache& component_sets() { return sets_; }

private:
    const snapshot& snap_;
    std::unordered_map<std::string, shape> entries_;
    std::unordered_map<std::string, std::vector<std::int32_t>> estimates_;
    component_set_cache sets_;
};

} // namespace kpw::scheduling
