// SPDX-License-Identifier: Apache-2.0
// Kubernetes' node-level matching as karmada-scheduler-estimator uses it (pkg/estimator/server/nodes/
// filter.go): component-helpers nodeaffinity.RequiredNodeAffinity and the taint/toleration checks.
#pragma once

#include <span>
#include <string>

#include "model/member_state.hpp"
#include "model/node_claim.hpp"

namespace kpw::scheduling {

// nodeaffinity.GetRequiredNodeAffinity(pod).Match(node), parse errors ignored as Karmada ignores them:
// every nodeSelector pair must be a label of the node; then, with a required affinity, some term must
// match. A term without expressions and fields is dropped (so no usable term matches no node); a term
// that does not parse (labels.NewRequirement's checks: label key, value counts per operator, Gt/Lt
// integers, label values; matchFields In/NotIn with one value) never matches; matchFields compare
// metadata.name.
bool node_affinity_matches(const model::node_claim& claim, const model::node& node);

// IsTolerationMatched: an unschedulable node needs a toleration of node.kubernetes.io/unschedulable:
// NoSchedule; then no NoSchedule/NoExecute taint may be untolerated (Lt/Gt never tolerate: comparison
// operators are off in every release). Returns "" when the node passes, else what fails it.
std::string untolerated(std::span<const model::toleration> tolerations, const model::node& node);

} // namespace kpw::scheduling
