// SPDX-License-Identifier: Apache-2.0
// Why the detector's BuildResourceBinding fails for a claimed template: it then neither creates nor updates
// the template's binding (ApplyPolicy returns the error after claiming the template; the detector retries).
#pragma once

#include <optional>
#include <span>
#include <string>

#include "base/result.hpp"
#include "model/policy.hpp"
#include "model/workload.hpp"
#include "settings/feature_gates.hpp"

namespace kpw::scheduling {

struct build_failure {
    std::string id;      // the warning: template-not-interpretable | priority-class-not-found
    std::string message; // what fails, Karmada's error text included
    position where;      // the template's field (interpreter failures); unknown for the policy's
    std::string field;   // the policy's field to edit ("spec.schedulePriority.priorityClassName"), or ""
};

// karmada: pkg/detector/detector.go BuildResourceBinding, in its order: applyReplicaInterpretation
// (detector_failure), then, with PriorityBasedScheduling on and the claiming policy's spec.schedulePriority
// set, the priority class: KubePriorityClass reads the PriorityClass of that name from karmada-apiserver
// (`objects`: what it holds, scheduling.k8s.io/v1 PriorityClass among them); the other sources are errors.
// Only a namespaced template's ResourceBinding reads the priority (BuildClusterResourceBinding does not).
std::optional<build_failure> binding_build_failure(const model::workload& w, const model::propagation_spec& spec,
                                                   const settings::feature_gates& gates,
                                                   std::span<const model::workload> objects);

} // namespace kpw::scheduling
