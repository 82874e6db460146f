// SPDX-License-Identifier: Apache-2.0
// AdmissionReview decoding and encoding with literal bodies (v1, v1beta1, broken envelopes).
#include "admission/review_codec.hpp"

#include <doctest/doctest.h>

#include "admission/response.hpp"

using namespace kpw::admission;

namespace {

constexpr std::string_view v1_create = R"({
  "apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview",
  "request": {
    "uid": "705ab4f5-6393-11e8-b7cc-42010a800002",
    "kind": {"group": "policy.karmada.io", "version": "v1alpha1", "kind": "PropagationPolicy"},
    "resource": {"group": "policy.karmada.io", "version": "v1alpha1", "resource": "propagationpolicies"},
    "name": "nginx", "namespace": "default", "operation": "CREATE",
    "userInfo": {"username": "admin", "groups": ["system:masters"]},
    "object": {"apiVersion": "policy.karmada.io/v1alpha1", "kind": "PropagationPolicy",
               "metadata": {"name": "nginx", "namespace": "default"}, "spec": {}},
    "oldObject": null, "dryRun": false,
    "options": {"apiVersion": "meta.k8s.io/v1", "kind": "CreateOptions"}
  }
})";

} // namespace

TEST_CASE("a v1 CREATE review decodes into the request fields")
{
    const auto d = decode_review(v1_create);
    REQUIRE_MESSAGE(d.ok(), d.error);
    CHECK(d.req.review_api_version == "admission.k8s.io/v1");
    CHECK(d.req.uid == "705ab4f5-6393-11e8-b7cc-42010a800002");
    CHECK(d.req.kind.group == "policy.karmada.io");
    CHECK(d.req.kind.version == "v1alpha1");
    CHECK(d.req.kind.kind == "PropagationPolicy");
    CHECK(d.req.operation == "CREATE");
    CHECK(d.req.name == "nginx");
    CHECK(d.req.ns == "default");
    CHECK_FALSE(d.req.dry_run);
    CHECK(d.req.object.is_mapping());
    CHECK(d.req.object.find_path({"metadata", "name"})->text() == "nginx");
    CHECK(d.req.old_object.is_null());
}

TEST_CASE("a v1beta1 UPDATE review of a cluster-scoped object decodes")
{
    const auto d = decode_review(R"({"apiVersion":"admission.k8s.io/v1beta1","kind":"AdmissionReview",
        "request":{"uid":"b1","operation":"UPDATE","name":"cpp","dryRun":true,
        "kind":{"group":"policy.karmada.io","version":"v1alpha1","kind":"ClusterPropagationPolicy"},
        "object":{"metadata":{"name":"cpp"}},"oldObject":{"metadata":{"name":"cpp"}}}})");
    REQUIRE_MESSAGE(d.ok(), d.error);
    CHECK(d.req.review_api_version == "admission.k8s.io/v1beta1");
    CHECK(d.req.ns.empty());
    CHECK(d.req.dry_run);
    CHECK(d.req.old_object.is_mapping());
}

TEST_CASE("broken envelopes are refused with a message saying what is wrong")
{
    struct example {
        std::string_view body, message;
    };
    const example cases[] = {
        {"not json", "couldn't decode the AdmissionReview: invalid JSON: Invalid value at line 1, column 2"},
        {"[]", "the AdmissionReview must be a JSON object"},
        {R"({"apiVersion":3,"kind":"AdmissionReview","request":{"uid":"u"}})",
         "the AdmissionReview's apiVersion must be a string"},
        {R"({"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","request":{"uid":3}})",
         "request.uid must be a string"},
        {R"({"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","request":{"uid":"u","name":3}})",
         "request.name must be a string"},
        {R"({"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","request":{"uid":"u","kind":"PP"}})",
         "request.kind must be an object"},
    };
    for (const auto& c : cases) {
        CAPTURE(c.body);
        const auto d = decode_review(c.body);
        CHECK(d.error == c.message);
    }
}

TEST_CASE("any apiVersion and kind are read and echoed, and a review without request is an empty one")
{
    // controller-runtime decodes into a type its scheme does not register: apimachinery takes any GVK, and
    // writeResponseTyped answers with it.
    auto d = decode_review(R"({"apiVersion":"admission.k8s.io/v2","kind":"Review","request":{"uid":"u"}})");
    REQUIRE(d.ok());
    CHECK(encode_review(allowed(), d.req.review_api_version, d.req.review_kind, d.req.uid) ==
          R"({"kind":"Review","apiVersion":"admission.k8s.io/v2","response":{"uid":"u","allowed":true,"status":{"metadata":{},"code":200}}})");
    d = decode_review(R"({"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview"})");
    CHECK(d.ok());
    CHECK(d.req.operation.empty());
    CHECK(d.req.object.is_null());
    CHECK(encode_review(allowed(), "", "AdmissionReview", "").starts_with(R"({"kind":"AdmissionReview","response":)"));
}

TEST_CASE("a review without a uid is decoded and answered with none, as controller-runtime does")
{
    for (const std::string_view body : {R"({"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","request":{"operation":"CREATE"}})",
                                        R"({"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","request":{"uid":""}})"}) {
        CAPTURE(body);
        const auto d = decode_review(body);
        CHECK(d.ok());
        CHECK(d.req.uid.empty());
    }
}

TEST_CASE("a failed decode keeps the apiVersion and uid it could read")
{
    const auto d = decode_review(
        R"({"apiVersion":"admission.k8s.io/v1beta1","kind":"AdmissionReview","request":{"uid":"u9","dryRun":"yes"}})");
    REQUIRE_FALSE(d.ok());
    CHECK(d.req.review_api_version == "admission.k8s.io/v1beta1");
    CHECK(d.req.uid == "u9");
}

TEST_CASE("an allowed response encodes exactly as controller-runtime does")
{
    CHECK(encode_review(allowed(), "admission.k8s.io/v1", "AdmissionReview", "u1") ==
          R"({"kind":"AdmissionReview","apiVersion":"admission.k8s.io/v1","response":{"uid":"u1","allowed":true,)"
          R"("status":{"metadata":{},"code":200}}})");
}

TEST_CASE("a denial encodes message, reason and code in metav1.Status order, with warnings")
{
    const auto r = with_warnings(denied(R"(spec: "a" <b>)"), {"w1"});
    CHECK(encode_review(r, "admission.k8s.io/v1beta1", "AdmissionReview", "u2") ==
          R"({"kind":"AdmissionReview","apiVersion":"admission.k8s.io/v1beta1","response":{"uid":"u2",)"
          R"("allowed":false,"status":{"metadata":{},"message":"spec: \"a\" \u003cb\u003e","reason":"Forbidden",)"
          R"("code":403},"warnings":["w1"]}})");
}

TEST_CASE("an envelope error without apiVersion is answered as v1 and never carries a patch")
{
    const std::string out = encode_review(errored(400, "request body is empty"), "", "", "");
    CHECK(out == R"({"kind":"AdmissionReview","apiVersion":"admission.k8s.io/v1","response":{"uid":"",)"
                 R"("allowed":false,"status":{"metadata":{},"message":"request body is empty","code":400}}})");
    CHECK(out.find("patch") == std::string::npos);
}
