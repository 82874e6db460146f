// SPDX-License-Identifier: Apache-2.0
// http_session<Transport>: one connection's HTTP/1.1 exchange, driven by socket readiness.
#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <string>

#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http/parser.hpp>

#include "server/connection_registry.hpp"
#include "server/context_pool.hpp"
#include "server/deadline.hpp"
#include "server/reply_batch.hpp"
#include "server/responder.hpp"
#include "server/transport.hpp"

namespace kpw::server {

// The loop (pump) does everything the socket allows without blocking — handshake, reading,
// parsing, answering, writing, pipelined requests — and suspends on one readiness wait only when
// the transport reports it must, or while its reply waits for the context's batch write. A
// keep-alive review costs one read, one write, one read that finds the socket empty and a share
// of one reactor wake-up, where Beast's composed operations over asio::ssl::stream posted a
// handler, and with it a reactor poll, for every step.
//
// All members are touched only on the connection's context thread; stop() is the one thread-safe
// entry. Instantiated for tls_transport (webhook port) and plain_transport (probes, metrics).
template <class Transport>
class http_session final : public session_control,
                           public batched_writer,
                           public std::enable_shared_from_this<http_session<Transport>> {
public:
    http_session(Transport&& transport, port_role role, server_state& state);
    ~http_session() override;

    // Registers the connection (caps, shutdown) and starts on the socket's own context
    // (it was accepted on the listener's thread).
    void run();
    // Shutdown: a busy connection answers with Connection: close first; an idle one may send one more
    // request within 5 s of the stop, a fresh one its first within 5 s of its accept; then they close.
    void stop() override;
    // The reply batch's turn: writes the waiting reply, then goes on reading.
    void write_reply() override;

private:
    enum class phase { handshake, exchange, lingering };
    // What the loop does next: another step, suspend on a readiness wait, suspend until the
    // context writes its batch of replies (reply_batch.hpp), or end the connection.
    enum class step { again, wait_readable, wait_writable, write_with_batch, done };
    // What follows a completely written reply.
    enum class then { read_body, next_request, close };

    struct active_request {
        webhook_path webhook;
        std::chrono::steady_clock::time_point started;
        bool counted = false; // in the in-flight gauge
    };

    void pump();
    step handshake();
    step exchange();
    step write_pending();
    step parse_buffered();
    step read_more();
    step linger();
    step wait_for(io_wait w) const;

    void begin_request();
    void on_header();
    void on_message();
    step on_read_failure(boost::system::error_code ec);
    void send(http_response&& res);
    // Sends close_notify and FIN, then reads and drops what the client still sends (up to a
    // deadline) so that closing does not reset the connection before the client reads the reply.
    step begin_close();
    step drop(const char* what, boost::system::error_code ec);

    void on_ready(boost::system::error_code ec);
    void on_stop();
    bool next_request_started();
    void release_request();
    // Where this connection counts: the webhook port's connections or the probe ports'.
    connection_registry& registry()
    {
        return role_ == port_role::webhook ? state_.connections() : state_.probe_connections();
    }

    Transport transport_;
    server_state& state_;
    port_role role_;
    reply_batch& batch_; // this connection's io_context's
    phase phase_;
    bool idle_ = false;        // no byte of the next request yet
    bool fresh_ = true;        // no request header yet (shutdown lets such a connection be used)
    bool stopping_ = false;    // shutdown asked; close after the current exchange
    bool header_seen_ = false; // on_header ran for the current request
    bool need_input_ = false;  // the parser consumed all it could of buffer_
    bool reply_batched_ = false; // out_ holds a reply that goes out with the context's batch

    boost::beast::flat_buffer buffer_;
    std::optional<boost::beast::http::request_parser<boost::beast::http::string_body>> parser_;
    std::optional<active_request> request_;
    route route_;
    // Kept only up to this size: a connection must not hold on to a 3 MiB buffer while idle.
    static constexpr std::size_t spare_body_limit = 64 * 1024;
    std::string spare_body_;

    std::string out_; // the serialized reply (or 100 Continue) being written
    std::size_t written_ = 0;
    then after_write_ = then::next_request;

    deadline deadline_; // the current step's time limit
    std::chrono::steady_clock::time_point accepted_ = std::chrono::steady_clock::now();
    std::chrono::steady_clock::time_point stopped_at_; // set by on_stop()
};

} // namespace kpw::server
