// SPDX-License-Identifier: Apache-2.0
// Reading a drill's inputs: snapshot, workloads, bindings, policies (through lint), the scenario and the
// files its steps name; settings from the flags.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "lint/dry_run.hpp"
#include "lint/report.hpp"
#include "settings/karmada_release.hpp"
#include "simulate/engine.hpp"
#include "simulate/render.hpp"

namespace kpw::simulate_cli {

struct simulate_flags {
    std::vector<std::string> policies;
    std::string scenario;
    std::vector<std::string> clusters, workloads, bindings;
    std::string member_state; // --member-state DIR (wins over the scenario's memberState)
    bool members_through_proxy = false; // --members-through-proxy: read live, and wins over the scenario's too
    std::string output = "text";
    std::string default_namespace = "default";
    std::string feature_gates;
    bool enable_no_execute_taint_eviction = false;
    std::string purge_mode = "Gracefully";
    std::string graceful_eviction_timeout = "10m";
    bool enable_taint_manager = true;
    std::string now;
    // --karmada-version as resolved (the flag, the server's CRD, or the newest) and how it was decided.
    settings::karmada_release release = settings::newest_karmada_release;
    std::string release_decided_by;
};

struct loaded_drill {
    simulate::world start;
    simulate::scenario scenario;
    std::vector<simulate::step_inputs> inputs; // parallel to scenario.steps
    simulate::settings_in_force settings;
    drill_header header;
    std::vector<lint::file_error> errors; // any: exit 2, nothing runs
};

// Everything `simulate` reads. Problems (unreadable or unparsable files, objects that do not decode, a
// denied policy, an unknown gate, a scenario step naming an unknown cluster or workload) become errors
// with file:line:column; the drill does not run on a partial world.
// `live`: the snapshot, workloads and bindings already read (simulate --kubeconfig); null: from the flags' files.
loaded_drill load_drill(const simulate_flags& flags, std::unique_ptr<lint::dry_run_context> live = nullptr);

} // namespace kpw::simulate_cli
