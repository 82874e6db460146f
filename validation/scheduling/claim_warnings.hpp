// SPDX-License-Identifier: Apache-2.0
// Warnings about policy claims over a set of workloads: shadowed policies, ties, blocked preemption, Lazy.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "scheduling/claim.hpp"

namespace kpw::scheduling {

// One warning about the policy at index `policy`; `id` is a warning catalogue id (rules/catalogue.hpp).
struct claim_warning {
    std::size_t policy = 0;
    std::string id;
    std::string field; // the field of that policy to look at ("" for the policy as a whole)
    std::string message;
};

// `claims[i]` is explain_claim's answer for `workloads[i]`. Ids: policy-claims-nothing, policy-shadowed,
// claim-decided-by-name, claim-not-preempted, lazy-activation. Call it only when workloads were given:
// "claims nothing" means nothing among them.
std::vector<claim_warning> claim_warnings(std::span<const policy_view> policies,
                                          std::span<const model::workload> workloads,
                                          std::span<const claim_explanation> claims, bool preemption_gate);

} // namespace kpw::scheduling
