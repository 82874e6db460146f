// SPDX-License-Identifier: Apache-2.0
// The resource detector's part of a drill: claiming templates and keeping bindings in step with their
// policies and templates (karmada pkg/detector; day2-semantics §1.1, §5).
#pragma once

#include <cstddef>
#include <set>
#include <string>
#include <vector>

#include "simulate/world.hpp"

namespace kpw::simulate {

// Claims every workload that has no binding for the policy karmada's detector picks (ranking of
// scheduling-semantics §1.2, a PropagationPolicy before any ClusterPropagationPolicy) and creates its
// binding (name by GenerateBindingName, claim labels and annotations, the policy applied). Appends the
// new bindings' indexes to `created`.
void claim_unbound(world& w, const settings::feature_gates& gates, std::vector<std::size_t>& created,
                   std::vector<std::string>& events);

// Re-applies the claiming policy to binding `i` as ApplyPolicy does on a template or policy change:
// placement, failover and schedulerName from the policy, spec.replicas, replicaRequirements and components
// from the template as `gates` have the detector read them (scheduling::apply_policy). True when
// the binding's spec changed (a generation bump, so the scheduler gets an update event). A binding whose
// claiming policy is not in the world is left alone.
bool refresh_binding(world& w, std::size_t i, const settings::feature_gates& gates);

// The policy that claims binding `b`, or nullptr.
const model::policy* claiming_policy_of(const world& w, const model::binding& b);

// "PropagationPolicy default/web".
std::string policy_label(const model::policy& p);

} // namespace kpw::simulate
