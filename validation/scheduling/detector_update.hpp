// SPDX-License-Identifier: Apache-2.0
// The resource detector's pass over one existing binding before karmada-scheduler reads it (pkg/detector
// ApplyPolicy, preemption.go): the policy whose placement it carries afterwards and the binding as the
// detector leaves it. lint's dry run and simulate's drills take today's bindings through this one place.
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string>

#include "model/binding.hpp"
#include "model/policy.hpp"
#include "model/workload.hpp"
#include "scheduling/claim.hpp"
#include "settings/feature_gates.hpp"

namespace kpw::scheduling {

struct binding_update {
    std::optional<std::size_t> policy; // index into the views; nullopt: no given policy holds the binding
    bool refused = false;              // another object controls it (karmada#2090): left as it stands
    // Why Karmada's interpreter fails on the template (detector_failure), or nullptr: ApplyPolicy then
    // returns before it writes the binding, so the binding is left as it stands, with the claim it had.
    const model::interpretation_failure* uninterpretable = nullptr;
    model::binding applied;            // the binding the scheduler reads next
};

// `b` is a given binding; `w` the template it is named after (is_detector_binding_of), or nullptr;
// `claim` explain_claim of that template (nullptr without one); `recorded` the binding that records the
// template (its claim and uid: binding_inventory::find_for); `policies[i]` is the policy behind `views[i]`.
//  - A binding another object controls is refused and scheduled as it stands; so is one whose template
//    Karmada's interpreter fails on (uninterpretable), with the claim it has.
//  - A claim a policy with preemption took over carries the preemptor's placement; a claim its holder
//    released (its selectors no longer match the template) goes to the policy that claims the template now.
//  - Otherwise the policy the binding's claim names is applied; an unclaimed binding (no claim, or a claim
//    the detector releases) goes to the policy that claims its template now.
//  - A binding no given policy holds is left as it is (its policy stays as it is on the server).
binding_update update_binding(const model::binding& b, const model::workload* w, const claim_explanation* claim,
                              const model::binding* recorded, std::span<const policy_view> views,
                              std::span<const model::policy* const> policies, const settings::feature_gates& gates);

} // namespace kpw::scheduling
