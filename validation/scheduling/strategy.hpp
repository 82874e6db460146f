// SPDX-License-Identifier: Apache-2.0
// How a (defaulted) placement is read by the scheduler: strategy, spread constraints, capacity need.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "model/policy.hpp"

namespace kpw::scheduling {

enum class strategy { duplicated, static_weight, dynamic_weight, aggregated };

std::string_view strategy_name(strategy s); // "Duplicated", "StaticWeight", "DynamicWeight", "Aggregated"

// Spec 3.7. Reads the placement as the mutating webhook leaves it; the CRD and webhook defaults
// (type Divided when replicaScheduling is present, preference Weighted for Divided) are applied here
// too, so an undefaulted placement is read the same way.
strategy strategy_of(const model::placement& placement);

// The spread constraints as the mutating webhook defaults them: spreadByField cluster when neither
// field nor label is set, minGroups 1 when unset. maxGroups stays 0 (spec 1.1).
struct spread_view {
    std::optional<model::spread_constraint> cluster; // spreadByField: cluster
    std::optional<model::spread_constraint> region;  // spreadByField: region
    bool any = false;                                // any constraint at all
    // Some cluster constraint (not only the one that wins) has minGroups 1 and maxGroups 1: Karmada's
    // estimation.go reads a multi-component job as bound for one cluster then.
    bool one_cluster = false;
};

spread_view spread_of(const model::placement& placement);

// Spec 3.2: every candidate is selected when there are no constraints, or for static weight with
// weightPreference absent, or a non-empty staticWeightList and no dynamicWeight.
bool spread_ignored(const model::placement& placement);

} // namespace kpw::scheduling
