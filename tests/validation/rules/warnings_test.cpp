// SPDX-License-Identifier: Apache-2.0
// Warnings: each id fires on its case and stays quiet on the fixed case; none ever denies.
#include "support.hpp"

#include <set>

#include "rules/catalogue.hpp"

using namespace kpw;

namespace {

struct warning_case {
    const char* name;
    const char* spec;
    std::vector<std::string> ids;
    const char* field; // of the first warning, or "" when none is expected
};

constexpr const char* dyn =
    "  replicaScheduling: {weightPreference: {dynamicWeight: AvailableReplicas}}\n";

} // namespace

TEST_CASE("each warning fires on its case and not on the fixed one")
{
    const std::string overflow_repeat = std::string("placement:\n  clusterAffinities:\n    - affinityName: g\n") +
                                        "      clusterNames: [a]\n      overflowAffinities:\n" +
                                        "        - {affinityName: o1, clusterNames: [b]}\n" +
                                        "        - {affinityName: o2, clusterNames: [a, b, c]}\n" + dyn;
    const std::string overflow_ok = std::string("placement:\n  clusterAffinities:\n    - affinityName: g\n") +
                                    "      clusterNames: [a]\n      overflowAffinities:\n" +
                                    "        - {affinityName: o1, clusterNames: [b]}\n" + dyn;
    const std::vector<warning_case> cases{
        {"overflow-cluster-repeated", overflow_repeat.c_str(),
         {"overflow-cluster-repeated", "overflow-cluster-repeated"},
         "spec.placement.clusterAffinities[0].overflowAffinities[1].clusterNames[0]"},
        {"overflow tiers distinct", overflow_ok.c_str(), {}, ""},
        {"unreachable-affinity-term",
         "placement:\n  clusterAffinities:\n    - {affinityName: a, clusterNames: [m1]}\n"
         "    - {affinityName: b, clusterNames: [m2]}\n    - {affinityName: c, clusterNames: [m1]}\n",
         {"unreachable-affinity-term"}, "spec.placement.clusterAffinities[2]"},
        {"terms differ", "placement:\n  clusterAffinities:\n    - {affinityName: a, clusterNames: [m1]}\n"
                         "    - {affinityName: b, clusterNames: [m1, m2]}\n",
         {}, ""},
        {"cluster-included-and-excluded", "placement:\n  clusterAffinity: {clusterNames: [a, b], exclude: [b]}\n",
         {"cluster-included-and-excluded"}, "spec.placement.clusterAffinity.exclude[0]"},
        {"exclude elsewhere", "placement:\n  clusterAffinity: {clusterNames: [a], exclude: [b]}\n", {}, ""},
        {"static-weight-cluster-unselected",
         "placement:\n  clusterAffinity: {clusterNames: [a]}\n  replicaScheduling:\n    weightPreference:\n"
         "      staticWeightList: [{targetCluster: {clusterNames: [a]}, weight: 1}, "
         "{targetCluster: {clusterNames: [z]}, weight: 1}]\n",
         {"static-weight-cluster-unselected"},
         "spec.placement.replicaScheduling.weightPreference.staticWeightList[1].targetCluster.clusterNames[0]"},
        {"static weights within a label-selected set are not judged",
         "placement:\n  clusterAffinity: {labelSelector: {matchLabels: {a: b}}}\n  replicaScheduling:\n"
         "    weightPreference:\n      staticWeightList: [{targetCluster: {clusterNames: [z]}, weight: 1}]\n",
         {}, ""},
        {"static-weights-ignored",
         "placement:\n  replicaScheduling:\n    weightPreference:\n      dynamicWeight: AvailableReplicas\n"
         "      staticWeightList: [{targetCluster: {clusterNames: [z]}, weight: 1}]\n",
         {"static-weights-ignored"}, "spec.placement.replicaScheduling.weightPreference.staticWeightList"},
        {"weight-preference-ignored",
         "placement:\n  replicaScheduling: {replicaDivisionPreference: Aggregated, weightPreference: {dynamicWeight: "
         "AvailableReplicas}}\n",
         {"weight-preference-ignored"}, "spec.placement.replicaScheduling.weightPreference"},
        {"toleration-seconds-ignored and toleration-value-ignored",
         "placement:\n  clusterTolerations:\n    - {key: a, operator: Exists, value: x, effect: NoSchedule, "
         "tolerationSeconds: 5}\n",
         {"toleration-seconds-ignored", "toleration-value-ignored"},
         "spec.placement.clusterTolerations[0].tolerationSeconds"},
        {"NoExecute toleration", "placement:\n  clusterTolerations:\n    - {key: a, operator: Equal, value: x, "
                                 "effect: NoExecute, tolerationSeconds: 5}\n",
         {}, ""},
        {"selector-label-ignored",
         "resourceSelectors:\n  - {apiVersion: v1, kind: Secret, name: s, labelSelector: {matchLabels: {a: b}}}\n",
         {"selector-label-ignored"}, "spec.resourceSelectors[0].labelSelector"},
    };
    for (const auto& c : cases) {
        const std::string name = c.name;
        CAPTURE(name);
        const auto v = testing::lint_spec(c.spec);
        CHECK(v.errors.empty());
        CHECK(testing::warning_ids(v.warnings) == c.ids);
        if (!v.warnings.empty())
            CHECK(v.warnings.front().field == c.field);
    }
}

TEST_CASE("warning messages say what happens")
{
    const auto v = testing::lint_spec("placement:\n  clusterAffinities:\n    - {affinityName: a, clusterNames: [m1]}\n"
                                      "    - {affinityName: b, clusterNames: [m1]}\n");
    REQUIRE(v.warnings.size() == 1);
    CHECK(v.warnings[0].str() == "spec.placement.clusterAffinities[1]: selects the same clusters as term \"a\", which "
                                 "is tried first; this term can never be chosen");
}

TEST_CASE("the catalogue lists every id once, warnings and error reasons")
{
    std::set<std::string_view> ids;
    for (const auto& e : rules::catalogue()) {
        CHECK(ids.insert(e.id).second);
        CHECK_FALSE(e.summary.empty());
        CHECK_FALSE(e.help.empty());
    }
    for (const char* id : {"overflow-cluster-repeated", "unreachable-affinity-term", "cluster-included-and-excluded",
                           "unknown-field", "required-masked", "static-weight-cluster-unselected",
                           "static-weights-ignored", "weight-preference-ignored", "toleration-seconds-ignored",
                           "toleration-value-ignored", "selector-label-ignored", "affinity-matches-no-cluster",
                           "policy-claims-nothing", "policy-shadowed", "claim-decided-by-name",
                           "claim-not-preempted", "lazy-activation"}) {
        const auto* e = rules::find_catalogue_entry(id);
        REQUIRE_MESSAGE(e != nullptr, id);
        CHECK_FALSE(e->is_error);
    }
    REQUIRE(rules::find_catalogue_entry("FieldValueInvalid") != nullptr);
    CHECK(rules::find_catalogue_entry("FieldValueInvalid")->is_error);
    CHECK(rules::find_catalogue_entry("no-such-id") == nullptr);
}
