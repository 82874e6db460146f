// SPDX-License-Identifier: Apache-2.0
// model::node_claim: the node constraints of a pod template that Karmada hands to
// karmada-scheduler-estimator (workv1alpha2.NodeClaim, built by helper.GenerateNodeClaimByPodSpec).
#pragma once

#include <optional>
#include <vector>

#include "model/cluster.hpp"
#include "model/placement.hpp"

namespace kpw::model {

// corev1.NodeSelectorTerm: matchExpressions on node labels AND matchFields (metadata.name only).
struct node_selector_term {
    std::vector<selector_requirement> match_expressions;
    std::vector<selector_requirement> match_fields;
    friend bool operator==(const node_selector_term&, const node_selector_term&) = default;
};

// nodeSelector, the required node affinity and the tolerations of the pod template; the general
// estimator ignores all three, the accurate one filters nodes with them.
struct node_claim {
    label_map node_selector;
    // requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms (ORed); nullopt when the template
    // has no required node affinity (every node passes this part).
    std::optional<std::vector<node_selector_term>> hard_node_affinity;
    std::vector<toleration> tolerations;
    friend bool operator==(const node_claim&, const node_claim&) = default;
};

} // namespace kpw::model
