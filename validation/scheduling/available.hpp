// SPDX-License-Identifier: Apache-2.0
// The one place where the general and the accurate estimator meet: karmada-scheduler's calAvailableReplicas
// (pkg/scheduler/core/util.go) with --enable-scheduler-estimator.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "scheduling/accurate_estimator.hpp"
#include "scheduling/estimator.hpp"
#include "scheduling/filter_stage.hpp"
#include "scheduling/snapshot.hpp"

namespace kpw::scheduling {

// Whether karmada-scheduler-estimator's answers count for one scheduling attempt. calAvailableReplicas asks
// every estimator for all feasible clusters at once; SchedulerEstimator.MaxAvailableReplicas returns an
// aggregate error when any cluster's call fails (no estimator connection for it: "cluster X does not exist
// in estimator cache"), and calAvailableReplicas then drops that estimator's answers for every cluster
// (`continue`), in v1.16.0, v1.17.1 and v1.18.2 alike. So the accurate estimator counts only when every
// feasible cluster has one.
struct estimator_use {
    bool accurate = false;
    std::string missing; // estimators given, accurate is false: the first feasible cluster without one
    // Estimators for every feasible cluster, accurate is false: the first one whose call fails and why
    // (component sets only: accurate_estimate::failure).
    std::string failed;
};
estimator_use estimator_use_of(const snapshot& snap, std::span<const group_filter::pass> feasible);

struct available_estimate {
    estimate general;
    std::optional<accurate_estimate> accurate; // asked (estimator_use::accurate)
    std::int32_t replicas = 0;                 // what the scheduler uses
    bool accurate_bound = false;               // the accurate answer is the smaller one
};

// The minimum of both when `accurate` (an accurate answer of UnauthenticReplica, -1, is skipped as
// calAvailableReplicas skips it), else the general answer.
available_estimate estimate_available(const snapshot& snap, std::size_t index, const prepared_request& request,
                                      bool accurate);

// --explain's `bound by` for it: the general estimator's bound, or karmada-scheduler-estimator's.
std::string available_bound_by(const available_estimate& e, const prepared_request& request, const resource_table& table);

// The key of a request's estimates: requests with one key get the same answers from the general estimator
// (amounts by resource id, requirements, an unknown resource) and, when `accurate`, from
// karmada-scheduler-estimator too (amounts by name and the node claim).
std::string estimate_key(const prepared_request& request, bool accurate);

// A node claim's part of such a key (nullptr: no claim), for single templates and component sets alike.
void append_claim_key(std::string& key, const model::node_claim* claim);

} // namespace kpw::scheduling
