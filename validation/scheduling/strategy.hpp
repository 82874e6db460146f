// SPDX-License-Identifier: Apache-2.0
// How a (defaulted) placement is read by the scheduler: strategy, spread constraints, capacity need.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "model/policy.hpp"

namespace kpw::scheduling {

// unsupported: Divided with a division preference that is neither Aggregated nor Weighted. A policy
// always has one (the mutating webhook defaults Weighted); a binding written some other way may not, and
// karmada-scheduler then fails its assignment (assignment.go newAssignState, common.go
// assignReplicasToClusters: "unsupported replica scheduling strategy, ...").
enum class strategy { duplicated, static_weight, dynamic_weight, aggregated, unsupported };

// "Duplicated", "StaticWeight", "DynamicWeight", "Aggregated", "Unsupported"
std::string_view strategy_name(strategy s);

// Spec 3.7. Reads the placement as karmada-scheduler does: a replicaScheduling without a type is
// Divided (the policy and binding CRDs' default, which kube-apiserver applies); the division preference
// counts as written (a policy's has the mutating webhook's Weighted default, a binding written some
// other way may have none: strategy::unsupported).
strategy strategy_of(const model::placement& placement);

// The spread constraints as karmada-scheduler reads them: as written, without defaults. A policy's
// placement has the mutating webhook's defaults already (model::apply_mutating_defaults: spreadByField
// cluster when neither field nor label is set, minGroups 1 when unset); a binding written some other
// way does not, and the binding CRD defaults neither, so a constraint without a field is not a cluster
// constraint (the scheduler's "just support cluster and region spread constraint") and a minGroups of
// 0 or below counts as it is.
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
