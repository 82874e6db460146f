// SPDX-License-Identifier: Apache-2.0
// workload_set: the resource templates PATH applies beside its policies (a GitOps repository's
// Deployments), and what applying them does to each (create, change, unchanged).
#pragma once

#include <string>
#include <vector>

#include "lint/dry_run.hpp"
#include "lint/inputs.hpp"
#include "lint/report.hpp"

namespace kpw::plan {

// A template of PATH with the file it is in.
struct workload_in_path {
    model::workload_manifest manifest;
    std::string file;
};

// Every object of PATH that is not one of Karmada's (policies, clusters, bindings) read as a template; a
// workload without a namespace is in `default_namespace`. Files that do not parse are skipped here (lint
// reports them); an object that does not decode becomes a file error.
std::vector<workload_in_path> workloads_in_path(const lint::input_set& inputs, const std::string& default_namespace,
                                                std::vector<lint::file_error>& errors);

// The manifests alone, in order.
std::vector<model::workload_manifest> manifests_of(const std::vector<workload_in_path>& workloads);

// One row per template PATH applies: create, change or unchanged; a template no policy claims after the
// change was not read from the server (plan reads the templates the policies select), so it is "apply"
// with a note. `applied[i]` is what lint::apply_workloads did with `workloads[i]`; `claims` the report's.
std::vector<lint::policy_plan_row> workload_changes(const std::vector<workload_in_path>& workloads,
                                                    const std::vector<lint::applied_template>& applied,
                                                    const std::vector<lint::claim_row>& claims);

// Drops PATH's templates from the report's skipped documents: plan applies them.
void unskip_applied(lint::report& r, const std::vector<workload_in_path>& workloads);

} // namespace kpw::plan
