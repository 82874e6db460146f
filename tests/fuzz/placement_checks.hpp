// SPDX-License-Identifier: Apache-2.0
// The invariants of a placement, shared by the schedule and reschedule targets.
#pragma once

#include <string_view>

#include "model/workload.hpp"
#include "scheduling/simulator.hpp"
#include "scheduling/snapshot.hpp"

namespace kpw::fuzz {

// Placed clusters exist and appear once, no negative replicas: what holds for any placement, also one
// Karmada's webhook never admitted (a stored binding's own, which nothing validates: e.g. Duplicated
// with overflow tiers, denied in a policy; tests/fuzz/regressions/reschedule/
// stored-binding-duplicated-with-overflow-tiers). A violation aborts through invariant_failed(name, ...).
void check_clusters(std::string_view name, const scheduling::decision& d, const scheduling::snapshot& snap);

// check_clusters, and for a placement from an admitted policy: a scheduled workload of more than 0
// replicas is placed somewhere; Duplicated gives every cluster the workload's replicas, Divided assigns
// exactly the workload's replicas.
void check_placement(std::string_view name, const scheduling::decision& d, const model::workload& w,
                     const scheduling::snapshot& snap);

} // namespace kpw::fuzz
