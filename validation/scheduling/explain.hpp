// SPDX-License-Identifier: Apache-2.0
// Why every cluster of one scheduling group got what it got (issue 13 §2): the explain rows.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "scheduling/assign.hpp"
#include "scheduling/component_sets.hpp"
#include "scheduling/estimator.hpp"
#include "scheduling/filter_stage.hpp"
#include "scheduling/select.hpp"
#include "scheduling/simulator.hpp"

namespace kpw::scheduling {

// One group's attempt as far as it got. `selected` / `result` are empty when the group failed before.
struct explain_input {
    const snapshot& snap;
    const filter_scope& scope;
    const model::placement& placement;
    const prepared_request& request;
    bool workload = true;
    strategy s = strategy::duplicated;
    std::span<const candidate> feasible;      // canonical order
    std::span<const candidate> selected;      // the spread selection
    const assignment* result = nullptr;       // nullptr: the group failed before or in assignment
    std::span<const std::string> tie_between; // clusters whose count differs with the other name order
    // A multi-component job scheduled as one: its component sets per cluster (available and bound come
    // from them, and the left-out reasons tell the single-cluster pick); nullptr otherwise.
    job_sets* sets = nullptr;
    bool accurate = false; // karmada-scheduler-estimator's answers count (available.hpp estimator_use)
};

// Every cluster the group's affinity selects (every cluster when there is none), in snapshot order:
// the plugins it fails, or its available replicas, what bounds them, its replicas and why not more.
std::vector<considered_cluster> explain_group(const explain_input& in);

// The primary or overflow affinityName of a tier.
std::string tier_name(const group_scope& group, int tier);

} // namespace kpw::scheduling
