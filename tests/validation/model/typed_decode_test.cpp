// SPDX-License-Identifier: Apache-2.0
// An object's apiVersion and kind as karmada-webhook's decoder takes them, in apimachinery's words (each text
// is karmada-webhook's answer to the review case named beside it under tests/conformance/reviews).
#include "model/typed_decode.hpp"

#include <doctest/doctest.h>

#include "doc/load.hpp"

using namespace kpw;
using settings::karmada_release;

namespace {

model::typed_refusal refusal(std::string_view json, std::string_view into = "PropagationPolicy",
                             karmada_release release = karmada_release::v1_18_2)
{
    auto v = doc::parse_json(json);
    REQUIRE(v);
    return model::typed_decode_refusal(*v, into, release);
}

} // namespace

TEST_CASE("the target's own kind, or a missing apiVersion or kind, goes on to the fields")
{
    CHECK(refusal(R"({"apiVersion":"policy.karmada.io/v1alpha1","kind":"PropagationPolicy"})").message.empty());
    CHECK(refusal(R"({"kind":"PropagationPolicy"})").message.empty());
    CHECK(refusal(R"({"apiVersion":"policy.karmada.io/v1alpha1"})").message.empty());
    CHECK(refusal(R"({"spec":{}})").message.empty());
    CHECK(refusal(R"({"apiVersion":"v1alpha1","kind":"ClusterPropagationPolicy"})", "ClusterPropagationPolicy")
              .message == R"(no kind "ClusterPropagationPolicy" is registered for version "v1alpha1" in scheme )"
                          R"("pkg/runtime/scheme.go:111")");
}

TEST_CASE("the other policy kind fails after its fields are decoded (review case propagation-policy-at-cluster-path)")
{
    const auto r = refusal(R"({"apiVersion":"policy.karmada.io/v1alpha1","kind":"PropagationPolicy"})",
                           "ClusterPropagationPolicy");
    CHECK(r.message ==
          "unable to decode policy.karmada.io/v1alpha1, Kind=PropagationPolicy into *v1alpha1.ClusterPropagationPolicy");
    CHECK(r.after_fields);
    const auto deployment = refusal(R"({"apiVersion":"apps/v1","kind":"Deployment"})");
    CHECK(deployment.message == "unable to decode apps/v1, Kind=Deployment into *v1alpha1.PropagationPolicy");
    CHECK_FALSE(deployment.after_fields);
    CHECK(refusal(R"({"apiVersion":"v1","kind":"Pod"})").message ==
          "unable to decode /v1, Kind=Pod into *v1alpha1.PropagationPolicy");
}

TEST_CASE("a kind the scheme does not register names the scheme by its release's apimachinery")
{
    constexpr std::string_view apps = R"({"apiVersion":"apps/v1","kind":"PropagationPolicy"})";
    CHECK(refusal(apps).message ==
          R"(no kind "PropagationPolicy" is registered for version "apps/v1" in scheme "pkg/runtime/scheme.go:111")");
    CHECK(refusal(apps, "PropagationPolicy", karmada_release::v1_17_1).message.ends_with(R"("pkg/runtime/scheme.go:111")"));
    CHECK(refusal(apps, "PropagationPolicy", karmada_release::v1_16_0).message.ends_with(R"("pkg/runtime/scheme.go:110")"));
    CHECK(refusal(R"({"apiVersion":"a/b/c","kind":"PropagationPolicy"})").message ==
          "unexpected GroupVersion string: a/b/c");
}

TEST_CASE("apiVersion and kind are read by encoding/json first (review case update-old-object-array)")
{
    CHECK(refusal("[1]").message ==
          "couldn't get version/kind; json parse error: json: cannot unmarshal array into Go value of type "
          R"(struct { APIVersion string "json:\"apiVersion,omitempty\""; Kind string "json:\"kind,omitempty\"" })");
    CHECK(refusal(R"("x")").message.starts_with(
        "couldn't get version/kind; json parse error: json: cannot unmarshal string into Go value of type struct {"));
    CHECK(refusal(R"({"apiVersion":3,"kind":"PropagationPolicy"})").message ==
          "couldn't get version/kind; json parse error: json: cannot unmarshal number into Go struct field .apiVersion "
          "of type string");
    // Keys match case-insensitively; the first type error is the one reported.
    CHECK(refusal(R"({"KIND":true,"apiversion":[]})").message ==
          "couldn't get version/kind; json parse error: json: cannot unmarshal bool into Go struct field .kind of type "
          "string");
}
