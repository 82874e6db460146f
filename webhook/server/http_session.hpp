// SPDX-License-Identifier: Apache-2.0
// http_session<Derived>: the HTTP/1.1 read -> respond -> write loop shared by TLS and plain sessions.
#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <string>

#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http/empty_body.hpp>
#include <boost/beast/http/parser.hpp>

#include "server/connection_registry.hpp"
#include "server/context_pool.hpp"
#include "server/responder.hpp"

namespace kpw::server {

// CRTP (Beast's advanced_server_flex): Derived supplies stream() (over a tcp_socket), do_eof() and
// enable_shared_from_this.
// All members are touched only on the connection's context thread; stop() is the one thread-safe entry.
// Definitions live in http_session_impl.hpp, instantiated by tls_session.cpp and plain_session.cpp.
template <class Derived>
class http_session : public session_control {
public:
    // Shutdown: an idle connection closes now; a busy one answers with Connection: close first.
    void stop() override;

protected:
    http_session(server_state& state, port_role role, const executor& ex);
    ~http_session() override;

    // The current step (handshake, read, write, shutdown) must end within `d`, or the socket closes.
    void set_deadline(std::chrono::steady_clock::duration d);
    // `ec` as the log should name it: a deadline that closed the socket is a timeout, not a cancel.
    boost::beast::error_code reason(boost::beast::error_code ec) const;

    // Registers with the connection registry (webhook sessions, for the cap and for shutdown).
    void track();
    void do_read();

    server_state& state_;
    boost::beast::flat_buffer buffer_;

private:
    struct active_request {
        webhook_path webhook;
        std::chrono::steady_clock::time_point started;
        bool counted = false; // in the in-flight gauge
    };

    Derived& derived() { return static_cast<Derived&>(*this); }
    void on_header(boost::beast::error_code ec, std::size_t);
    void read_body();
    void on_continue(boost::beast::error_code ec, std::size_t);
    void on_body(boost::beast::error_code ec, std::size_t);
    bool answer_read_error(boost::beast::error_code ec);
    void send(http_response&& res);
    void on_write(bool keep_alive, boost::beast::error_code ec, std::size_t);
    void on_stop();
    void arm_timer(std::chrono::steady_clock::time_point at);
    static void on_timer(std::weak_ptr<Derived> weak, boost::beast::error_code ec);
    bool next_request_started();
    void release_request();

    port_role role_;
    bool tracked_ = false;
    bool idle_ = false;     // waiting for the next request's first bytes
    bool stopping_ = false; // shutdown asked; close after the current exchange
    std::optional<boost::beast::http::request_parser<boost::beast::http::string_body>> parser_;
    std::optional<active_request> request_;
    route route_;
    http_response res_;
    boost::beast::http::response<boost::beast::http::empty_body> continue_;
    // Kept only up to this size: a connection must not hold on to a 3 MiB buffer while idle.
    static constexpr std::size_t spare_body_limit = 64 * 1024;
    std::string spare_body_;

    // One timer per connection instead of Beast's basic_stream timeouts, which arm and cancel a
    // timer around every read and write (an extra wait, cancel and handler per I/O operation).
    // Setting a deadline only stores it; the timer is re-armed only when the new deadline comes
    // before the pending wait, which the timer's step (never more than the read/write timeouts)
    // makes rare: idle 120 s -> read 30 s finds a wait armed at most 30 s ahead.
    boost::asio::basic_waitable_timer<std::chrono::steady_clock, boost::asio::wait_traits<std::chrono::steady_clock>,
                                      executor>
        timer_;
    std::chrono::steady_clock::time_point deadline_{};
    std::chrono::steady_clock::time_point armed_{}; // expiry of the pending wait; {} when none
    bool timed_out_ = false;
};

} // namespace kpw::server
