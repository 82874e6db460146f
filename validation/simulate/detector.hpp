// SPDX-License-Identifier: Apache-2.0
// The resource detector's part of a drill: claiming templates and keeping bindings in step with their
// policies and templates (karmada pkg/detector; day2-semantics §1.1, §5).
#pragma once

#include <cstddef>
#include <functional>
#include <set>
#include <string>
#include <vector>

#include "scheduling/lazy_activation.hpp"
#include "simulate/world.hpp"

namespace kpw::simulate {

// `reconciled`: the policies the detector reconciles in a step (created or updated); only they release a
// template their selectors no longer match (scheduling::policy_view::settled). Empty: every policy, as step
// 0 takes the policies as applied.
using reconciled_policies = std::function<bool(const model::policy&)>;

// How a step's change reached a template, as the detector's queue tells (scheduling::template_events): a
// Lazy claim then leaves its binding alone, or builds none, as lint's dry run has it
// (scheduling/lazy_binding.hpp). Empty: step 0, the detector's initial list, which queues every template
// without ResourceChangeByKarmada.
using template_events_of = std::function<scheduling::template_events(const model::workload&)>;

// Claims every workload that has no binding for the policy karmada's detector picks (explain_claim: the
// template's own claim is sticky; else the ranking of scheduling-semantics §1.2) and creates its
// binding (name by GenerateBindingName, claim labels and annotations, the policy applied). Appends the
// new bindings' indexes to `created`. A Lazy claim the step's change does not reach (`changes`) is written
// on the template only (ClaimPolicyForObject), and no binding is created.
void claim_unbound(world& w, const settings::feature_gates& gates, std::vector<std::size_t>& created,
                   std::vector<std::string>& events, const reconciled_policies& reconciled = {},
                   const template_events_of& changes = {});

// Takes binding `i` through the detector as ApplyPolicy does on a template or policy change, the way
// lint does (scheduling::update_binding): the policy its claim names, or a preemptor, or for an unclaimed
// binding the policy that claims its template; placement, failover and schedulerName from the policy,
// spec.replicas, replicaRequirements and components from the template as `gates` have the detector read
// them. True when the binding's spec changed (a generation bump, so the scheduler gets an update event). A
// binding no policy in the world holds, or one another object controls (karmada#2090), is left alone.
// `reconciled` as for claim_unbound. A Lazy claim the step's change does not reach (`changes`) leaves the
// binding as it is, its claim written on the template only.
bool refresh_binding(world& w, std::size_t i, const settings::feature_gates& gates,
                     const reconciled_policies& reconciled = {}, const template_events_of& changes = {});

// No policy is reconciled: a step that changes a template, or deletes a policy, only.
bool none_reconciled(const model::policy&);

// The policy that claims binding `b`, or nullptr.
const model::policy* claiming_policy_of(const world& w, const model::binding& b);

// "PropagationPolicy default/web".
std::string policy_label(const model::policy& p);

} // namespace kpw::simulate
