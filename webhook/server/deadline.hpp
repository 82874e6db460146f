// SPDX-License-Identifier: Apache-2.0
// deadline: the time limit of a connection's current step, on one timer per connection.
#pragma once

#include <chrono>
#include <memory>

#include <boost/asio/basic_waitable_timer.hpp>
#include <boost/system/error_code.hpp>

#include "server/context_pool.hpp"

namespace kpw::server {

// Every step (handshake, idle, read, write, close) gets a limit; past it the connection's socket
// closes, which fails its pending readiness wait and so ends the connection.
//
// Setting a limit only stores it: the timer is re-armed only when the new limit comes before the
// pending wait, which the wait's bounded step makes rare (idle 120 s -> read 30 s finds a wait
// armed at most `max_step` ahead). Beast's basic_stream instead arms and cancels a timer around
// every read and write: an extra wait, cancel and handler per I/O operation.
class deadline {
public:
    using clock = std::chrono::steady_clock;

    // `max_step`: the longest single wait of the timer (the shorter of the read/write timeouts).
    deadline(const executor& ex, clock::duration max_step) : timer_(ex), max_step_(max_step) {}

    // Watch `socket` on behalf of `owner`; the timer holds the owner weakly, so a connection whose
    // I/O has ended is destroyed at once, not kept alive (and counted open) until its timer fires.
    // Call before the first set().
    void watch(std::weak_ptr<void> owner, tcp_socket& socket)
    {
        owner_ = std::move(owner);
        socket_ = &socket;
    }
    // The current step must end within `d`.
    void set(clock::duration d);
    // Whether the limit closed the socket.
    bool expired() const { return expired_; }

private:
    void arm(clock::time_point at);
    void on_timer(boost::system::error_code ec);

    boost::asio::basic_waitable_timer<clock, boost::asio::wait_traits<clock>, executor> timer_;
    clock::duration max_step_;
    std::weak_ptr<void> owner_;
    tcp_socket* socket_ = nullptr;
    clock::time_point limit_{};
    clock::time_point armed_{}; // expiry of the pending wait; {} when none
    bool expired_ = false;
};

} // namespace kpw::server
