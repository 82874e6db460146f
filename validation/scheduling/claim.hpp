// SPDX-License-Identifier: Apache-2.0
// Which policy claims a workload: resource selectors and the detector's ranking (spec 1.2).
#pragma once

#include <cstddef>
#include <optional>
#include <span>

#include "model/policy.hpp"
#include "model/workload.hpp"

namespace kpw::scheduling {

// karmada: pkg/util/helper ResourceMatchSelectorsPriority — 0 mismatch, 1 match-all selector,
// 2 labelSelector match, 3 name match.
enum class match_priority { mismatch = 0, match_all = 1, label_selector = 2, name = 3 };

// One selector: apiVersion and kind equal, namespace equal when set, then the name when set (the
// labelSelector is then ignored), else the labelSelector, else everything.
match_priority selector_match(const model::resource_selector& selector, const model::workload& workload);

// The best match over a policy's selectors.
match_priority best_match(const model::propagation_spec& spec, const model::workload& workload);

// A policy as the detector sees it; `ns` is empty for a ClusterPropagationPolicy.
struct policy_view {
    const model::propagation_spec* spec = nullptr;
    std::string_view ns;
    std::string_view name;
    bool cluster_scoped = false;
};

// karmada: pkg/detector (LookForMatchedPolicy / LookForMatchedClusterPolicy, compare.go): a matching
// PropagationPolicy in the workload's namespace beats every ClusterPropagationPolicy; within a kind,
// higher spec.priority, then the better selector match, then the smaller name. nullopt: unclaimed.
std::optional<std::size_t> claiming_policy(std::span<const policy_view> policies, const model::workload& workload);

} // namespace kpw::scheduling
