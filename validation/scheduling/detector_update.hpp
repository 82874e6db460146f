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
#include "scheduling/binding_build.hpp"
#include "scheduling/claim.hpp"
#include "settings/feature_gates.hpp"

namespace kpw::scheduling {

struct binding_update {
    std::optional<std::size_t> policy; // index into the views; nullopt: no given policy holds the binding
    bool refused = false;              // another object controls it (karmada#2090): left as it stands
    // Why BuildResourceBinding fails for the template under the policy that would write the binding
    // (binding_build_failure: the interpreter, the priority class): ApplyPolicy then returns before it
    // writes the binding, so the binding is left as it stands, with the claim it had.
    std::optional<build_failure> build_error;
    model::binding applied;            // the binding the scheduler reads next
};

// `b` is a given binding; `w` the template it is named after (is_detector_binding_of), or nullptr;
// `claim` explain_claim of that template (nullptr without one); `recorded` the binding that records the
// template (its claim and uid: binding_inventory::find_for); `policies[i]` is the policy behind `views[i]`;
// `objects` what karmada-apiserver holds besides (the PriorityClasses BuildResourceBinding may read).
// `template_missing`: `w` is nullptr because the template does not exist (the templates are all known), not
// because it was not given: the detector rebuilds a binding only from its template (a policy's reconcile
// queues the template's key, and a missing template is never applied), so the binding is left as it stands.
//  - A binding another object controls is refused and scheduled as it stands; so is one whose template
//    BuildResourceBinding fails on (build_error), with the claim it has.
//  - A claim a policy with preemption took over carries the preemptor's placement; a claim its holder
//    released (its selectors no longer match the template) goes to the policy that claims the template now.
//  - Otherwise the policy the binding's claim names is applied; an unclaimed binding (no claim, or a claim
//    the detector releases) goes to the policy that claims its template now.
//  - A binding no given policy holds is left as it is (its policy stays as it is on the server).
binding_update update_binding(const model::binding& b, const model::workload* w, const claim_explanation* claim,
                              const model::binding* recorded, std::span<const policy_view> views,
                              std::span<const model::policy* const> policies, const settings::feature_gates& gates,
                              std::span<const model::workload> objects, bool template_missing);

} // namespace kpw::scheduling
