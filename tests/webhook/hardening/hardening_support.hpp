// SPDX-License-Identifier: Apache-2.0
// Hostile-client test helpers: the "still serving" check, reply decoding, raw TCP and metrics reads.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>

#include "doc/value.hpp"
#include "webhook/server/serve_process.hpp"
#include "webhook/server/test_client.hpp"

namespace kpw::test {

// A PropagationPolicy Karmada admits, as its mutating webhook leaves it (permanent-id label set).
extern const std::string_view admitted_pp;

// The decision inside an AdmissionReview reply (allowed=false, code=-1 when the body is not one).
struct decision {
    bool is_review = false;
    std::string uid;
    bool allowed = false;
    std::int64_t code = -1;
    std::string message;
};
decision decode_reply(const response& res);

// The invariant after every hostile case: a new connection gets a normal CREATE review answered
// correctly (HTTP 200, uid echoed, allowed). Returns how long the exchange took.
std::chrono::milliseconds check_still_serving(const serve_process& s, std::string_view uid = "after");

// A connected TLS client (handshake done), or a failed REQUIRE.
std::unique_ptr<tls_client> tls_connect(const serve_process& s);

// A POST of `body` as raw bytes: request line and headers for /validate, then the body.
std::string post_bytes(std::string_view body, std::string_view extra_headers = {});

// One metric sample's value from /metrics (e.g. "karmada_policy_webhook_open_connections"); -1 if absent.
double metric(const serve_process& s, std::string_view sample);

inline constexpr std::string_view open_connections = "karmada_policy_webhook_open_connections";

// The open-connections gauge drops to 0 once the server has let go of every connection it had.
bool all_connections_released(const serve_process& s);

// SIGTERM, and the server exits 0 (a graceful drain).
void stop_gracefully(serve_process& s);

// Plain TCP to 127.0.0.1:port with a deadline on every step (POSIX sockets, no TLS).
class raw_tcp {
public:
    explicit raw_tcp(unsigned short port);
    ~raw_tcp();
    raw_tcp(const raw_tcp&) = delete;
    raw_tcp& operator=(const raw_tcp&) = delete;

    bool connected() const { return fd_ >= 0; }
    bool write(std::string_view bytes);
    // Reads until the peer closes or `timeout` passes; `closed` says which.
    std::string read_until_close(std::chrono::milliseconds timeout, bool& closed);
    void close();

private:
    int fd_ = -1;
};

} // namespace kpw::test
