// SPDX-License-Identifier: Apache-2.0
// Filter results shared across workloads of one shape: many bindings, one pass over the clusters.
#pragma once

#include <string>
#include <unordered_map>

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

private:
    const snapshot& snap_;
    std::unordered_map<std::string, group_filter> entries_;
};

} // namespace kpw::scheduling
