// SPDX-License-Identifier: Apache-2.0
// Decoding Kubernetes objects into model::workload: replicas and the per-replica request (spec 1.3).
#pragma once

#include <optional>
#include <string_view>

#include "doc/value.hpp"
#include "field/error.hpp"
#include "model/pod_requests.hpp" // pod_request
#include "model/workload.hpp"

namespace kpw::model {

struct workload_decoding {
    workload value;
    field::error_list errors;
};

// Any object with apiVersion, kind and metadata.name. `default_namespace` is used when metadata.namespace
// is absent (kubectl's "default"); it is left empty for a cluster-scoped kind the caller knows of.
// Replicas and requirements as the replica interpreter of the exact apiVersion and kind reads them
// (model/replica_interpreter.hpp): apps/v1 Deployment, StatefulSet, ReplicaSet: spec.replicas (default
// 1); batch/v1 Job: min(parallelism, completions); v1 Pod: 1; the shipped third-party scripts for theirs;
// everything else a non-workload with 0 replicas, whatever spec.replicas says (Karmada has no replica
// hook for it unless the user adds one, which lint cannot see).
// Kinds of Karmada's component interpreter also get `components` (model/components.hpp).
workload_decoding decode_workload(const doc::value& object, std::string_view default_namespace);

// helper.GenerateReplicaRequirements of a pod spec (what kube.accuratePodRequirements returns for its
// template): the request, the node claim, and whether they make ReplicaRequirements at all.
struct pod_requirements {
    replica_request request;
    std::optional<node_claim> claim;
    std::optional<sidecar_gap> sidecars; // not Karmada's: what the members' kube-scheduler counts beyond it
    bool present() const { return !request.empty() || claim.has_value(); } // non-nil requirements
};
pod_requirements decode_pod_requirements(const doc::value& pod_spec, const field::path& at, field::error_list& errors);

// The same of a pod template (`at` its path): its spec's, none when it has no spec.
pod_requirements decode_template_requirements(const doc::value* pod_template, const field::path& at,
                                              field::error_list& errors);

// helper.GenerateNodeClaimByPodSpec: the pod spec's nodeSelector, required node affinity and tolerations,
// nullopt when it has none of them (claims_nodes is false).
std::optional<node_claim> decode_node_claim(const doc::value& pod_spec, const field::path& at, field::error_list& errors);

// A binding's spec.replicaRequirements.nodeClaim (workv1alpha2.NodeClaim: hardNodeAffinity, nodeSelector,
// tolerations); nullopt when absent or null.
std::optional<node_claim> decode_binding_node_claim(const doc::value* node, const field::path& at,
                                                    field::error_list& errors);

// helper.GenerateNodeClaimByPodSpec != nil: nodeSelector, tolerations or required node affinity.
bool claims_nodes(const doc::value& pod_spec);

} // namespace kpw::model
