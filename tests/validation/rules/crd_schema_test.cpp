// SPDX-License-Identifier: Apache-2.0
// CRD schema constraints (validation-rules §4.1) and object-name checks (§4.2) in the lint pipeline.
#include "support.hpp"

#include <algorithm>

#include "schema/schema.hpp"

using namespace kpw;
using testing::finding;

namespace {

const std::string inv = "FieldValueInvalid", req = "FieldValueRequired", ns = "FieldValueNotSupported",
                  typ = "FieldValueTypeInvalid", tl = "FieldValueTooLong";

struct schema_case {
    const char* name;
    const char* spec;
    std::vector<finding> expected; // must appear, in this relative order
};

bool contains_in_order(const std::vector<finding>& got, const std::vector<finding>& want)
{
    auto it = got.begin();
    for (const auto& w : want) {
        it = std::find(it, got.end(), w);
        if (it == got.end())
            return false;
        ++it;
    }
    return true;
}

std::string message_at(const manifest_verdict& v, std::string_view field)
{
    for (const auto& e : v.errors)
        if (e.field == field)
            return e.str();
    return "<none>";
}

} // namespace

TEST_CASE("the embedded schema is the repository's CRD schema, compiled for both kinds")
{
    CHECK(schema::embedded_crd_schema().find("\"PropagationPolicy\"") != std::string_view::npos);
    REQUIRE(schema::crd_schema("PropagationPolicy") != nullptr);
    REQUIRE(schema::crd_schema("ClusterPropagationPolicy") != nullptr);
    CHECK(schema::crd_schema("Deployment") == nullptr);
    const auto* spec = schema::crd_schema("PropagationPolicy")->property("spec");
    REQUIRE(spec != nullptr);
    CHECK(spec->required == std::vector<std::string>{"resourceSelectors"});
}

TEST_CASE("schema constraints are reported with the apiserver's reasons and paths")
{
    const std::string ca = "spec.placement.clusterAffinities[0]";
    const std::string rs = "spec.placement.replicaScheduling";
    const std::vector<schema_case> cases{
        {"affinityName too long", "placement:\n  clusterAffinities:\n    - affinityName: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\n",
         {{tl, ca + ".affinityName"}}},
        // Missing fields without omitempty reach the schema as Go zero values: Karmada's mutating webhook
        // re-encodes the object first.
        {"affinityName missing", "placement:\n  clusterAffinities:\n    - clusterNames: [a]\n", {{inv, ca + ".affinityName"}}},
        {"overflow affinityName missing",
         "placement:\n  clusterAffinities:\n    - affinityName: g\n      clusterNames: [a]\n"
         "      overflowAffinities: [{clusterNames: [b]}]\n",
         {{inv, ca + ".overflowAffinities[0].affinityName"}}},
        {"replicaSchedulingType enum", "placement:\n  replicaScheduling: {replicaSchedulingType: X}\n",
         {{ns, rs + ".replicaSchedulingType"}}},
        {"division preference and dynamicWeight enums",
         "placement:\n  replicaScheduling:\n    replicaDivisionPreference: Even\n    weightPreference: {dynamicWeight: Max}\n",
         {{ns, rs + ".replicaDivisionPreference"}, {ns, rs + ".weightPreference.dynamicWeight"}}},
        {"static weights", "placement:\n  replicaScheduling:\n    weightPreference:\n      staticWeightList:\n"
                           "        - {targetCluster: {clusterNames: [a]}, weight: 0}\n        - {}\n",
         {{inv, rs + ".weightPreference.staticWeightList[0].weight"},
          {inv, rs + ".weightPreference.staticWeightList[1].weight"}}},
        {"spreadByField enum", "placement:\n  spreadConstraints: [{spreadByField: rack}]\n",
         {{ns, "spec.placement.spreadConstraints[0].spreadByField"}}},
        {"groupByLabelKey required", "placement:\n  workloadAffinity:\n    antiAffinity: {}\n",
         // groupByLabelKey reaches the schema as "" (the oracle agrees)
         {{inv, "spec.placement.workloadAffinity.antiAffinity.groupByLabelKey"}}},
        {"spec enums", "preemption: Sometimes\nconflictResolution: Merge\nactivationPreference: Eager\n",
         {{ns, "spec.preemption"}, {ns, "spec.conflictResolution"}, {ns, "spec.activationPreference"}}},
        {"purge modes", "propagateDeps: true\nfailover:\n  application:\n    decisionConditions: {}\n"
                        "    purgeMode: Immediately\n  cluster:\n    purgeMode: Never\n",
         {{ns, "spec.failover.cluster.purgeMode"}}}, // v1.18.2's application enum still has Immediately
        {"state preservation", "failover:\n  cluster:\n    statePreservation: {}\n  application:\n"
                               "    decisionConditions: {}\n    statePreservation: {rules: [{aliasLabelName: a}]}\n",
         {{req, "spec.failover.cluster.statePreservation.rules"}}}, // a missing jsonPath becomes ""
        {"schedulePriority", "schedulePriority: {priorityClassSource: PodPriorityClass}\n",
         {{ns, "spec.schedulePriority.priorityClassSource"}}}, // a missing priorityClassName becomes ""
    };
    for (const auto& c : cases) {
        const std::string name = c.name;
        CAPTURE(name);
        const auto v = testing::lint_spec(c.spec);
        const auto got = testing::findings(v.errors);
        CAPTURE(got);
        CHECK(contains_in_order(got, c.expected));
    }
}

TEST_CASE("a valid policy has no schema findings")
{
    const auto v = testing::lint_spec(
        "priority: 10\npreemption: Always\nconflictResolution: Overwrite\nactivationPreference: Lazy\n"
        "schedulePriority: {priorityClassSource: KubePriorityClass, priorityClassName: high}\n"
        "placement:\n  replicaScheduling:\n    weightPreference:\n      staticWeightList:\n"
        "        - {targetCluster: {clusterNames: [a]}, weight: 2}\n");
    CHECK(v.errors.empty());
    CHECK(v.warnings.empty());
}

TEST_CASE("schema messages use the apiserver's wording")
{
    const auto v = testing::lint_spec(
        "priority: 1\nplacement:\n  clusterAffinities:\n    - affinityName: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\n"
        "      clusterNames: [a]\n  replicaScheduling:\n    replicaSchedulingType: X\n    weightPreference:\n"
        "      staticWeightList: [{targetCluster: {}, weight: 0}]\n");
    CHECK(message_at(v, "spec.placement.clusterAffinities[0].affinityName") ==
          "spec.placement.clusterAffinities[0].affinityName: Too long: may not be more than 32 bytes");
    CHECK(message_at(v, "spec.placement.replicaScheduling.replicaSchedulingType") ==
          R"(spec.placement.replicaScheduling.replicaSchedulingType: Unsupported value: "X": supported values: "Duplicated", "Divided")");
    const std::string w = "spec.placement.replicaScheduling.weightPreference.staticWeightList[0].weight";
    CHECK(message_at(v, w) == w + ": Invalid value: 0: " + w + " in body should be greater than or equal to 1");
    const auto e = testing::lint_spec("placement:\n  clusterAffinities:\n    - affinityName: ''\n");
    const std::string n = "spec.placement.clusterAffinities[0].affinityName";
    CHECK(message_at(e, n) == n + ": Invalid value: \"\": " + n + " in body should be at least 1 chars long");
}

TEST_CASE("spec and resourceSelectors are required, at least one selector")
{
    // Without spec, Karmada's mutating webhook (which runs before the schema) re-encodes spec as {}: the
    // schema then misses resourceSelectors (karmada-apiserver's answer, from the conformance oracle).
    auto v = testing::lint("apiVersion: policy.karmada.io/v1alpha1\nkind: PropagationPolicy\nmetadata: {name: p}\n");
    CHECK(field::aggregate(v.errors) == "spec.resourceSelectors: Required value");
    v = testing::lint("apiVersion: policy.karmada.io/v1alpha1\nkind: PropagationPolicy\nmetadata: {name: p}\nspec: {}\n");
    CHECK(field::aggregate(v.errors) == "spec.resourceSelectors: Required value");
    v = testing::lint(
        "apiVersion: policy.karmada.io/v1alpha1\nkind: PropagationPolicy\nmetadata: {name: p}\nspec: {resourceSelectors: []}\n");
    CHECK(field::aggregate(v.errors) ==
          "spec.resourceSelectors: Invalid value: 0: spec.resourceSelectors in body should have at least 1 items");
}

TEST_CASE("metadata.name must be a DNS-1123 subdomain")
{
    auto named = [](std::string_view name) {
        return testing::lint("apiVersion: policy.karmada.io/v1alpha1\nkind: ClusterPropagationPolicy\nmetadata:\n" +
                             std::string(name) + "spec:\n  resourceSelectors: [{apiVersion: v1, kind: Secret}]\n");
    };
    CHECK(field::aggregate(named("  name: Bad_Name\n").errors) ==
          "metadata.name: Invalid value: \"Bad_Name\": a lowercase RFC 1123 subdomain must consist of lower case "
          "alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. "
          "'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')");
    CHECK(field::aggregate(named("  labels: {a: b}\n").errors) ==
          "metadata.name: Required value: name or generateName is required");
    CHECK(named("  generateName: p-\n").errors.empty());
    CHECK(named("  name: a-very.long-but.valid-name\n").errors.empty());
    CHECK(testing::findings(named("  name: " + std::string(254, 'a') + "\n").errors) ==
          std::vector<finding>{{inv, "metadata.name"}});
}

TEST_CASE("metadata labels, annotations and finalizers are checked as the API server checks them")
{
    auto with_meta = [](std::string_view meta) {
        return testing::lint("apiVersion: policy.karmada.io/v1alpha1\nkind: ClusterPropagationPolicy\nmetadata:\n"
                             "  name: p\n" +
                             std::string(meta) + "spec:\n  resourceSelectors: [{apiVersion: v1, kind: Secret}]\n");
    };
    CHECK(field::aggregate(with_meta("  labels: {app: has space}\n").errors) ==
          "metadata.labels: Invalid value: \"has space\": a valid label must be an empty string or consist of "
          "alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. "
          "'MyValue',  or 'my_value',  or '12345', regex used for validation is "
          "'(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')");
    CHECK(testing::findings(with_meta("  labels: {\"bad key!\": x}\n").errors) ==
          std::vector<finding>{{inv, "metadata.labels"}});
    CHECK(testing::findings(with_meta("  labels: {app: " + std::string(64, 'a') + "}\n").errors) ==
          std::vector<finding>{{inv, "metadata.labels"}});
    CHECK(with_meta("  labels: {app: \"\", example.com/tier: Web_1}\n").errors.empty());
    // Annotation keys are qualified names in any case; values are free; 256 KiB in all.
    CHECK(with_meta("  annotations: {Example.com/Note: \"any text at all\"}\n").errors.empty());
    CHECK(testing::findings(with_meta("  annotations: {\"a/b/c\": x}\n").errors) ==
          std::vector<finding>{{inv, "metadata.annotations"}});
    CHECK(field::aggregate(with_meta("  annotations: {note: " + std::string(256 * 1024, 'x') + "}\n").errors) ==
          "metadata.annotations: Too long: may not be more than 262144 bytes");
    // Finalizers: qualified names; orphan and foregroundDeletion exclude each other.
    CHECK(with_meta("  finalizers: [example.com/cleanup, orphan]\n").errors.empty());
    CHECK(testing::findings(with_meta("  finalizers: [\"bad finalizer\"]\n").errors) ==
          std::vector<finding>{{inv, "metadata.finalizers"}});
    // The API server checks the object Karmada's mutating webhook returned: on CREATE it has appended its
    // controller finalizer, which the message lists (karmada-apiserver's text, from the conformance oracle).
    CHECK(field::aggregate(with_meta("  finalizers: [orphan, foregroundDeletion]\n").errors) ==
          "metadata.finalizers: Invalid value: [\"orphan\",\"foregroundDeletion\",\"karmada.io/"
          "cluster-propagation-policy-controller\"]: finalizer orphan and foregroundDeletion cannot be both set");
}

TEST_CASE("fields a live Karmada re-emits empty are warnings, not errors (verdict parity)")
{
    const auto v = testing::lint_spec("resourceSelectors: [{name: x}]\npropagateDeps: true\nfailover: {application: {}}\n");
    CHECK(v.errors.empty());
    CHECK(testing::warning_ids(v.warnings) ==
          std::vector<std::string>{"required-masked", "required-masked", "required-masked"});
    CHECK(v.warnings[0].field == "spec.resourceSelectors[0].apiVersion");
    CHECK(v.warnings[2].field == "spec.failover.application.decisionConditions");
}

TEST_CASE("unknown fields are warnings with their path; nulls count as absent")
{
    const auto v = testing::lint("apiVersion: policy.karmada.io/v1alpha1\nkind: PropagationPolicy\nmetadata: {name: p}\n"
                                 "status: {}\nspec:\n  resourceSelectors: [{apiVersion: v1, kind: Secret, nmae: x}]\n"
                                 "  placement: {clusterAfinity: {}, replicaScheduling: null}\n  priority: null\n");
    CHECK(v.errors.empty());
    REQUIRE(v.warnings.size() == 3);
    CHECK(v.warnings[0].id == "unknown-field");
    CHECK(v.warnings[0].field == "status");
    CHECK(v.warnings[1].field == "spec.resourceSelectors[0].nmae");
    CHECK(v.warnings[2].field == "spec.placement.clusterAfinity");
    CHECK(v.defaulted.find_path({"spec", "priority"})->as_int() == 0);
    CHECK(v.defaulted.find_path({"spec", "placement", "clusterAfinity"}) == nullptr);
}

TEST_CASE("a value of another JSON type than Karmada's Go field is the mutating webhook's decode error")
{
    // Before the schema runs, Karmada's mutating webhook decodes the object (sent with sorted keys)
    // into its Go types: the first type error in that order, in encoding/json's words, and the
    // validating webhook's errors wait behind it.
    const auto v = testing::lint_spec("priority: high\nplacement:\n  clusterAffinity:\n    clusterNames: [1]\n");
    CHECK(v.mutating_refusal == "json: cannot unmarshal number into Go struct field "
                                "ClusterAffinity.spec.placement.clusterAffinity.clusterNames of type string");
    CHECK(v.mutating_refusal_at == "spec.placement.clusterAffinity.clusterNames[0]");
    CHECK(testing::lint_spec("priority: high\n").mutating_refusal ==
          "json: cannot unmarshal string into Go struct field PropagationSpec.spec.priority of type int32");
    const auto second = testing::lint_spec(
        "resourceSelectors:\n- apiVersion: apps/v1\n  kind: Deployment\n- apiVersion: v1\n  kind: 7\n");
    CHECK(second.mutating_refusal == "json: cannot unmarshal number into Go struct field "
                                     "ResourceSelector.spec.resourceSelectors.kind of type string");
    CHECK(second.mutating_refusal_at == "spec.resourceSelectors[1].kind");
    CHECK(testing::lint_spec("priority: 3\n").mutating_refusal.empty());
    // metadata is the API server's to decode (schema/object_meta): not the webhook's error.
    CHECK(testing::lint("apiVersion: policy.karmada.io/v1alpha1\nkind: PropagationPolicy\nmetadata:\n  name: p\n"
                        "  labels: {a: 1}\nspec:\n  resourceSelectors:\n  - {apiVersion: v1, kind: Pod}\n")
              .mutating_refusal.empty());
}

// Karmada's mutating webhook decodes the object into its Go types and patches it to the re-encoded one
// before the API server runs the schema (karmada: pkg/webhook/propagationpolicy/mutating.go,
// admission.PatchResponseFromRaw): the schema sees Go zero values, not omissions (conformance cases
// missing-*, empty-enum-value-dropped, label-selector-requirement-without-operator).
TEST_CASE("the schema checks the object Karmada's mutating webhook re-encoded")
{
    const auto name = testing::lint_spec("placement:\n  clusterAffinities:\n  - {}\n");
    CHECK(field::aggregate(name.errors) == "spec.placement.clusterAffinities[0].affinityName: Invalid value: \"\": "
                                           "spec.placement.clusterAffinities[0].affinityName in body should be at "
                                           "least 1 chars long");
    const auto weight =
        testing::lint_spec("placement:\n  replicaScheduling:\n    weightPreference:\n      staticWeightList:\n      - {}\n");
    CHECK(testing::findings(weight.errors) ==
          std::vector<finding>{{inv, "spec.placement.replicaScheduling.weightPreference.staticWeightList[0].weight"}});
    const auto target = testing::lint_spec(
        "placement:\n  replicaScheduling:\n    weightPreference:\n      staticWeightList:\n      - weight: 2\n");
    CHECK(target.errors.empty());
    CHECK(testing::warning_ids(target.warnings) == std::vector<std::string>{"required-masked"});
    const auto empty_enum = testing::lint_spec("placement:\n  replicaScheduling:\n    replicaSchedulingType: \"\"\n");
    CHECK(empty_enum.errors.empty());
    CHECK(testing::warning_ids(empty_enum.warnings) == std::vector<std::string>{"value-masked"});
    CHECK(testing::lint_spec("placement:\n  clusterAffinity:\n    labelSelector:\n      matchExpressions:\n"
                             "      - values: [gold]\n")
              .errors.empty());
    // The validating webhook then sees key and operator "" (the schema has no constraint on them).
    const auto field_op =
        testing::lint_spec("placement:\n  clusterAffinities:\n  - affinityName: a\n    fieldSelector:\n"
                           "      matchExpressions:\n      - {}\n");
    REQUIRE(field_op.errors.size() == 1);
    CHECK(field_op.errors[0].field == "spec.placement.clusterAffinities[0].fieldSelector");
    CHECK(field_op.errors[0].detail.starts_with("unsupported key \"\""));
}

TEST_CASE("the mutating webhook's decode error names Karmada's Go types and is the whole answer")
{
    const auto named = testing::lint_spec("placement:\n  replicaScheduling:\n    replicaDivisionPreference: 1\n"
                                          "    replicaSchedulingType: Divided\n");
    CHECK(named.mutating_refusal == "json: cannot unmarshal number into Go struct field ReplicaSchedulingStrategy."
                                    "spec.placement.replicaScheduling.replicaDivisionPreference of type "
                                    "v1alpha1.ReplicaDivisionPreference");
    CHECK(named.errors.empty()); // the schema's type error is never reached
    CHECK(named.warnings.empty()); // the schema's type error behind it says the same
    CHECK(testing::lint_spec("placement:\n  clusterAffinity:\n    fieldSelector:\n      matchExpressions:\n"
                             "      - {key: 1, operator: In, values: [a]}\n")
              .mutating_refusal == "json: cannot unmarshal number into Go struct field NodeSelectorRequirement."
                                   "spec.placement.clusterAffinity.fieldSelector.matchExpressions.key of type string");
    CHECK(testing::lint_spec("placement:\n  clusterAffinity:\n    fieldSelector:\n      matchExpressions: [1]\n")
              .mutating_refusal == "json: cannot unmarshal number into Go struct field FieldSelector."
                                   "spec.placement.clusterAffinity.fieldSelector.matchExpressions of type "
                                   "v1.NodeSelectorRequirement");
    // A promoted field of the embedded ClusterAffinity: encoding/json puts the Go field's name in the path.
    const auto embedded = testing::lint_spec("placement:\n  clusterAffinities:\n  - affinityName: a\n"
                                             "    labelSelector: {matchLabels: {zone: 1}}\n");
    CHECK(embedded.mutating_refusal == "json: cannot unmarshal number into Go struct field LabelSelector.spec.placement."
                                       "clusterAffinities.ClusterAffinity.labelSelector.matchLabels of type string");
    CHECK(embedded.mutating_refusal_at == "spec.placement.clusterAffinities[0].labelSelector.matchLabels.zone");
    CHECK(testing::lint_spec("placement:\n  clusterTolerations:\n  - {operator: 1}\n").mutating_refusal ==
          "json: cannot unmarshal number into Go struct field Toleration.spec.placement.clusterTolerations.operator "
          "of type v1.TolerationOperator");
}

TEST_CASE("v1.18.2's CRD still admits the deprecated purge modes, with a warning of ours")
{
    const auto immediately = testing::lint_spec(
        "propagateDeps: true\nfailover:\n  application:\n    decisionConditions: {tolerationSeconds: 60}\n"
        "    purgeMode: Immediately\n");
    CHECK(immediately.errors.empty());
    CHECK(testing::warning_ids(immediately.warnings) == std::vector<std::string>{"purge-mode-deprecated"});
    // Graciously is Gracefully to Karmada's webhooks: the mutating one defaults gracePeriodSeconds to 600
    // (SetDefaultGracePeriodSeconds), so it is admitted; the validating one still checks a value given.
    const auto graciously = testing::lint_spec(
        "propagateDeps: true\nfailover:\n  application:\n    decisionConditions: {tolerationSeconds: 60}\n"
        "    purgeMode: Graciously\n");
    CHECK(graciously.errors.empty());
    CHECK(testing::warning_ids(graciously.warnings) == std::vector<std::string>{"purge-mode-deprecated"});
    const auto zero = testing::lint_spec(
        "propagateDeps: true\nfailover:\n  application:\n    decisionConditions: {tolerationSeconds: 60}\n"
        "    purgeMode: Graciously\n    gracePeriodSeconds: 0\n");
    CHECK(testing::findings(zero.errors) == std::vector<finding>{{inv, "spec.failover.application.gracePeriodSeconds"}});
}
