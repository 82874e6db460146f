// SPDX-License-Identifier: Apache-2.0
// Exact denial texts, compared with Karmada's wording (validation-rules §5, §6, §7).
#include "support.hpp"

using namespace kpw;

namespace {

std::string denial(std::string_view spec_json, validation_options opts = {})
{
    const auto v = testing::admit_spec(spec_json, opts);
    CHECK(v.result == admission_verdict::outcome::denied);
    return v.message;
}

const std::string name_regex =
    "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric "
    "character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is "
    "'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";

} // namespace

TEST_CASE("one error renders bare, with the defaulted placement as compact Go JSON")
{
    CHECK(denial(R"("placement":{"clusterAffinities":[{"clusterNames":["a"],"affinityName":"g"}],)"
                 R"("clusterAffinity":{"exclude":["x"],"clusterNames":["a"]}})") ==
          "spec.placement: Invalid value: "
          R"({"clusterAffinity":{"clusterNames":["a"],"exclude":["x"]},"clusterAffinities":[{"affinityName":"g","clusterNames":["a"]}]})"
          ": clusterAffinities cannot co-exist with clusterAffinity");
}

TEST_CASE("several errors render bracketed, comma separated, in order")
{
    CHECK(denial(R"("placement":{"clusterAffinities":[{"affinityName":""}]})") ==
          "[spec.placement.clusterAffinities[0]: Invalid value: \"\": name part must be non-empty, "
          "spec.placement.clusterAffinities[0]: Invalid value: \"\": name part " +
              name_regex + "]");
}

TEST_CASE("identical errors are reported once (A2 repeated, S5 wording)")
{
    CHECK(denial(R"("placement":{"clusterAffinities":[{"affinityName":"g"},{"affinityName":"g"},{"affinityName":"g"}]})") ==
          "spec.placement.clusterAffinities: Invalid value: "
          R"([{"affinityName":"g"},{"affinityName":"g"},{"affinityName":"g"}])"
          ": each affinity term in a policy must have a unique name");
    CHECK(denial(R"("placement":{"spreadConstraints":[{"spreadByField":"region","minGroups":1},)"
                 R"({"spreadByField":"region","minGroups":1},{"spreadByField":"cluster","minGroups":1}]})") ==
          "spec.placement.spreadConstraints: Invalid value: "
          R"([{"spreadByField":"region","minGroups":1},{"spreadByField":"region","minGroups":1},{"spreadByField":"cluster","minGroups":1}])"
          ": multiple region spread constraints are not allowed");
}

TEST_CASE("overflow scheduling mode: project message by default, upstream's with the flag")
{
    const std::string aggregated =
        R"("placement":{"clusterAffinities":[{"affinityName":"g","clusterNames":["a"],)"
        R"("overflowAffinities":[{"affinityName":"o","clusterNames":["b"]}]}],)"
        R"("replicaScheduling":{"replicaSchedulingType":"Divided","replicaDivisionPreference":"Aggregated"}})";
    const std::string prefix = "spec.placement.clusterAffinities[0].overflowAffinities: Invalid value: "
                               R"([{"affinityName":"o","clusterNames":["b"]}]: )";
    CHECK(denial(aggregated) == prefix +
                                    "overflowAffinities require replicaScheduling with replicaSchedulingType "
                                    "Divided, replicaDivisionPreference Weighted and weightPreference.dynamicWeight set");
    validation_options upstream;
    upstream.allow_aggregated_overflow = true;
    CHECK(testing::admit_spec(aggregated, upstream).result == admission_verdict::outcome::allowed);
    const std::string duplicated =
        R"("placement":{"clusterAffinities":[{"affinityName":"g","clusterNames":["a"],)"
        R"("overflowAffinities":[{"affinityName":"o","clusterNames":["b"]}]}],)"
        R"("replicaScheduling":{"replicaSchedulingType":"Duplicated"}})";
    CHECK(denial(duplicated, upstream) ==
          prefix + "overflowAffinities can only be used together with dynamic weight or aggregated scheduling");
}

TEST_CASE("field selector, toleration, suspension and failover texts")
{
    CHECK(denial(R"("placement":{"clusterAffinity":{"fieldSelector":{"matchExpressions":[{"key":"<x>","operator":"In"}]}}})") ==
          "spec.placement.clusterAffinity.fieldSelector: Invalid value: "
          R"({"matchExpressions":[{"key":"\u003cx\u003e","operator":"In"}]})"
          R"(: unsupported key "<x>", must be provider, region, or zone)");
    CHECK(denial(R"("placement":{"clusterTolerations":[{"key":"k","operator":"Lt"}]})") ==
          R"(spec.placement.clusterTolerations[0].operator: Unsupported value: "Lt": supported values: "", "Exists", "Equal")");
    CHECK(denial(R"("suspension":{"dispatchingOnClusters":{"clusterNames":["a"]},"dispatching":true})") ==
          "spec.suspension.suspension: Invalid value: "
          R"({"dispatching":true,"dispatchingOnClusters":{"clusterNames":["a"]}})"
          ": suspension dispatching cannot co-exist with dispatchingOnClusters.clusterNames");
    CHECK(denial(R"("propagateDeps":true,"failover":{"application":{"decisionConditions":{"tolerationSeconds":300},)"
                 R"("purgeMode":"Gracefully"}})") ==
          "spec.failover.application.gracePeriodSeconds: Invalid value: null: should not be empty when purgeMode is "
          "gracefully");
    CHECK(denial(R"("preemption":"Always","resourceSelectors":[{"apiVersion":"v1","kind":"Secret","namespace":"default"}])") ==
          "spec.resourceSelectors[0].name: Invalid value: \"\": name cannot be empty if preemption is Always, the "
          "empty name may cause unexpected resources preemption");
}

TEST_CASE("label-key messages: three parts, prefixes, long names")
{
    auto key_denial = [](std::string_view key) {
        return denial(R"("placement":{"workloadAffinity":{"affinity":{"groupByLabelKey":")" + std::string(key) + R"("}}})");
    };
    const std::string at = "spec.placement.workloadAffinity.affinity.groupByLabelKey: Invalid value: ";
    CHECK(key_denial("a/b/c") == at + "\"a/b/c\": a valid label key " + name_regex +
                                     " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')");
    CHECK(key_denial("/x") == at + "\"/x\": prefix part must be non-empty");
    CHECK(key_denial("Example.com/x") ==
          at + "\"Example.com/x\": prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric "
               "characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', "
               "regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')");
    const std::string long_name(64, 'a');
    CHECK(key_denial(long_name) == at + "\"" + long_name + "\": name part must be no more than 63 bytes");
    CHECK(testing::admit_spec(R"("placement":{"workloadAffinity":{"affinity":{"groupByLabelKey":"example.com/My_Key.1"}}})")
              .result == admission_verdict::outcome::allowed);
}

// Every A2 error renders the same (the whole list as the value), so Karmada's aggregate shows one; the
// rules emit one too, at the first repeated name. Per repeat, a policy of n repeated names held n copies
// of the list's JSON: quadratic, terabytes for a 3 MiB AdmissionReview.
TEST_CASE("repeated affinity names give one error, not one copy of the list per repeat")
{
    std::string terms;
    for (int i = 0; i < 3000; ++i)
        terms += std::string(i ? "," : "") + R"({"affinityName":"g)" + std::to_string(i % 2) + R"("})";
    std::string yaml = "placement:\n  clusterAffinities:\n";
    for (int i = 0; i < 3000; ++i)
        yaml += "    - affinityName: g" + std::to_string(i % 2) + "\n";
    const auto v = testing::lint_spec(yaml);
    std::size_t repeats = 0;
    for (const auto& e : v.errors)
        if (e.detail == "each affinity term in a policy must have a unique name") {
            ++repeats;
            CHECK(e.field == "spec.placement.clusterAffinities");
            CHECK(e.locate_at == "spec.placement.clusterAffinities[2].affinityName");
        }
    CHECK(repeats == 1);
    CHECK(denial(R"("placement":{"clusterAffinities":[)" + terms + "]}") ==
          "spec.placement.clusterAffinities: Invalid value: [" + terms + "]: each affinity term in a policy must have a unique name");
}
