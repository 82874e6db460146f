// SPDX-License-Identifier: Apache-2.0
// The state a drill folds over: clusters, workloads, bindings, policies, time and the settings in force.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "model/member_state.hpp"
#include "model/binding.hpp"
#include "model/cluster.hpp"
#include "model/cluster_taint_policy.hpp"
#include "model/policy.hpp"
#include "model/workload.hpp"
#include "scheduling/simulator.hpp"
#include "settings/controller_settings.hpp"
#include "settings/feature_gates.hpp"

namespace kpw::simulate {

// karmada-controller-manager's and karmada-scheduler's flags and gates the drill assumes.
struct settings_in_force {
    settings::controller_settings controllers; // gates included (both binaries take the same --feature-gates)
    scheduling::options scheduling;
    const settings::feature_gates& gates() const { return controllers.gates; }
};

// What the member clusters run for one binding, as far as Karmada's Works say (day2-semantics §4.7):
// cluster → replicas. It trails spec.clusters while Work sync to a cluster is stopped or blocked.
using dispatched_replicas = std::map<std::string, std::int32_t, std::less<>>;

struct world {
    model::timestamp now = 0;
    std::vector<model::cluster> clusters; // sorted by name
    std::vector<model::cluster_taint_policy> taint_policies;
    std::vector<model::workload> workloads;
    std::vector<model::binding> bindings;
    std::vector<dispatched_replicas> dispatched; // parallel to bindings
    std::vector<model::policy> policies;         // as applied: validated and defaulted
    // The members' nodes and pods (memberState / --member-state), as at the drill's start: the steps do not
    // change them. Empty: no karmada-scheduler-estimator.
    model::member_states members;
};

// The cluster named `name`, or nullptr.
model::cluster* find_cluster(world& w, std::string_view name);
const model::cluster* find_cluster(const world& w, std::string_view name);

// The workload the detector pairs the binding with (the one it is named after), or nullptr.
const model::workload* workload_of_binding(const world& w, const model::binding& b);

// "Deployment/default/web" (KIND/NAMESPACE/NAME; KIND/NAME when cluster-scoped).
std::string workload_key(const model::object_reference& r);
std::string workload_key(const model::workload& w);

} // namespace kpw::simulate
