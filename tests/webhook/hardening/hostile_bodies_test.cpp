// SPDX-License-Identifier: Apache-2.0
// Hostile request bodies over TLS: each is answered with an AdmissionReview refusing it, and the server
// then answers a normal review correctly on a new connection.
#include <csignal>
#include <vector>

#include <doctest/doctest.h>

#include "hardening_support.hpp"

using namespace kpw::test;
namespace http = boost::beast::http;

namespace {

std::string v1_review(std::string_view uid, std::string_view object)
{
    return review("admission.k8s.io/v1", uid, "CREATE", "PropagationPolicy", object);
}

std::string nested(std::size_t depth, std::string_view open, std::string_view close, std::string_view inner = "1")
{
    std::string out;
    out.reserve(depth * (open.size() + close.size()) + inner.size());
    for (std::size_t i = 0; i < depth; ++i)
        out += open;
    out += inner;
    for (std::size_t i = 0; i < depth; ++i)
        out += close;
    return out;
}

// admitted_pp with `from` replaced by `to` (a wrong type, a huge number, a broken byte).
std::string pp_with(std::string_view from, std::string_view to)
{
    std::string pp(admitted_pp);
    const auto at = pp.find(from);
    REQUIRE(at != std::string::npos);
    return pp.replace(at, from.size(), to);
}

struct hostile_body {
    std::string what;
    std::string body;
    std::int64_t code;      // the AdmissionReview's status.code
    std::string message_has; // part of status.message ("" = any)
};

std::vector<hostile_body> hostile_bodies()
{
    const std::string review_text = v1_review("t", admitted_pp);
    return {
        {"empty", "", 400, "request body is empty"},
        {"not JSON", "<html>hello</html>", 400, "couldn't decode the AdmissionReview: invalid JSON"},
        {"truncated", review_text.substr(0, review_text.size() / 2), 400, "couldn't decode the AdmissionReview"},
        {"10^5 nested arrays", nested(100000, "[", "]"), 400, "nested deeper than"},
        {"10^5 nested objects", nested(100000, "{\"a\":", "}"), 400, "nested deeper than"},
        {"10^5 nested object inside a review", v1_review("deep", nested(100000, "{\"a\":", "}")), 400, "nested deeper than"},
        {"request is a string", R"({"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","request":"x"})", 400,
         "request must be an object"},
        {"uid is a number", R"({"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","request":{"uid":7}})", 400,
         "request.uid must be a string"},
        {"kind is an array", R"({"apiVersion":["admission.k8s.io/v1"],"kind":"AdmissionReview","request":{"uid":"u"}})",
         400, "the AdmissionReview's apiVersion must be a string"},
        {"object is an array", v1_review("arr", "[1,2,3]"), 400, ""},
        {"spec is a string", v1_review("spec", pp_with(R"("spec":{)", R"("spec":"x","other":{)")), 400, ""},
        {"metadata.name is a number", v1_review("name", pp_with(R"("name":"nginx")", R"("name":12)")), 400, ""},
        {"invalid UTF-8", v1_review("utf8", pp_with("nginx", "ngi\xC3\x28nx")), 400, "invalid UTF-8"},
        {"overlong UTF-8 slash", v1_review("overlong", pp_with("nginx", "ng\xC0\xAFinx")), 400, "invalid UTF-8"},
        {"UTF-16 surrogate", v1_review("surrogate", pp_with("nginx", "ng\xED\xA0\x80inx")), 400, "invalid UTF-8"},
        {"NUL byte", v1_review("nul", pp_with("nginx", std::string("ngi\0nx", 6))), 400, "NUL byte"},
        {"huge integer priority", v1_review("int", pp_with(R"("priority":0)", R"("priority":123456789012345678901234567890)")),
         400, ""},
        {"1e400 priority", v1_review("exp", pp_with(R"("priority":0)", R"("priority":1e400)")), 400, ""},
        {"-1e-400 priority", v1_review("tiny", pp_with(R"("priority":0)", R"("priority":-1e-400)")), 400, ""},
        {"a 100k-digit number", v1_review("digits", pp_with(R"("priority":0)", "\"priority\":" + std::string(100000, '9'))),
         400, ""},
    };
}

} // namespace

TEST_CASE("hostile bodies are refused inside an AdmissionReview, and the next review is served")
{
    serve_process s;
    auto conn = tls_connect(s);
    for (const hostile_body& h : hostile_bodies()) {
        CAPTURE(h.what);
        const response res = conn->post("/validate?timeout=10s", h.body);
        CHECK(res.result() == http::status::ok);
        const decision d = decode_reply(res);
        CHECK(d.is_review);
        CHECK_FALSE(d.allowed);
        CHECK(d.code == h.code);
        CHECK_MESSAGE(d.message.find(h.message_has) != std::string::npos, d.message);
        check_still_serving(s);
    }
    s.signal(SIGTERM);
    conn->close();
    CHECK(s.wait_exit() == 0);
}

TEST_CASE("a review whose JSON nests 10^5 levels is refused in well under a second")
{
    serve_process s;
    auto conn = tls_connect(s);
    const std::string body = v1_review("deep", nested(100000, "[", "]"));
    const auto start = std::chrono::steady_clock::now();
    const decision d = decode_reply(conn->post("/validate", body));
    CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(1));
    CHECK(d.code == 400);
    check_still_serving(s);
}

TEST_CASE("escaped control characters in the uid are echoed back intact and the reply stays valid JSON")
{
    serve_process s;
    auto conn = tls_connect(s);
    const decision d = decode_reply(conn->post("/validate", v1_review(R"(a\u0000b\u001f\"c\u2028)", admitted_pp)));
    CHECK(d.is_review);
    CHECK(d.allowed);
    CHECK(d.uid == std::string("a\0b\x1f\"c\xE2\x80\xA8", 9));
}

// 20,000 clusterAffinities terms under two names (~650 KB, within kube-apiserver's 3 MiB): each repeat
// used to carry the whole list's JSON in its error (quadratic: ~13 GB here); the denial is Karmada's one
// line, and it comes back quickly with the server still serving.
TEST_CASE("a policy of 20,000 repeated affinity names is denied in one line, quickly")
{
    serve_process s;
    auto conn = tls_connect(s);
    std::string terms;
    for (int i = 0; i < 20000; ++i)
        terms += std::string(i ? "," : "") + "{\"affinityName\":\"g" + std::to_string(i % 2) + "\",\"clusterNames\":[\"m\"]}";
    std::string object(admitted_pp);
    const std::string single = R"("placement":{"clusterAffinity":{"clusterNames":["member1"]}})";
    object.replace(object.find(single), single.size(), R"("placement":{"clusterAffinities":[)" + terms + "]}");
    const auto start = std::chrono::steady_clock::now();
    const decision d = decode_reply(conn->post("/validate", v1_review("repeats", object)));
    CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(20));
    CHECK_FALSE(d.allowed);
    const std::string_view unique = "each affinity term in a policy must have a unique name";
    const auto first = d.message.find(unique);
    REQUIRE(first != std::string::npos);
    CHECK(d.message.find(unique, first + 1) == std::string::npos);
    check_still_serving(s);
}
