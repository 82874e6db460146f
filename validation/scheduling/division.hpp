// SPDX-License-Identifier: Apache-2.0
// Dynamic division (DynamicWeight, Aggregated) on a first schedule, a Steady and a Fresh re-schedule.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "scheduling/select.hpp"
#include "scheduling/webster.hpp"

namespace kpw::scheduling {

enum class division_mode;
struct assignment;

// One Webster party: a cluster of the selection (by index) and its votes.
struct voter {
    std::size_t index = 0;
    std::int64_t votes = 0;
};

// Deals `seats` by Webster over `voters` and adds each voter's seats to shares[voter.index]
// (karmada: pkg/util/helper/binding.go Dispenser.AllocateByWeight).
void deal_webster(const std::vector<candidate>& selected, const std::vector<voter>& voters, std::int32_t seats,
                  name_order order, std::vector<std::int32_t>& shares);

// The clusters of `selected` with a positive share, in selection order (karmada: core/util.go
// removeZeroReplicasCluster).
assignment collect(const std::vector<candidate>& selected, const std::vector<std::int32_t>& shares);

// karmada: pkg/scheduler/core/assignment.go assignByDynamicStrategy with division_algorithm.go
// dynamicScaleUp, dynamicScaleDown, dynamicFreshScale and dynamicDivideReplicas. The error is Karmada's
// text without the "failed to assign replicas: " prefix.
// `release`: before v1.18.0 the error is no UnschedulableError (settings::changes::wrapped_division_errors).
assignment divide_dynamically(const std::vector<candidate>& selected, bool aggregated, std::int32_t replicas,
                              name_order order, division_mode mode,
                              settings::karmada_release release = settings::newest_karmada_release);

} // namespace kpw::scheduling
