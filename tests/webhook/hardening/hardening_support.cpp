// SPDX-License-Identifier: Apache-2.0
// Hostile-client test helpers.
#include "hardening_support.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdlib>

#include <doctest/doctest.h>

#include "doc/load.hpp"

namespace kpw::test {

const std::string_view admitted_pp = R"({"apiVersion":"policy.karmada.io/v1alpha1","kind":"PropagationPolicy",
 "metadata":{"name":"nginx","namespace":"default",
  "labels":{"propagationpolicy.karmada.io/permanent-id":"4f3c5a1e-0000-4000-8000-000000000001"}},
 "spec":{"resourceSelectors":[{"apiVersion":"apps/v1","kind":"Deployment","namespace":"default","name":"nginx"}],
  "placement":{"clusterAffinity":{"clusterNames":["member1"]}},"schedulerName":"default-scheduler",
  "conflictResolution":"Abort","preemption":"Never","priority":0}})";

decision decode_reply(const response& res)
{
    decision d;
    auto v = doc::parse_json(res.body());
    if (!v || v->string_at("kind") != "AdmissionReview")
        return d;
    const doc::value* r = v->find("response");
    if (!r)
        return d;
    d.is_review = true;
    d.uid = r->string_at("uid");
    const doc::value* allowed = r->find("allowed");
    d.allowed = allowed && allowed->is_bool() && allowed->as_bool();
    if (const doc::value* code = r->find_path({"status", "code"}); code && code->is_int())
        d.code = code->as_int();
    if (const doc::value* m = r->find_path({"status", "message"}); m && m->is_string())
        d.message = m->text();
    return d;
}

std::unique_ptr<tls_client> tls_connect(const serve_process& s)
{
    auto c = std::make_unique<tls_client>(s.webhook_port(), tls_client::options{s.bundle().ca_crt});
    REQUIRE_FALSE(c->connect());
    return c;
}

std::chrono::milliseconds check_still_serving(const serve_process& s, std::string_view uid)
{
    const auto start = std::chrono::steady_clock::now();
    auto c = tls_connect(s);
    const auto res =
        c->post("/validate?timeout=10s", review("admission.k8s.io/v1", uid, "CREATE", "PropagationPolicy", admitted_pp));
    const auto took = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start);
    CHECK(res.result() == boost::beast::http::status::ok);
    const decision d = decode_reply(res);
    CHECK(d.is_review);
    CHECK(d.uid == uid);
    CHECK(d.allowed);
    CHECK(d.code == 200);
    return took;
}

std::string post_bytes(std::string_view body, std::string_view extra_headers)
{
    std::string out = "POST /validate?timeout=10s HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n";
    out.append("Content-Length: ").append(std::to_string(body.size())).append("\r\n");
    out.append(extra_headers).append("\r\n").append(body);
    return out;
}

double metric(const serve_process& s, std::string_view sample)
{
    const std::string text = http_get(s.metrics_port(), "/metrics").body();
    std::string key(1, '\n'); // GCC 12 -O3 warns (-Wrestrict) on "\n" + std::string(...)
    key.append(sample).push_back(' ');
    const auto at = text.find(key);
    if (at == std::string::npos)
        return -1;
    return std::strtod(text.c_str() + at + key.size(), nullptr);
}

raw_tcp::raw_tcp(unsigned short port)
{
    fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(port);
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (fd_ >= 0 && ::connect(fd_, reinterpret_cast<const sockaddr*>(&addr), sizeof addr) != 0)
        close();
}

raw_tcp::~raw_tcp()
{
    close();
}

bool raw_tcp::write(std::string_view bytes)
{
    while (fd_ >= 0 && !bytes.empty()) {
        const ssize_t n = ::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        bytes.remove_prefix(static_cast<std::size_t>(n));
    }
    return fd_ >= 0;
}

std::string raw_tcp::read_until_close(std::chrono::milliseconds timeout, bool& closed)
{
    std::string out;
    closed = false;
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (fd_ >= 0) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
        pollfd p{fd_, POLLIN, 0};
        if (left.count() <= 0 || ::poll(&p, 1, static_cast<int>(left.count())) == 0)
            return out;
        char buf[4096];
        const ssize_t n = ::recv(fd_, buf, sizeof buf, 0);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) { // orderly close or reset: either way the server let go
            closed = true;
            return out;
        }
        out.append(buf, static_cast<std::size_t>(n));
    }
    return out;
}

void raw_tcp::close()
{
    if (fd_ >= 0)
        ::close(fd_);
    fd_ = -1;
}

bool all_connections_released(const serve_process& s)
{
    return wait_until([&] { return metric(s, open_connections) == 0; });
}

void stop_gracefully(serve_process& s)
{
    s.signal(SIGTERM);
    CHECK(s.wait_exit() == 0);
}

} // namespace kpw::test
