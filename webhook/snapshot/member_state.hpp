// SPDX-License-Identifier: Apache-2.0
// --member-state DIR: each member cluster's Nodes and Pods, one subdirectory per cluster, for
// karmada-scheduler-estimator's answers (docs/estimator.md).
#pragma once

#include <string>
#include <vector>

#include "lint/report.hpp"
#include "model/member_state.hpp"
#include "snapshot/load.hpp"

namespace kpw::snapshot {

// One member's files (`kubectl get nodes,pods -A -o yaml` exports, several documents or Lists), decoded
// into `out` (its `cluster` already set); problems become file errors at file:line:column.
void add_member_files(model::member_state& out, const lint::input_set& files, std::vector<lint::file_error>& errors);

// Reads DIR: every subdirectory is the member state of the Cluster of its name (its *.yaml, *.yml and
// *.json files, walked as lint walks a directory). A missing DIR, a manifest directly in DIR and a
// subdirectory that names no Cluster of `out`'s snapshot are errors. The members are attached to the
// snapshot (snapshot::use_members); an empty DIR attaches none (no estimator anywhere).
void load_member_states(state& out, const std::string& dir, std::vector<lint::file_error>& errors);

// The same from inputs read another way (live, through Karmada's cluster proxy): each member's files under
// the name of its Cluster, which `out`'s snapshot must hold.
struct member_inputs {
    std::string cluster;
    std::string source; // where a problem of the whole member is reported: its directory, or the proxy read
    lint::input_set files;
};
void load_member_inputs(state& out, std::vector<member_inputs> members, std::vector<lint::file_error>& errors);

} // namespace kpw::snapshot
