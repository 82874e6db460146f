// SPDX-License-Identifier: Apache-2.0
// Binding decoding from `kubectl get rb -A -o yaml` output, and every kind of bad binding input.
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>

#include "doc/load.hpp"
#include "model/binding_decode.hpp"

using namespace kpw;

namespace {

std::string read_data(const char* name)
{
    std::ifstream in(std::string(KPW_TEST_DATA) + "/bindings/" + name);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

doc::value load_one(std::string_view text)
{
    auto docs = doc::load_yaml(text);
    REQUIRE(docs.ok());
    REQUIRE(docs->size() == 1);
    return std::move((*docs)[0].root);
}

std::vector<std::string> messages(const field::error_list& errors)
{
    std::vector<std::string> out;
    for (const auto& e : errors)
        out.push_back(e.str());
    return out;
}

// A minimal RB around `spec` (YAML flow mapping text).
model::binding_decoding decode_rb(std::string_view spec, std::string_view extra = "")
{
    std::string text = "apiVersion: work.karmada.io/v1alpha2\nkind: ResourceBinding\n"
                       "metadata: {name: web-deployment, namespace: shop}\nspec: " +
                       std::string(spec) + "\n" + std::string(extra);
    return model::decode_binding(load_one(text));
}

} // namespace

TEST_CASE("the day-2 §1.5 kubectl example decodes to the binding the scheduler reads")
{
    auto list = load_one(read_data("kubectl-rb.yaml"));
    const auto& rb_node = list.find("items")->items()[0];
    REQUIRE(model::is_binding_object(rb_node));
    auto d = model::decode_binding(rb_node);
    CHECK(messages(d.errors).empty());
    const auto& b = d.value;
    CHECK(b.kind == "ResourceBinding");
    CHECK(b.namespace_ == "default");
    CHECK(b.name == "nginx-deployment");
    CHECK(b.generation == 4);
    CHECK_FALSE(b.deleting);
    REQUIRE(b.claim.has_value());
    CHECK(*b.claim ==
          model::policy_claim{false, "default", "nginx-propagation", "0b1c5e0a-0000-4000-8000-000000000001"});
    CHECK(b.resource == model::object_reference{"apps/v1", "Deployment", "default", "nginx",
                                                "5b8c0c1d-0000-4000-8000-000000000003", "81234"});
    CHECK(b.replicas == 3);
    CHECK(b.has_requirements);
    CHECK(b.request == model::replica_request{{"cpu", 250}, {"memory", 64 * 1024 * 1024}});
    REQUIRE(b.placement.has_value());
    REQUIRE(b.placement->cluster_affinity.has_value());
    CHECK(b.placement->cluster_affinity->cluster_names == std::vector<std::string>{"member1", "member2"});
    CHECK(b.placement->replica_scheduling->weight_preference->dynamic_weight == "AvailableReplicas");
    CHECK(b.scheduler_name == "default-scheduler");
    CHECK(b.clusters == std::vector<model::target_cluster>{{"member1", 2, {}}, {"member2", 1, {}}});
    CHECK(b.scheduler_observed_generation == 4);
    CHECK(b.last_scheduled_time == model::parse_rfc3339("2026-08-20T09:00:01Z"));
    CHECK(b.aggregated_status ==
          std::vector<model::aggregated_status_item>{{"member1", "Healthy"}, {"member2", "Healthy"}});
    REQUIRE(b.scheduled.has_value());
    CHECK(*b.scheduled == model::scheduled_condition{"True", "Success", "Binding has been scheduled successfully."});
    CHECK(b.annotations.at("policy.karmada.io/applied-placement").starts_with("{\"clusterAffinity\""));
    CHECK(b.where.line == 3);
}

TEST_CASE("a binding field lint does not read must still fit Karmada's Go type")
{
    auto d = decode_rb("{resource: {apiVersion: apps/v1, kind: Deployment, name: web, namespace: shop}, "
                       "conflictResolution: 5}");
    REQUIRE(d.errors.size() == 1);
    CHECK(d.errors[0].field == "spec.conflictResolution");
    CHECK(messages(d.errors)[0].find("Karmada's clientsets cannot decode this ResourceBinding: json: cannot unmarshal "
                                     "number into Go struct field ResourceBindingSpec.spec.conflictResolution") !=
          std::string::npos);
    CHECK(decode_rb("{resource: {apiVersion: apps/v1, kind: Deployment, name: web, namespace: shop}, "
                    "conflictResolution: Overwrite}")
              .errors.empty());
}

TEST_CASE("the applied-placement annotation decodes into the placement it records")
{
    auto list = load_one(read_data("kubectl-rb.yaml"));
    auto b = model::decode_binding(list.find("items")->items()[0]).value;
    auto applied = model::decode_applied_placement(b);
    REQUIRE(applied.ok());
    REQUIRE(applied->has_value());
    CHECK(**applied == *b.placement);

    b.annotations.erase("policy.karmada.io/applied-placement");
    auto absent = model::decode_applied_placement(b);
    REQUIRE(absent.ok());
    CHECK_FALSE(absent->has_value());

    b.annotations["policy.karmada.io/applied-placement"] = "{not json";
    CHECK_FALSE(model::decode_applied_placement(b).ok());
    b.annotations["policy.karmada.io/applied-placement"] = R"({"clusterTolerations":"x"})";
    auto mistyped = model::decode_applied_placement(b);
    REQUIRE_FALSE(mistyped.ok());
    CHECK(mistyped.error().message ==
          "annotation policy.karmada.io/applied-placement: placement.clusterTolerations: Invalid value: \"x\": "
          "expected []v1.Toleration");
}

TEST_CASE("a ClusterResourceBinding claimed by a ClusterPropagationPolicy has no namespace and a CPP claim")
{
    auto list = load_one(read_data("kubectl-rb.yaml"));
    auto d = model::decode_binding(list.find("items")->items()[1]);
    CHECK(messages(d.errors).empty());
    CHECK(d.value.kind == "ClusterResourceBinding");
    CHECK(d.value.namespace_.empty());
    REQUIRE(d.value.claim.has_value());
    CHECK(d.value.claim->cluster_policy);
    CHECK(d.value.claim->name == "roles-everywhere");
    CHECK(d.value.clusters == std::vector<model::target_cluster>{{"member1", 0, {}}, {"member2", 0, {}}});
    CHECK_FALSE(d.value.has_requirements);
}

TEST_CASE("eviction tasks, failover, suspension and times with offsets decode")
{
    auto d = model::decode_binding(load_one(read_data("evicting-rb.yaml")));
    CHECK(messages(d.errors).empty());
    const auto& b = d.value;
    REQUIRE(b.graceful_eviction_tasks.size() == 1);
    const auto& t = b.graceful_eviction_tasks[0];
    CHECK(t.from_cluster == "idc-east-1");
    CHECK(t.replicas == 4);
    CHECK(t.producer == "TaintManager");
    CHECK(t.creation_timestamp == model::parse_rfc3339("2026-08-20T10:00:00Z"));
    CHECK_FALSE(t.grace_period_seconds.has_value());
    REQUIRE(b.failover.has_value());
    CHECK(b.failover->cluster->purge_mode == "Directly");
    CHECK_FALSE(b.suspend_scheduling);
    CHECK(b.reschedule_triggered_at == model::parse_rfc3339("2026-08-20T07:30:00Z"));
    CHECK(b.placement->cluster_tolerations[0].toleration_seconds == 300);
}

TEST_CASE("a binding of another version or kind is an error naming the served version")
{
    auto d = model::decode_binding(load_one("apiVersion: work.karmada.io/v1alpha1\nkind: ResourceBinding\n"
                                            "metadata: {name: a, namespace: b}\n"));
    REQUIRE(d.errors.size() == 1);
    CHECK(d.errors[0].str() == "apiVersion: Invalid value: \"work.karmada.io/v1alpha1\": bindings are read as "
                               "work.karmada.io/v1alpha2, the version karmada-apiserver stores and "
                               "`kubectl get rb -A -o yaml` prints");
    auto w = model::decode_binding(load_one("apiVersion: work.karmada.io/v1alpha2\nkind: Work\nmetadata: {name: a}\n"));
    REQUIRE_FALSE(w.errors.empty());
    CHECK(w.errors[0].str() ==
          "kind: Unsupported value: \"Work\": supported values: \"ResourceBinding\", \"ClusterResourceBinding\"");
    CHECK_FALSE(model::is_binding_object(load_one("apiVersion: work.karmada.io/v1alpha2\nkind: Work\n")));
}

TEST_CASE("negative replicas in spec.replicas, spec.clusters and components are errors")
{
    auto d = decode_rb("{replicas: -2, clusters: [{name: a, replicas: -1, components: [{name: w, replicas: -3}]}], "
                       "components: [{name: w, replicas: -4}]}");
    CHECK(messages(d.errors) ==
          std::vector<std::string>{"spec.replicas: Invalid value: -2: must be greater than or equal to 0",
                                   "spec.components[0].replicas: Invalid value: -4: must be greater than or equal to 0",
                                   "spec.clusters[0].replicas: Invalid value: -1: must be greater than or equal to 0",
                                   "spec.clusters[0].components[0].replicas: Invalid value: -3: must be greater than "
                                   "or equal to 0"});
    CHECK(d.value.replicas == 0);
}

TEST_CASE("an undecodable spec.placement is reported at the offending node with its index")
{
    auto d = decode_rb("{placement: {clusterAffinities: [{affinityName: a, clusterNames: [x]}, "
                       "{affinityName: b, clusterNames: x}]}}");
    REQUIRE(d.errors.size() == 1);
    CHECK(d.errors[0].str() ==
          "spec.placement.clusterAffinities[1].clusterNames: Invalid value: \"x\": expected []string");
    REQUIRE(d.value.placement.has_value());
    CHECK(d.value.placement->cluster_affinities.size() == 2);

    auto whole = decode_rb("{placement: 7}");
    REQUIRE(whole.errors.size() == 1);
    CHECK(whole.errors[0].str() == "spec.placement: Invalid value: 7: expected v1alpha1.Placement");
}

TEST_CASE("unparsable RFC3339 times are errors at their fields")
{
    auto d = decode_rb("{rescheduleTriggeredAt: yesterday, gracefulEvictionTasks: [{fromCluster: a, "
                       "creationTimestamp: \"2026-02-30T00:00:00Z\"}]}",
                       "status: {lastScheduledTime: \"2026-08-20 09:00:01\"}\n");
    CHECK(messages(d.errors) ==
          std::vector<std::string>{
              "spec.gracefulEvictionTasks[0].creationTimestamp: Invalid value: \"2026-02-30T00:00:00Z\": must be an "
              "RFC3339 time such as \"2026-08-20T09:00:01Z\"",
              "spec.rescheduleTriggeredAt: Invalid value: \"yesterday\": must be an RFC3339 time such as "
              "\"2026-08-20T09:00:01Z\"",
              "status.lastScheduledTime: Invalid value: \"2026-08-20 09:00:01\": must be an RFC3339 time such as "
              "\"2026-08-20T09:00:01Z\""});
    auto deleting = model::decode_binding(load_one("apiVersion: work.karmada.io/v1alpha2\nkind: ResourceBinding\n"
                                                   "metadata: {name: a, namespace: b, deletionTimestamp: "
                                                   "\"2026-08-20T09:00:01Z\"}\n"));
    CHECK(deleting.errors.empty());
    CHECK(deleting.value.deleting);
}

TEST_CASE("a claim label without the annotations naming the policy is no error and no claim; no label is no claim")
{
    // Karmada's controllers read such a binding and release the claim (conformance).
    auto d = model::decode_binding(load_one("apiVersion: work.karmada.io/v1alpha2\nkind: ResourceBinding\n"
                                            "metadata: {name: a, namespace: b, labels: "
                                            "{propagationpolicy.karmada.io/permanent-id: x}, annotations: "
                                            "{propagationpolicy.karmada.io/name: p}}\n"));
    CHECK(d.errors.empty());
    CHECK_FALSE(d.value.claim.has_value());
    auto none = model::decode_binding(
        load_one("apiVersion: work.karmada.io/v1alpha2\nkind: ResourceBinding\nmetadata: {name: a, namespace: b}\n"));
    CHECK_FALSE(none.value.claim.has_value());
    auto unnamed = model::decode_binding(load_one("apiVersion: work.karmada.io/v1alpha2\nkind: ResourceBinding\n"));
    CHECK(messages(unnamed.errors) ==
          std::vector<std::string>{"metadata.name: Required value: name or generateName is required",
                                   "metadata.namespace: Required value: a ResourceBinding is namespaced"});
}

TEST_CASE("components keep their per-replica request in karmada units and as written")
{
    auto d = decode_rb("{components: [{name: master, replicas: 1, replicaRequirements: {resourceRequest: "
                       "{cpu: 1500m, memory: 1Gi}}}, {name: worker, replicas: 3}]}");
    CHECK(d.errors.empty());
    REQUIRE(d.value.components.size() == 2);
    CHECK(d.value.components[0].request == model::replica_request{{"cpu", 1500}, {"memory", 1073741824}});
    CHECK(d.value.components[0].request_text ==
          std::vector<std::pair<std::string, std::string>>{{"cpu", "1500m"}, {"memory", "1Gi"}});
    CHECK(d.value.components[0].has_requirements);
    CHECK_FALSE(d.value.components[1].has_requirements);
    CHECK(d.value.components[1].replicas == 3);
}

TEST_CASE("target clusters and owner references that are no object are type errors (conformance)")
{
    // The Go client's decoding fails on them ("cannot restore struct from: string").
    auto d = decode_rb("{clusters: [member1, {name: member2, replicas: 1}]}",
                       "status: {conditions: [Scheduled]}\n");
    REQUIRE(d.errors.size() == 2);
    CHECK(d.errors[0].field == "spec.clusters[0]");
    CHECK(d.errors[1].field == "status.conditions[0]");
    REQUIRE(d.value.clusters.size() == 1);
    CHECK(d.value.clusters[0].name == "member2");
    auto owner = model::decode_binding(load_one("apiVersion: work.karmada.io/v1alpha2\nkind: ResourceBinding\n"
                                                "metadata: {name: w, namespace: s, ownerReferences: [x]}\n"));
    REQUIRE(owner.errors.size() == 1);
    CHECK(owner.errors[0].field == "metadata.ownerReferences[0]");
}

TEST_CASE("an owner reference, an aggregated status or a resource with a field of another type is a type error")
{
    // Karmada's Go client fails to decode the binding ("unrecognized type: bool", "cannot restore struct
    // from: string"), so lint refuses it as well (conformance: tests/fuzz/corpus/bindings).
    auto owner = model::decode_binding(
        load_one("apiVersion: work.karmada.io/v1alpha2\nkind: ResourceBinding\n"
                 "metadata: {name: w, namespace: s, ownerReferences: [{apiVersion: apps/v1, kind: Deployment, "
                 "name: w, uid: u, controller: tr000003, blockOwnerDeletion: true}]}\n"
                 "spec: {resource: Time}\nstatus: {aggregatedStatus: [{clusterName: m1, applied: tmember2}]}\n"));
    REQUIRE(owner.errors.size() == 3);
    CHECK(owner.errors[0].field == "metadata.ownerReferences[0].controller");
    CHECK(owner.errors[1].field == "spec.resource");
    CHECK(owner.errors[2].field == "status.aggregatedStatus[0].applied");
    // Written as the Go client writes them, they decode.
    CHECK(model::decode_binding(load_one("apiVersion: work.karmada.io/v1alpha2\nkind: ResourceBinding\n"
                                         "metadata: {name: w, namespace: s, ownerReferences: [{controller: true, "
                                         "blockOwnerDeletion: false, uid: u}]}\n"
                                         "status: {aggregatedStatus: [{clusterName: m1, applied: true}]}\n"))
              .errors.empty());
}
