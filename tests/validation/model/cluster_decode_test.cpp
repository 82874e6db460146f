// SPDX-License-Identifier: Apache-2.0
// Cluster decoding from `kubectl get clusters -o yaml` output.
#include <doctest/doctest.h>

#include "doc/load.hpp"
#include "model/cluster_decode.hpp"

using namespace kpw;

namespace {

constexpr const char* kubectl_cluster = R"(apiVersion: cluster.karmada.io/v1alpha1
kind: Cluster
metadata:
  name: idc-east-1
  labels:
    location: idc
    provider: onprem
  uid: 5b3e0a9e-0000-4000-8000-000000000001
spec:
  apiEndpoint: https://10.0.0.1:6443
  id: 7d9c2f4e
  provider: onprem
  region: cn-east
  zone: cn-east-1a
  syncMode: Push
  taints:
  - key: dedicated
    value: checkout
    effect: NoSchedule
  resourceModels:
  - grade: 0
    ranges:
    - name: cpu
      min: "0"
      max: "1"
    - name: memory
      min: "0"
      max: 4Gi
status:
  apiEnablements:
  - groupVersion: apps/v1
    resources:
    - kind: Deployment
      name: deployments
    - kind: StatefulSet
      name: statefulsets
  - groupVersion: v1
    resources:
    - kind: ConfigMap
      name: configmaps
  conditions:
  - type: Ready
    status: "True"
    reason: ClusterReady
  - type: CompleteAPIEnablements
    status: "True"
  kubernetesVersion: v1.29.2
  resourceSummary:
    allocatable:
      cpu: "64"
      memory: 256Gi
      pods: "440"
    allocated:
      cpu: 40250m
      memory: "137438953472"
      pods: "212"
    allocating:
      cpu: 500m
    allocatableModelings:
    - grade: 0
      count: 1
)";

model::cluster_decoding decode(std::string_view text)
{
    auto docs = doc::load_yaml(text);
    REQUIRE(docs.ok());
    REQUIRE(docs->size() == 1);
    return model::decode_cluster(docs->front().root);
}

} // namespace

TEST_CASE("a Cluster as kubectl prints it decodes every field the scheduler reads")
{
    auto d = decode(kubectl_cluster);
    CHECK(d.errors.empty());
    const auto& c = d.value;
    CHECK(c.name == "idc-east-1");
    CHECK(c.labels.at("location") == "idc");
    CHECK(c.provider == "onprem");
    CHECK(c.region == "cn-east");
    CHECK(c.zones == std::vector<std::string>{"cn-east-1a"}); // spec.zone migrated
    REQUIRE(c.taints.size() == 1);
    CHECK(c.taints[0] == model::taint{"dedicated", "checkout", "NoSchedule"});
    REQUIRE(c.resource_models.size() == 1);
    CHECK(c.resource_models[0].ranges[1].max.value_ceil() == 4LL << 30);
    REQUIRE(c.api_enablements.size() == 2);
    CHECK(c.api_enablements[0].kinds == std::vector<std::string>{"Deployment", "StatefulSet"});
    CHECK(c.complete_api_enablements);
    CHECK(c.ready == "True");
    REQUIRE(c.resource_summary);
    CHECK(c.resource_summary->allocatable.at("cpu").milli_ceil() == 64000);
    CHECK(c.resource_summary->allocated.at("memory").value_ceil() == 137438953472);
    CHECK(c.resource_summary->allocating.at("cpu").milli_ceil() == 500);
    CHECK(c.resource_summary->allocatable_modelings.size() == 1);
    CHECK(c.where.line == 1);
    CHECK(model::is_cluster_object(*doc::load_yaml(kubectl_cluster)->front().root.find("metadata")) == false);
}

TEST_CASE("spec.zones wins over the deprecated spec.zone; deletionTimestamp marks a deleting cluster")
{
    auto d = decode("apiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata:\n  name: m\n"
                    "  deletionTimestamp: \"2026-01-01T00:00:00Z\"\nspec:\n  zone: a\n  zones: [b, c]\n");
    CHECK(d.errors.empty());
    CHECK(d.value.zones == std::vector<std::string>{"b", "c"});
    CHECK(d.value.deleting);
    CHECK_FALSE(d.value.resource_summary);
}

TEST_CASE("type errors and bad quantities are reported with their paths")
{
    auto d = decode("apiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata:\n  name: m\n"
                    "spec:\n  region: [x]\n  taints: {}\nstatus:\n  resourceSummary:\n    allocatable:\n"
                    "      cpu: lots\n      pods: 110\n");
    REQUIRE(d.errors.size() == 3);
    CHECK(d.errors[0].field == "spec.region");
    CHECK(d.errors[1].field == "spec.taints");
    CHECK(d.errors[2].field == "status.resourceSummary.allocatable[cpu]");
    CHECK(d.value.resource_summary->allocatable.at("pods").value_ceil() == 110); // integer nodes parse
}

TEST_CASE("a field lint does not read must still fit Karmada's Go type (the clientsets decode it all)")
{
    auto d = decode("apiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata:\n  name: m\n"
                    "spec:\n  syncMode: Push\n  id: 7\n");
    REQUIRE(d.errors.size() == 1);
    CHECK(d.errors[0].field == "spec.id");
    CHECK(d.errors[0].str() == "spec.id: Internal error: Karmada's clientsets cannot decode this Cluster: json: cannot "
                               "unmarshal number into Go struct field ClusterSpec.spec.id of type string");
    // lint's own error comes alone: it says more about a field lint reads.
    CHECK(decode("apiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata:\n  name: m\n"
                 "spec:\n  region: [x]\n  id: 7\n")
              .errors.size() == 1);
    CHECK(decode("apiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata:\n  name: m\n"
                 "spec:\n  syncMode: Push\n  id: abc\n  impersonatorSecretRef: {namespace: a, name: b}\n")
              .errors.empty());
}

TEST_CASE("labels and resource lists that are not objects are type errors and read as empty")
{
    auto d = decode("apiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata:\n  name: m\n"
                    "  labels: [a, b]\nstatus:\n  resourceSummary:\n    allocatable: 64\n"
                    "    allocated:\n      cpu: 1\n");
    REQUIRE(d.errors.size() == 2);
    CHECK(d.errors[0].field == "metadata.labels");
    CHECK(d.errors[0].detail == "expected object");
    CHECK(d.errors[1].field == "status.resourceSummary.allocatable");
    CHECK(d.value.labels.empty());
    CHECK(d.value.resource_summary->allocatable.empty());
    CHECK(d.value.resource_summary->allocated.at("cpu").milli_ceil() == 1000); // the next list still reads
}

TEST_CASE("a cluster without a name is an error; is_cluster_object checks group and kind")
{
    auto docs = doc::load_yaml("apiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata: {}\n");
    REQUIRE(docs.ok());
    const auto& root = docs->front().root;
    CHECK(model::is_cluster_object(root));
    auto d = model::decode_cluster(root);
    REQUIRE(d.errors.size() == 1);
    CHECK(d.errors[0].field == "metadata.name");
    auto other = doc::load_yaml("apiVersion: apps/v1\nkind: Cluster\n");
    CHECK_FALSE(model::is_cluster_object(other->front().root));
}

TEST_CASE("taints keep timeAdded, conditions keep type, status, reason and message; bad times are errors")
{
    auto docs = doc::load_yaml("apiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata: {name: m1}\n"
                               "spec:\n  taints:\n  - {key: a, effect: NoExecute, timeAdded: \"2026-08-20T09:00:01Z\"}\n"
                               "  - {key: b, effect: NoSchedule, timeAdded: soon}\n"
                               "status:\n  conditions:\n  - {type: Ready, status: \"False\", reason: ClusterNotReachable, "
                               "message: cluster is not reachable}\n  - {type: CompleteAPIEnablements, status: \"True\"}\n");
    REQUIRE(docs.ok());
    auto d = model::decode_cluster((*docs)[0].root);
    REQUIRE(d.errors.size() == 1);
    CHECK(d.errors[0].str() == "spec.taints[1].timeAdded: Invalid value: \"soon\": must be an RFC3339 time such as "
                               "\"2026-08-20T09:00:01Z\"");
    CHECK(d.value.taints[0].time_added == model::parse_rfc3339("2026-08-20T09:00:01Z"));
    CHECK_FALSE(d.value.taints[1].time_added.has_value());
    REQUIRE(d.value.conditions.size() == 2);
    CHECK(d.value.conditions[0] ==
          model::condition{"Ready", "False", "ClusterNotReachable", "cluster is not reachable"});
    CHECK(d.value.ready == "False");
    CHECK(d.value.complete_api_enablements);
    model::set_condition(d.value, {"Ready", "True", "ClusterReady", ""});
    CHECK(d.value.ready == "True");
    CHECK(d.value.conditions.size() == 2);
}

TEST_CASE("items of a list of Go structs that are no object, and metadata times, are type errors (conformance)")
{
    // Karmada's Go client cannot decode such a Cluster (kube-apiserver would never have stored it).
    auto d = decode("apiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata:\n  name: m\n"
                    "  creationTimestamp: 2026-!1-02T03:14:15Z\n  ownerReferences: [x]\n"
                    "spec:\n  taints: [NoSchedule, {key: a, effect: NoSchedule}]\nstatus:\n  conditions: [Ready]\n");
    REQUIRE(d.errors.size() == 4);
    CHECK(d.errors[0].field == "metadata.creationTimestamp");
    CHECK(d.errors[1].field == "metadata.ownerReferences[0]");
    CHECK(d.errors[1].detail == "expected object");
    CHECK(d.errors[2].field == "spec.taints[0]");
    CHECK(d.errors[3].field == "status.conditions[0]");
    REQUIRE(d.value.taints.size() == 1); // the object item still reads
    CHECK(d.value.taints[0].key == "a");
}
