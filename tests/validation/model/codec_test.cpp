// SPDX-License-Identifier: Apache-2.0
// model::decode and model::to_value: every field survives, Go field order and omitempty on the way out.
#include "model/decode.hpp"

#include <doctest/doctest.h>

#include "doc/load.hpp"
#include "model/encode.hpp"

using namespace kpw;

namespace {

// Every PropagationSpec field, written in Go struct order with omitempty-free values, so that
// decode -> encode must give back exactly this text.
constexpr std::string_view full_policy =
    R"({"kind":"ClusterPropagationPolicy","apiVersion":"policy.karmada.io/v1alpha1",)"
    R"("metadata":{"name":"p","uid":"u-1","labels":{"a":"1","b":"2"},"annotations":{"note":"x"},"finalizers":["f"]},)"
    R"("spec":{"resourceSelectors":[{"apiVersion":"apps/v1","kind":"Deployment","namespace":"ns","name":"web",)"
    R"("labelSelector":{"matchLabels":{"app":"web"},"matchExpressions":[{"key":"tier","operator":"In","values":["a"]}]}}],)"
    R"("association":true,"propagateDeps":true,)"
    R"("placement":{"clusterAffinity":{"labelSelector":{"matchLabels":{"x":"y"}},)"
    R"("fieldSelector":{"matchExpressions":[{"key":"region","operator":"In","values":["r1"]}]},)"
    R"("clusterNames":["m1"],"exclude":["m9"]},)"
    R"("clusterAffinities":[{"affinityName":"g","clusterNames":["m1"],)"
    R"("overflowAffinities":[{"affinityName":"o","exclude":["m2"]}]}],)"
    R"("clusterTolerations":[{"key":"k","operator":"Equal","value":"v","effect":"NoExecute","tolerationSeconds":30}],)"
    R"("spreadConstraints":[{"spreadByField":"region","spreadByLabel":"l","maxGroups":2,"minGroups":1}],)"
    R"("replicaScheduling":{"replicaSchedulingType":"Divided","replicaDivisionPreference":"Weighted",)"
    R"("weightPreference":{"staticWeightList":[{"targetCluster":{"clusterNames":["m1"]},"weight":3}],)"
    R"("dynamicWeight":"AvailableReplicas"}},)"
    R"("workloadAffinity":{"affinity":{"groupByLabelKey":"a"},"antiAffinity":{"groupByLabelKey":"b"}}},)"
    R"("priority":5,"preemption":"Always","dependentOverrides":["ov"],"schedulerName":"s",)"
    R"("failover":{"application":{"decisionConditions":{"tolerationSeconds":10},"purgeMode":"Directly",)"
    R"("gracePeriodSeconds":20,"statePreservation":{"rules":[{"aliasLabelName":"x","jsonPath":"{.a}"}]}},)"
    R"("cluster":{"purgeMode":"Gracefully","statePreservation":{"rules":[{"aliasLabelName":"y","jsonPath":"{.b}"}]}}},)"
    R"("conflictResolution":"Overwrite","activationPreference":"Lazy",)"
    R"("suspension":{"dispatching":false,"dispatchingOnClusters":{"clusterNames":["m1"]}},)"
    R"("preserveResourcesOnDeletion":false,)"
    R"("schedulePriority":{"priorityClassSource":"KubePriorityClass","priorityClassName":"high"}}})";

model::policy decode_text(std::string_view json, std::string* error = nullptr)
{
    auto v = doc::parse_json(json);
    REQUIRE(v.ok());
    return model::decode(*v, error);
}

} // namespace

TEST_CASE("every field decodes and re-encodes to the same Go JSON")
{
    std::string error;
    const model::policy p = decode_text(full_policy, &error);
    CHECK(error.empty());
    CHECK(p.kind == "ClusterPropagationPolicy");
    CHECK(p.metadata.uid == "u-1");
    CHECK(p.spec.placement.cluster_affinities.at(0).overflow_affinities.at(0).cluster_affinity.exclude.at(0) == "m2");
    CHECK(p.spec.placement.replica_scheduling->weight_preference->static_weight_list.at(0).weight == 3);
    CHECK(p.spec.failover->cluster->state_preservation->rules.at(0).json_path == "{.b}");
    CHECK(p.spec.suspension->dispatching == false);
    CHECK(p.spec.preserve_resources_on_deletion == false);
    CHECK(p.spec.priority == 5);
    const std::string s = full_policy.substr(full_policy.find("\"metadata\"") - 1).data();
    CHECK(doc::to_json(model::to_value(p)).substr(doc::to_json(model::to_value(p)).find("\"metadata\"") - 1) == s);
    CHECK(doc::to_json(model::to_value(p)) == full_policy);
}

TEST_CASE("omitempty: zero scalars and empty lists vanish, always-emitted fields stay")
{
    const model::policy p = decode_text(
        R"({"spec":{"resourceSelectors":[{}],"placement":{"clusterAffinities":[{"clusterNames":[]}],)"
        R"("spreadConstraints":[{"maxGroups":0}],"replicaScheduling":{"weightPreference":{"staticWeightList":[{}]}}},)"
        R"("failover":{"application":{}},"dependentOverrides":[]}})");
    CHECK(doc::to_json(model::to_value(p.spec)) ==
          R"({"resourceSelectors":[{"apiVersion":"","kind":""}],"placement":{"clusterAffinities":[{"affinityName":""}],)"
          R"("spreadConstraints":[{}],"replicaScheduling":{"weightPreference":{"staticWeightList":[{"targetCluster":{},"weight":0}]}}},)"
          R"("failover":{"application":{"decisionConditions":{}}}})");
    CHECK(doc::to_json(model::to_value(model::propagation_spec{})) == R"({"resourceSelectors":null,"placement":{}})");
}

TEST_CASE("decoding is lenient: a mistyped member is skipped, the rest is kept, the first error reported")
{
    std::string error;
    const model::policy p = decode_text(
        R"({"spec":{"priority":"x","placement":{"clusterAffinity":{"clusterNames":["a",1,"b"]}},"schedulerName":7}})",
        &error);
    CHECK(error == "json: cannot unmarshal string into Go struct field PropagationSpec.spec.priority of type int32");
    CHECK_FALSE(p.spec.priority.has_value());
    CHECK(p.spec.placement.cluster_affinity->cluster_names == std::vector<std::string>{"a", "b"});
    CHECK(p.spec.scheduler_name.empty());
    const model::policy q = decode_text(R"({"spec":{"placement":{"clusterAffinity":null},"failover":null}})", &error);
    CHECK(error.empty());
    CHECK_FALSE(q.spec.placement.cluster_affinity.has_value());
    CHECK_FALSE(q.spec.failover.has_value());
}

TEST_CASE("go_json renders maps sorted and escapes HTML characters")
{
    model::label_selector s;
    s.match_labels = {{"z", "<1>"}, {"a", "&"}};
    CHECK(model::go_json(s) == R"({"matchLabels":{"a":"\u0026","z":"\u003c1\u003e"}})");
}
