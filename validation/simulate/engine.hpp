// SPDX-License-Identifier: Apache-2.0
// `simulate`: a drill as a fold over scenario steps. Each step changes the world, then the controllers
// around karmada-scheduler and the scheduler itself run until nothing is left to do; the bindings they
// write are the next step's input (style.md §6.9: controllers as pure steps, time a field of the world).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "base/result.hpp"
#include "scheduling/moves.hpp"
#include "simulate/scenario.hpp"
#include "simulate/world.hpp"

namespace kpw::simulate {

// Objects a step reads from files (addCluster, applyPolicy), loaded by the caller in step order:
// validation/ does no I/O.
struct step_inputs {
    std::vector<model::cluster> clusters;
    std::vector<model::policy> policies; // validated and defaulted, as lint admits them
};

// An old copy that graceful eviction keeps running on the evicted cluster (day2-semantics §4.5-4.7).
struct pending_eviction {
    std::string cluster;
    std::int32_t replicas = 0;
    std::string purge_mode;
    std::optional<model::timestamp> ends_by; // creationTimestamp + timeout; health may end it earlier
};

// One workload after one step.
struct workload_outcome {
    model::object_reference workload;
    std::string policy; // "PropagationPolicy default/web", "" when no policy claims it
    std::int32_t replicas = 0;
    std::vector<model::target_cluster> before; // spec.clusters when the step began
    std::vector<model::target_cluster> after;  // spec.clusters when the step ends
    std::string affinity_before, affinity_after;
    bool scheduled = false; // the Scheduled condition is True
    bool acted = false;     // the scheduler ran for it during the step
    std::string trigger;    // the rule of the last scheduler run ("" when it did not run)
    std::string message;    // the last scheduler run's (or why it did not run)
    std::string condition_reason, condition_message;
    std::vector<scheduling::replica_move> moves;
    std::vector<pending_eviction> evictions;
    std::int64_t serving = 0; // replicas Karmada's Works run on Ready clusters, old copies included
    std::int64_t placed = 0;  // Σ spec.clusters
};

struct drill_warning {
    std::string id;       // stable: no-eviction-with-these-flags, directly-purge-blocks-dispatch, ...
    std::string workload; // workload_key, or "" for a cluster-wide warning
    std::string message;
};

struct step_outcome {
    std::string name;
    position where;
    model::timestamp at = 0;
    std::vector<std::string> events; // what the controllers did ("member1: taint ... added by the cluster controller")
    std::vector<workload_outcome> workloads;
    std::vector<drill_warning> warnings;
    bool failed = false; // a workload is unschedulable or has no serving replica
};

struct drill {
    std::vector<step_outcome> steps; // steps[0] is the initial placement
    bool failed = false;
};

// Runs the scenario over `start`. Step 0 places every workload as `lint --bindings` predicts it; then
// each scenario step in order. `inputs` is parallel to scenario.steps. Time advances one second per
// step (Kubernetes compares times at one-second precision) plus every `wait`. Pure and deterministic.
drill run(world start, const scenario& s, const std::vector<step_inputs>& inputs, const settings_in_force& settings);

} // namespace kpw::simulate
