// SPDX-License-Identifier: Apache-2.0
// serve end to end over loopback TLS: admission reviews and the HTTP envelope.
#include <doctest/doctest.h>

#include "doc/load.hpp"
#include "serve_process.hpp"
#include "test_client.hpp"
#include "validate.hpp"

using namespace kpw::test;
namespace http = boost::beast::http;

namespace {

constexpr std::string_view labelled_pp = R"({"apiVersion":"policy.karmada.io/v1alpha1","kind":"PropagationPolicy",
 "metadata":{"name":"nginx","namespace":"default",
  "labels":{"propagationpolicy.karmada.io/permanent-id":"4f3c5a1e-0000-4000-8000-000000000001"}},
 "spec":{"resourceSelectors":[{"apiVersion":"apps/v1","kind":"Deployment","namespace":"default","name":"nginx"}],
  "placement":{"clusterAffinity":{"clusterNames":["member1"]}},"schedulerName":"default-scheduler",
  "conflictResolution":"Abort","preemption":"Never","priority":0}})";

// No permanent-id label: Karmada's validating webhook denies it (validation-rules §6.2).
// (labelled_pp above is what Karmada's mutating webhook stores: label and selector namespace set.)
constexpr std::string_view unlabelled_pp = R"({"apiVersion":"policy.karmada.io/v1alpha1","kind":"PropagationPolicy",
 "metadata":{"name":"nginx","namespace":"default"},
 "spec":{"resourceSelectors":[{"apiVersion":"apps/v1","kind":"Deployment","name":"nginx"}],
  "placement":{},"schedulerName":"default-scheduler"}})";

kpw::doc::value parse(std::string_view text)
{
    auto v = kpw::doc::parse_json(text);
    REQUIRE_MESSAGE(v.ok(), std::string(text.substr(0, 200)));
    return *v;
}

// The `response` object of a reply, after checking the envelope kube-apiserver verifies.
kpw::doc::value reply(const response& res, std::string_view api_version, std::string_view uid)
{
    CHECK(res.result() == http::status::ok);
    CHECK(res[http::field::content_type] == "application/json");
    auto v = parse(res.body());
    CHECK(v.string_at("apiVersion") == api_version);
    CHECK(v.string_at("kind") == "AdmissionReview");
    const auto* r = v.find("response");
    REQUIRE(r);
    CHECK(r->string_at("uid") == uid);
    CHECK(r->find("patch") == nullptr);
    CHECK(r->find("patchType") == nullptr);
    return *r;
}

std::int64_t code_of(const kpw::doc::value& r)
{
    const auto* c = r.find_path({"status", "code"});
    return c ? c->as_int() : -1;
}

kpw::admission_verdict direct_create(std::string_view object)
{
    const auto o = parse(object);
    const auto* meta = o.find("metadata");
    return kpw::validate_admission(kpw::policy_kind::propagation_policy, kpw::admission_operation::create, o, nullptr,
                                   meta ? meta->string_at("namespace") : "", true, {});
}

std::unique_ptr<tls_client> connected(const serve_process& s)
{
    auto c = std::make_unique<tls_client>(s.webhook_port(), tls_client::options{s.bundle().ca_crt});
    REQUIRE_FALSE(c->connect());
    return c;
}

} // namespace

TEST_CASE("reviews on one keep-alive connection: v1, v1beta1, every path, with ?timeout=")
{
    serve_process s;
    tls_client c(s.webhook_port(), {s.bundle().ca_crt});
    REQUIRE_FALSE(c.connect());
    CHECK(c.selected_alpn() == "http/1.1");

    const auto expected = direct_create(labelled_pp);
    const bool allowed = expected.result == kpw::admission_verdict::outcome::allowed;
    CHECK(allowed); // labelled and complete: the allowed path is the one exercised here
    for (const char* api : {"admission.k8s.io/v1", "admission.k8s.io/v1beta1"})
        for (const char* path : {"/validate?timeout=3s", "/validate-propagationpolicy?timeout=10s", "/validate"}) {
            CAPTURE(api);
            CAPTURE(path);
            const auto res = c.post(path, review(api, "uid-create", "CREATE", "PropagationPolicy", labelled_pp));
            CHECK(res.keep_alive());
            const auto r = reply(res, api, "uid-create");
            CHECK(r.find("allowed")->as_bool() == allowed);
            CHECK(code_of(r) == (allowed ? 200 : 403));
        }
}

TEST_CASE("DELETE is allowed and the cluster path refuses a namespaced kind with 400")
{
    serve_process s;
    auto client = connected(s);
    auto& c = *client;
    auto r = reply(c.post("/validate-propagationpolicy", review("admission.k8s.io/v1", "d1", "DELETE", "PropagationPolicy",
                                                                "null", labelled_pp)),
                   "admission.k8s.io/v1", "d1");
    CHECK(r.find("allowed")->as_bool());
    CHECK(code_of(r) == 200);
    r = reply(c.post("/validate-clusterpropagationpolicy",
                     review("admission.k8s.io/v1", "k1", "CREATE", "PropagationPolicy", labelled_pp)),
              "admission.k8s.io/v1", "k1");
    CHECK_FALSE(r.find("allowed")->as_bool());
    CHECK(code_of(r) == 400);
}

TEST_CASE("a policy the validation module denies is answered 403 Forbidden with its message")
{
    serve_process s;
    auto client = connected(s);
    auto& c = *client;
    const auto expected = direct_create(unlabelled_pp);
    const auto r = reply(c.post("/validate", review("admission.k8s.io/v1", "deny-1", "CREATE", "PropagationPolicy",
                                                    unlabelled_pp)),
                         "admission.k8s.io/v1", "deny-1");
    REQUIRE(expected.result == kpw::admission_verdict::outcome::denied);
    REQUIRE(!expected.message.empty());
    CHECK_FALSE(r.find("allowed")->as_bool());
    CHECK(code_of(r) == 403);
    CHECK(r.find_path({"status", "reason"})->text() == "Forbidden");
    CHECK(r.find_path({"status", "message"})->text() == expected.message);
}

TEST_CASE("envelope failures are AdmissionReviews with code 400 over HTTP 200")
{
    serve_process s;
    auto client = connected(s);
    auto& c = *client;
    struct example {
        std::string body, content_type, message_start;
    };
    const example cases[] = {
        {"", "application/json", "request body is empty"},
        {review("admission.k8s.io/v1", "u", "CREATE", "PropagationPolicy", labelled_pp), "text/plain",
         "contentType=text/plain, expected application/json"},
        {"{garbage", "application/json", "couldn't decode the AdmissionReview"},
        // No request: an empty one, whose kind /validate cannot tell (Karmada's paths: no content to decode).
        {R"({"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview"})", "application/json",
         "this webhook validates PropagationPolicy or ClusterPropagationPolicy"},
        {R"({"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","request":{"uid":7}})",
         "application/json", "request.uid must be a string"},
    };
    for (const auto& e : cases) {
        CAPTURE(e.message_start);
        const auto res = c.post("/validate?timeout=3s", e.body, e.content_type);
        const auto r = reply(res, "admission.k8s.io/v1", "");
        CHECK_FALSE(r.find("allowed")->as_bool());
        CHECK(code_of(r) == 400);
        CHECK(r.find_path({"status", "message"})->text().starts_with(e.message_start));
    }
}

TEST_CASE("a 2 MiB UPDATE review is accepted")
{
    serve_process s;
    auto client = connected(s);
    auto& c = *client;
    auto object = parse(labelled_pp);
    auto annotations = kpw::doc::value::mapping();
    annotations.add("blob", kpw::doc::value::string(std::string(1024 * 1024, 'x')));
    object.find("metadata")->add("annotations", std::move(annotations));
    const std::string text = kpw::doc::to_json(object);
    const std::string body = review("admission.k8s.io/v1", "big", "UPDATE", "PropagationPolicy", text, text);
    REQUIRE(body.size() > 2 * 1024 * 1024);
    const auto r = reply(c.post("/validate-propagationpolicy", body), "admission.k8s.io/v1", "big");
    // Read whole and validated: the same verdict as the small policy it wraps.
    CHECK(r.find("allowed")->as_bool());
    CHECK(code_of(r) == 200);
}

TEST_CASE("a body over 7 MiB is refused with 413 before it is sent")
{
    serve_process s;
    auto client = connected(s);
    auto& c = *client;
    REQUIRE_FALSE(c.write_raw("POST /validate HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                              "Content-Length: 7340032\r\n\r\n"));
    response res;
    REQUIRE_FALSE(c.receive(res));
    CHECK(res.result() == http::status::payload_too_large);
    CHECK_FALSE(res.keep_alive());
    const auto v = parse(res.body());
    CHECK(v.find_path({"response", "status", "code"})->as_int() == 413);
    CHECK(v.find_path({"response", "status", "message"})->text() == "request entity is too large; limit is 7340032 bytes");
}

TEST_CASE("unknown paths are 404, other methods 405, oversized headers 431")
{
    serve_process s;
    auto client = connected(s);
    auto& c = *client;
    CHECK(c.post("/mutate-propagationpolicy", "{}").result() == http::status::not_found);
    const auto res = c.get("/validate");
    CHECK(res.result() == http::status::method_not_allowed);
    CHECK(res[http::field::allow] == "POST");
    CHECK(c.get("/readyz").result() == http::status::ok);
    REQUIRE_FALSE(c.write_raw("GET /readyz HTTP/1.1\r\nHost: localhost\r\nX-Big: " + std::string(64 * 1024, 'a') +
                              "\r\n\r\n"));
    response big;
    REQUIRE_FALSE(c.receive(big));
    CHECK(big.result() == http::status::request_header_fields_too_large);
}

TEST_CASE("ALPN: a client offering only h2 or nothing is served HTTP/1.1")
{
    serve_process s;
    for (const auto& offer : {std::vector<std::string>{"h2"}, std::vector<std::string>{}}) {
        tls_client c(s.webhook_port(), {s.bundle().ca_crt, "localhost", offer});
        REQUIRE_FALSE(c.connect());
        CHECK(c.selected_alpn().empty());
        CHECK(c.get("/readyz").result() == http::status::ok);
    }
    tls_client both(s.webhook_port(), {s.bundle().ca_crt, "localhost", {"h2", "http/1.1"}});
    REQUIRE_FALSE(both.connect());
    CHECK(both.selected_alpn() == "http/1.1");
}

TEST_CASE("the served certificate verifies for 127.0.0.1 and not for another name")
{
    serve_process s;
    tls_client ip(s.webhook_port(), {s.bundle().ca_crt, "127.0.0.1"});
    CHECK_FALSE(ip.connect());
    tls_client wrong(s.webhook_port(), {s.bundle().ca_crt, "other.ns.svc"});
    CHECK(wrong.connect());
}
