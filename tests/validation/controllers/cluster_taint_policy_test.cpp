// SPDX-License-Identifier: Apache-2.0
// ClusterTaintPolicy decoding and evaluation (day2-semantics §4.3), conditionMatches edge cases.
#include <doctest/doctest.h>

#include "controllers/cluster_taint_policy.hpp"
#include "doc/load.hpp"

using namespace kpw;
using controllers::condition_matches;

namespace {

model::cluster_taint_policy_decoding decode(std::string_view text)
{
    auto docs = doc::load_yaml(text);
    REQUIRE(docs.ok());
    return model::decode_cluster_taint_policy((*docs)[0].root);
}

constexpr const char* typical = R"(apiVersion: policy.karmada.io/v1alpha1
kind: ClusterTaintPolicy
metadata: {name: not-ready-noexecute, creationTimestamp: "2026-08-01T00:00:00Z"}
spec:
  targetClusters: {clusterNames: [member1]}
  addOnConditions: [{conditionType: Ready, operator: In, statusValues: ["False", "Unknown"]}]
  removeOnConditions: [{conditionType: Ready, operator: In, statusValues: ["True"]}]
  taints: [{key: cluster.karmada.io/not-ready, effect: NoExecute}]
)";

model::cluster cluster_with(std::vector<model::condition> conditions)
{
    model::cluster c;
    c.name = "member1";
    for (const auto& cond : conditions)
        model::set_condition(c, cond);
    return c;
}

settings::feature_gates failover_on()
{
    settings::feature_gates g;
    g.set("Failover", true);
    return g;
}

} // namespace

TEST_CASE("the typical policy decodes; bad operators and effects are reported")
{
    auto d = decode(typical);
    CHECK(d.errors.empty());
    CHECK(d.value.name == "not-ready-noexecute");
    CHECK(d.value.creation_timestamp.has_value());
    REQUIRE(d.value.target_clusters.has_value());
    CHECK(d.value.target_clusters->cluster_names == std::vector<std::string>{"member1"});
    REQUIRE(d.value.add_on_conditions.size() == 1);
    CHECK(d.value.add_on_conditions[0].status_values == std::vector<std::string>{"False", "Unknown"});
    CHECK(d.value.taints[0] == model::taint{"cluster.karmada.io/not-ready", "", "NoExecute"});

    auto bad = decode("apiVersion: policy.karmada.io/v1alpha1\nkind: ClusterTaintPolicy\nmetadata: {name: x}\n"
                      "spec: {addOnConditions: [{conditionType: Ready, operator: Is}], taints: [{key: k, effect: "
                      "PreferNoSchedule}], targetClusters: {clusterNames: a}}\n");
    REQUIRE(bad.errors.size() == 3);
    CHECK(bad.errors[0].str() == "spec.targetClusters.clusterNames: Invalid value: \"a\": expected []string");
    CHECK(bad.errors[1].str() == "spec.addOnConditions[0].operator: Unsupported value: \"Is\": supported values: "
                                 "\"In\", \"NotIn\"");
    CHECK(bad.errors[2].str() == "spec.taints[0].effect: Unsupported value: \"PreferNoSchedule\": supported values: "
                                 "\"NoSchedule\", \"NoExecute\"");
}

TEST_CASE("conditionMatches: empty never matches, entries AND, a missing type fails In and NotIn")
{
    const std::vector<model::condition> ready_false{{"Ready", "False", "", ""}};
    using mc = model::match_condition;
    CHECK_FALSE(condition_matches(ready_false, {}));
    CHECK(condition_matches(ready_false, std::vector<mc>{{"Ready", "In", {"False", "Unknown"}}}));
    CHECK_FALSE(condition_matches(ready_false, std::vector<mc>{{"Ready", "In", {"True"}}}));
    CHECK(condition_matches(ready_false, std::vector<mc>{{"Ready", "NotIn", {"True"}}}));
    CHECK_FALSE(condition_matches(ready_false, std::vector<mc>{{"Ready", "NotIn", {"False"}}}));
    CHECK_FALSE(condition_matches(ready_false, std::vector<mc>{{"Healthy", "NotIn", {"True"}}}));
    CHECK_FALSE(condition_matches(ready_false, std::vector<mc>{{"Healthy", "In", {"False"}}}));
    CHECK_FALSE(condition_matches(ready_false, std::vector<mc>{{"Ready", "In", {"False"}}, {"Healthy", "In", {"x"}}}));
    CHECK_FALSE(condition_matches(ready_false, std::vector<mc>{{"Ready", "Exists", {}}}));
}

TEST_CASE("evaluation adds NoExecute on Ready False and removes it on True, only with the Failover gate")
{
    const auto policy = decode(typical).value;
    const std::vector<model::cluster_taint_policy> policies{policy};
    auto down = cluster_with({{"Ready", "False", "", ""}});
    CHECK_FALSE(controllers::evaluate_taint_policies(down, policies, settings::feature_gates{}, 100).changed);
    auto added = controllers::evaluate_taint_policies(down, policies, failover_on(), 100);
    REQUIRE(added.changed);
    REQUIRE(added.taints.size() == 1);
    CHECK(added.taints[0].time_added == 100);
    CHECK(added.event == "Update Cluster(member1) with taints(cluster now has taints([{Key:cluster.karmada.io/"
                         "not-ready,Effect:NoExecute}])) succeed");
    auto up = cluster_with({{"Ready", "True", "", ""}});
    up.taints = added.taints;
    auto removed = controllers::evaluate_taint_policies(up, policies, failover_on(), 200);
    CHECK(removed.taints.empty());
    auto other = down;
    other.name = "member2";
    CHECK_FALSE(controllers::evaluate_taint_policies(other, policies, failover_on(), 100).changed);
}

TEST_CASE("later policies (by creationTimestamp) see the earlier ones' result")
{
    auto adder = decode(typical).value;
    adder.target_clusters.reset();
    auto remover = adder;
    remover.add_on_conditions.clear();
    remover.remove_on_conditions = {{"Ready", "In", {"False"}}};
    adder.creation_timestamp = 20;
    remover.creation_timestamp = 10; // runs first: nothing to remove yet; then the adder adds
    auto down = cluster_with({{"Ready", "False", "", ""}});
    CHECK(controllers::evaluate_taint_policies(down, std::vector{adder, remover}, failover_on(), 1).taints.size() == 1);
    remover.creation_timestamp = 30; // runs last: removes what the adder added
    CHECK(controllers::evaluate_taint_policies(down, std::vector{adder, remover}, failover_on(), 1).taints.empty());
}
