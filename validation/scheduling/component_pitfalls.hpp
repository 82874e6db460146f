// SPDX-License-Identifier: Apache-2.0
// Warnings for multi-component jobs: why a job is not kept together, or why its estimate misleads.
#pragma once

#include <string>
#include <vector>

#include "model/cluster.hpp"
#include "model/policy.hpp"
#include "model/workload.hpp"
#include "settings/feature_gates.hpp"

namespace kpw::scheduling {

struct component_warning {
    std::string id; // stable: "components-gate-off", ...
    std::string message;
    friend bool operator==(const component_warning&, const component_warning&) = default;
};

// Stable ids (day2-semantics §6.2, §6.3):
//   components-gate-off                the gate is off: the components are not scheduled as a whole
//   components-not-applicable          gate on, no cluster spread constraint with minGroups = maxGroups = 1
//   components-sent-to-every-candidate no spread constraints, or static weight (spread ignored)
//   components-notation-mismatch       a request and an allocatable in different notations (1000×)
//   components-fragmented              no cluster holds one set although the clusters together could
//   components-memory-tiny             a memory request below 1Mi (Flink's "2048m" is 2.048 bytes)
//   components-negative-replicas       a component with negative replicas (the binding allows them)
// `w` is the decoded workload (components filled, whatever the gate); `clusters` the candidates, whose
// resource summaries are compared for the notation and fragmentation checks. Empty for a workload
// without components.
std::vector<component_warning> component_pitfalls(const model::propagation_spec& spec, const model::workload& w,
                                                  const std::vector<model::cluster>& clusters,
                                                  const settings::feature_gates& gates);

} // namespace kpw::scheduling
