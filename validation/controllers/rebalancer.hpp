// SPDX-License-Identifier: Apache-2.0
// The WorkloadRebalancer controller: rescheduleTriggeredAt on the named workloads' bindings (day2-semantics §4.10).
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "model/binding.hpp"

namespace kpw::controllers {

// apps.karmada.io/v1alpha1 ObjectReference of spec.workloads[]: an empty namespace is cluster-scoped.
struct workload_reference {
    std::string api_version;
    std::string kind;
    std::string namespace_;
    std::string name;
    friend bool operator==(const workload_reference&, const workload_reference&) = default;
};

// status.observedWorkloads[]: result Successful, or Failed with reason ReferencedBindingNotFound.
struct observed_workload {
    workload_reference workload;
    std::string result;
    std::string reason;
};

// karmada pkg/controllers/workloadrebalancer/workloadrebalancer_controller.go triggerReschedule for a new
// rebalancer created at `created`: each distinct workload (sorted by "apiVersion kind namespace name")
// looks up, by name only, the ResourceBinding named generate_binding_name(kind, name) in its namespace,
// or the ClusterResourceBinding of that name when the namespace is empty; when the binding's
// rescheduleTriggeredAt is unset or before `created`, it is set to `created` (the binding's generation
// moves on). Found: Successful ("binding updated", not "re-scheduled"); missing: Failed.
std::vector<observed_workload> run_rebalancer(std::span<const workload_reference> workloads, model::timestamp created,
                                              std::vector<model::binding>& bindings);

} // namespace kpw::controllers
