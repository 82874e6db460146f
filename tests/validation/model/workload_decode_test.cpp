// SPDX-License-Identifier: Apache-2.0
// Workload decoding: replicas per kind (Karmada's replica interpreters) and the per-replica request (spec 1.3).
#include <doctest/doctest.h>

#include <initializer_list>
#include <string>
#include <utility>

#include "doc/load.hpp"
#include "model/replica_interpreter.hpp"
#include "model/resource_scope.hpp"
#include "model/workload_decode.hpp"
#include "scheduling/component_sets.hpp"

using namespace kpw;

namespace {

model::workload_decoding decode(std::string_view text)
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

TEST_CASE("annotations are decoded beside the labels, and a non-string annotation is an error")
{
    auto d = decode(R"(apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  annotations:
    propagationpolicy.karmada.io/name: web-pp
    propagationpolicy.karmada.io/namespace: shop
spec: {replicas: 1}
)");
    CHECK(d.errors.empty());
    CHECK(d.value.annotations.at("propagationpolicy.karmada.io/name") == "web-pp");
    CHECK(d.value.annotations.size() == 2);
    auto bad = decode(R"(apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  annotations: [not, a, map]
spec: {replicas: 1}
)");
    CHECK_FALSE(bad.errors.empty());
}

TEST_CASE("a Deployment: replicas, metadata and summed container requests")
{
    auto d = decode(R"(apiVersion: apps/v1
kind: Deployment
metadata:
  name: checkout
  namespace: production
  labels: {app: checkout}
spec:
  replicas: 10
  template:
    spec:
      containers:
      - name: app
        resources:
          requests: {cpu: 250m, memory: 512Mi}
      - name: sidecar
        resources:
          requests: {cpu: "0.1"}
          limits: {memory: 64Mi, nvidia.com/gpu: "1"}
)");
    CHECK(d.errors.empty());
    const auto& w = d.value;
    CHECK(w.api_version == "apps/v1");
    CHECK(w.namespace_ == "production");
    CHECK(w.labels.at("app") == "checkout");
    CHECK(w.replicas == 10);
    CHECK(w.has_requirements);
    CHECK(request(w, "cpu") == 350);
    CHECK(request(w, "memory") == (512LL << 20) + (64LL << 20)); // the limit stands in for the request
    CHECK(request(w, "nvidia.com/gpu") == 1);
    CHECK(model::is_workload(w));
}

TEST_CASE("replicas default to 1 and the namespace to the default one")
{
    auto d = decode("apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: db}\nspec:\n  template:\n"
                    "    spec:\n      containers: [{name: db}]\n");
    CHECK(d.value.replicas == 1);
    CHECK(d.value.namespace_ == "default");
    CHECK_FALSE(d.value.has_requirements);
    CHECK(model::is_workload(d.value));
}

TEST_CASE("a cluster-scoped kind has no namespace, by group and kind, whatever the manifest says")
{
    CHECK(decode("apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata: {name: r}\n").value.namespace_.empty());
    CHECK(decode("apiVersion: v1\nkind: Namespace\nmetadata: {name: shop, namespace: x}\n").value.namespace_.empty());
    CHECK(decode("apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: high}\nvalue: 9\n")
              .value.namespace_.empty());
    // The same kind in another group is not the built-in one: namespaced, as a CRD of one's own usually is.
    CHECK(decode("apiVersion: example.com/v1\nkind: ClusterRole\nmetadata: {name: r}\n").value.namespace_ == "default");
    CHECK(model::cluster_scoped("storage.k8s.io/v1", "StorageClass"));
    CHECK_FALSE(model::cluster_scoped("v1", "ConfigMap"));
}

TEST_CASE("a Deployment without spec has kube-apiserver's default of 1 replica, a Job too")
{
    // Conformance cases reschedule-scale-up-not-enough and spread-constraint-empty-selection: the template
    // the detector reads has spec.replicas 1 after the API server's defaults.
    CHECK(decode("apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\n").value.replicas == 1);
    CHECK(decode("apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n").value.replicas == 1);
    CHECK(decode("apiVersion: batch/v1\nkind: Job\nmetadata: {name: j}\n").value.replicas == 1);
    CHECK(decode("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n").value.replicas == 0);
}

TEST_CASE("replicas written as a whole float (09, 1e1, 3.0) are that integer, as kubectl's reader gives Go")
{
    // go-yaml v2 resolves `09` (no octal) to the float 9, which kubectl writes as the JSON number 9.
    for (const auto& c : std::initializer_list<std::pair<const char*, std::int64_t>>{{"09", 9}, {"1e1", 10}, {"3.0", 3}}) {
        const char* text = c.first; // no structured binding: clang 14 cannot capture one in CAPTURE
        const std::int64_t want = c.second;
        CAPTURE(text);
        auto d = decode(std::string("apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: w}\nspec:\n  replicas: ") +
                        text + "\n  template: {spec: {containers: [{name: c}]}}\n");
        CHECK(d.errors.empty());
        CHECK(d.value.replicas == want);
    }
    auto half = decode("apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: w}\nspec:\n  replicas: 2.5\n"
                       "  template: {spec: {containers: [{name: c}]}}\n");
    REQUIRE(half.errors.size() == 1);
    CHECK(half.errors[0].field == "spec.replicas");
}

TEST_CASE("init containers raise the per-resource maximum; overhead is added; cpu rounds up per container")
{
    auto d = decode(R"(apiVersion: apps/v1
kind: ReplicaSet
metadata: {name: rs}
spec:
  replicas: 2
  template:
    spec:
      overhead: {cpu: 10m}
      initContainers:
      - name: migrate
        resources: {requests: {cpu: "2", memory: 100Mi}}
      containers:
      - name: a
        resources: {requests: {cpu: 0.0005, memory: 1Gi}}
      - name: b
        resources: {requests: {cpu: 0.0005}}
)");
    CHECK(d.errors.empty());
    CHECK(request(d.value, "cpu") == 2010);       // max(1 + 1, 2000) + 10
    CHECK(request(d.value, "memory") == 1LL << 30); // max(1Gi, 100Mi)
}

TEST_CASE("a Job counts min(parallelism, completions) with the API server's defaults")
{
    CHECK(decode("apiVersion: batch/v1\nkind: Job\nmetadata: {name: j}\nspec:\n  parallelism: 5\n  completions: 3\n"
                 "  template: {spec: {containers: [{name: c}]}}\n").value.replicas == 3);
    CHECK(decode("apiVersion: batch/v1\nkind: Job\nmetadata: {name: j}\nspec:\n  parallelism: 4\n"
                 "  template: {spec: {containers: [{name: c}]}}\n").value.replicas == 4);
    CHECK(decode("apiVersion: batch/v1\nkind: Job\nmetadata: {name: j}\nspec:\n"
                 "  template: {spec: {containers: [{name: c}]}}\n").value.replicas == 1);
}

TEST_CASE("a Pod counts 1; a kind with a shipped replica script counts what the script reads, any other kind 0")
{
    CHECK(decode("apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec: {containers: [{name: c}]}\n").value.replicas == 1);
    auto custom = decode("apiVersion: apps.kruise.io/v1alpha1\nkind: CloneSet\nmetadata: {name: c}\nspec:\n"
                         "  replicas: 7\n  template: {spec: {containers: [{name: c, resources: {requests: {cpu: 1}}}]}}\n");
    CHECK(custom.value.replicas == 7);
    CHECK(request(custom.value, "cpu") == 1000);
    // An Argo Rollout has spec.replicas and a template, but no interpreter of Karmada's reads them.
    auto rollout = decode("apiVersion: argoproj.io/v1alpha1\nkind: Rollout\nmetadata: {name: r}\nspec:\n"
                          "  replicas: 7\n  template: {spec: {containers: [{name: c, resources: {requests: {cpu: 1}}}]}}\n");
    CHECK(rollout.errors.empty());
    CHECK(rollout.value.replicas == 0);
    CHECK_FALSE(model::is_workload(rollout.value));
}

TEST_CASE("non-workloads have 0 replicas and no requirements")
{
    auto d = decode("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cfg, namespace: shop}\ndata: {a: b}\n");
    CHECK(d.errors.empty());
    CHECK(d.value.replicas == 0);
    CHECK_FALSE(model::is_workload(d.value));
    auto svc = decode("apiVersion: v1\nkind: Service\nmetadata: {name: s}\nspec: {ports: [{port: 80}]}\n");
    CHECK_FALSE(model::is_workload(svc.value));
}

TEST_CASE("a node claim alone makes replica requirements; zero requests are dropped")
{
    auto d = decode("apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: w}\nspec:\n  replicas: 0\n  template:\n"
                    "    spec:\n      nodeSelector: {disk: ssd}\n      containers: [{name: c, resources: {requests: {cpu: 0}}}]\n");
    CHECK(d.value.replicas == 0);
    CHECK(d.value.request.empty());
    CHECK(d.value.has_requirements);
    CHECK(model::is_workload(d.value));
}

TEST_CASE("finding 11: requests are summed in Go int64 and only what util.Resource keeps is a requirement")
{
    // The reschedule fuzzer found (2^63-1)m + 1m overflowing: Go's Resource.Add wraps to -2^63, and
    // ResourceList() keeps values above 0 only, so Karmada sees no cpu request (and no requirements).
    auto wrapped = decode("apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: w}\nspec:\n  template:\n    spec:\n"
                          "      containers:\n      - {name: a, resources: {requests: {cpu: 9223372036854775807m}}}\n"
                          "      - {name: b, resources: {requests: {cpu: 1m}}}\n");
    CHECK(wrapped.errors.empty());
    CHECK(request(wrapped.value, "cpu") == -1);
    CHECK_FALSE(wrapped.value.has_requirements);
    // Resource.Add drops names that are neither cpu, memory, ephemeral-storage, pods nor scalar (an
    // extended resource has a domain), and negative amounts do not survive ResourceList().
    auto names = decode("apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: w}\nspec:\n  template:\n    spec:\n"
                        "      containers: [{name: a, resources: {requests: {foo: 1, example.com/fpga: 2, memory: -1Gi,"
                        " hugepages-2Mi: 4Mi}}}]\n");
    CHECK(request(names.value, "foo") == -1);
    CHECK(request(names.value, "memory") == -1);
    CHECK(request(names.value, "example.com/fpga") == 2);
    CHECK(request(names.value, "hugepages-2Mi") == 4LL << 20);
    CHECK(names.value.request.size() == 2);
}

TEST_CASE("metadata.uid is read; a bad replicas type is an error with its path")
{
    auto d = decode("apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: w, uid: abc}\nspec:\n  replicas: \"3\"\n");
    CHECK(d.value.uid == "abc");
    REQUIRE(d.errors.size() == 1);
    CHECK(d.errors[0].field == "spec.replicas");
    CHECK(d.value.replicas == 1);
}

// Karmada's replica interpreters by kind: the native ones by exact apiVersion, the shipped third-party
// replicaResource scripts, and no interpreter at all (0 replicas).
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
    // A worker count Lua cannot add fails the script on v1.17 and later; v1.16 never runs it.
    auto bad = decode(object("ray.io/v1", "RayService", R"(spec:
  rayClusterConfig:
    headGroupSpec: {template: {spec: {containers: [{name: h}]}}}
    workerGroupSpecs: [{replicas: many}]
)"));
    REQUIRE(bad.value.replicas_failure.has_value());
    CHECK(scheduling::detector_failure(bad.value, v117) != nullptr);
    CHECK(scheduling::detector_failure(bad.value, v116) == nullptr);
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

TEST_CASE("sidecars: Karmada counts the init containers' maximum, kube-scheduler adds each sidecar")
{
    const auto deployment = [](std::string_view inits) {
        return decode(object("apps/v1", "Deployment",
                             "spec:\n  replicas: 2\n  template:\n    spec:\n"
                             "      containers: [{name: app, resources: {requests: {cpu: '1', memory: 1Gi}}}]\n"
                             "      initContainers: " + std::string(inits) + "\n"));
    };
    SUBCASE("one sidecar: Karmada 1 cpu, kube-scheduler 1.5; memory alike")
    {
        auto d = deployment("[{name: proxy, restartPolicy: Always, resources: {requests: {cpu: 500m, memory: 512Mi}}}]");
        REQUIRE(d.errors.empty());
        CHECK(request(d.value, "cpu") == 1000);
        REQUIRE(d.value.sidecars);
        CHECK(d.value.sidecars->sidecars == std::vector<std::string>{"proxy"});
        CHECK(d.value.sidecars->where.line == 9); // the initContainers line: the flow mapping holds restartPolicy
        CHECK(d.value.sidecars->kube_scheduler ==
              model::replica_request{{"cpu", 1500}, {"memory", 1536LL * 1024 * 1024}});
        CHECK(model::describe_request(d.value.sidecars->karmada) == "cpu 1, memory 1Gi");
        CHECK(model::describe_request(d.value.sidecars->kube_scheduler) == "cpu 1500m, memory 1536Mi");
    }
    SUBCASE("an init container after a sidecar runs beside it: max(app + proxy, proxy + migrate)")
    {
        // kube-scheduler: containers 1 + 0.5 = 1.5 cpu; init peak 0.5 + 2 = 2.5 cpu. Karmada: max(1, 0.5, 2) = 2.
        auto d = deployment("[{name: proxy, restartPolicy: Always, resources: {requests: {cpu: 500m}}},"
                            " {name: migrate, resources: {limits: {cpu: '2'}}}]");
        REQUIRE(d.value.sidecars);
        CHECK(request(d.value, "cpu") == 2000);
        CHECK(d.value.sidecars->kube_scheduler == model::replica_request{{"cpu", 2500}, {"memory", 1LL << 30}});
    }
    SUBCASE("an init container before the sidecar does not run beside it: here both count 3 cpu, no gap")
    {
        // kube-scheduler: max(app 1 + proxy 0.1, migrate 3, proxy 0.1) = 3 cpu; Karmada: max(1, 3, 0.1) = 3.
        auto d = deployment("[{name: migrate, resources: {requests: {cpu: '3'}}},"
                            " {name: proxy, restartPolicy: Always, resources: {requests: {cpu: 100m}}}]");
        CHECK(request(d.value, "cpu") == 3000);
        CHECK_FALSE(d.value.sidecars);
    }
    SUBCASE("no sidecar, or a sidecar without requests: no gap")
    {
        CHECK_FALSE(deployment("[{name: migrate, resources: {requests: {cpu: '3'}}}]").value.sidecars);
        CHECK_FALSE(deployment("[{name: proxy, restartPolicy: Always}]").value.sidecars);
        CHECK_FALSE(deployment("[{name: proxy, restartPolicy: OnFailure, resources: {requests: {cpu: '1'}}}]")
                        .value.sidecars);
    }
}
