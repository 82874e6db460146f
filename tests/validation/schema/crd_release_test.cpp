// SPDX-License-Identifier: Apache-2.0
// Reading the Karmada release off a PropagationPolicy CRD, and the per-release embedded schemas.
#include "schema/crd_release.hpp"

#include <doctest/doctest.h>

#include "doc/load.hpp"
#include "schema/schema.hpp"

using namespace kpw;

namespace {

// The release's PropagationPolicy CRD as the API server serves it: the embedded schema under one served
// version (and an unserved one first, which must not count).
doc::value crd_of(settings::karmada_release release, std::string_view extra_spec_property = {})
{
    auto all = doc::parse_json(schema::embedded_crd_schema());
    REQUIRE(all.ok());
    const doc::value* openapi = all->find_path({settings::release_name(release), "PropagationPolicy", "schema"});
    REQUIRE(openapi != nullptr);
    doc::value schema = *openapi;
    if (!extra_spec_property.empty())
        schema.find("properties")->find("spec")->find("properties")->set(std::string(extra_spec_property),
                                                                          *doc::parse_json(R"({"type":"string"})"));
    auto crd = doc::parse_json(R"({"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
        "spec":{"versions":[{"name":"v1alpha0","served":false,"schema":{"openAPIV3Schema":{}}},
                            {"name":"v1alpha1","served":true,"schema":{"openAPIV3Schema":null}}]}})");
    REQUIRE(crd.ok());
    crd->find("spec")->find("versions")->items()[1].find("schema")->set("openAPIV3Schema", std::move(schema));
    return *crd;
}

} // namespace

TEST_CASE("each supported release's own CRD is recognised as that release")
{
    for (auto r : settings::supported_karmada_releases()) {
        CAPTURE(settings::release_name(r));
        const auto got = schema::release_of_crd(crd_of(r));
        CHECK(got.release == r);
        CHECK_FALSE(got.newer_than_newest);
    }
    CHECK(schema::release_of_crd(crd_of(settings::karmada_release::v1_17_1)).reason ==
          "the PropagationPolicy CRD on the server defines spec.placement.workloadAffinity (Karmada v1.17.0+) and not "
          "spec.placement.clusterAffinities[].overflowAffinities (Karmada v1.18.0+)");
}

TEST_CASE("a CRD with fields the newest release lacks is a newer Karmada, answered as the newest")
{
    const auto got = schema::release_of_crd(crd_of(settings::newest_karmada_release, "someFutureField"));
    CHECK(got.release == settings::newest_karmada_release);
    CHECK(got.newer_than_newest);
    CHECK(got.reason.find("a newer Karmada") != std::string::npos);
}

TEST_CASE("a CRD without a served schema answers as the newest release and says why")
{
    auto crd = doc::parse_json(R"({"spec":{"versions":[{"name":"v1alpha1","served":true}]}})");
    REQUIRE(crd.ok());
    const auto got = schema::release_of_crd(*crd);
    CHECK(got.release == settings::newest_karmada_release);
    CHECK(got.reason.find("no served version with a schema") != std::string::npos);
}

TEST_CASE("the releases' schemas differ by the fields the changes name, and pruning drops them")
{
    const auto* v16 = schema::crd_schema("PropagationPolicy", settings::karmada_release::v1_16_0);
    const auto* v17 = schema::crd_schema("PropagationPolicy", settings::karmada_release::v1_17_1);
    const auto* v18 = schema::crd_schema("PropagationPolicy", settings::karmada_release::v1_18_2);
    REQUIRE((v16 && v17 && v18));
    const auto* placement16 = v16->property("spec")->property("placement");
    const auto* placement17 = v17->property("spec")->property("placement");
    CHECK(placement16->property("workloadAffinity") == nullptr);
    CHECK(placement17->property("workloadAffinity") != nullptr);
    CHECK(placement17->property("clusterAffinities")->items.front().property("overflowAffinities") == nullptr);
    CHECK(v18->property("spec")->property("placement")->property("clusterAffinities")->items.front().property(
              "overflowAffinities") != nullptr);

    auto object = doc::parse_json(R"({"apiVersion":"policy.karmada.io/v1alpha1","kind":"PropagationPolicy",
        "metadata":{"name":"p","unknownMeta":1},"spec":{"placement":{"workloadAffinity":{},
        "clusterAffinities":[{"affinityName":"a","overflowAffinities":[]}]},"bogus":true}})");
    REQUIRE(object.ok());
    schema::prune_unknown_fields(*v16, *object);
    CHECK(object->find_path({"spec", "bogus"}) == nullptr);
    CHECK(object->find_path({"spec", "placement", "workloadAffinity"}) == nullptr);
    CHECK(object->find_path({"spec", "placement", "clusterAffinities"})->items()[0].find("overflowAffinities") ==
          nullptr);
    CHECK(object->find_path({"spec", "placement", "clusterAffinities"})->items()[0].find("affinityName") != nullptr);
    CHECK(object->find_path({"metadata", "unknownMeta"}) != nullptr); // metadata is ObjectMeta's to decode
}
