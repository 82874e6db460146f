// SPDX-License-Identifier: Apache-2.0
// Filter results shared across workloads of one shape: many bindings, one pass over the clusters.
#pragma once

#include <string>
#include <unordered_map>

#include "scheduling/component_sets.hpp"
#include "scheduling/filter_stage.hpp"

namespace kpw::scheduling {

// Caches filter_group per (group affinities, tolerations, spread constraints, API) over one snapshot,
// computed without targets or eviction tasks; a re-schedule's targets (TaintToleration/APIEnablement
// pass-through) and evicting clusters (ClusterEviction) are applied on top of the cached result, so
// bindings of one policy and kind share one pass over the clusters. Not thread-safe; borrows `snap`.
class filter_cache {
public:
    explicit filter_cache(const snapshot& snap);

    // Equal to filter_group(snap, scope) for every scope over this snapshot.
    group_filter filter(const filter_scope& scope);

    std::size_t size() const { return entries_.size(); }

    // The general estimator's answers for `request`, one slot per snapshot cluster (-1: not computed
    // yet): workloads that request the same per replica share them (estimate_for fills a slot).
    std::vector<std::int32_t>& estimates_for(const prepared_request& request);
    std::int32_t estimate_for(std::vector<std::int32_t>& memo, std::uint32_t index, const prepared_request& request) const;
    std::size_t request_shapes() const { return estimates_.size(); }

    // Component sets of multi-component jobs, shared by jobs of one component shape (component_sets.hpp).
    component_set_cache& component_sets() { return sets_; }

private:
    const snapshot& snap_;
    std::unordered_map<std::string, group_filter> entries_;
    std::unordered_map<std::string, std::vector<std::int32_t>> estimates_;
    component_set_cache sets_;
};

} // namespace kpw::scheduling
