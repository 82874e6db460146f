// SPDX-License-Identifier: Apache-2.0
// The base side of a change as the server holds it (lint --base). Before the change, Karmada's resource
// detector had reconciled every template (its informer's initial list: detector.go OnAdd, Reconcile,
// policy.go propagateResource), so a template that carries no claim and that a base policy selects was
// claimed by the ranked winner (LookForMatchedPolicy / LookForMatchedClusterPolicy, ClaimPolicyForObject),
// and the binding named after it carries the same claim (ApplyPolicy). Workloads read from git carry no
// claim metadata: without this, the change would find such a template unclaimed and hand it to a new
// policy, where Karmada keeps it with the base's holder (claims are sticky).
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <vector>

#include "model/binding.hpp"
#include "model/policy.hpp"
#include "model/workload.hpp"
#include "scheduling/claim.hpp"
#include "settings/feature_gates.hpp"

namespace kpw::scheduling {

// pkg/detector/claim.go AddPPClaimMetadata / AddCPPClaimMetadata: the permanent-id label and the name
// (and, for a PropagationPolicy, namespace) annotations; the binding's claim is read again from them.
void add_claim_metadata(model::workload& w, const model::policy_claim& claim);
void add_claim_metadata(model::binding& b, const model::policy_claim& claim);

// Claims every template of `workloads` that has no claim (neither its own claim keys nor `known[i]`, the
// claim of its binding) for the policy that ranks first among `views` (`policies[i]` behind `views[i]`),
// on the template and on the binding named after it (unless another object controls that binding). A
// template the claimed-by label hands to another controller is left alone. A template BuildResourceBinding
// fails for (binding_build_failure with `gates`, the PriorityClasses among `workloads`) is claimed, but its
// binding is not written (ApplyPolicy fails after ClaimPolicyForObject). Returns the indices of the templates claimed, in order.
std::vector<std::size_t> claim_unclaimed(std::span<const policy_view> views,
                                         std::span<const model::policy* const> policies,
                                         std::vector<model::workload>& workloads,
                                         std::vector<model::binding>& bindings,
                                         std::span<const std::optional<model::policy_claim>> known,
                                         const settings::feature_gates& gates);

} // namespace kpw::scheduling
