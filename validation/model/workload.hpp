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

// Which of Karmada's replica interpreters reads a template's replicas and requirements
// (model/replica_interpreter.hpp says which kinds each covers and where Karmada defines it).
enum class replica_interpreter : std::uint8_t {
    none,            // no replicaResource: replicas 0, no requirements
    native_pod,      // v1 Pod: 1
    native_job,      // batch/v1 Job: min(parallelism, completions)
    native_template, // apps/v1 Deployment, ReplicaSet, StatefulSet: spec.replicas
    spec_replicas,   // Kruise CloneSet, Advanced StatefulSet, UnitedDeployment: spec.replicas, spec.template
    parallelism,     // Kruise BroadcastJob: spec.parallelism or 1, spec.template
    workflow,        // Argo Workflow: spec.parallelism or 1; spec.affinity, nodeSelector, tolerations
    notebook,        // Kubeflow Notebook: 1, spec.template
    zero,            // Kruise SidecarSet: 0, no requirements
    flink,           // FlinkDeployment: jobmanagers + taskmanagers
    ray_service,     // RayService (Karmada v1.17.0+): head + worker groups, the largest cpu and memory
};

// Why Karmada's resource interpreter fails on a template (its Lua script errs, or the binding it would
// write is invalid): the detector then builds no binding for it and records a GetReplicasFailed or
// GetComponentsFailed event (pkg/detector/detector.go applyReplicaInterpretation). The template itself is
// stored: this is not an error of the file.
struct interpretation_failure {
    std::string message; // "spec.replicas: Required value: Karmada's GetReplicas fails: ..."
    position where;      // the field to edit, in the template's file
    friend bool operator==(const interpretation_failure&, const interpretation_failure&) = default;
};

// A pod spec whose init containers include sidecars (restartPolicy: Always): Karmada's AddPodRequest
// (pkg/util/resource.go) takes them into the init containers' maximum like any other, while the member's
// kube-scheduler (k8s.io/component-helpers resource.PodRequests) adds each sidecar to the containers, and
// to every init container started after it. Karmada then asks less per replica than each pod needs.
struct sidecar_gap {
    std::vector<std::string> sidecars; // their names, in spec order
    position where;                    // the first sidecar's restartPolicy
    replica_request karmada;           // pod_request
    replica_request kube_scheduler;    // PodRequests, in the same units and resources
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
    std::optional<sidecar_gap> sidecars; // not Karmada's: what the members' kube-scheduler counts beyond `request`
    std::vector<component> components; // only for kinds with a component interpreter (§6.1)
    replica_interpreter interpreter = replica_interpreter::none; // what read replicas and requirements
    // GetReplicas' and GetComponents' failures; which one the detector meets depends on the
    // MultiplePodTemplatesScheduling gate (scheduling::detector_failure).
    std::optional<interpretation_failure> replicas_failure;
    std::optional<interpretation_failure> components_failure;
    position where;
    std::string source; // the file it was read from ("" when read from the API server): where `where` points
};

// karmada IsWorkload: replicas > 0, or per-replica requirements present.
// A binding with components is a workload too (day2-semantics §6.1).
inline bool is_workload(const workload& w) { return w.replicas > 0 || w.has_requirements || !w.components.empty(); }

} // namespace kpw::model
