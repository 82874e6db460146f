// SPDX-License-Identifier: Apache-2.0
// Karmada's replica interpreters by kind: the native ones by exact apiVersion, the shipped third-party
// replicaResource scripts, and no interpreter at all (0 replicas).
#include <doctest/doctest.h>

#include <string>

#include "doc/load.hpp"
#include "model/replica_interpreter.hpp"
#include "model/workload_decode.hpp"
#include "scheduling/component_sets.hpp"

using namespace kpw;

namespace {

model::workload_decoding decode(const std::string& text)
{
    auto docs = doc::load_yaml(text);
    REQUIRE(docs.ok());
    return model::decode_workload(docs->front().root, "default");
}

std::int64_t request(const model::workload& w, std::string_view name)
{
    for (const auto& [k, v] : w.request)
        if (k == name)
            return v;
    return -1;
}

std::string object(std::string_view api_version, std::string_view kind, std::string_view spec)
{
    return "apiVersion: " + std::string(api_version) + "\nkind: " + std::string(kind) + "\nmetadata: {name: x}\n" +
           std::string(spec);
}

const std::string pod_cpu = "{spec: {containers: [{name: c, resources: {requests: {cpu: 500m}}}]}}";

} // namespace

TEST_CASE("the native interpreter matches the exact apiVersion: an apps/v1beta2 Deployment has no replica hook")
{
    CHECK(model::replica_interpreter_of("apps/v1", "Deployment") == model::replica_interpreter::native_template);
    CHECK(model::replica_interpreter_of("apps/v1beta2", "Deployment") == model::replica_interpreter::none);
    CHECK(model::replica_interpreter_of("batch/v1", "Job") == model::replica_interpreter::native_job);
    CHECK(model::replica_interpreter_of("example.com/v1", "Job") == model::replica_interpreter::none);
    CHECK(model::replica_interpreter_of("apps/v1", "DaemonSet") == model::replica_interpreter::none);
    auto job = decode(object("example.com/v1", "Job", "spec: {parallelism: 4, template: " + pod_cpu + "}\n"));
    CHECK(job.errors.empty());
    CHECK(job.value.replicas == 0);
    CHECK_FALSE(job.value.has_requirements);
}

TEST_CASE("Kruise CloneSet and Advanced StatefulSet: spec.replicas must be a Lua number, the template a table")
{
    auto ok = decode(object("apps.kruise.io/v1beta1", "StatefulSet", "spec: {replicas: 3, template: " + pod_cpu + "}\n"));
    CHECK(ok.errors.empty());
    CHECK(ok.value.replicas == 3);
    CHECK(request(ok.value, "cpu") == 500);
    CHECK(ok.value.has_requirements);
    // ConvertLuaResultToInt: nil and strings are not numbers; the detector builds no binding.
    // Not an error of the file: the template is stored, the detector fails on it (replicas_failure).
    auto missing = decode(object("apps.kruise.io/v1alpha1", "CloneSet", "spec: {template: " + pod_cpu + "}\n"));
    CHECK(missing.errors.empty());
    REQUIRE(missing.value.replicas_failure.has_value());
    CHECK(missing.value.replicas_failure->message.starts_with("spec.replicas: Required value"));
    CHECK(missing.value.replicas_failure->where.line == 4);
    auto text = decode(object("apps.kruise.io/v1alpha1", "CloneSet", "spec: {replicas: \"3\", template: " + pod_cpu + "}\n"));
    REQUIRE(text.value.replicas_failure.has_value());
    CHECK(text.value.replicas_failure->message.starts_with("spec.replicas: Invalid value"));
    auto no_template = decode(object("apps.kruise.io/v1alpha1", "CloneSet", "spec: {replicas: 3}\n"));
    REQUIRE(no_template.value.replicas_failure.has_value());
    CHECK(no_template.value.replicas_failure->message.starts_with("spec.template: Required value"));
    CHECK_FALSE(ok.value.replicas_failure.has_value());
    // Go's int32(float64): truncation.
    CHECK(decode(object("apps.kruise.io/v1alpha1", "CloneSet", "spec: {replicas: 2.9, template: {}}\n")).value.replicas == 2);
}

TEST_CASE("a UnitedDeployment's spec.template holds no pod spec of its own: replicas without requirements")
{
    auto d = decode(object("apps.kruise.io/v1alpha1", "UnitedDeployment",
                           "spec: {replicas: 5, template: {cloneSetTemplate: {spec: {template: " + pod_cpu + "}}}}\n"));
    CHECK(d.errors.empty());
    CHECK(d.value.replicas == 5);
    CHECK_FALSE(d.value.has_requirements);
    CHECK(d.value.request.empty());
}

TEST_CASE("BroadcastJob and Workflow: parallelism or 1; a Workflow's requirements are its node claim only")
{
    CHECK(decode(object("apps.kruise.io/v1alpha1", "BroadcastJob", "spec: {template: " + pod_cpu + "}\n")).value.replicas == 1);
    CHECK(decode(object("apps.kruise.io/v1alpha1", "BroadcastJob", "spec: {parallelism: 4, template: " + pod_cpu + "}\n"))
              .value.replicas == 4);
    auto wf = decode(object("argoproj.io/v1alpha1", "Workflow", "spec: {parallelism: 3, nodeSelector: {disk: ssd}}\n"));
    CHECK(wf.errors.empty());
    CHECK(wf.value.replicas == 3);
    CHECK(wf.value.has_requirements);
    CHECK(wf.value.request.empty());
    REQUIRE(wf.value.claim.has_value());
    auto bare = decode(object("argoproj.io/v1alpha1", "Workflow", "spec: {entrypoint: main}\n"));
    CHECK(bare.value.replicas == 1);
    CHECK_FALSE(bare.value.has_requirements);
    // `obj.spec.parallelism` of a Workflow without spec indexes nil: the script fails.
    CHECK(decode(object("argoproj.io/v1alpha1", "Workflow", "")).value.replicas_failure.has_value());
}

TEST_CASE("Notebook counts 1, SidecarSet 0")
{
    auto nb = decode(object("kubeflow.org/v1", "Notebook", "spec: {template: " + pod_cpu + "}\n"));
    CHECK(nb.value.replicas == 1);
    CHECK(request(nb.value, "cpu") == 500);
    auto sc = decode(object("apps.kruise.io/v1alpha1", "SidecarSet", "spec: {containers: [{name: p}]}\n"));
    CHECK(sc.errors.empty());
    CHECK(sc.value.replicas == 0);
    CHECK_FALSE(sc.value.has_requirements);
}

TEST_CASE("RayService: 1 head plus the workers; cpu and memory the largest of the templates, on v1.17 and later")
{
    auto d = decode(object("ray.io/v1", "RayService", R"(spec:
  rayClusterConfig:
    headGroupSpec: {template: {spec: {containers: [{name: h, resources: {requests: {cpu: "1", memory: 1Gi, nvidia.com/gpu: "1"}}}]}}}
    workerGroupSpecs:
    - {replicas: 2, template: {spec: {containers: [{name: w, resources: {requests: {cpu: "3", memory: 512Mi}}}]}}}
    - {replicas: "1"}
)"));
    CHECK(d.errors.empty());
    CHECK(d.value.replicas == 4);
    CHECK(request(d.value, "cpu") == 3000);
    CHECK(request(d.value, "memory") == 1073741824);
    CHECK(request(d.value, "nvidia.com/gpu") == 1); // the head's own, never raised
    settings::feature_gates v116(settings::karmada_release::v1_16_0);
    settings::feature_gates v117(settings::karmada_release::v1_17_1);
    CHECK(scheduling::scheduled_form(d.value, v117).replicas == 4);
    auto before = scheduling::scheduled_form(d.value, v116);
    CHECK(before.replicas == 0);
    CHECK_FALSE(before.has_requirements);
    // A head without requests or node claims: `requires` is nil, so the workers raise nothing.
    auto bare = decode(object("ray.io/v1", "RayService", R"(spec:
  rayClusterConfig:
    headGroupSpec: {template: {spec: {containers: [{name: h}]}}}
    workerGroupSpecs: [{replicas: 2, template: {spec: {containers: [{name: w, resources: {requests: {cpu: "3"}}}]}}}]
)"));
    CHECK(bare.value.replicas == 3);
    CHECK_FALSE(bare.value.has_requirements);
    CHECK(bare.value.request.empty());
    // No head template: `return 0, nil`.
    CHECK(decode(object("ray.io/v1", "RayService", "spec: {rayClusterConfig: {headGroupSpec: {}}}\n")).value.replicas == 0);
}

TEST_CASE("which failure the detector meets depends on the gate: GetComponents with it, GetReplicas without")
{
    // A FlinkDeployment whose memory Karmada's getResourceQuantity cannot read fails both scripts.
    auto d = decode(object("flink.apache.org/v1beta1", "FlinkDeployment",
                           "spec: {jobManager: {resource: {memory: 2g, cpu: 1}}, taskManager: {resource: {memory: 1Gi, cpu: 1}}}\n"));
    REQUIRE(d.value.components_failure.has_value());
    REQUIRE(d.value.replicas_failure.has_value());
    settings::feature_gates off;
    auto on = settings::parse_feature_gates("MultiplePodTemplatesScheduling=true");
    REQUIRE(on.ok());
    CHECK(scheduling::detector_failure(d.value, off) == &*d.value.replicas_failure);
    CHECK(scheduling::detector_failure(d.value, *on) == &*d.value.components_failure);
    // A PyTorchJob has no replicaResource: with the gate off its component error is never met.
    auto job = decode(object("kubeflow.org/v1", "PyTorchJob", "spec: {pytorchReplicaSpecs: {Master: {replicas: 1.5}}}\n"));
    REQUIRE(job.value.components_failure.has_value());
    CHECK(scheduling::detector_failure(job.value, off) == nullptr);
    CHECK(scheduling::detector_failure(job.value, *on) != nullptr);
}
