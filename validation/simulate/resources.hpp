// SPDX-License-Identifier: Apache-2.0
// Charging placed replicas to the clusters' resource summaries between drill steps.
#pragma once

#include <cstdint>

#include "model/cluster.hpp"
#include "model/workload.hpp"

namespace kpw::simulate {

// Adds (delta > 0) or releases (delta < 0) `delta` replicas of `w` to `c`'s status.resourceSummary
// allocated: its per-replica request (cpu in millicores, the rest in units; every component's when it
// has components) and one pod per replica. Karmada's resourceSummary reports what the member's nodes
// have allocated, so replicas that start running lower the next estimate; a cluster without a summary
// is left as it is (the estimator gives it nothing anyway). Allocated never drops below zero.
void charge(model::cluster& c, const model::workload& w, std::int32_t delta);

} // namespace kpw::simulate
