// SPDX-License-Identifier: Apache-2.0
// serve_review: envelope checks in controller-runtime's order and the last-resort catch.
#include "admission/review_endpoint.hpp"

#include <stdexcept>

#include <doctest/doctest.h>

#include "admission/response.hpp"

using namespace kpw::admission;

namespace {

// A handler whose fields say what to return (controller-runtime's fake validator style).
struct fake_handler final : handler {
    response to_return = allowed();
    bool throw_instead = false;
    mutable std::string seen_uid;
    response handle(const request& req) const override
    {
        seen_uid = req.uid;
        if (throw_instead)
            throw std::runtime_error("boom");
        return to_return;
    }
};

constexpr std::string_view good = R"({"apiVersion":"admission.k8s.io/v1beta1","kind":"AdmissionReview",)"
                                  R"("request":{"uid":"abc","operation":"CREATE","object":{}}})";

} // namespace

TEST_CASE("an empty body is answered with code 400 request body is empty")
{
    fake_handler h;
    const auto out = serve_review(h, "application/json", "");
    CHECK(out.res.code == 400);
    CHECK(out.res.message == "request body is empty");
    CHECK(out.body.find(R"("apiVersion":"admission.k8s.io/v1")") != std::string::npos);
    CHECK(h.seen_uid.empty());
}

TEST_CASE("a content type other than application/json is refused with controller-runtime's text")
{
    fake_handler h;
    const auto out = serve_review(h, "text/plain", good);
    CHECK(out.res.code == 400);
    CHECK(out.res.message == "contentType=text/plain, expected application/json");
    // Exact comparison, as controller-runtime does: parameters or another case are refused too.
    CHECK(serve_review(h, "application/json; charset=utf-8", good).res.code == 400);
    CHECK(serve_review(h, "Application/JSON", good).res.code == 400);
    CHECK(serve_review(h, "application/json", good).res.allowed);
}

TEST_CASE("a body of 7 MiB or more is answered with 413")
{
    fake_handler h;
    const std::string big(max_request_bytes, ' ');
    const auto out = serve_review(h, "application/json", big);
    CHECK(out.res.code == 413);
    CHECK(out.res.message == "request entity is too large; limit is 7340032 bytes");
    CHECK(too_large_review().find(R"("code":413)") != std::string::npos);
}

TEST_CASE("garbage is answered with 400 and the handler is not called")
{
    fake_handler h;
    const auto out = serve_review(h, "application/json", "{\"apiVersion\":");
    CHECK(out.res.code == 400);
    CHECK(out.res.message.starts_with("couldn't decode the AdmissionReview: invalid JSON"));
    CHECK(h.seen_uid.empty());
}

TEST_CASE("a decode failure after the uid echoes the uid so the apiserver accepts the answer")
{
    fake_handler h;
    const auto out = serve_review(h, "application/json",
                                  R"({"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","request":{"uid":"u7","name":1}})");
    CHECK(out.res.code == 400);
    CHECK(out.body.find(R"("uid":"u7")") != std::string::npos);
}

TEST_CASE("the handler's decision is sent with the request's apiVersion and uid")
{
    fake_handler h;
    h.to_return = denied("no");
    const auto out = serve_review(h, "application/json", good);
    CHECK(h.seen_uid == "abc");
    CHECK(out.uid == "abc");
    CHECK(out.operation == "CREATE");
    CHECK(out.body == R"({"kind":"AdmissionReview","apiVersion":"admission.k8s.io/v1beta1","response":{"uid":"abc",)"
                      R"("allowed":false,"status":{"metadata":{},"message":"no","reason":"Forbidden","code":403}}})");
}

TEST_CASE("a throwing handler becomes code 500 with the uid echoed")
{
    fake_handler h;
    h.throw_instead = true;
    const auto out = serve_review(h, "application/json", good);
    CHECK_FALSE(out.res.allowed);
    CHECK(out.res.code == 500);
    CHECK(out.res.message == "internal error: boom");
    CHECK(out.body.find(R"("uid":"abc")") != std::string::npos);
}
