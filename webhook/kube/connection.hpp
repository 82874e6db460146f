// SPDX-License-Identifier: Apache-2.0
// connection (private to kube/): one keep-alive HTTP/1.1 connection to the API server over Beast, TLS or
// plain, synchronous on a private io_context, with a deadline on every step and the credentials applied.
#pragma once

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "base/result.hpp"
#include "kube/client.hpp"
#include "kube/credentials.hpp"

namespace kpw::kube::detail {

// https://host:port/prefix, split. IPv6 hosts are given without brackets.
struct server_url {
    bool tls = true;
    std::string host, port, prefix; // prefix: "" or "/something" without a trailing '/'
    bool host_is_ip = false;
};
result<server_url> parse_server_url(std::string_view server);

// Percent-encodes a query parameter's value (RFC 3986 unreserved characters stay).
std::string query_escape(std::string_view value);

struct http_reply {
    unsigned status = 0;
    std::string body;
};

// The 200 reply of a streamed GET ended: `ended` is false when `stop` or on_data interrupted it.
struct stream_outcome {
    unsigned status = 0;
    std::string body; // the whole body when status != 200
    bool ended = false;
};

class connection {
public:
    connection(const rest_config& config, const client_options& options);
    ~connection();
    connection(const connection&) = delete;
    connection& operator=(const connection&) = delete;

    // GET `target` (below the server's prefix) and read the whole reply. A 401 invalidates the
    // credentials and retries once when that can help. `what` ("listing clusters.cluster.karmada.io")
    // goes into transport failure messages. Any status is a reply; only transport errors fail.
    result<http_reply> get(const std::string& target, std::string_view what);

    // GET whose 200 body is handed to on_data piece by piece as it arrives (a watch). on_data returns
    // false to stop reading. `stop` is polled at least every 100 ms; the connection is closed after
    // an interrupted stream. `idle` bounds the wait for each piece (its expiry ends the stream as if
    // the server had ended it). on_tick (may be empty) runs every ~100 ms while the body is read.
    result<stream_outcome> stream(const std::string& target, std::string_view what,
                                  const std::function<bool(std::string_view)>& on_data,
                                  const std::atomic<bool>& stop, std::chrono::milliseconds idle,
                                  const std::function<void()>& on_tick);

    // Every operation in progress fails promptly (within ~100 ms) while *flag is true.
    void interrupt_on(const std::atomic<bool>* flag);

    // The kind of the last failure returned.
    error_kind last_kind() const { return last_kind_; }
    // The server as written in the config, for messages.
    const std::string& server() const;

private:
    struct impl;
    std::unique_ptr<impl> impl_;
    error_kind last_kind_ = error_kind::server;
};

} // namespace kpw::kube::detail
