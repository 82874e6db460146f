// SPDX-License-Identifier: Apache-2.0
// The placement diff from and into lint reports: each side's placements, the diff attached, --fail-on.
#pragma once

#include <vector>

#include "lint/diff.hpp"
#include "lint/report.hpp"

namespace kpw::lint {

workload_key key_of(const workload_ref& w);

// One dry-run result of `p` as a diff placement (claimed by `p`).
placement placement_of(const policy_result& p, const scheduling_result& s);

// Every workload a policy of the report claims, with its dry-run outcome.
std::vector<placed_workload> placements_of(const report& r);

// `lint --base`: diffs `base` (the target branch's policies) against `r` (the PR's) and stores the diff in
// `r`; the base side's unreadable files become r's (no diff can be trusted without them).
void attach_diff(report& r, const report& base);

// The exit code under --fail-on: unschedulable = lint's usual code; move = also 1 when a workload's
// placement changes; none = only denials (1) and broken input (2).
int exit_code(const report& r, fail_on gate);

} // namespace kpw::lint
