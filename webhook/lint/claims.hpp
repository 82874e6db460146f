// SPDX-License-Identifier: Apache-2.0
// lint's claims phase: which policy claims each --workloads entry, the claims table and the claim warnings.
#pragma once

#include <vector>

#include "lint/dry_run.hpp"
#include "scheduling/claim.hpp"

namespace kpw::lint {

// The policy a claim names, as the report names policies.
policy_ref ref_of(const model::policy_claim& c);
policy_ref ref_of(const scheduling::policy_view& p);

// The detector's view of every admitted policy, in `policies` order (views borrow from `policies` and `r`).
std::vector<scheduling::policy_view> policy_views(const std::vector<typed_policy>& policies, const report& r);

// Appends the views of the standing policies (dry_run_context::standing; settled: the change leaves them
// as they are), after PATH's: a view index past `policies` is a standing policy.
void add_standing_views(const dry_run_context& ctx, std::vector<scheduling::policy_view>& views);

// explain_claim for every workload of `ctx`, with the known claims and the preemption gate of `ctx`.
std::vector<scheduling::claim_explanation> explain_claims(const dry_run_context& ctx,
                                                          const std::vector<scheduling::policy_view>& views);

// Fills report::claims (one row per workload) and attaches the claim warnings to the policies' results,
// each at the position of the field it names; counts them in summary.warnings.
void report_claims(const dry_run_context& ctx, const std::vector<typed_policy>& policies,
                   const std::vector<scheduling::policy_view>& views,
                   const std::vector<scheduling::claim_explanation>& claims, report& r);

} // namespace kpw::lint
