// SPDX-License-Identifier: Apache-2.0
// CRD defaults (§3.1), mutating defaults (§3.2) and the round trip (§2), seen through manifest_verdict::defaulted.
#include "../rules/support.hpp"

#include "model/decode.hpp"
#include "model/defaults.hpp"

using namespace kpw;

namespace {

doc::value defaulted_spec(std::string_view spec_tail)
{
    const auto v = testing::lint_spec(spec_tail);
    const doc::value* spec = v.defaulted.find("spec");
    REQUIRE(spec != nullptr);
    return *spec;
}

std::string json_at(const doc::value& v, std::initializer_list<std::string_view> path)
{
    const doc::value* x = v.find_path(path);
    return x ? doc::to_json(*x) : "<absent>";
}

} // namespace

TEST_CASE("CRD defaults fill spec-level fields")
{
    const auto spec = defaulted_spec("");
    CHECK(json_at(spec, {"priority"}) == "0");
    CHECK(json_at(spec, {"preemption"}) == "\"Never\"");
    CHECK(json_at(spec, {"schedulerName"}) == "\"default-scheduler\"");
    CHECK(json_at(spec, {"conflictResolution"}) == "\"Abort\"");
    CHECK(json_at(spec, {"placement"}) == "{}");
    CHECK(json_at(spec, {"failover"}) == "<absent>"); // defaults only inside present parents
}

TEST_CASE("replicaScheduling defaults to Divided + Weighted (CRD default, then M5)")
{
    CHECK(json_at(defaulted_spec("placement: {replicaScheduling: {}}"), {"placement", "replicaScheduling"}) ==
          R"({"replicaSchedulingType":"Divided","replicaDivisionPreference":"Weighted"})");
    CHECK(json_at(defaulted_spec("placement:\n  replicaScheduling: {weightPreference: {dynamicWeight: AvailableReplicas}}"),
                  {"placement", "replicaScheduling"}) ==
          R"({"replicaSchedulingType":"Divided","replicaDivisionPreference":"Weighted",)"
          R"("weightPreference":{"dynamicWeight":"AvailableReplicas"}})");
    CHECK(json_at(defaulted_spec("placement: {replicaScheduling: {replicaSchedulingType: Duplicated}}"),
                  {"placement", "replicaScheduling"}) == R"({"replicaSchedulingType":"Duplicated"})");
}

TEST_CASE("failover defaults: purge modes, grace period (M6), toleration after the round trip")
{
    const auto spec = defaulted_spec("propagateDeps: true\nfailover: {application: {}, cluster: {}}");
    CHECK(json_at(spec, {"failover"}) ==
          R"({"application":{"decisionConditions":{"tolerationSeconds":300},"purgeMode":"Gracefully",)"
          R"("gracePeriodSeconds":600},"cluster":{"purgeMode":"Gracefully"}})");
    CHECK(json_at(defaulted_spec("failover: {application: {decisionConditions: {}, purgeMode: Never}}"),
                  {"failover", "application"}) == R"({"decisionConditions":{"tolerationSeconds":300},"purgeMode":"Never"})");
    // The deprecated spelling is defaulted too (SetDefaultGracePeriodSeconds reads both), so v1.18.2 admits it.
    CHECK(json_at(defaulted_spec("failover: {application: {decisionConditions: {}, purgeMode: Graciously}}"),
                  {"failover", "application", "gracePeriodSeconds"}) == "600");
}

TEST_CASE("spread constraints default to cluster and minGroups 1 (M2, M3)")
{
    CHECK(json_at(defaulted_spec("placement: {spreadConstraints: [{}, {spreadByLabel: x, minGroups: -2}, {maxGroups: 3}]}"),
                  {"placement", "spreadConstraints"}) ==
          R"([{"spreadByField":"cluster","minGroups":1},{"spreadByLabel":"x","minGroups":-2},)"
          R"({"spreadByField":"cluster","maxGroups":3,"minGroups":1}])");
}

TEST_CASE("ServiceImport selectors turn on propagateDeps (M4), exact version only")
{
    CHECK(json_at(defaulted_spec("resourceSelectors: [{apiVersion: multicluster.x-k8s.io/v1alpha1, kind: ServiceImport}]"),
                  {"propagateDeps"}) == "true");
    CHECK(json_at(defaulted_spec("resourceSelectors: [{apiVersion: multicluster.x-k8s.io/v1beta1, kind: ServiceImport}]"),
                  {"propagateDeps"}) == "<absent>");
}

TEST_CASE("PP selector namespaces default to the policy's namespace (M1); CPP's are untouched")
{
    auto v = testing::lint("apiVersion: policy.karmada.io/v1alpha1\nkind: PropagationPolicy\nmetadata: {name: p}\n"
                           "spec: {resourceSelectors: [{apiVersion: v1, kind: Secret}]}\n");
    CHECK(v.policy_namespace == "default");
    CHECK(json_at(v.defaulted, {"metadata", "namespace"}) == "\"default\"");
    CHECK(v.defaulted.find("spec")->find("resourceSelectors")->items()[0].string_at("namespace") == "default");
    v = testing::lint("apiVersion: policy.karmada.io/v1alpha1\nkind: PropagationPolicy\nmetadata: {name: p, namespace: prod}\n"
                      "spec: {resourceSelectors: [{apiVersion: v1, kind: Secret}]}\n");
    CHECK(v.policy_namespace == "prod");
    CHECK(v.errors.empty());
    v = testing::lint("apiVersion: policy.karmada.io/v1alpha1\nkind: ClusterPropagationPolicy\nmetadata: {name: p}\n"
                      "spec: {resourceSelectors: [{apiVersion: v1, kind: Secret}]}\n");
    CHECK(v.defaulted.find("spec")->find("resourceSelectors")->items()[0].find("namespace") == nullptr);
}

TEST_CASE("the round trip drops empty lists and unknown fields and keeps empty objects")
{
    const auto spec = defaulted_spec("placement:\n  clusterAffinity: {}\n  clusterAffinities: []\n  bogus: 1\n"
                                     "dependentOverrides: []\nsuspension: {}");
    CHECK(json_at(spec, {"placement"}) == R"({"clusterAffinity":{}})");
    CHECK(json_at(spec, {"dependentOverrides"}) == "<absent>");
    CHECK(json_at(spec, {"suspension"}) == "{}");
}

TEST_CASE("the whole stored object, in Go field order")
{
    const auto v = testing::lint("apiVersion: policy.karmada.io/v1alpha1\nkind: PropagationPolicy\n"
                                 "metadata: {name: p, labels: {b: '1', a: '2'}}\n"
                                 "spec:\n  placement: {clusterAffinity: {clusterNames: [m1]}}\n"
                                 "  resourceSelectors: [{kind: Deployment, apiVersion: apps/v1, name: web}]\n");
    CHECK(doc::to_json(v.defaulted) ==
          R"({"kind":"PropagationPolicy","apiVersion":"policy.karmada.io/v1alpha1",)"
          R"("metadata":{"name":"p","labels":{"b":"1","a":"2"},"namespace":"default"},)"
          R"("spec":{"resourceSelectors":[{"apiVersion":"apps/v1","kind":"Deployment","namespace":"default","name":"web"}],)"
          R"("placement":{"clusterAffinity":{"clusterNames":["m1"]}},"priority":0,"preemption":"Never",)"
          R"("schedulerName":"default-scheduler","conflictResolution":"Abort"}})");
    // the scheduler's entry point: decode the stored object
    const model::policy p = model::decode(v.defaulted);
    CHECK(p.spec.resource_selectors.at(0).ns == "default");
    CHECK(p.spec.placement.cluster_affinity->cluster_names == std::vector<std::string>{"m1"});
}

TEST_CASE("apply_mutating_defaults works on the model directly")
{
    model::policy p;
    p.kind = "PropagationPolicy";
    p.spec.resource_selectors.push_back({"v1", "Secret", "", "s", std::nullopt});
    p.spec.placement.replica_scheduling = model::replica_scheduling_strategy{"Divided", "", std::nullopt};
    model::apply_mutating_defaults(p, "team");
    CHECK(p.spec.resource_selectors[0].ns == "team");
    CHECK(p.spec.placement.replica_scheduling->replica_division_preference == "Weighted");
}
