// SPDX-License-Identifier: Apache-2.0
// serve operations end to end: probes, metrics, certificate rotation, graceful SIGTERM, flags.
#include <signal.h>

#include <chrono>
#include <fstream>
#include <iterator>

#include <doctest/doctest.h>

#include "serve_process.hpp"
#include "test_client.hpp"

using namespace kpw::test;
namespace http = boost::beast::http;

namespace {

constexpr std::string_view pp = R"({"apiVersion":"policy.karmada.io/v1alpha1","kind":"PropagationPolicy",)"
                                R"("metadata":{"name":"nginx","namespace":"default"},"spec":{}})";

std::string delete_review(std::string_view uid)
{
    return review("admission.k8s.io/v1", uid, "DELETE", "PropagationPolicy", "null", pp);
}

bool has_line(const std::string& text, const std::string& line)
{
    return text.find("\n" + line + "\n") != std::string::npos || text.starts_with(line + "\n");
}

} // namespace

TEST_CASE("healthz and readyz answer on the health port, readyz on the TLS port too")
{
    serve_process s;
    CHECK(http_get(s.health_port(), "/healthz").body() == "ok");
    const auto ready = http_get(s.health_port(), "/readyz");
    CHECK(ready.result() == http::status::ok);
    CHECK(http_get(s.health_port(), "/readyz/").result() == http::status::ok);
    CHECK(http_get(s.health_port(), "/metrics").result() == http::status::not_found);
    tls_client c(s.webhook_port(), {s.bundle().ca_crt});
    REQUIRE_FALSE(c.connect());
    CHECK(c.get("/readyz/").body() == "ok");
}

TEST_CASE("metrics use controller-runtime's names and count what was served")
{
    serve_process s;
    tls_client c(s.webhook_port(), {s.bundle().ca_crt});
    REQUIRE_FALSE(c.connect());
    for (int i = 0; i < 3; ++i)
        CHECK(c.post("/validate-propagationpolicy?timeout=3s", delete_review("m")).result() == http::status::ok);
    CHECK(c.post("/validate", "{").result() == http::status::ok);
    const auto res = http_get(s.metrics_port(), "/metrics");
    CHECK(res.result() == http::status::ok);
    CHECK(res[http::field::content_type] == "text/plain; version=0.0.4; charset=utf-8");
    const std::string& m = res.body();
    CHECK(has_line(m, R"(controller_runtime_webhook_requests_total{code="200",webhook="/validate-propagationpolicy"} 3)"));
    CHECK(has_line(m, R"(controller_runtime_webhook_requests_total{code="200",webhook="/validate"} 1)"));
    CHECK(has_line(m, R"(controller_runtime_webhook_latency_seconds_count{webhook="/validate-propagationpolicy"} 3)"));
    CHECK(has_line(m, R"(controller_runtime_webhook_latency_seconds_bucket{webhook="/validate-propagationpolicy",le="+Inf"} 3)"));
    CHECK(has_line(m, R"(controller_runtime_webhook_requests_in_flight{webhook="/validate"} 0)"));
    CHECK(has_line(m, R"(karmada_policy_webhook_denials_total{reason="BadRequest",webhook="/validate"} 1)"));
    CHECK(has_line(m, "# TYPE controller_runtime_webhook_latency_seconds histogram"));
    CHECK(m.find("karmada_policy_webhook_build_info{version=") != std::string::npos);
    CHECK(has_line(m, "karmada_policy_webhook_open_connections 1"));
}

TEST_CASE("a rotated certificate is served to new connections while old ones keep working")
{
    serve_process s;
    tls_client old_conn(s.webhook_port(), {s.bundle().ca_crt});
    REQUIRE_FALSE(old_conn.connect());
    CHECK(old_conn.peer_certificate_pem() == s.bundle().tls_crt);

    kpw::certs::serving_options leaf;
    leaf.dns_names = {"localhost"};
    auto next = kpw::certs::issue_serving({s.bundle().ca_crt, s.bundle().ca_key}, leaf);
    REQUIRE(next.ok());
    kpw::certs::bundle rotated = s.bundle();
    rotated.tls_crt = next->crt;
    rotated.tls_key = next->key;
    REQUIRE(kpw::certs::write_bundle(rotated, s.cert_dir()).ok());

    const bool picked_up = wait_until([&] {
        tls_client fresh(s.webhook_port(), {s.bundle().ca_crt});
        return !fresh.connect() && fresh.peer_certificate_pem() == next->crt;
    });
    CHECK(picked_up);
    CHECK(old_conn.post("/validate", delete_review("old")).result() == http::status::ok);
    CHECK(has_line(http_get(s.metrics_port(), "/metrics").body(),
                   R"(karmada_policy_webhook_certificate_reloads_total{result="success"} 1)"));
}

TEST_CASE("SIGTERM lets an in-flight request complete, reports not ready, and exits 0")
{
    serve_process s;
    tls_client c(s.webhook_port(), {s.bundle().ca_crt});
    REQUIRE_FALSE(c.connect());
    const std::string body = delete_review("inflight");
    const std::string head = "POST /validate?timeout=3s HTTP/1.1\r\nHost: localhost\r\n"
                             "Content-Type: application/json\r\nContent-Length: " +
                             std::to_string(body.size()) + "\r\n\r\n";
    REQUIRE_FALSE(c.write_raw(head + body.substr(0, 10)));
    // In flight = the server has the header (controller-runtime's gauge semantics).
    REQUIRE(wait_until([&] {
        return has_line(http_get(s.metrics_port(), "/metrics").body(),
                        R"(controller_runtime_webhook_requests_in_flight{webhook="/validate"} 1)");
    }));
    // Idle between requests: may still carry one more request (kube-apiserver may have picked it from its
    // idle pool as serve stopped). Fresh (no request yet): may still send its first one, as with Go's
    // http.Server.Shutdown (a Go client does not retry on a fresh connection). Both get Connection: close.
    tls_client idle(s.webhook_port(), {s.bundle().ca_crt});
    REQUIRE_FALSE(idle.connect());
    REQUIRE(idle.get("/readyz").result() == http::status::ok);
    tls_client fresh(s.webhook_port(), {s.bundle().ca_crt});
    REQUIRE_FALSE(fresh.connect());

    s.signal(SIGTERM);
    CHECK(wait_until([&] { return http_get(s.health_port(), "/readyz").result() == http::status::service_unavailable; }));
    const auto after_stop = idle.post("/validate", delete_review("idle-after-sigterm"));
    CHECK(after_stop.result() == http::status::ok);
    CHECK(after_stop.body().find(R"("uid":"idle-after-sigterm")") != std::string::npos);
    CHECK_FALSE(after_stop.keep_alive());
    REQUIRE_FALSE(c.write_raw(body.substr(10)));
    response res;
    REQUIRE_FALSE(c.receive(res));
    CHECK(res.result() == http::status::ok);
    CHECK(res.body().find(R"("uid":"inflight")") != std::string::npos);
    CHECK_FALSE(res.keep_alive());
    const auto late = fresh.post("/validate", delete_review("fresh-after-sigterm"));
    CHECK(late.result() == http::status::ok);
    CHECK(late.body().find(R"("uid":"fresh-after-sigterm")") != std::string::npos);
    CHECK_FALSE(late.keep_alive());
    // Clients close on "Connection: close" / close_notify; the server's TLS shutdown then completes.
    c.close();
    idle.close();
    fresh.close();
    CHECK(s.wait_exit() == 0);
    CHECK(s.log().find("shutting down") != std::string::npos);
}

TEST_CASE("SIGTERM closes a connection that sends no request 5 s after its accept (idle: after the stop), then exits 0")
{
    serve_process s;
    tls_client fresh(s.webhook_port(), {s.bundle().ca_crt});
    const auto accepted = std::chrono::steady_clock::now();
    REQUIRE_FALSE(fresh.connect());
    tls_client idle(s.webhook_port(), {s.bundle().ca_crt});
    REQUIRE_FALSE(idle.connect());
    REQUIRE(idle.get("/readyz").result() == http::status::ok);
    const auto stopped = std::chrono::steady_clock::now();
    s.signal(SIGTERM);
    CHECK(fresh.closed_by_peer());
    const auto waited = std::chrono::steady_clock::now() - accepted;
    CHECK(waited >= std::chrono::milliseconds(4900)); // not at once: the fresh-connection grace
    CHECK(waited < std::chrono::seconds(20));         // nor the 25 s shutdown grace period
    CHECK(idle.closed_by_peer());
    const auto idle_waited = std::chrono::steady_clock::now() - stopped;
    CHECK(idle_waited >= std::chrono::milliseconds(4900)); // one more request could have come
    CHECK(idle_waited < std::chrono::seconds(20));
    CHECK(s.wait_exit() == 0);
}

TEST_CASE("the connection cap closes connections beyond it")
{
    serve_process s({"--max-connections=1"});
    tls_client first(s.webhook_port(), {s.bundle().ca_crt});
    REQUIRE_FALSE(first.connect());
    CHECK(first.get("/readyz").result() == http::status::ok);
    tls_client second(s.webhook_port(), {s.bundle().ca_crt});
    CHECK(second.connect());
    CHECK(first.get("/readyz").result() == http::status::ok);
}

TEST_CASE("with --client-ca-file a client without a certificate is refused")
{
    temp_dir dir;
    const auto ca = make_test_bundle();
    REQUIRE(kpw::certs::write_bundle(ca, dir.path).ok());
    serve_process s({"--client-ca-file=" + (dir.path / "ca.crt").string()});
    tls_client c(s.webhook_port(), {s.bundle().ca_crt});
    // TLS 1.3: the client finishes its handshake first; the server's alert arrives on the first read.
    response res;
    const bool refused = c.connect() || c.write_raw("GET /readyz HTTP/1.1\r\nHost: x\r\n\r\n") || c.receive(res);
    CHECK(refused);
}

TEST_CASE("with --client-ca-file a client with a certificate from that CA is accepted, one from another CA is not")
{
    temp_dir dir;
    const auto ca = make_test_bundle();
    REQUIRE(kpw::certs::write_bundle(ca, dir.path).ok());
    serve_process s({"--client-ca-file=" + (dir.path / "ca.crt").string()});
    const auto client = issue_client_certificate(ca, "system:kube-apiserver");
    tls_client c(s.webhook_port(), {s.bundle().ca_crt});
    c.present_certificate(client.crt, client.key);
    REQUIRE_FALSE(c.connect());
    const auto res = c.post("/validate", delete_review("mtls"));
    CHECK(res.result() == http::status::ok);
    CHECK(res.body().find(R"("allowed":true)") != std::string::npos);

    // Same client shape, but signed by a CA the server was not given.
    const auto stranger = issue_client_certificate(make_test_bundle(), "stranger");
    tls_client other(s.webhook_port(), {s.bundle().ca_crt});
    other.present_certificate(stranger.crt, stranger.key);
    response refused_res;
    const bool refused = other.connect() || other.write_raw("GET /readyz HTTP/1.1\r\nHost: x\r\n\r\n") ||
                         other.receive(refused_res);
    CHECK(refused);
}

TEST_CASE("--self-signed generates a development CA into an empty cert dir and serves with it")
{
    serve_process s({"--self-signed"}, false);
    const auto ca_file = s.cert_dir() / "ca.crt";
    REQUIRE(std::filesystem::exists(ca_file));
    std::ifstream in(ca_file);
    const std::string ca((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    tls_client c(s.webhook_port(), {ca, "localhost"});
    REQUIRE_FALSE(c.connect());
    CHECK(c.post("/validate", delete_review("dev")).result() == http::status::ok);
    CHECK(s.log().find("ca=" + ca_file.string()) != std::string::npos);
}

TEST_CASE("setup failures exit 2 with a message: missing certificate, bad TLS version, bad address")
{
    temp_dir dir;
    auto [rc, err] = run_binary({"serve", "--cert-dir=" + (dir.path / "none").string(), "--secure-port=0",
                                 "--health-probe-bind-address=0", "--metrics-bind-address=0"},
                                dir.path);
    CHECK(rc == 2);
    CHECK(err.find("cannot load certificate") != std::string::npos);
    std::tie(rc, err) = run_binary({"serve", "--tls-min-version=1.1"}, dir.path);
    CHECK(rc == 2);
    CHECK(err.find("--tls-min-version 1.1 is not supported") != std::string::npos);
    std::tie(rc, err) = run_binary({"serve", "--self-signed", "--cert-dir=" + dir.path.string(),
                                    "--health-probe-bind-address=nohost"},
                                   dir.path);
    CHECK(rc == 2);
    CHECK(err.find("--health-probe-bind-address") != std::string::npos);
}
