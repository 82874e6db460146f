// SPDX-License-Identifier: Apache-2.0
// One drill step's reaction: the controllers and the scheduler run until nothing is left to do.
#pragma once

#include <cstddef>
#include <set>
#include <string>
#include <vector>

#include "scheduling/reschedule.hpp"
#include "simulate/world.hpp"

namespace kpw::simulate {

// What happened during one step, gathered for the step's outcome.
struct step_log {
    std::set<std::size_t> enqueued;  // bindings with a pending scheduler event
    std::vector<std::string> events; // controller actions, in order
    std::vector<std::optional<scheduling::reschedule_outcome>> last_run; // per binding: the step's last scheduler run
};

// karmada-scheduler's cluster event handler (event_handler.go updateCluster, day2-semantics §3.1): a
// change of labels, spec or deletion of `after` (was `before`) enqueues the bindings whose relevant
// affinity matches either state, or that have none; clusterAffinities bindings whose observed
// generation lags are enqueued whatever they select.
void enqueue_cluster_change(const world& w, const model::cluster& before, const model::cluster& after, step_log& log);

// Runs, in rounds until a round changes nothing (at most a bounded number): the cluster controller's
// condition taints, ClusterTaintPolicies, the taint manager, the scheduler for every enqueued binding,
// the graceful-eviction controller; then brings each binding's dispatched replicas up to date and
// charges the clusters for what starts or stops running.
void settle(world& w, step_log& log, const settings_in_force& settings);

} // namespace kpw::simulate
