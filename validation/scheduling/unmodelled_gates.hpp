// SPDX-License-Identifier: Apache-2.0
// Feature gates under which karmada-scheduler reads bindings other than the one it schedules. The dry run
// schedules each binding alone (as Karmada does with these gates off), so under them it says what it leaves
// out rather than predicting as if they were off.
#pragma once

#include <optional>
#include <string>

#include "model/placement.hpp"
#include "model/workload.hpp"
#include "settings/feature_gates.hpp"

namespace kpw::scheduling {

// The groups the detector writes into the binding of `w` under `placement` (detector.go
// getWorkloadAffinityGroups): "key=value" of the template's label for each term; empty when none.
struct workload_affinity_groups {
    std::string affinity_group;
    std::string anti_affinity_group;
    bool empty() const { return affinity_group.empty() && anti_affinity_group.empty(); }
};
workload_affinity_groups affinity_groups_of(const model::placement& placement, const model::workload& w);

// With WorkloadAffinity on and groups for `w`: karmada-scheduler's WorkloadAffinity and WorkloadAntiAffinity
// filters keep it to (away from) the clusters other bindings of those groups hold. `shared` says whether
// another binding may be in one of them (another workload of the run has the group, or bindings were given).
// The warning text (workload-affinity-not-predicted), or nothing when the gate is off, the binding has no
// group, or it is alone in its groups (the filters pass every cluster then).
std::optional<std::string> workload_affinity_not_predicted(const model::placement& placement,
                                                           const model::workload& w,
                                                           const settings::feature_gates& gates, bool shared);

// With SchedulingOvercommitProtection on and more than one workload scheduled: the general estimator takes
// off what the scheduler assigned to other bindings the clusters' resourceSummary does not show yet. The
// warning text (assumed-workloads-not-predicted), or nothing.
std::optional<std::string> assumed_workloads_not_predicted(int workloads_scheduled,
                                                           const settings::feature_gates& gates);

} // namespace kpw::scheduling
