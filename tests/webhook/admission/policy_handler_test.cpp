// SPDX-License-Identifier: Apache-2.0
// policy_handler: operation and kind dispatch, object checks, verdict mapping (rule details aside).
#include "admission/policy_handler.hpp"

#include <doctest/doctest.h>

#include "doc/load.hpp"

using namespace kpw::admission;

namespace {

kpw::doc::value json(std::string_view text)
{
    auto v = kpw::doc::parse_json(text);
    REQUIRE(v.ok());
    return *v;
}

constexpr std::string_view pp = R"({"apiVersion":"policy.karmada.io/v1alpha1","kind":"PropagationPolicy",
  "metadata":{"name":"nginx","namespace":"default",
              "labels":{"propagationpolicy.karmada.io/permanent-id":"4f3c5a1e-0000-4000-8000-000000000001"}},
  "spec":{"resourceSelectors":[{"apiVersion":"apps/v1","kind":"Deployment","name":"nginx"}],
          "placement":{"clusterAffinity":{"clusterNames":["member1"]}},
          "schedulerName":"default-scheduler","conflictResolution":"Abort","preemption":"Never","priority":0}})";

request make(std::string operation, std::string kind = "PropagationPolicy")
{
    request r;
    r.review_api_version = "admission.k8s.io/v1";
    r.uid = "uid-0001";
    r.operation = std::move(operation);
    r.kind = {"policy.karmada.io", "v1alpha1", std::move(kind)};
    r.name = "nginx";
    r.ns = "default";
    return r;
}

// What the validation module itself says about the request: the handler must agree with it.
kpw::admission_verdict direct(const request& r, bool require_label = true)
{
    const auto kind = *kpw::policy_kind_of("policy.karmada.io/v1alpha1", r.kind.kind);
    const bool update = r.operation == "UPDATE";
    return kpw::validate_admission(kind, update ? kpw::admission_operation::update : kpw::admission_operation::create,
                                   r.object, update ? &r.old_object : nullptr, r.ns, require_label, {});
}

} // namespace

TEST_CASE("DELETE and CONNECT are allowed without looking at the object")
{
    const policy_handler h({});
    for (const char* op : {"DELETE", "CONNECT"}) {
        request r = make(op);
        r.object = json(R"("not an object")");
        const response res = h.handle(r);
        CHECK(res.allowed);
        CHECK(res.code == 200);
    }
}

TEST_CASE("an operation other than UPDATE, DELETE or CONNECT is validated as a create, as Karmada's handlers do")
{
    request r = make("PATCH");
    r.object = json(pp);
    r.object.find("metadata")->erase("labels"); // unlabelled: the create rules deny it
    const response res = policy_handler({}).handle(r);
    CHECK_FALSE(res.allowed);
    CHECK(res.code == 403);
    CHECK(res.message.starts_with("label propagationpolicy.karmada.io/permanent-id is required"));
    CHECK(policy_handler({}).handle(make("")).message == "there is no content to decode");
}

TEST_CASE("a CREATE without an object says there is no content to decode")
{
    const response res = policy_handler({}).handle(make("CREATE"));
    CHECK(res.code == 400);
    CHECK(res.message == "there is no content to decode");
}

TEST_CASE("an UPDATE without oldObject is answered with 400")
{
    request r = make("UPDATE");
    r.object = json(pp);
    const response res = policy_handler({}).handle(r);
    CHECK(res.code == 400);
    CHECK(res.message == "there is no content to decode");
}

TEST_CASE("an object that is not a JSON object is answered with 400, in apimachinery's words")
{
    request r = make("CREATE");
    r.object = json("[1]");
    const response res = policy_handler({}).handle(r);
    CHECK(res.code == 400);
    CHECK(res.message.starts_with("couldn't get version/kind; json parse error: json: cannot unmarshal array into Go "
                                  "value of type struct { APIVersion string"));
}

TEST_CASE("a kind that is not a policy, or not the path's kind, is answered with 400")
{
    request r = make("CREATE", "Deployment");
    r.kind.group = "apps";
    r.object = json(pp);
    const response res = policy_handler({}).handle(r);
    CHECK(res.code == 400);
    CHECK(res.message == R"(this webhook validates PropagationPolicy or ClusterPropagationPolicy of )"
                         R"(policy.karmada.io, got "apps/v1alpha1, Kind=Deployment")");

    // Karmada's path is one handler: it decodes the object into its own type whatever request.kind says, so a
    // PropagationPolicy sent to the ClusterPropagationPolicy path fails to decode (validating.go Decoder.Decode).
    policy_handler_options only_cpp;
    only_cpp.only_kind = kpw::policy_kind::cluster_propagation_policy;
    request pp_request = make("CREATE");
    pp_request.object = json(pp);
    const response mismatch = policy_handler(only_cpp).handle(pp_request);
    CHECK(mismatch.code == 400);
    CHECK(mismatch.message ==
          "unable to decode policy.karmada.io/v1alpha1, Kind=PropagationPolicy into *v1alpha1.ClusterPropagationPolicy");
}

TEST_CASE("without request.kind the object's apiVersion and kind select the policy kind")
{
    // Unlabelled, so each kind is denied with its own label in the message: the answer names the kind
    // the handler dispatched to.
    const auto object = [](std::string_view kind) {
        return json(R"({"apiVersion":"policy.karmada.io/v1alpha1","kind":")" + std::string(kind) +
                    R"(","metadata":{"name":"nginx"},"spec":{"resourceSelectors":[{"apiVersion":"apps/v1",)"
                    R"("kind":"Deployment","name":"nginx"}],"placement":{},"schedulerName":"default-scheduler"}})");
    };
    using kpw::policy_kind;
    const std::pair<policy_kind, const char*> kinds[] = {{policy_kind::propagation_policy, "PropagationPolicy"},
                                                         {policy_kind::cluster_propagation_policy,
                                                          "ClusterPropagationPolicy"}};
    for (const auto& entry : kinds) {
        const policy_kind kind = entry.first;
        const std::string name = entry.second;
        CAPTURE(name);
        request r = make("CREATE");
        r.kind = {};
        r.object = object(name);
        const auto as = [&](policy_kind k) {
            return kpw::validate_admission(k, kpw::admission_operation::create, r.object, nullptr, r.ns, true, {});
        };
        const auto right = as(kind);
        const auto wrong = as(kind == policy_kind::propagation_policy ? policy_kind::cluster_propagation_policy
                                                                      : policy_kind::propagation_policy);
        REQUIRE(right.result == kpw::admission_verdict::outcome::denied);
        REQUIRE(right.message != wrong.message); // else this test could not tell the two apart
        const response res = policy_handler({}).handle(r);
        CHECK_FALSE(res.allowed);
        CHECK(res.code == 403);
        CHECK(res.message == right.message);
    }
}

TEST_CASE("a CREATE and an identical UPDATE get the validation module's own verdict")
{
    const policy_handler h({});
    request create = make("CREATE");
    create.object = json(pp);
    request update = make("UPDATE");
    update.object = json(pp);
    update.old_object = json(pp);
    for (const request* r : {&create, &update}) {
        CAPTURE(r->operation);
        const auto verdict = direct(*r);
        const response res = h.handle(*r);
        CHECK(res.allowed == (verdict.result == kpw::admission_verdict::outcome::allowed));
        CHECK(res.message == verdict.message);
        if (!res.allowed && verdict.result == kpw::admission_verdict::outcome::denied) {
            CHECK(res.code == 403);
            CHECK(res.reason == "Forbidden");
            CHECK_FALSE(res.causes.empty());
        }
        CHECK(res.warnings.size() <= verdict.warnings.size());
    }
}

TEST_CASE("the permanent-id requirement is passed through to validation")
{
    request r = make("CREATE");
    r.object = json(R"({"apiVersion":"policy.karmada.io/v1alpha1","kind":"PropagationPolicy",
                        "metadata":{"name":"nginx","namespace":"default"},
                        "spec":{"resourceSelectors":[{"apiVersion":"apps/v1","kind":"Deployment"}],
                                "placement":{},"schedulerName":"default-scheduler"}})");
    policy_handler_options relaxed;
    relaxed.require_permanent_id = false;
    CHECK(policy_handler({}).handle(r).message == direct(r, true).message);
    CHECK(policy_handler(relaxed).handle(r).message == direct(r, false).message);
}
