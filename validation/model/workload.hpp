// SPDX-License-Identifier: Apache-2.0
// model::workload: what a ResourceBinding carries about one resource template (karmada 1.3 of the spec).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "base/result.hpp"
#include "model/cluster.hpp"
#include "model/node_claim.hpp"

namespace kpw::model {

// A per-replica request in karmada's integer units: cpu in millicores, every other resource in whole
// units (bytes for memory). Sorted by name; zero values are dropped.
using replica_request = std::vector<std::pair<std::string, std::int64_t>>;

// One pod template of a multi-component workload (binding spec.components[], day2-semantics §6):
// a PyTorchJob's master and worker, a FlinkDeployment's jobmanager and taskmanager, ...
struct component {
    std::string name;
    std::int32_t replicas = 0;
    bool has_requirements = false;
    replica_request request; // per replica, karmada units, as `request` below
    // The request quantities as written (karmada's general estimator converts each by its own
    // notation: binary suffixes to units, everything else to thousandths; day2-semantics §6.3).
    std::vector<std::pair<std::string, std::string>> request_text;
    // The pod template's nodeSelector, required node affinity and tolerations, as kube.accuratePodRequirements
    // copies them into replicaRequirements.nodeClaim; nullopt when it has none (or no pod template).
    // Only karmada-scheduler-estimator reads it (MaxAvailableComponentSets).
    std::optional<node_claim> claim;
    friend bool operator==(const component&, const component&) = default;
};

struct workload {
    std::string api_version;
    std::string kind;
    std::string namespace_; // "" for cluster-scoped kinds
    std::string name;
    std::string uid; // metadata.uid; empty for a manifest from git
    label_map labels;
    label_map annotations; // metadata.annotations: Karmada's claim keys live here (day2-semantics §1.1)
    std::int32_t replicas = 0;
    // ReplicaRequirements != nil: a resource request remains or the pod template claims nodes
    // (nodeSelector, tolerations or required node affinity).
    bool has_requirements = false;
    replica_request request;
    // The pod template's nodeSelector, required node affinity and tolerations (helper.
    // GenerateNodeClaimByPodSpec); nullopt when it has none. Only karmada-scheduler-estimator reads it.
    std::optional<node_claim> claim;
    std::vector<component> components; // only for kinds with a component interpreter (§6.1)
    position where;
};

// karmada IsWorkload: replicas > 0, or per-replica requirements present.
// A binding with components is a workload too (day2-semantics §6.1).
inline bool is_workload(const workload& w) { return w.replicas > 0 || w.has_requirements || !w.components.empty(); }

} // namespace kpw::model
