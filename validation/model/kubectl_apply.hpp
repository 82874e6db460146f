// SPDX-License-Identifier: Apache-2.0
// What `kubectl apply` of a template leaves on the server, in the fields a placement dry run reads.
// GitOps repositories keep workloads beside their policies, and `plan` applies both (issue 36).
#pragma once

#include "model/workload.hpp"

namespace kpw::model {

// kubectl's record of what it last applied (corev1.LastAppliedConfigAnnotation).
inline constexpr std::string_view last_applied_annotation = "kubectl.kubernetes.io/last-applied-configuration";

// A workload as a manifest states it, with what the decoded form cannot tell.
struct workload_manifest {
    workload decoded;
    bool sets_replicas = false; // the manifest writes spec.replicas (decode_workload defaults it to 1 otherwise)
};

// The live template `live` after `kubectl apply` of `manifest` (nullptr live: created as written). kubectl
// computes a three-way patch from the last-applied configuration (the live object's annotation), the
// manifest and the live object (k8s.io/kubectl/pkg/cmd/apply/patcher.go; apimachinery strategicpatch
// CreateThreeWayMergePatch):
//  - labels and annotations: the live ones, less the keys the last-applied configuration had and the
//    manifest dropped, with the manifest's set over them, so the claim metadata Karmada wrote stays (nobody
//    applies it); the last-applied annotation becomes the manifest;
//  - spec.replicas: the manifest's; a manifest without it keeps the live count (an HPA or `kubectl scale`
//    owns it) unless the last-applied configuration had it: the patch then deletes it and the API server
//    defaults it (1, what the manifest's decode holds);
//  - the pod template's requests and node claims, and the components: the manifest's (a manifest states
//    its containers whole; strategic merge by container name then gives the manifest's);
//  - identity and uid: the live object's.
workload kubectl_applied(const workload* live, const workload_manifest& manifest);

} // namespace kpw::model
