// SPDX-License-Identifier: Apache-2.0
// Replica assignment per strategy and over overflow tiers, first time and re-schedule (spec 3.7-3.9, 5.1, 6).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "model/policy.hpp"
#include "settings/karmada_release.hpp"
#include "scheduling/select.hpp"
#include "scheduling/strategy.hpp"
#include "scheduling/webster.hpp"

namespace kpw::scheduling {

// First schedule; Steady re-schedule (the default: DynamicWeight/Aggregated start from the previous
// result in candidate::current); Fresh (RescheduleRequired: deal everything again by allocatable +
// current). scheduling-semantics §6, karmada division_algorithm.go.
enum class division_mode { first, steady, fresh };

struct assigned {
    const candidate* target = nullptr; // points into the selection
    std::int32_t replicas = 0;
};

// The start of the error assignReplicasToClusters returns for strategy::unsupported (a plain error:
// the condition's reason is SchedulerError, not Unschedulable).
inline constexpr std::string_view unsupported_strategy_error = "unsupported replica scheduling strategy";

struct assignment {
    std::vector<assigned> clusters; // clusters with 0 replicas are dropped
    std::string error;              // non-empty: the group fails
    bool unschedulable = false;     // the error is an UnschedulableError (capacity), not a plain error
};

// A failed assignment: Karmada's UnschedulableError (the condition's reason is Unschedulable).
assignment unschedulable_assignment(std::string error);

// One strategy over `selected` with `replicas` (karmada: assignment.go assignByDuplicatedStrategy,
// assignByStaticWeightStrategy, assignByDynamicStrategy). Duplicated and static weight never fail and ignore
// the previous result. DynamicWeight/Aggregated fail with Karmada's text minus "failed to assign replicas: ":
// "failed to scale up: Clusters available replicas S are not enough to schedule." (first, steady) or
// "failed to do fresh scale: ..." (fresh).
assignment assign_strategy(const std::vector<candidate>& selected, const model::placement& placement, strategy s,
                           std::int32_t replicas, name_order order, division_mode mode = division_mode::first,
                           settings::karmada_release release = settings::newest_karmada_release);

// karmada: common.go assignWorkloadReplicas with overflow tiers: fill tier 0, then 1, ...; each tier
// gets n = min(remaining, Σ available incl. current replicas) dealt by the strategy in `mode` against the
// previous replicas of its own clusters; replicas left over fail the term ("Clusters available replicas
// are not enough to schedule.").
assignment assign_tiers(const std::vector<candidate>& selected, const model::placement& placement, strategy s,
                        std::int32_t replicas, name_order order, division_mode mode = division_mode::first);

} // namespace kpw::scheduling
