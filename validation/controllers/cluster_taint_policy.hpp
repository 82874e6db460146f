// SPDX-License-Identifier: Apache-2.0
// The clustertaintpolicy controller: taints added and removed by ClusterTaintPolicy objects (day2-semantics §4.3).
#pragma once

#include <span>

#include "controllers/cluster_taints.hpp"
#include "model/cluster_taint_policy.hpp"
#include "settings/feature_gates.hpp"

namespace kpw::controllers {

// karmada pkg/controllers/taint/clustertaintpolicy_controller.go conditionMatches: an empty list never
// matches; every entry must match (AND); an entry matches only when the cluster has a condition of its
// type, with In needing the status in the list and NotIn outside it; an operator other than In/NotIn
// met on a present condition makes the whole result false.
bool condition_matches(std::span<const model::condition> conditions, std::span<const model::match_condition> matches);

// The controller's Reconcile for one cluster, only with the Failover gate on
// (cmd/controller-manager/app/controllermanager.go startClusterTaintPolicyController; gate off:
// unchanged, no event). Policies sorted by creationTimestamp (stable; absent first); a policy whose
// targetClusters does not match (util.ClusterMatches) is skipped; addOnConditions adds each missing
// taint (key+effect) with timeAdded = now, then removeOnConditions removes the first taint with each
// policy taint's key+effect. The event is "Update Cluster(<name>) with taints(<taints_message>) succeed".
taint_update evaluate_taint_policies(const model::cluster& cluster,
                                     std::span<const model::cluster_taint_policy> policies,
                                     const settings::feature_gates& gates, model::timestamp now);

} // namespace kpw::controllers
