// SPDX-License-Identifier: Apache-2.0
// What each supported Karmada release's API server and webhook decide differently (docs/versions.md).
#include "support.hpp"

using namespace kpw;
using namespace kpw::testing;

namespace {

validation_options on(settings::karmada_release r)
{
    validation_options o;
    o.release = r;
    return o;
}

constexpr auto v1_16 = settings::karmada_release::v1_16_0;
constexpr auto v1_17 = settings::karmada_release::v1_17_1;
constexpr auto v1_18 = settings::karmada_release::v1_18_2;

const char* const overflow_policy = R"(placement:
  clusterAffinities:
    - affinityName: on-prem
      clusterNames: [idc-1]
      overflowAffinities:
        - affinityName: cloud
          clusterNames: [cloud-1]
  replicaScheduling:
    replicaSchedulingType: Divided
    replicaDivisionPreference: Weighted
    weightPreference:
      dynamicWeight: AvailableReplicas
)";

bool has_warning(const manifest_verdict& v, std::string_view id, std::string_view field)
{
    for (const auto& w : v.warnings)
        if (w.id == id && w.field == field)
            return true;
    return false;
}

} // namespace

TEST_CASE("overflowAffinities: admitted by v1.18; a field v1.17 and v1.16 do not define, pruned before their webhook")
{
    CHECK(lint_spec(overflow_policy, on(v1_18)).errors.empty());
    CHECK_FALSE(has_warning(lint_spec(overflow_policy, on(v1_18)), "field-of-later-release",
                            "spec.placement.clusterAffinities[0].overflowAffinities"));
    for (auto r : {v1_16, v1_17}) {
        CAPTURE(settings::release_name(r));
        const auto v = lint_spec(overflow_policy, on(r));
        CHECK(v.errors.empty()); // the API server prunes it (Warn); lint's --validate=strict refuses it (lint.cpp)
        CHECK(has_warning(v, "unknown-field", "spec.placement.clusterAffinities[0].overflowAffinities"));
        REQUIRE(has_warning(v, "field-of-later-release", "spec.placement.clusterAffinities[0].overflowAffinities"));
        // The stored object (what the scheduler reads) has no tiers.
        const doc::value* terms = v.defaulted.find_path({"spec", "placement", "clusterAffinities"});
        REQUIRE(terms != nullptr);
        CHECK(terms->items()[0].find("overflowAffinities") == nullptr);
    }
    const auto v17 = lint_spec(overflow_policy, on(v1_17));
    for (const auto& w : v17.warnings)
        if (w.id == "field-of-later-release")
            CHECK(w.message.starts_with("added in Karmada v1.18.0; Karmada v1.17.1 (--karmada-version) does not define it"));
}

TEST_CASE("a bad overflow tier is v1.18's webhook's business only: older releases never see the field")
{
    const char* bad = R"(placement:
  clusterAffinities:
    - affinityName: on-prem
      clusterNames: [idc-1]
      overflowAffinities:
        - affinityName: on-prem
          clusterNames: [cloud-1]
)";
    CHECK_FALSE(lint_spec(bad, on(v1_18)).errors.empty());
    CHECK(lint_spec(bad, on(v1_17)).errors.empty());
}

TEST_CASE("workloadAffinity exists from v1.17: v1.16 prunes it, so its checks do not run there")
{
    const char* same_key = R"(placement:
  workloadAffinity:
    affinity:
      groupByLabelKey: app
    antiAffinity:
      groupByLabelKey: app
)";
    CHECK(findings(lint_spec(same_key, on(v1_17)).errors) ==
          std::vector<finding>{{"FieldValueInvalid", "spec.placement.workloadAffinity"}});
    const auto v16 = lint_spec(same_key, on(v1_16));
    CHECK(v16.errors.empty());
    CHECK(has_warning(v16, "field-of-later-release", "spec.placement.workloadAffinity"));
}

TEST_CASE("resource selectors in another namespace: denied from v1.17 (validateResourceSelectors), admitted by v1.16")
{
    const char* other_ns = R"(resourceSelectors:
  - apiVersion: apps/v1
    kind: Deployment
    namespace: other
    name: nginx
)";
    for (auto r : {v1_17, v1_18})
        CHECK(findings(lint_spec(other_ns, on(r)).errors) ==
              std::vector<finding>{{"FieldValueInvalid", "spec.resourceSelectors[0].namespace"}});
    CHECK(lint_spec(other_ns, on(v1_16)).errors.empty());
    // The webhook face (serve) decides the same way.
    const std::string spec = R"("resourceSelectors":[{"apiVersion":"apps/v1","kind":"Deployment","namespace":"other"}])";
    CHECK(admit_spec(spec, on(v1_17)).result == admission_verdict::outcome::denied);
    CHECK(admit_spec(spec, on(v1_16)).result == admission_verdict::outcome::allowed);
}

TEST_CASE("clusterTolerations Lt / Gt: denied from v1.18 (validateClusterTolerations), admitted before")
{
    const char* lt = R"(placement:
  clusterTolerations:
    - key: gpu
      operator: Lt
      value: "3"
)";
    CHECK(findings(lint_spec(lt, on(v1_18)).errors) ==
          std::vector<finding>{{"FieldValueNotSupported", "spec.placement.clusterTolerations[0].operator"}});
    CHECK(lint_spec(lt, on(v1_17)).errors.empty());
    CHECK(lint_spec(lt, on(v1_16)).errors.empty());
}

TEST_CASE("affinityName: v1.16 words apimachinery v0.34's IsQualifiedName, v1.17 and later v0.35's IsLabelKey")
{
    // The CRD caps affinityName at 32 characters, so of the two spellings only the too-many-slashes one can
    // reach the webhook (the length messages, characters against bytes, cannot).
    const std::string spec = "placement:\n  clusterAffinities:\n    - affinityName: a/b/c\n      clusterNames: [m2]\n";
    const auto message = [](const manifest_verdict& v) {
        std::string all;
        for (const auto& e : v.errors)
            all += e.str() + "\n";
        return all;
    };
    const std::string v16 = message(lint_spec(spec, on(v1_16)));
    const std::string v17 = message(lint_spec(spec, on(v1_17)));
    CHECK(v16.find("\"a/b/c\": a qualified name must consist of") != std::string::npos);
    CHECK(v17.find("\"a/b/c\": a valid label key must consist of") != std::string::npos);
    CHECK(message(lint_spec(spec, on(v1_18))) == v17);
}

TEST_CASE("the API server's metadata checks word names as the release's apimachinery does")
{
    const std::string yaml = "apiVersion: policy.karmada.io/v1alpha1\nkind: PropagationPolicy\nmetadata:\n  name: p\n"
                             "  namespace: default\n  labels:\n    a/b/c: x\nspec:\n  resourceSelectors:\n"
                             "    - apiVersion: apps/v1\n      kind: Deployment\n      name: nginx\n";
    const auto first = [](const manifest_verdict& v) { return v.errors.empty() ? std::string() : v.errors[0].str(); };
    CHECK(first(lint(yaml, on(v1_16))).find("\"a/b/c\": a qualified name must consist of") != std::string::npos);
    CHECK(first(lint(yaml, on(v1_17))).find("\"a/b/c\": a valid label key must consist of") != std::string::npos);
}

TEST_CASE("Karmada's mutating webhook's JSON type error names embedded structs from v1.17 (sigs.k8s.io/json)")
{
    const char* wrong = "placement:\n  clusterAffinities:\n    - affinityName: a\n      clusterNames: m1\n";
    CHECK(lint_spec(wrong, on(v1_17)).mutating_refusal ==
          "json: cannot unmarshal string into Go struct field ClusterAffinityTerm.spec.placement.clusterAffinities."
          "ClusterAffinity.clusterNames of type []string");
    CHECK(lint_spec(wrong, on(v1_16)).mutating_refusal ==
          "json: cannot unmarshal string into Go struct field ClusterAffinityTerm.spec.placement.clusterAffinities."
          "clusterNames of type []string");
    const std::string spec = R"("placement":{"clusterAffinities":[{"affinityName":"a","clusterNames":"m1"}]})";
    CHECK(admit_spec(spec, on(v1_16)).message.find("clusterAffinities.clusterNames of type") != std::string::npos);
    CHECK(admit_spec(spec, on(v1_18)).message.find("clusterAffinities.ClusterAffinity.clusterNames") !=
          std::string::npos);
}
