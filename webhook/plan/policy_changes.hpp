// SPDX-License-Identifier: Apache-2.0
// policy_changes: what applying PATH does to each policy on the server (create, change, unchanged,
// denied, delete), judged on the policies as admission leaves them (defaults applied).
#pragma once

#include <set>
#include <string>
#include <vector>

#include "lint/dry_run.hpp"
#include "lint/report.hpp"
#include "plan/policy_set.hpp"

namespace kpw::plan {

// `applied`: the new side's report and its admitted policies; only results whose file is one of
// `applied_files` (PATH's, not the server's) are PATH's policies. `server`: the base side, all from the
// server. `prune`: what --prune deletes, and the policies it leaves although PATH does not hold them.
std::vector<lint::policy_plan_row> policy_changes(const lint::report& applied,
                                                  const std::vector<lint::typed_policy>& applied_admitted,
                                                  const std::set<std::string>& applied_files,
                                                  const lint::report& server,
                                                  const std::vector<lint::typed_policy>& server_admitted,
                                                  const prune_outcome& prune);

// Drops the new side's results of server policies PATH leaves alone whose workloads do not move (they
// were scheduled only so that claims and placements are computed over every policy), and their counts.
void drop_untouched_server_results(lint::report& applied, const std::set<std::string>& applied_files);

} // namespace kpw::plan
