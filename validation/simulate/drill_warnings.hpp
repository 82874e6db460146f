// SPDX-License-Identifier: Apache-2.0
// What an operator must see before the real drill, judged on the world after one step.
#pragma once

#include "simulate/engine.hpp"
#include "simulate/world.hpp"

namespace kpw::simulate {

// Appends the step's warnings (stable ids):
//  unschedulable                  a workload's Scheduled condition is False after the step
//  zero-serving-replicas          a workload with replicas has none running on a Ready cluster
//  no-eviction-with-these-flags   replicas stay on a NotReady or NoExecute-tainted cluster: nothing evicts them
//  directly-purge-blocks-dispatch a Directly-purged Work on a NotReady cluster holds back the new placement
//  stays-in-overflow              replicas stay in an overflow tier although the primary tier has room again
//  stays-in-fallback-group        an earlier clusterAffinities group could host the workload again
//  cluster-deletion-blocked       a cluster being deleted is still a target: its deletion hangs
void add_drill_warnings(const world& w, const settings_in_force& s, step_outcome& out);

} // namespace kpw::simulate
