// SPDX-License-Identifier: Apache-2.0
// Workload decoding: replicas per kind and the per-replica request (spec 1.3).
#include <doctest/doctest.h>

#include <initializer_list>
#include <string>
#include <utility>

#include "doc/load.hpp"
#include "model/workload_decode.hpp"

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
