// SPDX-License-Identifier: Apache-2.0
// The cluster snapshot and known workloads, read from --clusters/--workloads files or directories.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lint/inputs.hpp"
#include "lint/report.hpp"
#include "model/member_state.hpp"
#include "model/workload.hpp"
#include "model/cluster_taint_policy.hpp"
#include "scheduling/binding_inventory.hpp"
#include "scheduling/inventory.hpp"
#include "scheduling/snapshot.hpp"

namespace kpw::snapshot {

// Built once per load, then shared read-only (lint's workers, serve's request threads).
// Not copyable or movable: `snapshot` borrows `clusters`.
struct state {
    state() = default;
    state(const state&) = delete;
    state& operator=(const state&) = delete;

    scheduling::cluster_inventory clusters;
    std::unique_ptr<scheduling::snapshot> snapshot; // prepared over `clusters`; null without cluster paths
    model::member_states members; // --member-state (the snapshot borrows it)
    std::vector<model::workload> workloads;
    bool have_workloads = false;
    scheduling::binding_inventory bindings; // --bindings
    bool have_bindings = false;
    std::vector<model::cluster_taint_policy> taint_policies; // ClusterTaintPolicies found with the clusters
    std::vector<lint::snapshot_warning> load_warnings; // what the files hold that kubectl reads silently (duplicate-key)
};

// Reads the cluster and workload paths (files, directories, "-") the way lint reads policies, into an
// empty `out`. Unreadable or unparsable files and objects that do not decode become file errors: a dry
// run on what did load would be a dry run on a snapshot other than the one given.
// `default_namespace` is the namespace of workloads that set none.
void load(state& out, const std::vector<std::string>& cluster_paths, const std::vector<std::string>& workload_paths,
          const std::string& default_namespace, std::vector<lint::file_error>& errors);

// The same over inputs already read (files, or lists read from the API server by --kubeconfig); nullopt
// means "not given" (no snapshot / no workloads), an empty set means "given, and empty".
void load(state& out, const std::optional<lint::input_set>& clusters, const std::optional<lint::input_set>& workloads,
          const std::string& default_namespace, std::vector<lint::file_error>& errors);

// serve's live snapshot decodes each object once, as it arrives, and builds every new state from the
// decoded objects (issue 38): the same state and errors as load() given the objects as one List.
struct decoded_object {
    std::vector<model::cluster> clusters;   // 0 or 1
    std::vector<model::cluster_taint_policy> taint_policies;
    std::vector<model::workload> workloads; // 0 or 1
    std::vector<lint::file_error> errors;
};
// `json`: one object as `kubectl get -o json` prints an item; `source` names it in errors, as the file
// name of load()'s inputs does.
decoded_object decode_cluster_object(std::string_view json, const std::string& source);
decoded_object decode_workload_object(std::string_view json, const std::string& default_namespace,
                                      const std::string& source);
// Into an empty `out`, copying the decoded objects: nullptr `workloads` means "not given".
void load(state& out, const std::vector<const decoded_object*>& clusters,
          const std::vector<const decoded_object*>* workloads, std::vector<lint::file_error>& errors);

// The paths read as lint reads its inputs; nullopt when there are none.
std::optional<lint::input_set> read_paths(const std::vector<std::string>& paths);

// Reads ResourceBindings / ClusterResourceBindings (as `kubectl get rb -A -o yaml` prints them) into
// `out.bindings`; decode problems and two bindings for one workload become file errors.
void load_bindings(state& out, const std::vector<std::string>& binding_paths, std::vector<lint::file_error>& errors);
void load_bindings(state& out, const std::optional<lint::input_set>& bindings, std::vector<lint::file_error>& errors);

} // namespace kpw::snapshot
