// SPDX-License-Identifier: Apache-2.0
// The invariants of a placement, shared by the schedule and reschedule targets.
#pragma once

#include <string_view>

#include "model/workload.hpp"
#include "scheduling/simulator.hpp"
#include "scheduling/snapshot.hpp"

namespace kpw::fuzz {

// Placed clusters exist and appear once, no negative replicas; a scheduled workload of more than 0
// replicas is placed somewhere; Duplicated gives every cluster the workload's replicas, Divided assigns
// exactly the workload's replicas. A violation aborts through invariant_failed(name, ...).
// `admitted` false: the placement is not one Karmada's webhook admitted (a stored binding's own, which
// nothing validates: e.g. Duplicated with overflow tiers, denied in a policy), so only the first three
// are checked (tests/fuzz/regressions/reschedule/stored-binding-duplicated-with-overflow-tiers).
void check_placement(std::string_view name, const scheduling::decision& d, const model::workload& w,
                     const scheduling::snapshot& snap, bool admitted = true);

} // namespace kpw::fuzz
