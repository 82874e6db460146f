// SPDX-License-Identifier: Apache-2.0
// Every webhook spec rule (validation-rules §6.3-6.9): one passing and one failing case, by (reason, field).
#include "support.hpp"

using namespace kpw;
using testing::finding;

namespace {

struct rule_case {
    const char* name;
    const char* spec; // YAML at spec level
    std::vector<finding> expected;
};

constexpr const char* dynamic =
    "  replicaScheduling:\n    replicaSchedulingType: Divided\n    replicaDivisionPreference: Weighted\n"
    "    weightPreference:\n      dynamicWeight: AvailableReplicas\n";

std::string placement(std::string_view body, bool with_dynamic = true)
{
    return "placement:\n" + std::string(body) + (with_dynamic ? dynamic : "");
}

const std::string inv = "FieldValueInvalid";
const std::string term0 = "spec.placement.clusterAffinities[0]";

void run(const std::vector<rule_case>& cases)
{
    for (const auto& c : cases) {
        const std::string name = c.name;
        CAPTURE(name);
        const auto v = testing::lint_spec(c.spec);
        CHECK(testing::findings(v.errors) == c.expected);
    }
}

} // namespace

TEST_CASE("placement: clusterAffinity vs clusterAffinities (P1) and field selectors (F1)")
{
    run({
        {"P1 both set", "placement:\n  clusterAffinity:\n    clusterNames: [a]\n  clusterAffinities:\n"
                        "    - affinityName: g\n      clusterNames: [a]\n",
         {{inv, "spec.placement"}}},
        {"P1 empty clusterAffinities is unset", "placement:\n  clusterAffinity: {}\n  clusterAffinities: []\n", {}},
        {"F1 bad key", "placement:\n  clusterAffinity:\n    fieldSelector:\n      matchExpressions:\n"
                       "        - {key: foo, operator: In, values: [x]}\n",
         {{inv, "spec.placement.clusterAffinity.fieldSelector"}}},
        {"F1 bad operator", "placement:\n  clusterAffinity:\n    fieldSelector:\n      matchExpressions:\n"
                            "        - {key: zone, operator: Exists}\n",
         {{inv, "spec.placement.clusterAffinity.fieldSelector"}}},
        {"F1 good", "placement:\n  clusterAffinity:\n    fieldSelector:\n      matchExpressions:\n"
                    "        - {key: region, operator: NotIn, values: [x]}\n",
         {}},
    });
}

TEST_CASE("clusterAffinities terms: names, uniqueness, field selectors (A1-A3)")
{
    run({
        {"A1 bad name", "placement:\n  clusterAffinities:\n    - affinityName: Bad_\n      clusterNames: [a]\n",
         {{inv, term0}}},
        // Karmada's webhook has two messages for it too, but kube-apiserver stops at the schema's minLength
        // error and never calls the webhook (the conformance oracle's answer; denied-after-schema).
        {"A1 empty name yields the schema error only",
         "placement:\n  clusterAffinities:\n    - affinityName: ''\n      clusterNames: [a]\n",
         {{inv, term0 + ".affinityName"}}},
        {"A1/A2 good", "placement:\n  clusterAffinities:\n    - affinityName: g1\n      clusterNames: [a]\n"
                       "    - affinityName: example.com/G2\n      clusterNames: [b]\n",
         {}},
        {"A2 duplicate", "placement:\n  clusterAffinities:\n    - affinityName: g\n      clusterNames: [a]\n"
                         "    - affinityName: g\n      clusterNames: [b]\n",
         {{inv, "spec.placement.clusterAffinities"}}},
        {"A3 bad selector", "placement:\n  clusterAffinities:\n    - affinityName: g\n      fieldSelector:\n"
                            "        matchExpressions: [{key: Region, operator: In}]\n",
         {{inv, term0 + ".fieldSelector"}}},
    });
}

TEST_CASE("overflow tiers: inline affinity, names, selectors (O1-O4)")
{
    run({
        {"O1 no inline affinity", placement("  clusterAffinities:\n    - affinityName: g\n      overflowAffinities:\n"
                                            "        - affinityName: o\n          clusterNames: [b]\n")
                                      .c_str(),
         {{inv, term0 + ".overflowAffinities"}}},
        {"O1 exclude alone is an inline affinity",
         placement("  clusterAffinities:\n    - affinityName: g\n      exclude: [z]\n      overflowAffinities:\n"
                   "        - affinityName: o\n          clusterNames: [b]\n")
             .c_str(),
         {}},
        {"O2 bad tier name", placement("  clusterAffinities:\n    - affinityName: g\n      clusterNames: [a]\n"
                                       "      overflowAffinities:\n        - affinityName: a/b/c\n")
                                 .c_str(),
         {{inv, term0 + ".overflowAffinities[0].affinityName"}}},
        {"O3 tier name repeats primary and itself",
         placement("  clusterAffinities:\n    - affinityName: g\n      clusterNames: [a]\n      overflowAffinities:\n"
                   "        - affinityName: g\n        - affinityName: o\n        - affinityName: o\n")
             .c_str(),
         {{inv, term0 + ".overflowAffinities[0].affinityName"}, {inv, term0 + ".overflowAffinities[2].affinityName"}}},
        {"O3 names are per term", placement("  clusterAffinities:\n    - affinityName: g\n      clusterNames: [a]\n"
                                            "      overflowAffinities: [{affinityName: o, clusterNames: [b]}]\n"
                                            "    - affinityName: h\n      clusterNames: [b]\n"
                                            "      overflowAffinities: [{affinityName: g, clusterNames: [c]}]\n")
                                      .c_str(),
         {}},
        {"O4 bad tier selector", placement("  clusterAffinities:\n    - affinityName: g\n      clusterNames: [a]\n"
                                           "      overflowAffinities:\n        - affinityName: o\n"
                                           "          fieldSelector: {matchExpressions: [{key: x, operator: In}]}\n")
                                     .c_str(),
         {{inv, term0 + ".overflowAffinities[0].fieldSelector"}}},
        {"empty overflowAffinities triggers nothing",
         "placement:\n  clusterAffinities:\n    - affinityName: g\n      overflowAffinities: []\n", {}},
    });
}

TEST_CASE("spread constraints after defaults (S1-S6)")
{
    const std::string sc = "spec.placement.spreadConstraints";
    run({
        {"S1 field and label", "placement:\n  spreadConstraints:\n    - {spreadByField: cluster, spreadByLabel: x}\n",
         {{inv, sc + "[0]"}}},
        {"S2 negative minGroups", "placement:\n  spreadConstraints:\n    - {spreadByField: cluster, minGroups: -1}\n",
         {{inv, sc + "[0]"}}},
        {"S3/S4 negative and small maxGroups",
         "placement:\n  spreadConstraints:\n    - {spreadByField: cluster, maxGroups: -1}\n"
         "    - {spreadByLabel: x, minGroups: 3, maxGroups: 2}\n",
         {{inv, sc + "[0]"}, {inv, sc + "[1]"}}},
        {"S5 twice reported once, S6 not", "placement:\n  spreadConstraints:\n    - {}\n    - {}\n    - {}\n",
         {{inv, sc}}},
        {"S6 region without cluster", "placement:\n  spreadConstraints:\n    - {spreadByField: region}\n",
         {{inv, sc}}},
        {"defaulted constraint satisfies S6",
         "placement:\n  spreadConstraints:\n    - {spreadByField: region, maxGroups: 2}\n    - {maxGroups: 0}\n", {}},
        {"label-only constraints pass", "placement:\n  spreadConstraints:\n    - {spreadByLabel: team}\n", {}},
    });
}

TEST_CASE("workload affinity and tolerations (W1-W3, T1)")
{
    const std::string wa = "spec.placement.workloadAffinity";
    run({
        {"W1 W2 W3", "placement:\n  workloadAffinity:\n    affinity: {groupByLabelKey: 'a b'}\n"
                     "    antiAffinity: {groupByLabelKey: 'a b'}\n",
         {{inv, wa + ".affinity.groupByLabelKey"}, {inv, wa + ".antiAffinity.groupByLabelKey"}, {inv, wa}}},
        {"W good", "placement:\n  workloadAffinity:\n    affinity: {groupByLabelKey: app}\n"
                   "    antiAffinity: {groupByLabelKey: example.io/team}\n",
         {}},
        {"T1 Lt", "placement:\n  clusterTolerations:\n    - {key: a, operator: Exists}\n    - {key: b, operator: Lt}\n",
         {{"FieldValueNotSupported", "spec.placement.clusterTolerations[1].operator"}}},
        {"T1 unknown operators pass", "placement:\n  clusterTolerations:\n    - {key: a, operator: Whatever}\n", {}},
    });
}

TEST_CASE("spec-level rules (D1, FA1-FA5, FC1, R1, R2, X1)")
{
    const std::string app = "spec.failover.application";
    run({
        {"D1 and FA1 FA2 FA4", "failover:\n  application:\n    decisionConditions: {tolerationSeconds: -1}\n"
                               "    purgeMode: Directly\n    gracePeriodSeconds: 0\n",
         {{inv, "spec.propagateDeps"},
          {inv, app + ".decisionConditions.tolerationSeconds"},
          {inv, app + ".gracePeriodSeconds"},
          {inv, app + ".gracePeriodSeconds"}}},
        {"failover good (M6 fills gracePeriodSeconds)",
         "propagateDeps: true\nfailover:\n  application:\n    decisionConditions: {}\n", {}},
        {"FA5 FC1", "propagateDeps: true\nfailover:\n  application:\n    decisionConditions: {}\n"
                    "    statePreservation: {rules: [{aliasLabelName: '-x', jsonPath: '{.a}'}]}\n"
                    "  cluster:\n    statePreservation: {rules: [{aliasLabelName: 'Y/x', jsonPath: '{.a}'}]}\n",
         {{inv, app + ".statePreservation.rules[0].aliasLabelName"},
          {inv, "spec.failover.cluster.statePreservation.rules[0].aliasLabelName"}}},
        {"R2 preemption Always needs names", "preemption: Always\nresourceSelectors:\n  - {apiVersion: v1, kind: ConfigMap}\n",
         {{inv, "spec.resourceSelectors[0].name"}}},
        {"X1 suspension", "suspension:\n  dispatching: true\n  dispatchingOnClusters: {clusterNames: [a]}\n",
         {{inv, "spec.suspension.suspension"}}},
        {"X1 good", "suspension:\n  dispatching: false\n  dispatchingOnClusters: {clusterNames: [a]}\n", {}},
    });
}

TEST_CASE("R1: a PP's selectors must stay in the policy's namespace; CPP selectors are free")
{
    const auto pp = testing::lint_spec("resourceSelectors:\n  - {apiVersion: v1, kind: ConfigMap, namespace: other}\n");
    CHECK(testing::findings(pp.errors) == std::vector<finding>{{inv, "spec.resourceSelectors[0].namespace"}});
    // Karmada's wording, as its webhook test expects it (not the rules doc's "the same as").
    CHECK(field::aggregate(pp.errors) == "spec.resourceSelectors[0].namespace: Invalid value: \"other\": namespace of "
                                         "resource selector must be the same as the namespace of the policy");
    const auto ok = testing::lint_spec("resourceSelectors:\n  - {apiVersion: v1, kind: ConfigMap, namespace: default}\n");
    CHECK(ok.errors.empty());
    const auto cpp = testing::lint(
        testing::policy_yaml("resourceSelectors:\n  - {apiVersion: v1, kind: ConfigMap, namespace: other}\n",
                             "ClusterPropagationPolicy"));
    CHECK(cpp.errors.empty());
    CHECK(cpp.policy_namespace.empty());
}

TEST_CASE("the overall order follows §6.10")
{
    const auto v = testing::lint_spec(
        "preemption: Always\nresourceSelectors:\n  - {apiVersion: v1, kind: ConfigMap}\n"
        "failover:\n  application:\n    decisionConditions: {}\n"
        "placement:\n  clusterTolerations: [{operator: Gt}]\n  spreadConstraints: [{spreadByField: zone}]\n"
        "  clusterAffinity: {}\n  clusterAffinities:\n    - affinityName: g\n      clusterNames: [a]\n"
        "      overflowAffinities: [{affinityName: o}]\n");
    const std::vector<finding> expected{
        {inv, "spec.placement"},
        {inv, term0 + ".overflowAffinities"},
        {inv, "spec.placement.spreadConstraints"},
        {"FieldValueNotSupported", "spec.placement.clusterTolerations[0].operator"},
        {inv, "spec.propagateDeps"},
        {inv, "spec.resourceSelectors[0].name"},
    };
    CHECK(testing::findings(v.errors) == expected);
}
