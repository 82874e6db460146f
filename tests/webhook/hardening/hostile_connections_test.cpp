// SPDX-License-Identifier: Apache-2.0
// Hostile connections: plain HTTP on the TLS port, handshakes abandoned, floods up to the connection cap.
// The server keeps answering, frees every slot, and still exits 0 on SIGTERM. The 300 slowloris clients,
// which need more open files than a hard limit of 1024 allows, are in open_file_limit_test.cpp.
#include <chrono>
#include <csignal>
#include <memory>
#include <thread>
#include <vector>

#include <doctest/doctest.h>

#include "hardening_support.hpp"

using namespace kpw::test;
namespace http = boost::beast::http;

namespace {

constexpr std::string_view rejected_connections = "karmada_policy_webhook_rejected_connections_total";

} // namespace

TEST_CASE("plain HTTP on the TLS port is dropped without an HTTP answer")
{
    serve_process s;
    raw_tcp plain(s.webhook_port());
    REQUIRE(plain.connected());
    REQUIRE(plain.write("POST /validate HTTP/1.1\r\nHost: localhost\r\nContent-Length: 2\r\n\r\n{}"));
    bool closed = false;
    const std::string got = plain.read_until_close(std::chrono::seconds(5), closed);
    CHECK(closed);
    CHECK_FALSE(got.starts_with("HTTP/"));
    CHECK(all_connections_released(s));
    check_still_serving(s);
    stop_gracefully(s);
}

TEST_CASE("abandoned connections: TCP only, half a ClientHello, handshake then close, garbage")
{
    serve_process s;
    // The start of a TLS 1.2 ClientHello record: the server waits for the rest, then the client leaves.
    const std::string half_hello("\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03", 11);
    for (int i = 0; i < 50; ++i) {
        {
            raw_tcp tcp_only(s.webhook_port());
            CHECK(tcp_only.connected());
        }
        {
            raw_tcp half(s.webhook_port());
            CHECK(half.write(half_hello));
        }
        {
            raw_tcp garbage(s.webhook_port());
            CHECK(garbage.write(std::string(4096, static_cast<char>(0xA5 + i))));
        }
        auto tls = tls_connect(s);
        tls->close(); // no close_notify, no request
    }
    CHECK(all_connections_released(s));
    check_still_serving(s);
    stop_gracefully(s);
}

TEST_CASE("clients that leave before their reply is written (close or reset) do not take the server down")
{
    serve_process s;
    const std::string request =
        post_bytes(review("admission.k8s.io/v1", "gone", "CREATE", "PropagationPolicy", admitted_pp));
    // The reply, then close_notify, go to a socket the client has closed: the second write fails
    // with EPIPE, which must be an error for that connection and not SIGPIPE for the process.
    for (int i = 0; i < 100; ++i) {
        auto c = tls_connect(s);
        REQUIRE_FALSE(c->write_raw(request));
        if (i % 2 == 0)
            c->close();
        else
            c->reset();
    }
    CHECK(all_connections_released(s));
    check_still_serving(s);
    stop_gracefully(s);
}

// How long `wait_for_close` (which returns whether the server closed the connection within 10 s)
// took; -1 s when the server did not close it.
template <class Wait>
std::chrono::milliseconds time_to_close(Wait&& wait_for_close)
{
    const auto start = std::chrono::steady_clock::now();
    if (!wait_for_close())
        return std::chrono::seconds(-1);
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start);
}

TEST_CASE("every step has a time limit: silent TCP, half a request, a trickled header, an idle keep-alive")
{
    // The idle limit is longer than the others, so the trickled header shows which one applies.
    serve_process s({"--handshake-timeout=1s", "--read-timeout=1s", "--idle-timeout=3s", "--write-timeout=1s"});
    const auto closed_in_time = [](std::chrono::milliseconds t, std::chrono::seconds limit = std::chrono::seconds(1)) {
        // Not before the limit (it is the deadline that closed it), and not much after.
        CHECK(t >= limit - std::chrono::milliseconds(100));
        CHECK(t < limit + std::chrono::milliseconds(1500));
    };
    SUBCASE("no ClientHello: the handshake timeout")
    {
        raw_tcp silent(s.webhook_port());
        REQUIRE(silent.connected());
        bool closed = false;
        closed_in_time(time_to_close([&] {
            silent.read_until_close(std::chrono::seconds(10), closed);
            return closed;
        }));
    }
    SUBCASE("half a request: the read timeout, and no answer")
    {
        auto c = tls_connect(s);
        REQUIRE_FALSE(c->write_raw("POST /validate HTTP/1.1\r\nHost: localhost\r\nContent-Length: 100\r\n\r\n{"));
        closed_in_time(time_to_close([&] { return c->closed_by_peer(); }));
    }
    SUBCASE("a header trickled a byte every 100 ms: the read timeout counts from the first byte")
    {
        auto c = tls_connect(s);
        const std::string header = "POST /validate HTTP/1.1\r\nHost: localhost\r\nX-Slow: " + std::string(100, 'a');
        const auto start = std::chrono::steady_clock::now();
        std::size_t sent = 0;
        while (sent < header.size() && !c->write_raw(header.substr(sent, 1))) {
            ++sent;
            std::this_thread::sleep_for(std::chrono::milliseconds(100)); // the client's pace, not a wait
        }
        // The server closed the connection after the read timeout (1 s), not the idle one (3 s),
        // long before the header ended.
        const auto took = std::chrono::steady_clock::now() - start;
        CHECK(sent < header.size());
        CHECK(took < std::chrono::milliseconds(2500));
        CHECK(c->closed_by_peer());
    }
    SUBCASE("an idle keep-alive connection: the idle timeout")
    {
        auto c = tls_connect(s);
        const decision d = decode_reply(
            c->post("/validate", review("admission.k8s.io/v1", "then-idle", "CREATE", "PropagationPolicy", admitted_pp)));
        CHECK(d.allowed);
        closed_in_time(time_to_close([&] { return c->closed_by_peer(); }), std::chrono::seconds(3));
    }
    CHECK(all_connections_released(s));
    check_still_serving(s);
    stop_gracefully(s);
}

TEST_CASE("a flood up to the connection cap: beyond it connections close, below it service resumes")
{
    constexpr int cap = 100;
    serve_process s({"--max-connections=" + std::to_string(cap)});
    auto established = tls_connect(s);
    std::vector<std::unique_ptr<raw_tcp>> flood;
    for (int i = 1; i < cap; ++i) // TCP only: each holds a slot until the handshake timeout
        flood.push_back(std::make_unique<raw_tcp>(s.webhook_port()));
    REQUIRE(wait_until([&] { return metric(s, open_connections) == cap; }));

    raw_tcp beyond(s.webhook_port()); // the kernel accepts it, the server closes it at once
    bool closed = false;
    beyond.read_until_close(std::chrono::seconds(5), closed);
    CHECK(closed);
    CHECK(metric(s, rejected_connections) >= 1);
    // A connection made before the flood keeps being served at the cap.
    const decision d = decode_reply(established->post("/validate", review("admission.k8s.io/v1", "held", "CREATE",
                                                                          "PropagationPolicy", admitted_pp)));
    CHECK(d.uid == "held");
    CHECK(d.allowed);

    flood.clear();
    established->close();
    CHECK(all_connections_released(s));
    check_still_serving(s);
    stop_gracefully(s);
}

TEST_CASE("the probe and metrics ports refuse request bodies and cap their connections")
{
    serve_process s;
    // A 7 MiB body announced to /metrics: refused from its header (413), nothing buffered.
    raw_tcp big(s.metrics_port());
    REQUIRE(big.write("GET /metrics HTTP/1.1\r\nHost: localhost\r\nContent-Length: 7340031\r\n\r\n" +
                      std::string(1000, 'x')));
    bool closed = false;
    const std::string answer = big.read_until_close(std::chrono::seconds(5), closed);
    CHECK(answer.starts_with("HTTP/1.1 413"));
    CHECK(closed);

    // 64 idle connections fill the probe ports' cap (accepted in order); the next one is closed.
    std::vector<std::unique_ptr<raw_tcp>> held;
    for (int i = 0; i < 64; ++i)
        held.push_back(std::make_unique<raw_tcp>(s.health_port()));
    raw_tcp beyond(s.health_port());
    closed = false;
    beyond.read_until_close(std::chrono::seconds(5), closed);
    CHECK(closed);
    // The webhook port is not affected, and the probe port serves again once slots are free.
    check_still_serving(s);
    held.clear();
    CHECK(wait_until([&] {
        try {
            return http_get(s.health_port(), "/healthz").result() == http::status::ok;
        } catch (const std::exception&) {
            return false;
        }
    }));
    stop_gracefully(s);
}
